/* -fuse-path-profile with a context profile: the program's .ppc that a
   -fprofile-paths=cct training run writes (paths per calling context,
   PLDI'97 §4), read beside the unit's path profile.

   A cct build's .ppd lists its functions but counts nothing: the counts
   are in the .ppc, per context.  The .ppc files in the directory of the
   .ppd read, and in the -fuse-path-profile directory, whose functions
   include this unit's, are read; a function the .ppd has without counts
   gets the sum of its contexts' (ppgcc_context_fill), and
   context-clone.cc asks for its contexts by caller
   (ppgcc_contexts_by_caller).  */
#include "plugin.h"

#include "pp/ppc.h"
#include "pp/rt_abi.h"

#include <algorithm>
#include <dirent.h>
#include <map>
#include <memory>

namespace {

std::vector<std::unique_ptr<ppc_profile> > files;
bool files_read;

bool
ends_with (const std::string &s, const char *tail)
{
  size_t n = strlen (tail);
  return s.size () >= n && s.compare (s.size () - n, n, tail) == 0;
}

/* Whether context profile P has functions of this unit.  */
bool
of_this_unit (const ppc_profile *p)
{
  const char *unit = main_input_filename ? main_input_filename : "";
  for (uint32_t i = 0; i < p->nfns; i++)
    if (p->fns[i].source && ppgcc_common_tail (p->fns[i].source, unit) > 0)
      return true;
  return false;
}

/* Reads the .ppc files of DIR not in SEEN.  */
void
read_dir (const std::string &dir, std::vector<std::string> &seen)
{
  DIR *d = opendir (dir.c_str ());
  if (!d)
    return;
  std::vector<std::string> names;
  while (struct dirent *e = readdir (d))
    if (ends_with (e->d_name, ".ppc"))
      names.push_back (dir + "/" + e->d_name);
  closedir (d);
  std::sort (names.begin (), names.end ());
  for (const std::string &path : names)
    {
      if (std::find (seen.begin (), seen.end (), path) != seen.end ())
        continue;
      seen.push_back (path);
      auto p = std::make_unique<ppc_profile> ();
      memset (p.get (), 0, sizeof *p);
      const char *why = "";
      if (ppc_read_file (path.c_str (), p.get (), &why) != 0)
        {
          warning (0, "ppgcc: context profile %qs ignored: %s", path.c_str (),
                   why);
          continue;
        }
      if (p->cct && of_this_unit (p.get ()))
        files.push_back (std::move (p));
      else
        ppc_free (p.get ());
    }
}

void
load (const std::string &ppd)
{
  if (files_read)
    return;
  files_read = true;
  std::vector<std::string> seen;
  size_t slash = ppd.rfind ('/');
  read_dir (slash == std::string::npos ? "." : ppd.substr (0, slash), seen);
  const std::string &use = ppgcc_opts.use_path;
  if (DIR *d = use.empty () ? nullptr : opendir (use.c_str ()))
    {
      closedir (d);
      read_dir (use, seen);
    }
}

/* Whether function I of P is NAME of FILE with CHECKSUM and NUM_PATHS.  */
bool
same_fn (const ppc_profile *p, uint32_t i, const char *name, const char *file,
         uint32_t checksum, uint64_t num_paths)
{
  const ppc_fn &f = p->fns[i];
  return !strcmp (f.name, name) && f.checksum == checksum
         && f.num_paths == num_paths
         && (!f.source || !file || ppgcc_common_tail (f.source, file) > 0);
}

/* The source file a .ppd record's metadata names, or "".  */
std::string
record_file (const ppd_fn &f)
{
  char err[256];
  std::string file;
  pp_spec *s = pp_spec_parse_string (f.meta, f.meta_len, "profile", err,
                                     sizeof err);
  if (s && s->num_fns >= 1 && s->fns[0].file)
    file = s->fns[0].file;
  pp_spec_free (s);
  return file;
}

} // namespace

void
ppgcc_context_fill (const std::string &ppd_path, ppd_profile *profile)
{
  bool empty = false;
  for (uint32_t i = 0; i < profile->nfns && !empty; i++)
    empty = profile->fns[i].npairs == 0;
  if (!empty)
    return;
  load (ppd_path);
  for (uint32_t i = 0; i < profile->nfns; i++)
    {
      ppd_fn &f = profile->fns[i];
      if (f.npairs || (f.flags & PP_FN_IPP))
        continue;
      std::string file = record_file (f);
      std::map<uint64_t, uint64_t> sum;
      for (auto &pf : files)
        {
          const ppc_profile *p = pf.get ();
          for (uint32_t k = 0; k < p->nnodes; k++)
            {
              const ppc_node &nd = p->nodes[k];
              if (nd.fn == PPC_NO_FN
                  || !same_fn (p, nd.fn, f.name, file.empty () ? nullptr
                                                              : file.c_str (),
                               f.checksum, f.num_paths))
                continue;
              for (uint64_t j = 0; j < nd.npaths; j++)
                {
                  uint64_t &s = sum[nd.paths[j].id];
                  s = s + nd.paths[j].count < s ? UINT64_MAX
                                                : s + nd.paths[j].count;
                }
            }
        }
      if (sum.empty ())
        continue;
      f.pairs = (ppd_pair *) xcalloc (sum.size (), sizeof (ppd_pair));
      for (auto &kv : sum)
        f.pairs[f.npairs++] = { kv.first, kv.second };
    }
}

std::vector<ppgcc_context>
ppgcc_contexts_by_caller (const char *name, const char *file,
                          uint32_t checksum, uint64_t num_paths)
{
  load (ppgcc_profile_path ());
  const char *unit = main_input_filename ? main_input_filename : "";
  std::map<std::string, std::map<pp_pathid, uint64_t> > by_caller;
  for (auto &pf : files)
    {
      const ppc_profile *p = pf.get ();
      std::vector<char> is_fn (p->nfns, 0);
      for (uint32_t i = 0; i < p->nfns; i++)
        is_fn[i] = same_fn (p, i, name, file, checksum, num_paths);
      for (uint32_t k = 0; k < p->nnodes; k++)
        {
          const ppc_node &nd = p->nodes[k];
          if (nd.fn == PPC_NO_FN || !is_fn[nd.fn] || nd.parent >= p->nnodes)
            continue;
          uint32_t pfn = p->nodes[nd.parent].fn;
          if (pfn == PPC_NO_FN || !strcmp (p->fns[pfn].name, name))
            continue; /* under the root (an inlined leaf), or recursive */
          /* A caller of another unit: its calls are not this unit's to
             move; its context stays in the function's own counts.  */
          if (p->fns[pfn].source
              && ppgcc_common_tail (p->fns[pfn].source, unit) == 0)
            continue;
          auto &paths = by_caller[p->fns[pfn].name];
          for (uint64_t j = 0; j < nd.npaths; j++)
            if (nd.paths[j].id < num_paths)
              paths[nd.paths[j].id] += nd.paths[j].count;
        }
    }
  std::vector<ppgcc_context> out;
  for (auto &kv : by_caller)
    {
      ppgcc_context c;
      c.caller = kv.first;
      for (auto &pc : kv.second)
        if (pc.second)
          {
            c.ids.push_back (pc.first);
            c.counts.push_back (pc.second);
            c.executions += pc.second;
          }
      if (c.executions)
        out.push_back (std::move (c));
    }
  std::sort (out.begin (), out.end (),
             [] (const ppgcc_context &a, const ppgcc_context &b) {
               return a.executions > b.executions;
             });
  return out;
}
