/* Loading context profiles and deriving what ppprof prints of them (see
   context.h).  */
#include "context.h"

#include "pp/ppd.h"
#include "demangle.h"
#include "pp/sat.h"
#include "pp/rt_abi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int
pp_is_context_file (const char *name)
{
  size_t n = strlen (name);
  if (n >= 4 && !strcmp (name + n - 4, ".ppc"))
    return 1;
  static const char magic[] = "ppgcc-context-profile ";
  char head[sizeof magic - 1];
  FILE *f = fopen (name, "rb");
  if (!f)
    return 0;
  size_t got = fread (head, 1, sizeof head, f);
  fclose (f);
  return got == sizeof head && !memcmp (head, magic, sizeof head);
}

int
pp_is_path_file (const char *name)
{
  static const char magic[] = PPD_MAGIC;
  char head[sizeof magic - 1];
  FILE *f = fopen (name, "rb");
  if (!f)
    return 0;
  size_t got = fread (head, 1, sizeof head, f);
  fclose (f);
  return got == sizeof head && !memcmp (head, magic, sizeof head);
}

typedef struct
{
  pp_context *c;
  int count;
} loader;

static void
warn_dropped (void *file, const char *fn)
{
  fprintf (stderr, "ppprof: %s: function '%s' has more than %d CFG "
           "versions in the files so far; the oldest one's contexts are "
           "left out\n", (const char *) file, fn, PPC_MAX_VERSIONS);
}

/* What the program kept aside as PATH.old when its run did not merge
   with the file (runtime/cct_dump.c does so silently): said here.  */
static void
note_aside (const char *path)
{
  size_t n = strlen (path);
  char *old = malloc (n + 5);
  struct stat st;
  if (!old)
    return;
  memcpy (old, path, n);
  memcpy (old + n, ".old", 5);
  if (stat (old, &st) == 0 && S_ISREG (st.st_mode))
    fprintf (stderr, "ppprof: note: %s: an earlier profile that could not "
             "merge with %s (a flat profile and a tree, a metric in other "
             "units, or more than %d metrics in all); not read\n", old, path,
             PPC_MAX_METRICS);
  free (old);
}

static int
add_file (void *ctx, const char *path)
{
  loader *l = ctx;
  ppc_profile p;
  const char *why = "";
  int rc = ppc_read_file (path, &p, &why);
  if (rc < 0 && pp_is_path_file (path))
    {
      fprintf (stderr, "ppprof: %s: a path profile (.ppd), not a context "
               "profile: run ppprof report, annotate or html on it\n", path);
      return -1;
    }
  if (rc != 0)
    {
      fprintf (stderr, "ppprof: %s: %s\n", path,
               rc > 0 ? "no such file" : why);
      return -1;
    }
  note_aside (path);
  if (l->count++ == 0)
    {
      l->c->prof = p;
      l->c->name = strdup (path);
      return 0;
    }
  rc = ppc_merge_warn (&l->c->prof, &p, warn_dropped, (void *) path, &why);
  ppc_free (&p);
  if (rc < 0)
    {
      fprintf (stderr, "ppprof: %s: %s\n", path, why);
      return -1;
    }
  return 0;
}

/* Children in a stable order: by function name, then call site.  */
static const pp_context *sort_ctx;

static int
by_name_site (const void *a, const void *b)
{
  const ppc_profile *p = &sort_ctx->prof;
  const ppc_node *x = &p->nodes[*(const uint32_t *) a];
  const ppc_node *y = &p->nodes[*(const uint32_t *) b];
  int c = strcmp (p->fns[x->fn].name, p->fns[y->fn].name);
  if (c == 0)
    c = strcmp (x->site ? x->site : "", y->site ? y->site : "");
  /* one function's versions (same site, "" under the root) oldest
     first */
  return c ? c : (x->fn > y->fn) - (x->fn < y->fn);
}

/* V less COST, clamped at 0 (PLDI'97 §3.2: the probes' share of a
   metric, exact only for instruction counts).  */
