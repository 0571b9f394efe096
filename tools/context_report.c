/* ppprof report on .ppc profiles: the paths of every function summed over
   its calling contexts, ranked by a metric's total (flow-sensitive
   profiling, PLDI'97 §3: which paths the cycles or misses went to), with
   count, total, per execution and source lines; text or --json.  Without
   --metric, ranked by count as report ranks .ppd paths.  */
#include "config.h"
#include "pp/sat.h"

#include "commands.h"
#include "context.h"
#include "demangle.h"
#include "json_out.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  uint32_t fn;
  uint64_t id, count, total;
  pp_report_path lines;
} ctx_path;

static int
by_key (const void *a, const void *b)
{
  const ctx_path *x = a, *y = b;
  if (x->fn != y->fn)
    return x->fn < y->fn ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

static const pp_context *rank_ctx;
static int rank_by_total;

static int
by_rank (const void *a, const void *b)
{
  const ctx_path *x = a, *y = b;
  uint64_t rx = rank_by_total ? x->total : x->count;
  uint64_t ry = rank_by_total ? y->total : y->count;
  if (rx != ry)
    return rx < ry ? 1 : -1;
  int c = strcmp (rank_ctx->prof.fns[x->fn].name,
                  rank_ctx->prof.fns[y->fn].name);
  if (c)
    return c;
  return by_key (a, b);
}

/* Every (function, path id) of the tree with its executions and the
   metric's total over all contexts; ONLY: one function's.  */
static ctx_path *
sum_paths (const pp_context *c, int metric, const char *only, size_t *n)
{
  const ppc_profile *p = &c->prof;
  size_t total = 0;
  for (uint32_t i = 1; i < p->nnodes; i++)
    total += p->nodes[i].npaths;
  ctx_path *all = calloc (total + 1, sizeof *all);
  if (!all)
    return NULL;
  size_t k = 0;
  for (uint32_t i = 1; i < p->nnodes; i++)
    {
      const ppc_node *nd = &p->nodes[i];
      if (only && !pp_same_function (p->fns[nd->fn].name, only))
        continue;
      for (uint64_t j = 0; j < nd->npaths; j++)
        {
          all[k].fn = nd->fn;
          all[k].id = nd->paths[j].id;
          all[k].count = nd->paths[j].count;
          all[k++].total = metric >= 0 ? pp_context_path_metric (
                                             c, i, &nd->paths[j], metric)
                                       : 0;
        }
    }
  qsort (all, k, sizeof *all, by_key);
  size_t m = 0;
  for (size_t j = 0; j < k; j++)
    if (m && !by_key (&all[m - 1], &all[j]))
      {
        all[m - 1].count = pp_add_sat (all[m - 1].count, all[j].count);
        all[m - 1].total = pp_add_sat (all[m - 1].total, all[j].total);
      }
    else
      all[m++] = all[j];
  *n = m;
  return all;
}

static int
known_fn (const pp_context *c, const char *only)
{
  for (uint32_t f = 0; f < c->prof.nfns; f++)
    if (pp_same_function (c->prof.fns[f].name, only))
      return 1;
  fprintf (stderr, "ppprof: function '%s' is not in the profile\n", only);
  return 0;
}

/* Whether METRIC, measured, has figures per path: not when every path's
   is 0 but some context's exclusive total is not, as when the metric was
   read at entries and returns only (-fprofile-paths-metric-at=calls) or
   every function that ran counted its paths in a hash table.  */
static int
per_path_figures (const pp_context *c, const ctx_path *all, size_t n,
                  int metric)
{
  for (size_t i = 0; i < n; i++)
    if (all[i].total)
      return 1;
  const ppc_profile *p = &c->prof;
  for (uint32_t i = 1; i < p->nnodes; i++)
    if (p->nodes[i].excl[metric])
      return 0;
  return 1;
}

static void
report_text (pp_context *c, const ctx_path *all, size_t n, int metric,
             const pp_report_options *o)
{
  const ppc_profile *p = &c->prof;
  int measured = metric >= 0 && pp_context_measured (c, metric);
  int by_path = measured && per_path_figures (c, all, n, metric);
  uint64_t execs = 0, total = 0;
  uint32_t nfns = 0;
  for (size_t i = 0; i < n; i++)
    {
      execs = pp_add_sat (execs, all[i].count);
      total = pp_add_sat (total, all[i].total);
    }
  for (size_t i = 0; i < n; i++)
    {
      size_t j = 0;
      while (j < i && all[j].fn != all[i].fn)
        j++;
      nfns += j == i;
    }
  printf ("%s: %zu paths run in %" PRIu32 " functions, %" PRIu64
          " path executions\n", c->name, n, nfns, execs);
  if (metric >= 0)
    {
      const ppc_metric *mt = &p->metrics[metric];
      printf ("%s: source %s, unit %s", mt->name, mt->source, mt->unit);
      if (measured && !by_path)
        printf ("; no path has a figure of its own (read at entries and "
                "returns only, -fprofile-paths-metric-at=calls, or counted "
                "in hash tables): `ppprof cct --metric %s` gives each "
                "context's\n", mt->name);
      else if (measured)
        printf (", total %" PRIu64 "%s\n", total,
                c->subtract_probes ? " (probes' cost subtracted; exact only "
                                     "for instruction counts, PLDI'97 "
                                     "section 3.2)" : "");
      else
        printf (" (not measured: n/a)\n");
      pp_context_notes (c, stdout);
      printf ("\n%12s %7s %12s %11s  %-24s %s\n", "total", "share", "count",
              "per exec", "function", "path (source lines)");
    }
  else
    pp_context_notes (c, stdout);
  if (metric < 0)
    printf ("\n%12s %7s  %-24s %s\n", "count", "share", "function",
            "path (source lines)");
  for (size_t i = 0; i < n && (o->top <= 0 || (long) i < o->top); i++)
    {
      const ctx_path *q = &all[i];
      if (metric >= 0 && by_path)
        printf ("%12" PRIu64 " %6.2f%% %12" PRIu64 " %11.1f", q->total,
                total ? 100.0 * (double) q->total / (double) total : 0.0,
                q->count, q->count ? (double) q->total / (double) q->count
                                   : 0.0);
      else if (metric >= 0)
        printf ("%12s %7s %12" PRIu64 " %11s", "n/a", "n/a", q->count,
                "n/a");
      else
        printf ("%12" PRIu64 " %6.2f%%", q->count,
                execs ? 100.0 * (double) q->count / (double) execs : 0.0);
      printf ("  %-24s %s: ", pp_context_fn_label (c, q->fn),
              pp_context_fn_file (c, q->fn));
      print_path (stdout, &q->lines);
      printf ("\n");
    }
}

static void
report_json (pp_context *c, const ctx_path *all, size_t n, int metric)
{
  const ppc_profile *p = &c->prof;
  int measured = metric >= 0 && pp_context_measured (c, metric);
  int by_path = measured && per_path_figures (c, all, n, metric);
  uint64_t execs = 0, total = 0;
  for (size_t i = 0; i < n; i++)
    {
      execs = pp_add_sat (execs, all[i].count);
      total = pp_add_sat (total, all[i].total);
    }
  printf ("{\"file\": ");
  pp_json_string (stdout, c->name);
  printf (", \"metric\": ");
  if (metric >= 0)
    {
      const ppc_metric *mt = &p->metrics[metric];
      printf ("{\"name\": ");
      pp_json_string (stdout, mt->name);
      printf (", \"source\": ");
      pp_json_string (stdout, mt->source);
      printf (", \"unit\": ");
      pp_json_string (stdout, mt->unit);
      printf (", \"measured\": %s, \"per_path\": %s",
              measured ? "true" : "false", by_path ? "true" : "false");
      if (mt->runs < p->runs)
        printf (", \"runs\": %" PRIu64, mt->runs);
      printf ("}");
    }
  else
    printf ("null");
  printf (", \"subtract_probes\": %s, \"paths\": [",
          c->subtract_probes ? "true" : "false");
  for (size_t i = 0; i < n; i++)
    {
      const ctx_path *q = &all[i];
      printf ("%s\n  {\"function\": ", i ? "," : "");
      pp_json_string (stdout, p->fns[q->fn].name);
      pp_context_json_version (c, q->fn, stdout);
      printf (", \"file\": ");
      pp_json_string (stdout, pp_context_fn_file (c, q->fn));
      printf (", \"id\": %" PRIu64 ", \"count\": %" PRIu64, q->id, q->count);
      if (metric >= 0 && by_path)
        printf (", \"total\": %" PRIu64 ", \"per_execution\": %.10g",
                q->total, q->count ? (double) q->total / (double) q->count
                                   : 0.0);
      else if (metric >= 0)
        printf (", \"total\": null, \"per_execution\": null");
      printf (", ");
      print_json_lines (stdout, &q->lines);
      printf (", \"starts_at_entry\": %s, \"ends_at_exit\": %s}",
              q->lines.starts_at_back_edge ? "false" : "true",
              q->lines.ends_at_back_edge ? "false" : "true");
    }
  printf ("\n], \"executions\": %" PRIu64 ", \"total\": ", execs);
  if (by_path)
    printf ("%" PRIu64 "}\n", total);
  else
    printf ("null}\n");
}

int
ppprof_report_context (char **files, int nfiles, const pp_report_options *o)
{
  pp_context c;
  if (pp_context_load (&c, files, nfiles, o->subtract_probes) < 0)
    return 2;
  int rc = 0, metric = -1;
  size_t n = 0;
  ctx_path *all = NULL;
  if (o->metric && (metric = pp_context_metric (&c, o->metric)) < 0)
    rc = 2;
  else if (o->only && !known_fn (&c, o->only))
    rc = 2;
  else if (!(all = sum_paths (&c, metric, o->only, &n)))
    {
      fprintf (stderr, "ppprof: out of memory\n");
      rc = 2;
    }
  for (size_t i = 0; rc == 0 && i < n; i++)
    if (pp_context_path_lines (&c, all[i].fn, all[i].id, &all[i].lines) < 0)
      rc = 2;
  if (rc == 0)
    {
      /* A metric not measured ranks nothing: by count then.  */
      rank_ctx = &c;
      rank_by_total = metric >= 0 && pp_context_measured (&c, metric);
      qsort (all, n, sizeof *all, by_rank);
      if (o->json)
        report_json (&c, all, n, metric);
      else
        report_text (&c, all, n, metric, o);
    }
  for (size_t i = 0; all && i < n; i++)
    pp_context_path_free (&all[i].lines);
  free (all);
  pp_context_free (&c);
  return rc;
}
