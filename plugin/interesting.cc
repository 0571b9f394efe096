/* The interesting paths that preferential and residual profiling number
   compactly (thesis §3.5.1): the Ball-Larus ids the profile in use ran,
   restricted to the hottest ones covering P% of the function's path
   executions with -fprofile-paths-hot=P, plus the paths a
   -fprofile-paths-interesting spec file names (spec-paths.cc).  */
#include "plugin.h"

#include "pp/ppd.h"

#include <algorithm>

/* The executed paths of F, the hottest first until they cover the
   -fprofile-paths-hot share of F's path executions.  */
void
ppgcc_hottest_paths (const ppd_fn *f, const pp_numbering *n,
                     std::vector<pp_pathid> &ids)
{
  std::vector<ppd_pair> run;
  unsigned __int128 total = 0;
  for (uint64_t k = 0; k < f->npairs; k++)
    if (f->pairs[k].count && f->pairs[k].id < n->num_paths)
      {
        run.push_back (f->pairs[k]);
        total += f->pairs[k].count;
      }
  if (ppgcc_opts.hot < 100)
    std::stable_sort (run.begin (), run.end (),
                      [] (const ppd_pair &a, const ppd_pair &b) {
                        return a.count > b.count;
                      });
  unsigned __int128 covered = 0;
  for (const ppd_pair &p : run)
    {
      if (ppgcc_opts.hot < 100
          && (double) covered >= ppgcc_opts.hot / 100 * (double) total)
        break;
      ids.push_back (p.id);
      covered += p.count;
    }
}

namespace {

/* Edge counts from F's path counts (lib/counts.c) as the CFG's edge
   weights: counter placement then puts the increments on the edges the
   training run took least (Ball and Larus' placement with an edge
   profile; thesis §3.6 "Counter optimizations").  */
void
set_edge_weights (const ppd_fn *f, const ppgcc_cfg &cfg,
                  const pp_numbering *n)
{
  std::vector<pp_pathid> ids;
  std::vector<uint64_t> counts;
  ppgcc_executed_paths (f, n, ids, counts);
  ppgcc_counts c;
  if (!ppgcc_cfg_counts (cfg, n, ids, counts, c))
    return;
  for (int e = 0; e < pp_graph_num_edges (cfg.graph); e++)
    pp_graph_set_edge_weight (cfg.graph, e, (double) c.edge[e]);
}

} // namespace

bool
ppgcc_interesting_paths (function *fun, const char *name, uint32_t checksum,
                         const ppgcc_cfg &cfg, const pp_numbering *n,
                         std::vector<pp_pathid> &ids)
{
  bool missing;
  bool have_profile = ppgcc_profile_in_use (&missing);
  const pp_spec *spec = ppgcc_interesting_spec ();
  /* No profile for the object: for residual profiling, none of its paths
     ran in training (a test suite that never reached it); else there is
     nothing to prefer.  */
  bool untrained = missing && ppgcc_opts.mode == PPGCC_MODE_RESIDUAL;
  if (!have_profile && !spec && !untrained)
    return false;
  if (have_profile)
    {
      bool mismatch;
      const ppd_fn *f = ppgcc_profile_function (fun, name, checksum,
                                                &mismatch);
      if (mismatch)
        return false;
      /* Not in the profile: it never ran in training (or is new).  */
      if (f)
        {
          ppgcc_hottest_paths (f, n, ids);
          set_edge_weights (f, cfg, n);
        }
    }
  if (spec)
    ppgcc_spec_paths (spec, name, checksum, cfg, n, ids);
  std::sort (ids.begin (), ids.end ());
  ids.erase (std::unique (ids.begin (), ids.end ()), ids.end ());
  return true;
}