static uint64_t
less_cost (uint64_t v, double cost)
{
  if (!(cost > 0))
    return v;
  if (cost >= (double) v)
    return 0;
  uint64_t c = (uint64_t) (cost + 0.5);
  return c >= v ? 0 : v - c;
}

/* Exclusive values, then inclusive ones: parents come before children,
   so one backward pass adds each node into its parent.  */
static void
derive (pp_context *c)
{
  const ppc_profile *p = &c->prof;
  for (uint32_t i = 0; i < p->nnodes; i++)
    {
      const ppc_node *nd = &p->nodes[i];
      uint64_t execs = 0;
      for (uint64_t k = 0; k < nd->npaths; k++)
        execs = pp_add_sat (execs, nd->paths[k].count);
      for (uint32_t m = 0; m < p->nmetrics; m++)
        {
          const ppc_metric *mt = &p->metrics[m];
          c->excl[i][m] = nd->excl[m];
          if (c->subtract_probes && i > 0)
            c->excl[i][m] = less_cost (nd->excl[m],
                                       (double) nd->calls * mt->enter_exit_cost
                                       + (double) execs * mt->path_cost);
          c->incl[i][m] = c->excl[i][m];
        }
      c->incl_calls[i] = nd->calls;
    }
  for (uint32_t i = p->nnodes; i-- > 1;)
    {
      uint32_t up = p->nodes[i].parent;
      for (uint32_t m = 0; m < p->nmetrics; m++)
        c->incl[up][m] = pp_add_sat (c->incl[up][m], c->incl[i][m]);
      c->incl_calls[up] = pp_add_sat (c->incl_calls[up], c->incl_calls[i]);
    }
  for (uint32_t i = 1; i < p->nnodes; i++)
    {
      uint32_t up = p->nodes[i].parent;
      c->children[up][c->nchildren[up]++] = i;
    }
  sort_ctx = c;
  for (uint32_t i = 0; i < p->nnodes; i++)
    qsort (c->children[i], c->nchildren[i], sizeof *c->children[i],
           by_name_site);
}

static int
allocate (pp_context *c)
{
  uint32_t n = c->prof.nnodes ? c->prof.nnodes : 1;
  uint32_t *nkids = calloc (n, sizeof *nkids);
  c->nchildren = calloc (n, sizeof *c->nchildren);
  c->children = calloc (n, sizeof *c->children);
  c->excl = calloc (n, sizeof *c->excl);
  c->incl = calloc (n, sizeof *c->incl);
  c->incl_calls = calloc (n, sizeof *c->incl_calls);
  c->fns = calloc (c->prof.nfns + 1, sizeof *c->fns);
  int ok = nkids && c->nchildren && c->children && c->excl && c->incl
           && c->incl_calls && c->fns;
  for (uint32_t i = 1; ok && i < c->prof.nnodes; i++)
    nkids[c->prof.nodes[i].parent]++;
  for (uint32_t i = 0; ok && i < c->prof.nnodes; i++)
    ok = (c->children[i] = malloc ((nkids[i] + 1) * sizeof **c->children))
         != NULL;
  free (nkids);
  return ok ? 0 : -1;
}

/* Each function's version among those of its name and source, and their
   number; the labels of those with several.  0, or -1 (out of memory).  */
