/* -fuse-path-profile=FILE where FILE is a sampled profile's counts by
   source location (`ppprof lines FILE.ppc -o FILE`,
   tools/sample_blocks.c): GCC's block counts estimated from where the
   samples fell, AutoFDO's way (Chen, Li and Moseley, CGO'16) without its
   branch records (this machine's samples come from a timer, no PMU).
   ppprof gives each location (line and discriminator) the sample rate
   of its machine blocks; a GIMPLE block takes its discriminator's
   count, or its line's where the training binary lost the
   discriminator, the median over its statements.  Blocks the samples
   missed get counts by flow conservation where the CFG fixes them (a
   block runs at least as often as the blocks only it leads to, and as
   the blocks that lead only to it), else a floor (ran, not hot: a timer
   sample misses short code that did run).  A branch's probabilities
   follow its edges' weights (the destination's count less what its
   other, single-successor predecessors bring), an unsampled edge of a
   sampled branch rare, not never.  The counts have AutoFDO's quality
   (profile_count::afdo: not precise, so GCC does not move code to the
   cold section for a low count), installed as GCC's profile
   (PROFILE_READ) for the functions the samples saw; the others keep
   GCC's guess.  Trip counts are not known (a loop's header count over
   its preheader's is an estimate): the driver leaves out -funroll-loops
   (driver/options.c).  A sampled function with a computed goto is
   compiled without cross-jumping and global CSE (path-opt.cc).

   Measured on bzip2 and lua (bench/sampled's training, callgrind
   instructions of the recompile): the line's largest sample count as
   its count kept -15% and 28% of -fprofile-use's reduction; block
   rates by line 20-28% and 50-52%; exact discriminators alone lost
   again (bzip2 507-515 M against 499 M at -O2); with the line where the
   discriminator is missing and the median per block, as here, 30-36%
   and 50%.
   Counts by minimum-cost flow instead (POPL'22's profi: the
   flow-conserving counts closest to the readings, raising costing 10,
   lowering 20) were measured on three saved training profiles each:
   bzip2 476.7, 491.6, 496.0 M against 491.3, 481.7, 495.5 M from the
   bounds below, lua 630.5-632.6 M against 619.4-624.4 M (its
   luaV_execute 8 M more every time), so not kept.  Where the training
   build gave a statement's line no instruction (bzip2's `unLo++` in
   mainQSort3, merged into a block of another line), the flow is free to
   route around the block, and the partition loop's branches came out
   99% one way where they go 31% and 43%.  Lua's shortfall was
   luaV_execute alone (237 M sampled against 224 M from -fprofile-use's
   counts): its dispatch cost two instructions more a bytecode, an
   address computation RTL PRE left in every copy and the jump table's
   address out of a register; without global CSE for it (path-opt.cc)
   229 M.  A higher floor for unsampled blocks (0.1 sample an
   instruction) moved lua by 0-3.5 M and bzip2 by about 1 M, and in
   luaV_execute alone half its lowest reading moved lua by 2 M either
   way.

   What this route can reach, apart from what the timer misreads
   (bench/sampled's "exact" rows: the training run's gcov line counts in
   place of the samples): bzip2 487.1 M (30% of -fprofile-use's
   reduction, 459.0 M), 472.3 M with -funroll-loops.  With each loop's
   trip count also recorded for GCC (record_niter_bound of its header
   count over its entry count, what GCC's own profile reader does; it
   does not derive it from counts of afdo quality) 465.1 M, 85%.  The
   same trip counts from three sampled profiles made bzip2 worse
   (492-510 M against 472-487 M without), and -funroll-loops on the
   samples' counts gave bzip2 476-482 M and cost lua about 5 M: loop
   entries are rare, short code, where the timer's readings are noise.
   So bzip2's shortfall is the trip counts and loop-branch ratios that
   timer samples without branch records cannot give, not this
   inference.

   The pass runs right after the CFG is built, before inlining, when
   GCC has just numbered the discriminators as the training build did: a
   function inlined in the trained binary gets the samples of its lines
   from every place it was inlined (summed over the program, not by
   inline stack).  Files are matched by their base name and line.  */
