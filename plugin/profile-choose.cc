/* -fuse-path-profile=DIR: the profile to use when several below DIR are
   as near to the object as each other (profile-use.cc's search by
   basename).

   One source compiled into two objects (a static and a shared library's,
   CMake's <target>.dir/x.c.o), trained into a PPGCC_PREFIX tree and
   rebuilt in another directory, leaves two profiles that name the object
   equally well.  When all of them are of one source file (the profiles'
   own `source`, as each training compile named it) and every function
   they have in common has one CFG in all of them, they are that source's
   profile, and their sum is used: functions are matched afterwards by
   name, source file and CFG checksum as in a `ppprof merge` file.  When
   they are of several sources of that name, the candidates whose source
   path ends most like this compile's are taken, by the same rule; if
   they still disagree, none is used.  */
#include "plugin.h"

#include "pp/ppd.h"
#include "pp/rt_abi.h"

#include <algorithm>
#include <unordered_map>

int
ppgcc_common_tail (const std::string &a, const std::string &b)
{
  int n = 0;
  size_t i = a.size (), j = b.size ();
  while (i > 0 && j > 0)
    {
      size_t si = a.rfind ('/', i - 1), sj = b.rfind ('/', j - 1);
      size_t ai = si == std::string::npos ? 0 : si + 1;
      size_t bj = sj == std::string::npos ? 0 : sj + 1;
      if (a.compare (ai, i - ai, b, bj, j - bj) != 0)
        break;
      n++;
      if (si == std::string::npos || sj == std::string::npos)
        break;
      i = si;
      j = sj;
    }
  return n;
}

namespace {

/* Whether every function name that P and Q both have has the same CFG
   checksums in both (its current records; PP_FN_OLDER ones are history).  */
bool
same_cfgs (const ppd_profile &p, const ppd_profile &q)
{
  std::unordered_map<std::string, uint32_t> sums;
  for (uint32_t f = 0; f < p.nfns; f++)
    if (!(p.fns[f].flags & PP_FN_OLDER))
      sums[p.fns[f].name] = p.fns[f].checksum;
  for (uint32_t f = 0; f < q.nfns; f++)
    {
      if (q.fns[f].flags & PP_FN_OLDER)
        continue;
      auto it = sums.find (q.fns[f].name);
      if (it != sums.end () && it->second != q.fns[f].checksum)
        return false;
    }
  return true;
}

std::string
source_of (const ppd_profile &p)
{
  return p.source ? p.source : "";
}

} // namespace

bool
ppgcc_merge_candidates (const std::vector<std::string> &files,
                        const std::string &source, ppd_profile *out,
                        std::string *why)
{
  std::vector<ppd_profile> read (files.size ());
  bool ok = true;
  for (size_t i = 0; i < files.size () && ok; i++)
    {
      const char *err = "";
      memset (&read[i], 0, sizeof read[i]);
      if (ppd_read_file (files[i].c_str (), &read[i], &err) != 0)
        {
          *why = "'" + files[i] + "' cannot be read: "
                 + (*err ? err : "it is gone");
          ok = false;
        }
    }
  /* The candidates whose source ends most like this compile's.  */
  std::vector<size_t> best;
  int best_tail = -1;
  for (size_t i = 0; ok && i < files.size (); i++)
    {
      int t = ppgcc_common_tail (source_of (read[i]), source);
      if (t > best_tail)
        best.clear ();
      if (t >= best_tail)
        {
          best.push_back (i);
          best_tail = t;
        }
    }
  if (ok)
    {
      std::vector<std::string> sources;
      for (size_t i : best)
        if (std::find (sources.begin (), sources.end (),
                       source_of (read[i])) == sources.end ())
          sources.push_back (source_of (read[i]));
      std::string list;
      for (size_t i : best)
        list += (list.empty () ? "'" : ", '") + files[i] + "' of '"
                + source_of (read[i]) + "'";
      if (sources.size () > 1)
        {
          *why = "of " + std::to_string (sources.size ())
                 + " source files of that name (" + list + ")";
          ok = false;
        }
      for (size_t k = 1; ok && k < best.size (); k++)
        if (!same_cfgs (read[best[0]], read[best[k]]))
          {
            *why = "with other control flow for the same functions ("
                   + list + ")";
            ok = false;
          }
    }
  if (ok)
    {
      *out = read[best[0]];
      memset (&read[best[0]], 0, sizeof read[best[0]]);
      for (size_t k = 1; ok && k < best.size (); k++)
        if (ppd_merge_objects (out, &read[best[k]]) < 0)
          {
            *why = "out of memory merging them";
            ppd_free (out);
            ok = false;
          }
    }
  for (ppd_profile &p : read)
    ppd_free (&p);
  return ok;
}
