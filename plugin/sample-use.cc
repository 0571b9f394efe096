/* -fuse-path-profile=FILE where FILE is a sampled profile's line counts
   (`ppprof lines FILE.ppc -o FILE`, tools/sample_views.c): GCC's block
   counts estimated from where the samples fell, AutoFDO's way (Chen,
   Li and Moseley, CGO'16) without its branch records (this machine's
   samples come from a timer, no PMU): a source line's count is the
   largest sample count of its instructions, a block's the largest of its
   statements' lines.  Blocks the samples missed get counts by flow
   conservation where the CFG fixes them (a block runs at least as often
   as the blocks only it leads to, and as the blocks that lead only to
   it), else 1 (ran, not hot: a timer sample misses short code that did
   run).  A branch's probabilities follow its edges' weights (the
   destination's count less what its other, single-successor
   predecessors bring), an unsampled edge of a sampled branch rare, not
   never.  The counts have AutoFDO's quality (profile_count::afdo: not
   precise, so GCC does not move code to the cold section for a low
   count), installed as GCC's profile (PROFILE_READ) for the functions
   the samples saw; the others keep GCC's guess.  Trip counts are not
   known (a loop's header count over its preheader's is made up): the
   driver leaves out -funroll-loops and -fpeel-loops (driver/options.c).

   The pass runs right after the CFG is built, before inlining: a
   function inlined in the trained binary gets the samples of its lines
   from every place it was inlined (the line counts are by the
   innermost inlined line, summed over the program, not by inline
   stack).  Files are matched by their base name and line.  */
#include "plugin.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

/* One sample is SCALE counts: room for the floor below one sample.  */
const uint64_t scale = 1000;
bool tried, is_samples;
std::unordered_map<std::string, uint64_t> line_count;
uint64_t max_line;

std::string
line_key (const char *file, int line)
{
  const char *b = strrchr (file, '/');
  return std::string (b ? b + 1 : file) + ":" + std::to_string (line);
}

/* Reads the file of -fuse-path-profile when it is a line profile:
     ppgcc-sample-lines 1
     line LINE MAX SUM FILE      (per source line)
   true when it is one.  */
bool
load ()
{
  if (tried)
    return is_samples;
  tried = true;
  const std::string &use = ppgcc_opts.use_path;
  if (use.empty ())
    return false;
  FILE *f = fopen (use.c_str (), "r");
  if (!f)
    return false;
  char buf[4096];
  if (!fgets (buf, sizeof buf, f)
      || strncmp (buf, "ppgcc-sample-lines ", 19) != 0)
    {
      fclose (f);
      return false;
    }
  is_samples = true;
  unsigned long nline = 1;
  while (fgets (buf, sizeof buf, f))
    {
      nline++;
      unsigned long line;
      unsigned long long mx, sum;
      int pos = 0;
      if (sscanf (buf, "line %lu %llu %llu %n", &line, &mx, &sum, &pos) != 3
          || !pos)
        {
          if (strncmp (buf, "total ", 6) != 0)
            warning (0, "ppgcc: %s:%lu: not a line of a sampled line "
                     "profile; the rest ignored", use.c_str (), nline);
          if (strncmp (buf, "total ", 6) != 0)
            break;
          continue;
        }
      buf[strcspn (buf, "\n")] = '\0';
      uint64_t &c = line_count[line_key (buf + pos, (int) line)];
      c = MAX (c, (uint64_t) mx);
      max_line = MAX (max_line, (uint64_t) mx);
    }
  fclose (f);
  return true;
}

uint64_t
stmt_count (gimple *s)
{
  if (is_gimple_debug (s))
    return 0;
  location_t loc = gimple_location (s);
  if (loc == UNKNOWN_LOCATION)
    return 0;
  expanded_location x = expand_location (loc);
  if (!x.file)
    return 0;
  auto it = line_count.find (line_key (x.file, x.line));
  return it == line_count.end () ? 0 : it->second;
}

/* Flow conservation where a block's neighbours fix it: lower bounds
   only, raised until nothing changes (or a few rounds).  */