#include "plugin.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

/* Counts in millionths of a sample per instruction (format 1: of a
   sample), so that a block the samples missed can count FLOOR, far
   below any sampled block, and still not round to zero where GCC scales
   it by a branch's probability: GCC 12's profile_count::apply_scale
   divides by a zero count that is not of precise quality (the
   vectorizer's peeling of a loop whose preheader counted 0 raised SIGFPE
   in cc1 on bzip2's huffman.c).  */
const uint64_t one_sample = 1000000, floor_count = 1000;
bool tried, is_samples, by_discriminator;
std::unordered_map<std::string, uint64_t> line_count, line_max;
uint64_t max_line;

std::string
line_key (const char *file, int line, unsigned long disc)
{
  const char *b = strrchr (file, '/');
  return std::string (b ? b + 1 : file) + ":" + std::to_string (line) + "."
         + std::to_string (disc);
}

/* Reads the file of -fuse-path-profile when it is a line profile, true
   when it is one:
     ppgcc-sample-lines 2
     line LINE DISCRIMINATOR RATE FILE   (per source location)
   or format 1 (no discriminators: "line LINE MAX SUM FILE").  */
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
  int version = 0;
  if (!fgets (buf, sizeof buf, f)
      || sscanf (buf, "ppgcc-sample-lines %d", &version) != 1)
    {
      fclose (f);
      return false;
    }
  is_samples = true;
  if (version != 1 && version != 2)
    {
      warning (0, "ppgcc: %s: line profile format %d, not 1 or 2, perhaps from a "
               "newer ppprof; not used", use.c_str (), version);
      fclose (f);
      line_count.clear ();
      return true;
    }
  by_discriminator = version == 2;
  unsigned long nline = 1;
  while (fgets (buf, sizeof buf, f))
    {
      nline++;
      unsigned long line, disc = 0;
      unsigned long long count, sum;
      int pos = 0, ok
          = version == 2
                ? sscanf (buf, "line %lu %lu %llu %n", &line, &disc, &count,
                          &pos) == 3
                : sscanf (buf, "line %lu %llu %llu %n", &line, &count, &sum,
                          &pos) == 3;
      if (!ok || !pos)
        {
          if (strncmp (buf, "total ", 6) == 0)
            continue;
          warning (0, "ppgcc: %s:%lu: not a line of a sampled line "
                   "profile; the rest ignored", use.c_str (), nline);
          break;
        }
      buf[strcspn (buf, "\n")] = '\0';
      /* format 1 counts whole samples, format 2 thousandths */
      /* a count no profile can hold (sscanf saturates, a file may say
         anything) is clamped, far under gcov_type's and profile_count's
         range: a billion samples on one instruction */
      uint64_t n = MIN ((uint64_t) count, (uint64_t) 1 << 40)
                   * (version == 2 ? one_sample / 1000 : one_sample);
      uint64_t &c = line_count[line_key (buf + pos, (int) line, disc)];
      c = MAX (c, n);
      uint64_t &l = line_max[line_key (buf + pos, (int) line, 0)];
      l = MAX (l, n);
      max_line = MAX (max_line, n);
    }
  fclose (f);
  return true;
}

/* Statement S's count into *N; false when the profile says nothing of
   its location.  Format 2 lists every location of the sampled
   functions' machine code, sampled or not: a location it lacks is one
   GCC merged away in the training build.  */