static int
number_versions (pp_context *c)
{
  const ppc_profile *p = &c->prof;
  uint32_t n = p->nfns;
  c->version = calloc (n + 1, sizeof *c->version);
  c->nversions = calloc (n + 1, sizeof *c->nversions);
  c->label = calloc (n + 1, sizeof *c->label);
  if (!c->version || !c->nversions || !c->label)
    return -1;
  /* At most PPC_MAX_VERSIONS of each: quadratic only in name clashes.  */
  for (uint32_t f = 0; f < n; f++)
    for (uint32_t g = 0; g <= f; g++)
      if (!strcmp (p->fns[g].name, p->fns[f].name)
          && !strcmp (p->fns[g].source ? p->fns[g].source : "",
                      p->fns[f].source ? p->fns[f].source : ""))
        {
          if (g == f)
            c->version[f] = c->nversions[f] + 1;
          c->nversions[f]++;
          if (g != f)
            c->nversions[g]++;
        }
  /* A label for a function of several versions, or of a C++ name (shown
     demangled).  */
  for (uint32_t f = 0; f < n; f++)
    {
      char *dm = pp_demangle (p->fns[f].name);
      if (c->nversions[f] < 2)
        {
          c->label[f] = dm;
          continue;
        }
      c->nversioned += c->version[f] == 1;
      const char *name = dm ? dm : p->fns[f].name;
      size_t len = strlen (name) + 64;
      c->label[f] = malloc (len);
      if (c->label[f])
        snprintf (c->label[f], len, "%s (CFG %u of %u%s)", name,
                  (unsigned) c->version[f], (unsigned) c->nversions[f],
                  (p->fns[f].flags & PP_FN_OLDER) ? ", older build" : "");
      free (dm);
      if (!c->label[f])
        return -1;
    }
  return 0;
}

const char *
pp_context_fn_label (const pp_context *c, uint32_t fn)
{
  return c->label && c->label[fn] ? c->label[fn] : c->prof.fns[fn].name;
}

void
pp_context_notes (const pp_context *c, FILE *out)
{
  const ppc_profile *p = &c->prof;
  if (c->nversioned)
    fprintf (out, "note: %u function%s in several CFG versions (builds at "
             "other -O levels, or edits): each version's contexts and "
             "paths apart, \"(CFG k of n)\" after the name\n",
             (unsigned) c->nversioned, c->nversioned == 1 ? "" : "s");
  for (uint32_t m = 0; m < p->nmetrics; m++)
    if (p->metrics[m].runs < p->runs)
      fprintf (out, "note: %s measured in %llu of the %llu runs (the others "
               "were built with other -fprofile-paths-metric lists): its "
               "values are those runs' alone\n", p->metrics[m].name,
               (unsigned long long) p->metrics[m].runs,
               (unsigned long long) p->runs);
}

void
pp_context_json_version (const pp_context *c, uint32_t fn, FILE *out)
{
  if (!c->nversions || c->nversions[fn] < 2)
    return;
  fprintf (out, ", \"cfg_checksum\": %lu, \"cfg_version\": %u, "
           "\"cfg_versions\": %u, \"older\": %s",
           (unsigned long) c->prof.fns[fn].checksum, (unsigned) c->version[fn],
           (unsigned) c->nversions[fn],
           (c->prof.fns[fn].flags & PP_FN_OLDER) ? "true" : "false");
}

int
pp_context_load (pp_context *c, char **names, int count, int subtract_probes)
{
  memset (c, 0, sizeof *c);
  c->subtract_probes = subtract_probes;
  loader l = { c, 0 };
  if (pp_walk_inputs (names, count, ".ppc", add_file, &l) < 0)
    goto fail;
  if (l.count == 0)
    {
      fprintf (stderr, "ppprof: %s: no context profile (.ppc) found\n",
               count ? names[0] : ".");
      goto fail;
    }
  if (allocate (c) < 0 || number_versions (c) < 0)
    {
      fprintf (stderr, "ppprof: out of memory\n");
      goto fail;
    }
  pp_context_name_functions (c);
  derive (c);
  return 0;
fail:
  pp_context_free (c);
  return -1;
}