void
conserve (function *fun, std::vector<uint64_t> &c)
{
  for (int round = 0; round < 16; round++)
    {
      bool changed = false;
      basic_block bb;
      FOR_EACH_BB_FN (bb, fun)
        {
          uint64_t out = 0, in = 0;
          edge e;
          edge_iterator ei;
          FOR_EACH_EDGE (e, ei, bb->succs)
            if (e->dest != EXIT_BLOCK_PTR_FOR_FN (fun)
                && single_pred_p (e->dest))
              out += c[e->dest->index];
          FOR_EACH_EDGE (e, ei, bb->preds)
            if (e->src != ENTRY_BLOCK_PTR_FOR_FN (fun)
                && single_succ_p (e->src))
              in += c[e->src->index];
          uint64_t want = MAX (out, in);
          if (want > c[bb->index])
            {
              c[bb->index] = want;
              changed = true;
            }
        }
      if (!changed)
        break;
    }
}

void
ensure_summary ()
{
  if (profile_info)
    return;
  profile_info = XCNEW (gcov_summary);
  profile_info->runs = 1;
  profile_info->sum_max = (gcov_type) (max_line * scale);
}

/* The weight of edge E out of a block by the samples: its destination's
   count, less what the destination's other predecessors that lead only
   to it bring (an if without else: the join block's count less the
   then block's); 0 when unknown.  */
uint64_t
edge_weight (function *fun, edge e, const std::vector<uint64_t> &c)
{
  basic_block d = e->dest;
  if (d == EXIT_BLOCK_PTR_FOR_FN (fun))
    return 0;
  uint64_t w = c[d->index];
  if (single_pred_p (d))
    return w;
  edge p;
  edge_iterator ei;
  FOR_EACH_EDGE (p, ei, d->preds)
    if (p != e && p->src != ENTRY_BLOCK_PTR_FOR_FN (fun)
        && single_succ_p (p->src))
      w = w > c[p->src->index] ? w - c[p->src->index] : 0;
  return w;
}

} // namespace

int
ppgcc_sample_use (function *fun)
{
  if (!load ())
    return -1;
  std::vector<uint64_t> c (last_basic_block_for_fn (fun), 0);
  bool any = false;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    {
      uint64_t n = 0;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
           gsi_next (&gsi))
        n = MAX (n, stmt_count (gsi_stmt (gsi)));
      c[bb->index] = n * scale;
      any |= n > 0;
    }
  if (!any)
    return 0;
  conserve (fun, c);
  ensure_summary ();
  /* Branch probabilities from the samples where a successor has some;
     even where none has.  An unsampled successor of a sampled branch is
     taken as rare, not never (1% of the branch's weight).  */
  FOR_ALL_BB_FN (bb, fun)
    {
      int k = EDGE_COUNT (bb->succs);
      if (k == 0)
        continue;
      edge e;
      edge_iterator ei;
      if (k == 1)
        {
          single_succ_edge (bb)->probability = profile_probability::always ();
          continue;
        }
      uint64_t total = 0;
      FOR_EACH_EDGE (e, ei, bb->succs)
        total += edge_weight (fun, e, c);
      uint64_t rare = MAX (total / 100, (uint64_t) 1), sum = 0;
      FOR_EACH_EDGE (e, ei, bb->succs)
        sum += MAX (edge_weight (fun, e, c), rare);
      FOR_EACH_EDGE (e, ei, bb->succs)
        e->probability
            = total == 0
                  ? profile_probability::guessed_always ().apply_scale (1, k)
                  : profile_probability::probability_in_gcov_type (
                        (gcov_type) MAX (edge_weight (fun, e, c), rare),
                        (gcov_type) sum);
    }
  /* the counts: the samples', at least 1 (ran, not hot); the entry at
     least one sample's worth */
  profile_count max = profile_count::zero ();
  FOR_EACH_BB_FN (bb, fun)
    {
      bb->count = profile_count::from_gcov_type (
          (gcov_type) MAX (c[bb->index], (uint64_t) 1)).afdo ();
      max = max.max (bb->count);
    }
  basic_block first = single_succ (ENTRY_BLOCK_PTR_FOR_FN (fun));
  first->count = profile_count::from_gcov_type (
      (gcov_type) MAX (c[first->index], scale)).afdo ();
  ENTRY_BLOCK_PTR_FOR_FN (fun)->count = first->count;
  EXIT_BLOCK_PTR_FOR_FN (fun)->count = first->count;
  fun->cfg->count_max = max;
  profile_status_for_fn (fun) = PROFILE_READ;
  if (cgraph_node *node = cgraph_node::get (fun->decl))
    node->count = ENTRY_BLOCK_PTR_FOR_FN (fun)->count;
  return 1;
}
