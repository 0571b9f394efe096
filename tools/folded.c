/* ppprof folded: a .ppc profile as folded stacks, the input of flame
   graph tools: one line "main;work;leaf VALUE" per calling context, VALUE
   the context's exclusive metric (PLDI'97 §4.3), or its calls without
   --metric (a sampled profile, whose calls are only those its samples
   saw: its samples).  Contexts that differ only by call site fold into one line;
   lines sorted by stack, zeros left out.  */
#include "config.h"
#include "pp/sat.h"

#include "commands.h"
#include "context.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  char *stack;
  uint64_t value;
} folded_line;

typedef struct
{
  const pp_context *c;
  int metric;
  folded_line *lines;
  uint32_t n;
} folder;

static int
fold (folder *f, uint32_t node, const char *prefix)
{
  const ppc_profile *p = &f->c->prof;
  const char *name = p->fns[p->nodes[node].fn].name;
  size_t len = strlen (prefix) + strlen (name) + 2;
  char *stack = malloc (len);
  if (!stack)
    return -1;
  snprintf (stack, len, "%s%s%s", prefix, *prefix ? ";" : "", name);
  f->lines[f->n].stack = stack;
  f->lines[f->n++].value = f->metric >= 0 ? f->c->excl[node][f->metric]
                                          : p->nodes[node].calls;
  for (uint32_t i = 0; i < f->c->nchildren[node]; i++)
    if (fold (f, f->c->children[node][i], stack) < 0)
      return -1;
  return 0;
}

static int
by_stack (const void *a, const void *b)
{
  return strcmp (((const folded_line *) a)->stack,
                 ((const folded_line *) b)->stack);
}

int
ppprof_folded (char **files, int nfiles, const char *metric,
               int subtract_probes)
{
  pp_context c;
  if (pp_context_load (&c, files, nfiles, subtract_probes) < 0)
    return 2;
  folder f = { &c, -1, NULL, 0 };
  int rc = 0;
  if (metric)
    {
      f.metric = pp_context_metric (&c, metric);
      if (f.metric < 0)
        rc = 2;
      else if (!pp_context_measured (&c, f.metric))
        {
          /* Zeros would draw an empty flame graph as if nothing ran.  */
          fprintf (stderr, "ppprof: %s: metric '%s' was not measured "
                   "(source unavailable)\n", c.name, metric);
          rc = 2;
        }
    }
  else
    {
      /* A sampled profile (ppprof record): its calls are only those a
         sample saw (the trampoline's, csprof §2.4), so its first
         measured metric, the samples, instead; so too for a profile
         that counts no calls.  */
      int any_calls = 0;
      for (uint32_t i = 0; i < c.prof.nnodes && !any_calls; i++)
        any_calls = c.prof.nodes[i].calls != 0;
      for (int m = 0; m < (int) c.prof.nmetrics; m++)
        if (c.prof.metrics[m].name && c.prof.metrics[m].unit
            && !strcmp (c.prof.metrics[m].name, "samples")
            && !strcmp (c.prof.metrics[m].unit, "samples"))
          any_calls = 0;
      for (int m = 0; !any_calls && m < (int) c.prof.nmetrics; m++)
        if (pp_context_measured (&c, m))
          {
            f.metric = m;
            break;
          }
    }
  f.lines = calloc (c.prof.nnodes + 1, sizeof *f.lines);
  if (rc == 0 && !f.lines)
    rc = 2;
  for (uint32_t i = 0; rc == 0 && i < c.nchildren[0]; i++)
    if (fold (&f, c.children[0][i], "") < 0)
      rc = 2;
  if (rc == 0)
    {
      qsort (f.lines, f.n, sizeof *f.lines, by_stack);
      for (uint32_t i = 0; i < f.n;)
        {
          uint32_t j = i + 1;
          uint64_t v = f.lines[i].value;
          while (j < f.n && !strcmp (f.lines[j].stack, f.lines[i].stack))
            v = pp_add_sat (v, f.lines[j++].value);
          if (v)
            printf ("%s %" PRIu64 "\n", f.lines[i].stack, v);
          i = j;
        }
    }
  for (uint32_t i = 0; i < f.n; i++)
    free (f.lines[i].stack);
  free (f.lines);
  pp_context_free (&c);
  return rc;
}
