/* ppprof cct: the calling context tree of a .ppc profile (PLDI'97 §4),
   indented, each context with its calls and each metric's inclusive and
   exclusive values (§4.3), optionally its hottest paths (§3: metrics per
   path); text or --json.  */
#include "config.h"

#include "commands.h"
#include "context.h"
#include "json_out.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  pp_context *c;
  const pp_cct_options *o;
  int metric;   /* --metric's index, or -1: every metric shown */
  int primary;  /* the metric that orders, cuts and ranks, or -1: calls */
  uint64_t total; /* the primary measure of the whole tree */
} cct_view;

/* The measure of node N's subtree that orders siblings and that
   --min-percent compares with the whole tree's.  */
static uint64_t
measure (const cct_view *v, uint32_t n)
{
  return v->primary >= 0 ? v->c->incl[n][v->primary] : v->c->incl_calls[n];
}

static int
shown (const cct_view *v, uint32_t n)
{
  return v->total == 0
         || 100.0 * (double) measure (v, n) / (double) v->total
                >= v->o->min_percent;
}

static const cct_view *sort_view;
static const uint32_t *sort_kids;

/* Hottest first; ties in the context's order (name, then site): the
   array sorted holds positions in that order.  */
static int
by_measure (const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
  uint64_t mx = measure (sort_view, sort_kids[x]);
  uint64_t my = measure (sort_view, sort_kids[y]);
  if (mx != my)
    return mx < my ? 1 : -1;
  return x < y ? -1 : x > y;
}

/* Node N's children in print order, in a new array.  */
static uint32_t *
ordered_children (const cct_view *v, uint32_t n, uint32_t *count)
{
  *count = v->c->nchildren[n];
  uint32_t *kids = malloc ((*count + 1) * sizeof *kids);
  for (uint32_t i = 0; i < *count; i++)
    kids[i] = i;
  sort_view = v;
  sort_kids = v->c->children[n];
  qsort (kids, *count, sizeof *kids, by_measure);
  for (uint32_t i = 0; i < *count; i++)
    kids[i] = v->c->children[n][kids[i]];
  return kids;
}

/* Node N's paths in rank order: by the primary metric, else by count;
   ties by id.  */
static const pp_context *rank_ctx;
static uint32_t rank_node;
static int rank_metric;

static uint64_t
path_rank (const ppc_path *p)
{
  return rank_metric >= 0
             ? pp_context_path_metric (rank_ctx, rank_node, p, rank_metric)
             : p->count;
}

static int
by_rank (const void *a, const void *b)
{
  const ppc_path *x = *(const ppc_path *const *) a;
  const ppc_path *y = *(const ppc_path *const *) b;
  uint64_t rx = path_rank (x), ry = path_rank (y);
  if (rx != ry)
    return rx < ry ? 1 : -1;
  return x->id < y->id ? -1 : x->id > y->id;
}

static const ppc_path **
top_paths (const cct_view *v, uint32_t n, uint64_t *count)
{
  const ppc_node *nd = &v->c->prof.nodes[n];
  const ppc_path **all = malloc ((nd->npaths + 1) * sizeof *all);
  for (uint64_t k = 0; k < nd->npaths; k++)
    all[k] = &nd->paths[k];
  rank_ctx = v->c;
  rank_node = n;
  rank_metric = v->primary;
  qsort (all, nd->npaths, sizeof *all, by_rank);
  *count = nd->npaths < (uint64_t) v->o->paths ? nd->npaths
                                                : (uint64_t) v->o->paths;
  return all;
}

static int
metric_shown (const cct_view *v, uint32_t m)
{
  return v->metric < 0 || (uint32_t) v->metric == m;
}

static int
column_width (const char *name)
{
  int w = (int) strlen (name) + 5;
  return w < 12 ? 12 : w;
}

static void
print_value (int width, int measured, uint64_t value)
{
  if (measured)
    printf (" %*" PRIu64, width, value);
  else
    printf (" %*s", width, "n/a");
}

