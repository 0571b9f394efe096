/* ppprof report's note on profiles of one program's objects that hold
   different numbers of its runs (include/pp/ppd.h, version 5's programs
   section).  Every run of a program writes each of its objects' profiles
   once, so their counts of its runs agree, unless some were written by
   runs the others never saw: profiles of an earlier build left where a
   make clean deleted the rest (libtool's .libs) and merged with the new
   runs, which doubles some functions' counts while others restart; an
   object that only some runs load (dlopen); or one linked into several
   shared objects of the program (Tcl's stub library in each extension),
   whose profile each of them writes.  Files of versions 1 to 4 name no
   programs and are left out.  */
#include "profile_set.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  const char *prog;
  uint64_t runs;
  int profile;
} prog_runs;

/* By program, then runs descending, then profile.  */
static int
by_prog (const void *a, const void *b)
{
  const prog_runs *x = a, *y = b;
  int c = strcmp (x->prog, y->prog);
  if (c)
    return c;
  if (x->runs != y->runs)
    return x->runs > y->runs ? -1 : 1;
  return (x->profile > y->profile) - (x->profile < y->profile);
}

/* " (and N more)" when N, into BUF.  */
static const char *
and_more (char *buf, size_t size, int n)
{
  if (n > 0)
    snprintf (buf, size, " (and %d more)", n);
  else
    buf[0] = '\0';
  return buf;
}

#define MAX_NOTES 5

void
pp_note_mixed_runs (const pp_profile_set *set, const unsigned char *wanted)
{
  size_t n = 0;
  for (int i = 0; i < set->num_profiles; i++)
    n += set->profiles[i].nprogs;
  prog_runs *e = n ? malloc (n * sizeof *e) : NULL;
  if (!e)
    return;
  n = 0;
  for (int i = 0; i < set->num_profiles; i++)
    for (uint32_t g = 0; g < set->profiles[i].nprogs; g++)
      if (set->profiles[i].progs[g].name[0]) /* not the others' "" */
        e[n++] = (prog_runs){ set->profiles[i].progs[g].name,
                              set->profiles[i].progs[g].runs, i };
  qsort (e, n, sizeof *e, by_prog);
  int notes = 0, more = 0;
  for (size_t at = 0, end; at < n; at = end)
    {
      int shown = 0;
      for (end = at; end < n && !strcmp (e[end].prog, e[at].prog); end++)
        shown |= !wanted || wanted[e[end].profile];
      const prog_runs *hi = &e[at], *lo = &e[end - 1];
      if (!shown || hi->runs == lo->runs)
        continue;
      if (notes == MAX_NOTES)
        {
          more++;
          continue;
        }
      int nhi = 0, nlo = 0;
      for (size_t k = at; k < end; k++)
        {
          nhi += e[k].runs == hi->runs;
          nlo += e[k].runs == lo->runs;
        }
      char a[32], b[32];
      printf ("note: the profiles of %s's objects count different numbers "
              "of its runs: %" PRIu64 " in %s%s, %" PRIu64 " in %s%s; their "
              "counts are not of the same runs (profiles of an earlier "
              "build left after a make clean, an object some runs did not "
              "load, or one linked into several of its shared objects)\n",
              hi->prog, hi->runs, set->profile_names[hi->profile],
              and_more (a, sizeof a, nhi - 1), lo->runs,
              set->profile_names[lo->profile],
              and_more (b, sizeof b, nlo - 1));
      notes++;
    }
  if (more)
    printf ("note: and %d more programs whose objects' profiles count "
            "different numbers of their runs\n", more);
  free (e);
}
