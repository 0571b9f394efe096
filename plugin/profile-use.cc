/* -fuse-path-profile: the profile in use, and the interesting paths that
   preferential and residual profiling number compactly.

   The profile is found the way -fprofile-use finds .gcda files: with no
   PATH, the object's own <object>.ppd (where the training run wrote it);
   with a directory, <dir>/<absolute object path>.ppd (the PPGCC_PREFIX
   layout of field runs) or else <dir>/<object basename>.ppd; with a file,
   that file (typically merged by `ppprof merge`).  Functions are matched by
   assembler name and CFG checksum.  A missing profile is a note; a bad one
   a warning; neither stops the compilation: the functions concerned are
   profiled with plain Ball-Larus numbering.

   The interesting paths (thesis §3.5.1) are the Ball-Larus ids the profile
   ran, restricted to the hottest ones covering P% of the function's path
   executions with -fprofile-paths-hot=P, plus the paths a
   -fprofile-paths-interesting spec file names.  */
#include "plugin.h"

#include "pp/ppd.h"
#include "pp/spec.h"

#include <algorithm>
#include <sys/stat.h>

namespace {

ppd_profile profile;
bool profile_tried, have_profile;
pp_spec *spec;

bool
is_directory (const std::string &p)
{
  struct stat st;
  return stat (p.c_str (), &st) == 0 && S_ISDIR (st.st_mode);
}

bool
exists (const std::string &p)
{
  struct stat st;
  return stat (p.c_str (), &st) == 0;
}

std::string
profile_file ()
{
  std::string own = ppgcc_ppd_path ();
  const std::string &use = ppgcc_opts.use_path;
  if (use.empty ())
    return own;
  if (!is_directory (use))
    return use;
  std::string in_tree = use + own; /* own is absolute */
  if (exists (in_tree))
    return in_tree;
  size_t slash = own.rfind ('/');
  return use + "/" + own.substr (slash == std::string::npos ? 0 : slash + 1);
}

void
load ()
{
  if (profile_tried)
    return;
  profile_tried = true;
  if (ppgcc_opts.use_profile)
    {
      std::string path = profile_file ();
      const char *why = "";
      int rc = ppd_read_file (path.c_str (), &profile, &why);
      if (rc == 0)
        have_profile = true;
      else if (rc > 0)
        inform (UNKNOWN_LOCATION,
                "ppgcc: no path profile %qs; the functions of %qs are "
                "profiled with Ball-Larus numbering", path.c_str (),
                main_input_filename);
      else
        warning (0, "ppgcc: path profile %qs ignored: %s", path.c_str (),
                 why);
    }
  if (!ppgcc_opts.interesting.empty ())
    {
      char err[512];
      spec = pp_spec_parse_file (ppgcc_opts.interesting.c_str (), err,
                                 sizeof err);
      if (!spec)
        error ("ppgcc: %s", err);
    }
}

/* The profile's record of NAME, or null; *MISMATCH when there is one for
   another CFG.  */
const ppd_fn *
lookup (const char *name, uint32_t checksum, bool *mismatch, uint32_t *other)
{
  *mismatch = false;
  for (uint32_t i = 0; i < profile.nfns; i++)
    if (!strcmp (profile.fns[i].name, name))
      {
        if (profile.fns[i].checksum == checksum)
          return &profile.fns[i];
        *mismatch = true;
        *other = profile.fns[i].checksum;
      }
  return nullptr;
}

/* The executed paths of F, the hottest first until they cover the
   -fprofile-paths-hot share of F's path executions.  */
void
executed_paths (const ppd_fn *f, const pp_numbering *n,
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

/* Edge counts from F's path counts, as the CFG's edge weights: counter
   placement then puts the increments on the edges the training run took
   least (Ball and Larus' placement with an edge profile; thesis §3.6
   "Counter optimizations").  */
void
set_edge_weights (const ppd_fn *f, const ppgcc_cfg &cfg,
                  const pp_numbering *n)
{
  std::vector<double> w (pp_graph_num_edges (cfg.graph), 0.0);
  for (uint64_t k = 0; k < f->npairs; k++)
    {
      int *edges;
      int len = pp_regenerate (n, f->pairs[k].id, &edges);
      for (int i = 0; i < len; i++)
        {
          const pp_dag_edge *de = &n->dag[edges[i]];
          if (de->kind == PP_DAG_REAL)
            w[de->cfg_edge] += (double) f->pairs[k].count;
        }
      if (len >= 0)
        free (edges);
    }
  for (size_t e = 0; e < w.size (); e++)
    pp_graph_set_edge_weight (cfg.graph, (int) e, w[e]);
}

/* The paths the spec file names for NAME.  */
void
spec_paths (const char *name, uint32_t checksum, const ppgcc_cfg &cfg,
            const pp_numbering *n, std::vector<pp_pathid> &ids)
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
          if (p->kind != PP_SPEC_PATH_NODES || !sf->graph)
            {
              error ("ppgcc: %s:%d:%d: paths by source line are not "
                     "supported here; give blocks or a path id",
                     spec->filename, p->line, p->col);
              continue;
            }
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

} // namespace

bool
ppgcc_interesting_paths (function *fun, const char *name, uint32_t checksum,
                         const ppgcc_cfg &cfg, const pp_numbering *n,
                         std::vector<pp_pathid> &ids)
{
  load ();
  if (!have_profile && !spec)
    return false;
  if (have_profile)
    {
      bool mismatch;
      uint32_t other = 0;
      const ppd_fn *f = lookup (name, checksum, &mismatch, &other);
      if (mismatch)
        {
          if (warn_coverage_mismatch)
            warning_at (DECL_SOURCE_LOCATION (fun->decl), 0,
                      "ppgcc: the path profile of %qs does not match its "
                      "control flow (CFG checksum 0x%x, profile 0x%x): "
                      "profiled with Ball-Larus numbering instead",
                      name, checksum, other);
          return false;
        }
      /* Not in the profile: it never ran in training (or is new).  */
      if (f)
        {
          executed_paths (f, n, ids);
          set_edge_weights (f, cfg, n);
        }
    }
  spec_paths (name, checksum, cfg, n, ids);
  std::sort (ids.begin (), ids.end ());
  ids.erase (std::unique (ids.begin (), ids.end ()), ids.end ());
  return true;
}