/* ------------------------------------------------------------- text */

static int
text_node (const cct_view *v, uint32_t n, int depth)
{
  const ppc_profile *p = &v->c->prof;
  const ppc_node *nd = &p->nodes[n];
  printf ("%6.2f%% %12" PRIu64,
          v->total ? 100.0 * (double) measure (v, n) / (double) v->total
                   : 0.0,
          nd->calls);
  for (uint32_t m = 0; m < p->nmetrics; m++)
    if (metric_shown (v, m))
      {
        int w = column_width (p->metrics[m].name);
        int ok = pp_context_measured (v->c, (int) m);
        print_value (w, ok, v->c->incl[n][m]);
        print_value (w, ok, v->c->excl[n][m]);
      }
  printf ("  %*s%s", 2 * depth, "", pp_context_fn_label (v->c, nd->fn));
  if (nd->site && *nd->site)
    printf (" [%s]", pp_context_site (v->c, n));
  if (nd->recursive)
    printf (" (%" PRIu64 " recursive)", nd->recursive);
  printf ("\n");

  if (v->o->paths > 0)
    {
      uint64_t np;
      const ppc_path **top = top_paths (v, n, &np);
      for (uint64_t k = 0; k < np; k++)
        {
          pp_report_path rp;
          if (pp_context_path_lines (v->c, nd->fn, top[k]->id, &rp) < 0)
            {
              free (top);
              return -1;
            }
          /* A path row: its executions under calls, each metric's value
             under exclusive (paths hold exclusive values).  */
          printf ("%7s %12" PRIu64, "", top[k]->count);
          for (uint32_t m = 0; m < p->nmetrics; m++)
            if (metric_shown (v, m))
              {
                int w = column_width (p->metrics[m].name);
                printf (" %*s", w, "");
                print_value (w, pp_context_measured (v->c, (int) m),
                             pp_context_path_metric (v->c, n, top[k],
                                                     (int) m));
              }
          printf ("  %*spath %" PRIu64 "  %s: ", 2 * depth + 2, "",
                  top[k]->id, pp_context_fn_file (v->c, nd->fn));
          print_path (stdout, &rp);
          printf ("\n");
          pp_context_path_free (&rp);
        }
      free (top);
    }

  uint32_t nk;
  uint32_t *kids = ordered_children (v, n, &nk);
  int rc = 0;
  for (uint32_t i = 0; i < nk && rc == 0; i++)
    if (shown (v, kids[i]))
      rc = text_node (v, kids[i], depth + 1);
  free (kids);
  return rc;
}

static int
cct_text (const cct_view *v)
{
  const ppc_profile *p = &v->c->prof;
  printf ("%s: %" PRIu64 " run%s, %s, %" PRIu32 " %s\n", v->c->name, p->runs,
          p->runs == 1 ? "" : "s",
          p->cct ? "calling context tree" : "flat metrics",
          p->nnodes ? p->nnodes - 1 : 0,
          p->cct ? (p->nnodes == 2 ? "context" : "contexts")
                 : (p->nnodes == 2 ? "function" : "functions"));
  for (uint32_t m = 0; m < p->nmetrics; m++)
    if (metric_shown (v, m))
      {
        const ppc_metric *mt = &p->metrics[m];
        printf ("%s: source %s, unit %s", mt->name, mt->source, mt->unit);
        if (!pp_context_measured (v->c, (int) m))
          printf (" (not measured: n/a)");
        else if (v->c->subtract_probes)
          printf ("; probes' cost subtracted: %g per call, %g per path",
                  mt->enter_exit_cost, mt->path_cost);
        printf ("\n");
      }
  if (v->c->subtract_probes)
    printf ("note: subtracting the probes' cost is exact only for "
            "instruction counts (PLDI'97 section 3.2)\n");
  pp_context_notes (v->c, stdout);
  printf ("\n%7s %12s", "incl%", "calls");
  for (uint32_t m = 0; m < p->nmetrics; m++)
    if (metric_shown (v, m))
      {
        char label[128];
        int w = column_width (p->metrics[m].name);
        snprintf (label, sizeof label, "%s incl", p->metrics[m].name);
        printf (" %*s", w, label);
        snprintf (label, sizeof label, "%s excl", p->metrics[m].name);
        printf (" %*s", w, label);
      }
  printf ("  context\n");
  uint32_t nk;
  uint32_t *kids = ordered_children (v, 0, &nk);
  int rc = 0;
  for (uint32_t i = 0; i < nk && rc == 0; i++)
    if (shown (v, kids[i]))
      rc = text_node (v, kids[i], 0);
  free (kids);
  return rc;
}