bool
stmt_count (gimple *s, uint64_t *n)
{
  if (is_gimple_debug (s))
    return false;
  location_t loc = gimple_location (s);
  if (loc == UNKNOWN_LOCATION)
    return false;
  expanded_location x = expand_location (loc);
  if (!x.file)
    return false;
  if (by_discriminator)
    {
      auto it = line_count.find (
          line_key (x.file, x.line, ppgcc_stmt_discriminator (s)));
      if (it != line_count.end ())
        {
          *n = it->second;
          return true;
        }
    }
  /* the line's count: format 1, or a block whose discriminator the
     training binary's line table does not have (GCC merged the block
     into another: the twelve `return (c1 > c2);` of bzip2's mainGtU
     end in one machine block, under one line and discriminator) */
  auto it = line_max.find (line_key (x.file, x.line, 0));
  if (it == line_max.end ())
    return false;
  *n = it->second;
  return true;
}

/* Whether FUN has a computed goto (an interpreter's dispatch).  */
bool
has_computed_goto (function *fun)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    {
      gimple *last = last_stmt (bb);
      if (last && gimple_code (last) == GIMPLE_GOTO
          && TREE_CODE (gimple_goto_dest (last)) != LABEL_DECL)
        return true;
    }
  return false;
}

/* Flow conservation where a block's neighbours fix it: lower bounds
   only, raised until nothing changes (or a few rounds).  A block the
   samples saw is raised to at most twice its own reading: a location
   whose machine code the training build shares with hotter code reads
   high, and raising every block above it to its count spreads the error
   up the function.  bzip2's mainGtU: the block before its loop
   (`k = nblock + 8`, computed inside the loop by the training build) read
   the loop's rate, 472 samples an instruction against 4.4 for the block
   before it, and its twelve compares above it rose to the loop's count
   (the entry 674 M where 58 M ran): GCC split none of it off to inline.
   Capped, bench/sampled's bzip2 recompile ran 485-497 M instructions
   against 501-502 M (three training profiles; -O2 499 M).  */
void
conserve (function *fun, std::vector<uint64_t> &c)
{
  const std::vector<uint64_t> read = c;
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
          if (read[bb->index] && want / 2 > read[bb->index])
            want = 2 * read[bb->index];
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
  profile_info->sum_max = (gcov_type) max_line;
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
      std::vector<uint64_t> v;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
           gsi_next (&gsi))
        {
          uint64_t k;
          if (stmt_count (gsi_stmt (gsi), &k))
            v.push_back (k);
        }
      /* the median of its statements' locations: a location whose
         machine code is shared with hotter code, or slow, reads high */
      uint64_t n = 0;
      if (!v.empty ())
        {
          std::sort (v.begin (), v.end ());
          n = v[(v.size () - 1) / 2];
        }
      c[bb->index] = n;
      any |= n > 0;
    }
  if (!any)
    return 0;

  conserve (fun, c);
  ensure_summary ();
  if (has_computed_goto (fun))
    ppgcc_no_crossjumping.push_back (fun->decl);
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
      uint64_t rare = MAX (total / 100, floor_count), sum = 0;
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
  /* the counts: the samples', at least FLOOR_COUNT (ran, not hot) */
  profile_count max = profile_count::zero ();
  FOR_EACH_BB_FN (bb, fun)
    {
      bb->count = profile_count::from_gcov_type (
          (gcov_type) MAX (c[bb->index], floor_count)).afdo ();
      max = max.max (bb->count);
    }
  basic_block first = single_succ (ENTRY_BLOCK_PTR_FOR_FN (fun));
  first->count = profile_count::from_gcov_type (
      (gcov_type) MAX (c[first->index], floor_count)).afdo ();
  ENTRY_BLOCK_PTR_FOR_FN (fun)->count = first->count;
  EXIT_BLOCK_PTR_FOR_FN (fun)->count = first->count;
  fun->cfg->count_max = max;
  profile_status_for_fn (fun) = PROFILE_READ;
  if (cgraph_node *node = cgraph_node::get (fun->decl))
    node->count = ENTRY_BLOCK_PTR_FOR_FN (fun)->count;
  /* hot, normal or unlikely by the counts: GCC 12 works it out again
     later on its own, GCC 14 does not (its dumps showed the sampled
     functions without "(hot)") */
  if (fun == cfun)
    compute_function_frequency ();
  return 1;
}
