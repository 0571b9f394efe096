/* -fprofile-paths-interesting: the paths a path-spec file names for a
   function (doc/graph-language.md): by Ball-Larus id, by blocks (bb<N>, as
   in the metadata and `ppprof dot`), or by source lines as `ppprof
   report` prints them.  Errors name the file, line and column.  */
#include "plugin.h"

#include "pp/spec.h"

#include <unordered_set>

namespace {

/* The source lines of a path as `ppprof report` lists them
   (tools/profile_set.c, regenerate and add_line): along the path's DAG
   edges, each destination block but EXIT adds its first and then its last
   line; unknown lines (0) and a repeat of the line just added are left
   out.  A `path lines` spec is copied from that list (report --json), so
   it must be matched by the same rule.  */
struct line_matcher
{
  const pp_numbering *n;
  const pp_graph *g;
  const unsigned *lines;
  int num_lines;

  /* The number of spec lines matched after adding LINE to a path that
     matched POS of them, or -1 when the path's lines stop being a prefix
     of the spec's.  */
  int
  add (int pos, unsigned line) const
  {
    if (!line || (pos > 0 && lines[pos - 1] == line))
      return pos;
    if (pos < num_lines && lines[pos] == line)
      return pos + 1;
    return -1;
  }

  /* After taking DAG edge E with POS lines matched.  */
  int
  step (int pos, int e) const
  {
    int v = n->dag[e].dst;
    if (v == n->exit)
      return pos;
    unsigned first, last;
    pp_graph_node_lines (g, v, &first, &last);
    pos = add (pos, first);
    return pos < 0 ? pos : add (pos, last);
  }
};

/* Paths by source line can be very ambiguous (a block with no line of its
   own, several blocks on one line): the search stops after this many DAG
   edges tried, rather than stall the compilation.  */
const unsigned long line_search_limit = 1000000;

/* Adds to IDS the Ball-Larus id of every path of N whose report lines
   (line_matcher) are P's.  A depth-first search over the DAG from ENTRY,
   pruned as soon as the lines so far are no longer a prefix of P's; a
   (node, lines matched) state from which no match was found is not
   explored again.  Returns the number of paths found, or -1 (IDS
   unchanged) when the search was stopped at line_search_limit.  */
long
line_paths (const pp_numbering *n, const pp_graph *g, const pp_spec_path *p,
            std::vector<pp_pathid> &ids)
{
  line_matcher m = { n, g, p->lines, p->num_lines };
  struct frame
  {
    int v, pos;   /* the node reached, with POS spec lines matched */
    int next;     /* the next of out[v] to try */
    bool found;   /* a match below */
  };
  /* Keyed v * WIDTH + POS; no bigger than the steps taken.  */
  uint64_t width = (uint64_t) p->num_lines + 1;
  std::unordered_set<uint64_t> dead;
  std::vector<frame> stack;
  std::vector<int> edges; /* the path to stack.back () */
  std::vector<pp_pathid> matches;
  stack.push_back ({ n->entry, 0, 0, false });
  unsigned long steps = 0;
  while (!stack.empty ())
    {
      frame &f = stack.back ();
      if (f.v == n->exit || f.next >= n->num_out[f.v])
        {
          if (f.v == n->exit && f.pos == p->num_lines)
            {
              matches.push_back (pp_path_bl (n, edges.data (),
                                             (int) edges.size ()));
              f.found = true;
            }
          bool below = f.found;
          if (!below)
            dead.insert ((uint64_t) f.v * width + f.pos);
          stack.pop_back ();
          if (!edges.empty ())
            edges.pop_back ();
          if (below && !stack.empty ())
            stack.back ().found = true;
          continue;
        }
      int e = n->out[f.v][f.next++];
      if (++steps > line_search_limit)
        return -1;
      int pos = m.step (f.pos, e);
      int w = n->dag[e].dst;
      if (pos < 0 || dead.count ((uint64_t) w * width + pos))
        continue;
      edges.push_back (e);
      stack.push_back ({ w, pos, 0, false });
    }
  ids.insert (ids.end (), matches.begin (), matches.end ());
  return (long) matches.size ();
}

/* "3 4 7" for the message about a line path.  */
std::string
lines_text (const pp_spec_path *p)
{
  std::string s;
  char buf[16];
  for (int j = 0; j < p->num_lines; j++)
    {
      snprintf (buf, sizeof buf, "%s%u", j ? " " : "", p->lines[j]);
      s += buf;
    }
  return s;
}

} // namespace

void
ppgcc_spec_paths (const pp_spec *spec, const char *name, uint32_t checksum,
                  const ppgcc_cfg &cfg, const pp_numbering *n,
                  std::vector<pp_pathid> &ids)
{
  char err[512];
  for (int i = 0; spec && i < spec->num_fns; i++)
    {
      const pp_spec_function *sf = &spec->fns[i];
      if (!sf->name || strcmp (sf->name, name) != 0)
        continue;
      if (sf->has_checksum && sf->checksum != checksum)
        {
          if (warn_coverage_mismatch)
            warning (0,
                   "ppgcc: %s:%d: the paths given for %qs are for another "
                   "CFG (checksum 0x%x, the function has 0x%x); ignored",
                   spec->filename, sf->line, name, sf->checksum, checksum);
          continue;
        }
      for (int k = 0; k < sf->num_paths; k++)
        {
          const pp_spec_path *p = &sf->paths[k];
          if (p->kind == PP_SPEC_PATH_ID)
            {
              if (p->id >= n->num_paths)
                error ("ppgcc: %s:%d:%d: path id %llu of %qs is out of "
                       "range: it has %llu paths", spec->filename, p->line,
                       p->col, (unsigned long long) p->id, name,
                       (unsigned long long) n->num_paths);
              else
                ids.push_back (p->id);
              continue;
            }
          if (p->kind == PP_SPEC_PATH_LINES)
            {
              /* Every path with these lines: one source line may hold
                 several paths (a ?: or && within a line).  */
              long found = line_paths (n, cfg.graph, p, ids);
              if (found < 0)
                error ("ppgcc: %s:%d:%d: lines %s match too many paths of "
                       "%qs (search stopped after %lu steps); give blocks "
                       "or path ids", spec->filename, p->line, p->col,
                       lines_text (p).c_str (), name, line_search_limit);
              else if (found == 0)
                error ("ppgcc: %s:%d:%d: no path of %qs runs through lines "
                       "%s", spec->filename, p->line, p->col, name,
                       lines_text (p).c_str ());
              continue;
            }
          if (p->kind != PP_SPEC_PATH_NODES || !sf->graph)
            continue; /* a path by nodes comes with its graph */
          /* Blocks by name (bb<N>, as in the metadata and `ppprof dot`).  */
          std::vector<int> nodes;
          for (int j = 0; j < p->num_nodes; j++)
            {
              const char *bb = pp_graph_node_name (sf->graph, p->nodes[j]);
              int v = pp_graph_find_node (cfg.graph, bb);
              if (v < 0)
                {
                  error ("ppgcc: %s:%d:%d: %qs has no block %qs",
                         spec->filename, p->line, p->col, name, bb);
                  nodes.clear ();
                  break;
                }
              nodes.push_back (v);
            }
          if (nodes.empty ())
            continue;
          int *edges;
          int len = pp_path_from_nodes (n, nodes.data (), nodes.size (),
                                        &edges, err, sizeof err);
          if (len < 0)
            {
              error ("ppgcc: %s:%d:%d: %s", spec->filename, p->line, p->col,
                     err);
              continue;
            }
          ids.push_back (pp_path_bl (n, edges, len));
          free (edges);
        }
    }
}