/* ------------------------------------------------------------- JSON */

static void
json_value (int measured, uint64_t value)
{
  if (measured)
    printf ("%" PRIu64, value);
  else
    printf ("null");
}

static int json_nodes (const cct_view *v, uint32_t n, int depth);

static int
json_paths (const cct_view *v, uint32_t n, int depth)
{
  const ppc_profile *p = &v->c->prof;
  const ppc_node *nd = &p->nodes[n];
  uint64_t np;
  const ppc_path **top = top_paths (v, n, &np);
  printf (", \"paths\": [");
  for (uint64_t k = 0; k < np; k++)
    {
      pp_report_path rp;
      if (pp_context_path_lines (v->c, nd->fn, top[k]->id, &rp) < 0)
        {
          free (top);
          return -1;
        }
      printf ("%s\n%*s{\"id\": %" PRIu64 ", \"count\": %" PRIu64 ", ",
              k ? "," : "", 2 * depth + 4, "", top[k]->id, top[k]->count);
      print_json_lines (stdout, &rp);
      printf (", \"starts_at_entry\": %s, \"ends_at_exit\": %s",
              rp.starts_at_back_edge ? "false" : "true",
              rp.ends_at_back_edge ? "false" : "true");
      for (uint32_t m = 0; m < p->nmetrics; m++)
        if (metric_shown (v, m))
          {
            printf (", ");
            pp_json_string (stdout, p->metrics[m].name);
            printf (": ");
            json_value (pp_context_measured (v->c, (int) m),
                        pp_context_path_metric (v->c, n, top[k], (int) m));
          }
      printf ("}");
      pp_context_path_free (&rp);
    }
  printf ("]");
  free (top);
  return 0;
}

static int
json_node (const cct_view *v, uint32_t n, int depth)
{
  const ppc_profile *p = &v->c->prof;
  const ppc_node *nd = &p->nodes[n];
  printf ("%*s{\"name\": ", 2 * depth + 2, "");
  pp_json_string (stdout, p->fns[nd->fn].name);
  pp_context_json_version (v->c, nd->fn, stdout);
  printf (", \"site\": ");
  pp_json_string (stdout, nd->site ? nd->site : "");
  /* the call's source line, when the object's debug information has it */
  const char *src = pp_context_site_source (v->c, n);
  if (src)
    {
      printf (", \"site_source\": ");
      pp_json_string (stdout, src);
    }
  printf (", \"calls\": %" PRIu64 ", \"recursive\": %" PRIu64, nd->calls,
          nd->recursive);
  for (uint32_t m = 0; m < p->nmetrics; m++)
    if (metric_shown (v, m))
      {
        int ok = pp_context_measured (v->c, (int) m);
        printf (", ");
        pp_json_string (stdout, p->metrics[m].name);
        printf (": {\"inclusive\": ");
        json_value (ok, v->c->incl[n][m]);
        printf (", \"exclusive\": ");
        json_value (ok, v->c->excl[n][m]);
        printf ("}");
      }
  if (v->o->paths > 0 && json_paths (v, n, depth) < 0)
    return -1;
  printf (", \"children\": [");
  int rc = json_nodes (v, n, depth + 1);
  printf ("]}");
  return rc;
}