void
pp_context_free (pp_context *c)
{
  for (uint32_t i = 0; c->fn_key && i < c->prof.nfns; i++)
    free (c->fn_key[i]);
  free (c->fn_key);
  c->fn_key = NULL;
  for (uint32_t i = 0; c->children && i < c->prof.nnodes; i++)
    free (c->children[i]);
  for (uint32_t f = 0; c->fns && f < c->prof.nfns; f++)
    {
      pp_numbering_free (c->fns[f].numbering);
      free (c->fns[f].show_column);
      pp_spec_free (c->fns[f].spec);
    }
  for (uint32_t i = 0; c->site_source && i < c->prof.nnodes; i++)
    free (c->site_source[i]);
  free (c->site_source);
  for (uint32_t f = 0; c->label && f < c->prof.nfns; f++)
    free (c->label[f]);
  free (c->label);
  free (c->version);
  free (c->nversions);
  free (c->children);
  free (c->nchildren);
  free (c->excl);
  free (c->incl);
  free (c->incl_calls);
  free (c->fns);
  free ((char *) c->name);
  ppc_free (&c->prof);
  memset (c, 0, sizeof *c);
}

int
pp_context_metric (const pp_context *c, const char *name)
{
  for (uint32_t m = 0; m < c->prof.nmetrics; m++)
    if (!strcmp (c->prof.metrics[m].name, name))
      return (int) m;
  fprintf (stderr, "ppprof: %s: no metric '%s' (the profile has", c->name,
           name);
  for (uint32_t m = 0; m < c->prof.nmetrics; m++)
    fprintf (stderr, "%s %s", m ? "," : "", c->prof.metrics[m].name);
  fprintf (stderr, "%s)\n", c->prof.nmetrics ? "" : " none");
  return -1;
}

int
pp_context_measured (const pp_context *c, int m)
{
  return strcmp (c->prof.metrics[m].source, "unavailable") != 0;
}

uint64_t
pp_context_path_metric (const pp_context *c, uint32_t n, const ppc_path *p,
                        int m)
{
  if (!c->subtract_probes || n == 0)
    return p->metric[m];
  return less_cost (p->metric[m],
                    (double) p->count * c->prof.metrics[m].path_cost);
}

/* Parses and numbers function F's metadata, once.  */
static int
prepare (pp_context *c, uint32_t f)
{
  pp_report_fn *fn = &c->fns[f];
  if (fn->numbering)
    return 0;
  const ppc_fn *src = &c->prof.fns[f];
  char err[512];
  if (src->meta_len == 0)
    {
      pp_report_no_meta (c->name, src->name);
      return -1;
    }
  pp_spec *spec = pp_spec_parse_string (src->meta, src->meta_len, c->name,
                                        err, sizeof err);
  if (!spec || spec->num_fns != 1 || !spec->fns[0].graph)
    {
      fprintf (stderr, "ppprof: %s: metadata of function '%s': %s\n",
               c->name, src->name, spec ? "no graph" : err);
      pp_spec_free (spec);
      return -1;
    }
  pp_spec_free (fn->spec);
  fn->spec = spec;
  fn->name = src->name;
  fn->file = spec->fns[0].file ? spec->fns[0].file : src->source;
  fn->profile = c->name;
  fn->checksum = src->checksum;
  fn->flags = src->flags; /* PP_FN_IPP: paths by segment */
  fn->num_paths = src->num_paths;
  return pp_report_number (fn);
}

int
pp_context_path_lines (pp_context *c, uint32_t fn, uint64_t id,
                       pp_report_path *out)
{
  memset (out, 0, sizeof *out);
  out->id = id;
  if (prepare (c, fn) < 0)
    return -1;
  if (pp_report_regenerate (&c->fns[fn], out) < 0)
    {
      fprintf (stderr, "ppprof: %s: function '%s': path id %llu out of "
               "range\n", c->name, c->prof.fns[fn].name,
               (unsigned long long) id);
      return -1;
    }
  return 0;
}

void
pp_context_path_free (pp_report_path *p)
{
  pp_report_path_free (p);
}

const char *
pp_context_fn_file (const pp_context *c, uint32_t fn)
{
  if (c->fns[fn].file)
    return c->fns[fn].file;
  return c->prof.fns[fn].source ? c->prof.fns[fn].source : "";
}
