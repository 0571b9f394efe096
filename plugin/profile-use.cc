/* -fuse-path-profile: finding, reading and matching the profile in use.

   The profile is found the way -fprofile-use finds .gcda files: with no
   PATH, the object's own <object>.ppd (where the training run wrote it);
   with a directory, <dir>/<absolute object path>.ppd (the PPGCC_PREFIX
   layout of field runs) or else <dir>/<object basename>.ppd, or else the
   <object basename>.ppd below <dir> whose path ends most like the
   object's (field runs of a build made in another directory, or with
   PPGCC_PREFIX_STRIP; several as near: profile-choose.cc); with a file,
   that file (typically merged by `ppprof merge`, a profile of many
   objects).  Functions are matched by
   assembler name, source file and CFG checksum.  A missing profile is a note; a bad one a warning; neither
   stops the compilation.  */
#include "plugin.h"

#include "pp/rt_abi.h"
#include "pp/sat.h"

#include "pp/ppd.h"
#include "pp/ppd_derive.h"
#include "pp/spec.h"

#include <algorithm>
#include <unordered_map>
#include <climits>
#include <dirent.h>
#include <unistd.h>
#include <sys/stat.h>

namespace {

ppd_profile profile;
bool profile_tried, have_profile, profile_missing;
std::string profile_path; /* the file read, when one was */
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

/* Adds to OUT the files named BASE below DIR (symbolic links not
   followed, as ppprof does not).  */
void
find_named (const std::string &dir, const std::string &base,
            std::vector<std::string> &out)
{
  DIR *d = opendir (dir.c_str ());
  if (!d)
    return;
  std::vector<std::string> subdirs;
  while (struct dirent *e = readdir (d))
    {
      std::string name = e->d_name;
      if (name == "." || name == "..")
        continue;
      std::string path = dir + "/" + name;
      struct stat st;
      if (lstat (path.c_str (), &st) != 0)
        continue;
      if (S_ISDIR (st.st_mode))
        subdirs.push_back (path);
      else if (S_ISREG (st.st_mode) && name == base)
        out.push_back (path);
    }
  closedir (d);
  for (const std::string &s : subdirs)
    find_named (s, base, out);
}

/* The profiles for an object whose own profile would be OWN (absolute),
   below the directory USE, when it is neither at USE/OWN nor at
   USE/<basename>: the training build ran in another directory (or the
   runs stripped components with PPGCC_PREFIX_STRIP), so that the
   PPGCC_PREFIX layout put it at USE/<that other path>.  The files of the
   same name whose paths share the most trailing components with OWN: one,
   none, or several as near (profile-choose.cc decides among them).  */
std::vector<std::string>
search_profile (const std::string &use, const std::string &own)
{
  size_t slash = own.rfind ('/');
  std::string base = own.substr (slash == std::string::npos ? 0 : slash + 1);
  std::vector<std::string> found;
  find_named (use, base, found);
  std::sort (found.begin (), found.end ());
  std::vector<std::string> best;
  int best_tail = -1;
  for (const std::string &f : found)
    {
      int t = ppgcc_common_tail (f, own);
      if (t > best_tail)
        best.clear ();
      if (t >= best_tail)
        {
          best.push_back (f);
          best_tail = t;
        }
    }
  return best;
}

/* The profile file of OWN by the rules above; "" with *TIES when several
   below the directory are as near.  */
std::string
profile_file_of (const std::string &own, std::string *tried,
                 std::vector<std::string> *ties)
{
  const std::string &use = ppgcc_opts.use_path;
  if (use.empty ())
    return own;
  if (!is_directory (use))
    return use;
  std::string in_tree = use + own; /* own is absolute */
  if (exists (in_tree))
    return in_tree;
  size_t slash = own.rfind ('/');
  std::string flat
      = use + "/" + own.substr (slash == std::string::npos ? 0 : slash + 1);
  if (exists (flat))
    return flat;
  std::vector<std::string> found = search_profile (use, own);
  if (found.size () > 1)
    {
      *ties = found;
      return "";
    }
  /* None: the note about a missing profile names every place tried.  */
  if (found.empty ())
    *tried = in_tree + ", " + flat + " nor any "
             + own.substr (slash == std::string::npos ? 0 : slash + 1)
             + " under " + use;
  return found.empty () ? flat : found[0];
}

/* The profile to read: the object's own, by the rules above; for a
   one-input compile-and-link also the name its instrumented build had
   (<prefix><source base>.ppd, plugin.h), when only that one exists.  */
std::string
profile_file (std::string *tried, std::vector<std::string> *ties)
{
  std::string own = ppgcc_ppd_path ();
  std::string path = profile_file_of (own, tried, ties);
  const std::string &prefix = ppgcc_opts.use_onestep_prefix;
  if (prefix.empty () || path.empty () || exists (path))
    return path;
  size_t slash = own.rfind ('/');
  std::string dir = prefix;
  char cwd[PATH_MAX];
  if (!IS_ABSOLUTE_PATH (dir.c_str ()) && getcwd (cwd, sizeof cwd))
    dir = std::string (cwd) + "/" + dir;
  std::string alt_tried;
  std::vector<std::string> alt_ties;
  std::string alt = profile_file_of (
      dir + own.substr (slash == std::string::npos ? 0 : slash + 1),
      &alt_tried, &alt_ties);
  if (!alt.empty () && exists (alt))
    {
      tried->clear ();
      return alt;
    }
  return path;
}

/* Several profiles as near to the object (TIES): their sum when they are
   of one source (profile-choose.cc), else none, said in a note: not using
   a profile is what a missing one does, and neither fails a -Werror
   build.  0 with the profile read, 1 without.  */
int
load_ties (const std::vector<std::string> &ties)
{
  std::string why;
  const char *source = main_input_filename ? main_input_filename : "";
  if (ppgcc_merge_candidates (ties, source, &profile, &why))
    {
      if (ppgcc_opts.opt_info)
        inform (UNKNOWN_LOCATION, "ppgcc: %d path profiles of %qs below "
                "%qs, as near to %qs, used together", (int) ties.size (),
                profile.source ? profile.source : source,
                ppgcc_opts.use_path.c_str (), ppgcc_ppd_path ().c_str ());
      return 0;
    }
  inform (UNKNOWN_LOCATION, "ppgcc: several path profiles below %qs could "
          "be the one of %qs, %s; none is used: give the file with "
          "%<-fuse-path-profile=FILE%>", ppgcc_opts.use_path.c_str (),
          ppgcc_ppd_path ().c_str (), why.c_str ());
  return 1;
}

void
load ()
{
  if (profile_tried)
    return;
  profile_tried = true;
  std::string path, tried;
  std::vector<std::string> ties;
  if (ppgcc_opts.use_profile)
    path = profile_file (&tried, &ties);
  /* An unresolved tie is neither a profile nor a missing one: residual
     builds do not take every path as untested.  */
  if (!ties.empty () && load_ties (ties) == 0)
    path = ties[0];
  if (ppgcc_opts.use_profile && !path.empty ())
    {
      const char *why = "";
      int rc = ties.empty () ? ppd_read_file (path.c_str (), &profile, &why)
                             : 0;
      if (rc == 0)
        ppgcc_context_fill (path, &profile); /* a cct build's counts */
      char derive_err[512];
      if (rc == 0 && ppd_derive_counts (&profile, derive_err,
                                        sizeof derive_err) < 0)
        {
          ppd_free (&profile);
          memset (&profile, 0, sizeof profile);
          rc = -1;
          why = derive_err;
        }
      if (rc == 0)
        {
          have_profile = true;
          profile_path = path;
        }
      else if (rc > 0)
        {
          profile_missing = true;
          const char *none = ppgcc_opts.mode == PPGCC_MODE_RESIDUAL
                                 ? ": none of its paths ran in training"
                                 : "";
          /* A -fuse-path-profile=PATH that is not there at all ppgcc
             reports in one warning for the command, not a note per
             object.  */
          bool use_path_missing = !ppgcc_opts.use_path.empty ()
                                  && !exists (ppgcc_opts.use_path);
          if (!use_path_missing && tried.empty ())
            inform (UNKNOWN_LOCATION, "ppgcc: no path profile %qs for %qs%s",
                    path.c_str (), main_input_filename, none);
          else if (!use_path_missing)
            inform (UNKNOWN_LOCATION, "ppgcc: no path profile for %qs "
                    "(not at %s)%s", main_input_filename, tried.c_str (),
                    none);
        }
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

/* The profile's records by name: a merged profile (ppprof merge) lists
   the functions of many objects, where two static functions may share a
   name; and each record's source file, from its metadata when first
   asked ("" when none).  */
std::unordered_map<std::string, std::vector<uint32_t>> by_name;
std::vector<std::string> record_file;
std::vector<bool> record_file_read;

void
index_records ()
{
  if (!by_name.empty () || !profile.nfns)
    return;
  for (uint32_t i = 0; i < profile.nfns; i++)
    by_name[profile.fns[i].name].push_back (i);
  record_file.assign (profile.nfns, "");
  record_file_read.assign (profile.nfns, false);
}

const std::string &
file_of (uint32_t i)
{
  if (!record_file_read[i])
    {
      char err[256];
      pp_spec *s = pp_spec_parse_string (profile.fns[i].meta,
                                         profile.fns[i].meta_len, "profile",
                                         err, sizeof err);
      if (s && s->num_fns >= 1 && s->fns[0].file)
        record_file[i] = s->fns[0].file;
      pp_spec_free (s);
      record_file_read[i] = true;
    }
  return record_file[i];
}

/* The profile's record of function NAME of source FILE with CFG CHECKSUM,
   or null; *MISMATCH when there is one for another CFG.  Records of
   another file (no trailing path component in common) are another
   object's function of that name; of several records that match, the
   one whose file ends most like FILE.  */
const ppd_fn *
lookup (const char *name, const char *file, uint32_t checksum,
        bool *mismatch, uint32_t *other, bool *segments)
{
  *mismatch = false;
  *segments = false;
  index_records ();
  auto it = by_name.find (name);
  if (it == by_name.end ())
    return nullptr;
  const ppd_fn *found = nullptr;
  int found_tail = -1;
  for (uint32_t i : it->second)
    {
      const std::string &f = file_of (i);
      int tail = f.empty () ? 0 : ppgcc_common_tail (f, file ? file : "");
      if (!f.empty () && tail == 0)
        continue;
      /* A record of interprocedural path segments (-fprofile-paths-ipp)
         counts its supergraph's paths, not the function's own.  */
      if (profile.fns[i].flags & PP_FN_IPP)
        *segments = true;
      else if (profile.fns[i].checksum != checksum)
        {
          *mismatch = true;
          *other = profile.fns[i].checksum;
        }
      else if (tail > found_tail)
        {
          found = &profile.fns[i];
          found_tail = tail;
        }
    }
  if (found)
    *mismatch = *segments = false;
  return found;
}

} // namespace

const pp_spec *
ppgcc_interesting_spec ()
{
  load ();
  return spec;
}

void
ppgcc_executed_paths (const ppd_fn *p, const pp_numbering *n,
                      std::vector<pp_pathid> &ids,
                      std::vector<uint64_t> &counts)
{
  for (uint64_t k = 0; k < p->npairs; k++)
    if (p->pairs[k].count && p->pairs[k].id < n->num_paths)
      {
        ids.push_back (p->pairs[k].id);
        counts.push_back (p->pairs[k].count);
      }
}

bool
ppgcc_cfg_counts (const ppgcc_cfg &cfg, const pp_numbering *n,
                  const std::vector<pp_pathid> &ids,
                  const std::vector<uint64_t> &counts, ppgcc_counts &out)
{
  int ne = pp_graph_num_edges (cfg.graph);
  out.node.assign (pp_graph_num_nodes (cfg.graph), 0);
  out.edge.assign (ne ? ne : 1, 0);
  out.known.assign (ne ? ne : 1, 0);
  return pp_counts_from_paths (n, cfg.graph, ids.data (), counts.data (),
                               ids.size (), out.node.data (),
                               out.edge.data (), out.known.data ())
         == 0;
}

/* GCC's profile counts stop at profile_count::max_count (2^61-2): larger
   ones (long or merged runs, a saturated 2^64-1) make negative gcov_type
   values and crash its passes.  Counts are scaled down to at most half of
   it, the rest headroom for sums and for paths kept at 1 (below).  */
static const uint64_t count_limit = (uint64_t) profile_count::max_count / 2;

/* The largest number of path executions of one function, unscaled.  */
static uint64_t
raw_max_executions ()
{
  load ();
  static uint64_t max;
  static bool done;
  /* The program's, recorded by the runtime; else this profile's own.  */
  if (!done && profile.sum_max)
    {
      max = profile.sum_max;
      done = true;
    }
  if (!done)
    {
      for (uint32_t f = 0; f < profile.nfns; f++)
        {
          uint64_t total = 0;
          for (uint64_t k = 0; k < profile.fns[f].npairs; k++)
            total = pp_add_sat (total, profile.fns[f].pairs[k].count);
          max = MAX (max, total);
        }
      done = true;
    }
  return max;
}

uint64_t
ppgcc_profile_max_executions ()
{
  return MIN (raw_max_executions (), count_limit);
}

void
ppgcc_profile_scale_counts (std::vector<uint64_t> &counts)
{
  /* One factor for the unit (for the whole program, when the runtime
     recorded its largest function): hot and cold stay comparable across
     functions and with the summary's sum_max.  A function with more
     executions than that (an inconsistent merged file) is scaled by its
     own total.  */
  unsigned __int128 total = 0; /* not saturated: the scaled sum fits */
  for (uint64_t c : counts)
    total += c;
  unsigned __int128 denom = MAX ((unsigned __int128) raw_max_executions (),
                                 total);
  if (denom <= count_limit)
    return;
  for (uint64_t &c : counts)
    {
      uint64_t scaled
          = (uint64_t) ((unsigned __int128) c * count_limit / denom);
      /* A path that ran stays one that ran.  */
      c = c && !scaled ? 1 : scaled;
    }
}

const std::string &
ppgcc_profile_path ()
{
  load ();
  return profile_path;
}

int
ppgcc_profile_found ()
{
  if (!profile_tried)
    return -1;
  return have_profile ? 1 : profile_missing ? 0 : -1;
}

bool
ppgcc_profile_in_use (bool *missing)
{
  load ();
  *missing = profile_missing;
  return have_profile;
}

const ppd_fn *
ppgcc_profile_segments (const char *name)
{
  load ();
  if (!have_profile)
    return nullptr;
  for (uint32_t i = 0; i < profile.nfns; i++)
    if (!strcmp (profile.fns[i].name, name)
        && (profile.fns[i].flags & PP_FN_IPP))
      return &profile.fns[i];
  return nullptr;
}

const ppd_fn *
ppgcc_profile_function (function *fun, const char *name, uint32_t checksum,
                        bool *mismatch)
{
  load ();
  *mismatch = false;
  if (!have_profile)
    return nullptr;
  uint32_t other = 0;
  bool segments;
  const ppd_fn *f = lookup (name, ppgcc_function_file (fun), checksum,
                            mismatch, &other, &segments);
  if (segments && !*mismatch)
    inform (DECL_SOURCE_LOCATION (fun->decl),
            "ppgcc: the path profile of %qs holds its interprocedural path "
            "segments (a %<-fprofile-paths-ipp%> build), not its own paths: "
            "not used; train with %<-fprofile-paths%> alone", name);
  if (*mismatch && warn_coverage_mismatch)
    warning_at (DECL_SOURCE_LOCATION (fun->decl), 0,
                "ppgcc: the path profile of %qs does not match its control "
                "flow (CFG checksum 0x%x, profile 0x%x): %s", name, checksum,
                other,
                ppgcc_opts.mode == PPGCC_MODE_USE
                    ? "not used"
                    : "profiled with Ball-Larus numbering instead");
  return f;
}
