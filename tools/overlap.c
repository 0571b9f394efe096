/* ppprof overlap: how much of two profiles is the same (thesis §5.5.2).  */
#include "config.h"

#include "commands.h"
#include "demangle.h"

#include "pp/rt_abi.h"

#include <inttypes.h>
#include "json_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One path of one profile, keyed by (function name, CFG checksum,
   Ball-Larus id), and its count in profile A and in profile B.  */
typedef struct
{
  const char *name;
  uint32_t checksum;
  uint64_t id, a, b;
} ov_path;

typedef struct
{
  const char *name;
  uint64_t a, b;         /* the function's executions in A and in B */
  double overlap, diff;  /* within the function; |share in A - in B| */
} ov_fn;

static int
ov_key_cmp (const void *x, const void *y)
{
  const ov_path *p = x, *q = y;
  int c = strcmp (p->name, q->name);
  if (c)
    return c;
  if (p->checksum != q->checksum)
    return p->checksum < q->checksum ? -1 : 1;
  return p->id < q->id ? -1 : p->id > q->id;
}

static int
ov_fn_cmp (const void *x, const void *y)
{
  const ov_fn *f = x, *g = y;
  if (f->diff != g->diff)
    return f->diff < g->diff ? 1 : -1;
  return strcmp (f->name, g->name);
}

/* Appends SET's paths to *ALL, counted in A (IN_A) or B.  */
static void
ov_add (const pp_profile_set *set, int in_a, ov_path **all, size_t *n)
{
  for (int p = 0; p < set->num_profiles; p++)
    for (uint32_t i = 0; i < set->profiles[p].nfns; i++)
      {
        const ppd_fn *f = &set->profiles[p].fns[i];
        *all = realloc (*all, (*n + f->npairs + 1) * sizeof **all);
        for (uint64_t k = 0; k < f->npairs; k++)
          (*all)[(*n)++] = (ov_path){ f->name, f->checksum, f->pairs[k].id,
                                      in_a ? f->pairs[k].count : 0,
                                      in_a ? 0 : f->pairs[k].count };
      }
}

/* min (a / ta, b / tb) summed over the paths [FIRST, LAST).  */
static double
ov_sum (const ov_path *first, const ov_path *last, uint64_t ta, uint64_t tb)
{
  double s = 0;
  for (const ov_path *p = first; p < last; p++)
    {
      double x = (double) p->a / (double) ta, y = (double) p->b / (double) tb;
      s += x < y ? x : y;
    }
  return s;
}

/* The overlap percentage of two profiles (thesis §5.5.2, after Ammons,
   Ball and Larus): 100 * sum over paths of min (A(p) / total A,
   B(p) / total B), how much of the two profiles' execution is common.
   Per function, the same within the function, for the TOP functions whose
   share of the execution differs most.  */
static int
overlap (pp_profile_set *a, pp_profile_set *b, char **names, long top,
         int json)
{
  ov_path *all = NULL;
  size_t n = 0;
  ov_add (a, 1, &all, &n);
  ov_add (b, 0, &all, &n);
  if (n)
    qsort (all, n, sizeof *all, ov_key_cmp);
  /* One entry per path, and the totals.  */
  size_t m = 0;
  uint64_t ta = 0, tb = 0;
  for (size_t i = 0; i < n; i++)
    {
      ta += all[i].a, tb += all[i].b;
      if (m && ov_key_cmp (&all[m - 1], &all[i]) == 0)
        all[m - 1].a += all[i].a, all[m - 1].b += all[i].b;
      else
        all[m++] = all[i];
    }
  if (ta == 0 || tb == 0)
    {
      fprintf (stderr, "ppprof: %s: no path executions, so no overlap\n",
               names[ta == 0 ? 0 : 1]);
      free (all);
      return 2;
    }
  ov_fn *fns = calloc (m + 1, sizeof *fns);
  size_t nf = 0;
  for (size_t i = 0, j; i < m; i = j)
    {
      ov_fn *f = &fns[nf++];
      f->name = all[i].name;
      for (j = i; j < m && !strcmp (all[j].name, all[i].name)
                  && all[j].checksum == all[i].checksum; j++)
        f->a += all[j].a, f->b += all[j].b;
      f->overlap = f->a && f->b ? 100 * ov_sum (&all[i], &all[j], f->a, f->b)
                                : 0;
      double d = (double) f->a / (double) ta - (double) f->b / (double) tb;
      f->diff = d < 0 ? -d : d;
      if (!f->a && !f->b)
        nf--; /* in a profile, but never ran */
    }
  double total = 100 * ov_sum (all, all + m, ta, tb);
  qsort (fns, nf, sizeof *fns, ov_fn_cmp);
  size_t shown = top > 0 && (size_t) top < nf ? (size_t) top : nf;
  if (json)
    {
      printf ("{\"overlap\": %.6f, \"functions\": [", total);
      for (size_t i = 0; i < shown; i++)
        {
          printf ("%s\n  {\"name\": ", i ? "," : "");
          pp_json_string (stdout, fns[i].name);
          printf (", \"overlap\": %.6f, \"a\": %" PRIu64 ", \"b\": %" PRIu64
                  "}", fns[i].overlap, fns[i].a, fns[i].b);
        }
      printf ("\n]}\n");
    }
  else
    {
      printf ("overlap: %.2f%% (A: %" PRIu64 " path executions, B: %" PRIu64
              ")\n\n", total, ta, tb);
      printf ("%8s %14s %14s  %s\n", "overlap", "executions A",
              "executions B", "function (most different shares first)");
      for (size_t i = 0; i < shown; i++)
        {
          char *dm;
          printf ("%7.2f%% %14" PRIu64 " %14" PRIu64 "  %s\n",
                  fns[i].overlap, fns[i].a, fns[i].b,
                  pp_shown_name (fns[i].name, &dm));
          free (dm);
        }
    }
  free (fns);
  free (all);
  return 0;
}

/* ppprof overlap A B: each a .ppd or a directory of them.  */
int
ppprof_overlap_files (char **names, long top, int json)
{
  pp_profile_set a, b;
  if (pp_profile_set_load (&a, &names[0], 1) < 0)
    return 2;
  int rc = 2;
  if (pp_profile_set_load (&b, &names[1], 1) == 0)
    {
      if (a.num_profiles == 0 || b.num_profiles == 0)
        fprintf (stderr, "ppprof: %s: no .ppd profile there\n",
                 names[a.num_profiles == 0 ? 0 : 1]);
      else
        rc = overlap (&a, &b, names, top, json);
    }
  pp_profile_set_free (&b);
  pp_profile_set_free (&a);
  return rc;
}