/* N's shown children, comma-separated, one per line.  */
static int
json_nodes (const cct_view *v, uint32_t n, int depth)
{
  uint32_t nk;
  uint32_t *kids = ordered_children (v, n, &nk);
  int rc = 0, first = 1;
  for (uint32_t i = 0; i < nk && rc == 0; i++)
    if (shown (v, kids[i]))
      {
        printf ("%s\n", first ? "" : ",");
        first = 0;
        rc = json_node (v, kids[i], depth);
      }
  free (kids);
  return rc;
}

static int
cct_json (const cct_view *v)
{
  const ppc_profile *p = &v->c->prof;
  printf ("{\"file\": ");
  pp_json_string (stdout, v->c->name);
  printf (", \"runs\": %" PRIu64 ", \"kind\": \"%s\", \"subtract_probes\": "
          "%s,\n \"metrics\": [",
          p->runs, p->cct ? "cct" : "flat",
          v->c->subtract_probes ? "true" : "false");
  int first = 1;
  for (uint32_t m = 0; m < p->nmetrics; m++)
    if (metric_shown (v, m))
      {
        const ppc_metric *mt = &p->metrics[m];
        printf ("%s{\"name\": ", first ? "" : ", ");
        first = 0;
        pp_json_string (stdout, mt->name);
        printf (", \"source\": ");
        pp_json_string (stdout, mt->source);
        printf (", \"unit\": ");
        pp_json_string (stdout, mt->unit);
        printf (", \"measured\": %s, \"enter_exit_cost\": %.15g, "
                "\"path_cost\": %.15g",
                pp_context_measured (v->c, (int) m) ? "true" : "false",
                mt->enter_exit_cost, mt->path_cost);
        /* only when other runs did not measure it */
        if (mt->runs < p->runs)
          printf (", \"runs\": %" PRIu64, mt->runs);
        printf ("}");
      }
  printf ("],\n \"tree\": [");
  int rc = json_nodes (v, 0, 0);
  printf ("]}\n");
  return rc;
}

/* Every path's lines regenerate (metadata that parses, ids in range)
   before anything is printed: bad input gets its one line, not half a
   tree.  */
static int
check_paths (pp_context *c)
{
  for (uint32_t n = 1; n < c->prof.nnodes; n++)
    for (uint64_t k = 0; k < c->prof.nodes[n].npaths; k++)
      {
        pp_report_path rp;
        if (pp_context_path_lines (c, c->prof.nodes[n].fn,
                                   c->prof.nodes[n].paths[k].id, &rp) < 0)
          return -1;
        pp_context_path_free (&rp);
      }
  return 0;
}

int
ppprof_cct (char **files, int nfiles, const pp_cct_options *o)
{
  pp_context c;
  if (pp_context_load (&c, files, nfiles, o->subtract_probes) < 0)
    return 2;
  cct_view v = { &c, o, -1, -1, 0 };
  if (o->metric && (v.metric = pp_context_metric (&c, o->metric)) < 0)
    {
      pp_context_free (&c);
      return 2;
    }
  /* Ordered by the metric asked for, else the first one measured, else
     by calls.  */
  if (v.metric >= 0)
    v.primary = pp_context_measured (&c, v.metric) ? v.metric : -1;
  else
    for (uint32_t m = 0; m < c.prof.nmetrics && v.primary < 0; m++)
      if (pp_context_measured (&c, (int) m))
        v.primary = (int) m;
  v.total = c.prof.nnodes ? measure (&v, 0) : 0;
  int rc = o->paths > 0 ? check_paths (&c) : 0;
  if (rc == 0)
    rc = o->json ? cct_json (&v) : cct_text (&v);
  pp_context_free (&c);
  return rc < 0 ? 2 : 0;
}
