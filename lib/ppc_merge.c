/* The .ppc codec, merging: two context profiles into one, contexts
   matched by parent, function and call site, functions by name and source
   (hash indexes: whole-program trees have many thousands of contexts);
   metrics matched by name, a metric one side could not measure stays
   unavailable.  */
#include "ppc_internal.h"
#include "pp/sat.h"
#include "file_io.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Open addressing over indices (UINT32_MAX: empty), for the functions of
   INTO by name and source, and its nodes by parent, function and site:
   whole-program trees have many thousands of contexts.  */
typedef struct
{
  uint32_t *slot;
  size_t mask;
} ppc_index;

static int
ppc_index_init (ppc_index *ix, size_t n)
{
  size_t cap = 16;
  while (cap < 2 * n + 2)
    cap *= 2;
  ix->slot = malloc (cap * sizeof *ix->slot);
  ix->mask = cap - 1;
  if (!ix->slot)
    return -1;
  memset (ix->slot, 0xff, cap * sizeof *ix->slot);
  return 0;
}

static uint64_t
ppc_hash_str (uint64_t h, const char *s)
{
  s = s ? s : "";
  for (; *s; s++)
    h = (h ^ (unsigned char) *s) * 1099511628211ull;
  return (h ^ 0xff) * 1099511628211ull;
}

static uint64_t
ppc_hash_u32 (uint64_t h, uint32_t v)
{
  for (int i = 0; i < 4; i++)
    h = (h ^ ((v >> (8 * i)) & 0xff)) * 1099511628211ull;
  return h;
}

static int
ppc_streq (const char *a, const char *b)
{
  return !strcmp (a ? a : "", b ? b : "");
}

static uint64_t
ppc_fn_key (const ppc_fn *f)
{
  return ppc_hash_str (ppc_hash_str (14695981039346656037ull, f->name),
                       f->source);
}

static uint64_t
ppc_node_key (uint32_t parent, uint32_t fn, const char *site)
{
  uint64_t h = ppc_hash_u32 (14695981039346656037ull, parent);
  return ppc_hash_str (ppc_hash_u32 (h, fn), site);
}

/* The slot where F's function is, or the empty one where it would go.  */
static size_t
ppc_find_fn (const ppc_index *ix, const ppc_fn *fns, const ppc_fn *f)
{
  size_t s = (size_t) ppc_fn_key (f) & ix->mask;
  while (ix->slot[s] != UINT32_MAX
         && !(ppc_streq (fns[ix->slot[s]].name, f->name)
              && ppc_streq (fns[ix->slot[s]].source, f->source)))
    s = (s + 1) & ix->mask;
  return s;
}

static size_t
ppc_find_node (const ppc_index *ix, const ppc_node *nodes, uint32_t parent,
               uint32_t fn, const char *site)
{
  size_t s = (size_t) ppc_node_key (parent, fn, site) & ix->mask;
  while (ix->slot[s] != UINT32_MAX
         && !(nodes[ix->slot[s]].parent == parent
              && nodes[ix->slot[s]].fn == fn
              && ppc_streq (nodes[ix->slot[s]].site, site)))
    s = (s + 1) & ix->mask;
  return s;
}

static char *
ppc_strdup (const char *s, size_t n)
{
  char *d = malloc (n + 1);
  if (d)
    {
      memcpy (d, s ? s : "", n);
      d[n] = '\0';
    }
  return d;
}

static char *
ppc_strdup0 (const char *s)
{
  return ppc_strdup (s, s ? strlen (s) : 0);
}

static int
ppc_copy_fn (ppc_fn *dst, const ppc_fn *src)
{
  *dst = *src;
  dst->name = ppc_strdup0 (src->name);
  dst->source = ppc_strdup0 (src->source);
  dst->meta = ppc_strdup (src->meta, src->meta ? src->meta_len : 0);
  dst->meta_len = src->meta ? src->meta_len : 0;
  if (dst->name && dst->source && dst->meta)
    return 0;
  free (dst->name);
  free (dst->source);
  free (dst->meta);
  return -1;
}

/* A's and B's paths, ascending by id, into a new array.  */
static ppc_path *
ppc_merge_paths (const ppc_node *a, const ppc_node *b, uint64_t *n)
{
  ppc_path *out = malloc ((a->npaths + b->npaths + 1) * sizeof *out);
  if (!out)
    return NULL;
  uint64_t i = 0, j = 0, k = 0;
  while (i < a->npaths || j < b->npaths)
    {
      if (j == b->npaths || (i < a->npaths && a->paths[i].id < b->paths[j].id))
        out[k++] = a->paths[i++];
      else if (i == a->npaths || b->paths[j].id < a->paths[i].id)
        out[k++] = b->paths[j++];
      else
        {
          out[k] = a->paths[i++];
          out[k].count = pp_add_sat (out[k].count, b->paths[j].count);
          for (int m = 0; m < PPC_MAX_METRICS; m++)
            out[k].metric[m] = pp_add_sat (out[k].metric[m],
                                            b->paths[j].metric[m]);
          j++, k++;
        }
    }
  *n = k;
  return out;
}

static int
ppc_add_node (ppc_node *dst, const ppc_node *src)
{
  uint64_t n;
  ppc_path *paths = ppc_merge_paths (dst, src, &n);
  if (!paths)
    return -1;
  free (dst->paths);
  dst->paths = paths;
  dst->npaths = n;
  dst->calls = pp_add_sat (dst->calls, src->calls);
  dst->recursive = pp_add_sat (dst->recursive, src->recursive);
  for (int m = 0; m < PPC_MAX_METRICS; m++)
    dst->excl[m] = pp_add_sat (dst->excl[m], src->excl[m]);
  return 0;
}

static int
ppc_unavailable (const ppc_metric *m)
{
  return ppc_streq (m->source, PPC_UNAVAILABLE);
}

/* Whether the comma-separated LIST holds S.  */
static int
ppc_list_has (const char *list, const char *s)
{
  size_t n = strlen (s);
  if (n == 0)
    return 1;
  for (const char *p = list; p; p = strchr (p, ','), p = p ? p + 1 : NULL)
    if (!strncmp (p, s, n) && (p[n] == ',' || p[n] == '\0'))
      return 1;
  return 0;
}

/* The description of INTO's metric M after adding FROM's (same name):
   the sources listed once each ("tsc,clock_gettime"), the unit of the
   runs that measured, and the probe costs averaged over the runs.  0, or
   -1 with *WHY (units differ, out of memory).  */
static int
ppc_merge_metric (ppc_metric *res, const ppc_profile *into,
                  const ppc_profile *from, uint32_t m, const char **why)
{
  const ppc_metric *a = &into->metrics[m], *b = &from->metrics[m];
  const char *as = a->source ? a->source : "", *bs = b->source ? b->source : "";
  memset (res, 0, sizeof *res);
  int a_off = ppc_unavailable (a), b_off = ppc_unavailable (b);
  if (!a_off && !b_off && !ppc_streq (a->unit, b->unit))
    {
      *why = ppc_whyf ("metric '%s' in %s here and in %s there", a->name,
                       a->unit ? a->unit : "", b->unit ? b->unit : "");
      return -1;
    }
  const ppc_metric *measured = a_off && !b_off ? b : a;
  res->name = ppc_strdup0 (a->name);
  res->unit = ppc_strdup0 (measured->unit);
  if (ppc_list_has (as, bs))
    res->source = ppc_strdup0 (as);
  else if ((res->source = malloc (strlen (as) + strlen (bs) + 2)))
    sprintf (res->source, "%s,%s", as, bs);
  if (!res->name || !res->unit || !res->source)
    {
      free (res->name);
      free (res->unit);
      free (res->source);
      *why = "out of memory";
      return -1;
    }
  double ra = (double) into->runs, rb = (double) from->runs;
  if (a != b && !a_off && !b_off && ra + rb > 0)
    {
      res->enter_exit_cost = (a->enter_exit_cost * ra
                              + b->enter_exit_cost * rb) / (ra + rb);
      res->path_cost = (a->path_cost * ra + b->path_cost * rb) / (ra + rb);
    }
  else
    {
      res->enter_exit_cost = measured->enter_exit_cost;
      res->path_cost = measured->path_cost;
    }
  return 0;
}

static int
ppc_empty (const ppc_profile *p)
{
  return p->runs == 0 && p->nmetrics == 0 && p->nfns == 0 && p->nnodes == 0;
}

/* FROM must be a well-formed tree (as decoded): the merge relies on it.  */
static int
ppc_well_formed (const ppc_profile *p)
{
  if (p->nmetrics > PPC_MAX_METRICS)
    return 0;
  for (uint32_t i = 0; i < p->nnodes; i++)
    if (i == 0 ? p->nodes[0].fn != PPC_NO_FN
               : p->nodes[i].parent >= i || p->nodes[i].fn >= p->nfns)
      return 0;
  return 1;
}

/* Functions: FNMAP[f] is INTO's index of FROM's function f.  */
static int
ppc_merge_fns (ppc_profile *into, const ppc_profile *from, uint32_t *fnmap,
               void (*warn) (void *ctx, const char *fn_name), void *ctx)
{
  ppc_fn *fns = realloc (into->fns, ((size_t) into->nfns + from->nfns + 1)
                                        * sizeof *fns);
  if (!fns)
    return -1;
  into->fns = fns;
  ppc_index ix;
  if (ppc_index_init (&ix, (size_t) into->nfns + from->nfns) < 0)
    return -1;
  for (uint32_t f = 0; f < into->nfns; f++)
    ix.slot[ppc_find_fn (&ix, fns, &fns[f])] = f;
  char *replaced = calloc ((size_t) into->nfns + 1, 1);
  if (!replaced)
    {
      free (ix.slot);
      return -1;
    }
  int rc = 0;
  uint32_t old_nfns = into->nfns;
  for (uint32_t f = 0; f < from->nfns && rc == 0; f++)
    {
      const ppc_fn *src = &from->fns[f];
      size_t s = ppc_find_fn (&ix, fns, src);
      uint32_t g = ix.slot[s];
      if (g != UINT32_MAX && fns[g].checksum == src->checksum)
        {
          fns[g].flags |= src->flags;
          fnmap[f] = g;
          continue;
        }
      ppc_fn copy;
      if (ppc_copy_fn (&copy, src) < 0)
        {
          rc = -1;
          break;
        }
      if (g != UINT32_MAX)
        {
          /* Another CFG (the program was rebuilt): as gcov does, the
             newer profile's function wins; the paths counted against the
             old CFG mean nothing now.  */
          if (warn)
            warn (ctx, src->name);
          free (fns[g].name);
          free (fns[g].source);
          free (fns[g].meta);
          fns[g] = copy;
          if (g < old_nfns)
            replaced[g] = 1;
        }
      else
        {
          g = into->nfns++;
          fns[g] = copy;
          ix.slot[s] = g;
        }
      fnmap[f] = g;
    }
  for (uint32_t i = 0; i < into->nnodes && rc == 0; i++)
    if (into->nodes[i].fn < old_nfns && replaced[into->nodes[i].fn])
      {
        free (into->nodes[i].paths);
        into->nodes[i].paths = NULL;
        into->nodes[i].npaths = 0;
      }
  free (replaced);
  free (ix.slot);
  return rc;
}

/* Nodes: FROM's node i goes to INTO's node map[i], matched by parent (as
   mapped), function and call site; parents come first in both lists, so
   a new node's parent is always placed already.  */
static int
ppc_merge_nodes (ppc_profile *into, const ppc_profile *from,
                 const uint32_t *fnmap)
{
  if (from->nnodes == 0)
    return 0;
  ppc_node *nodes = realloc (into->nodes, ((size_t) into->nnodes
                                           + from->nnodes + 1)
                                              * sizeof *nodes);
  if (!nodes)
    return -1;
  into->nodes = nodes;
  if (into->nnodes == 0)
    {
      memset (&nodes[0], 0, sizeof nodes[0]);
      nodes[0].fn = PPC_NO_FN;
      nodes[0].parent = UINT32_MAX;
      if (!(nodes[0].site = ppc_strdup0 ("")))
        return -1;
      into->nnodes = 1;
    }
  uint32_t *map = malloc ((size_t) from->nnodes * sizeof *map);
  ppc_index ix;
  if (!map || ppc_index_init (&ix, (size_t) into->nnodes + from->nnodes) < 0)
    {
      free (map);
      return -1;
    }
  for (uint32_t i = 1; i < into->nnodes; i++)
    ix.slot[ppc_find_node (&ix, nodes, nodes[i].parent, nodes[i].fn,
                           nodes[i].site)] = i;
  int rc = ppc_add_node (&nodes[0], &from->nodes[0]);
  map[0] = 0;
  for (uint32_t i = 1; i < from->nnodes && rc == 0; i++)
    {
      const ppc_node *src = &from->nodes[i];
      uint32_t parent = map[src->parent], fn = fnmap[src->fn];
      size_t s = ppc_find_node (&ix, nodes, parent, fn, src->site);
      uint32_t j = ix.slot[s];
      if (j == UINT32_MAX)
        {
          j = into->nnodes;
          ppc_node *d = &nodes[j];
          memset (d, 0, sizeof *d);
          d->parent = parent;
          d->fn = fn;
          if (!(d->site = ppc_strdup0 (src->site)))
            {
              rc = -1;
              break;
            }
          into->nnodes++;
          ix.slot[s] = j;
        }
      map[i] = j;
      rc = ppc_add_node (&nodes[j], src);
    }
  free (ix.slot);
  free (map);
  return rc;
}

/* Objects by name; FROM's path and build id (the later run's) win.  */
static int
ppc_merge_objects (ppc_profile *into, const ppc_profile *from)
{
  if (from->nobjects == 0)
    return 0;
  ppc_object *obs = realloc (into->objects, ((size_t) into->nobjects
                                             + from->nobjects)
                                                * sizeof *obs);
  if (!obs)
    return -1;
  into->objects = obs;
  for (uint32_t i = 0; i < from->nobjects; i++)
    {
      const ppc_object *src = &from->objects[i];
      uint32_t j = 0;
      while (j < into->nobjects && !ppc_streq (obs[j].name, src->name))
        j++;
      char *name = ppc_strdup0 (src->name), *path = ppc_strdup0 (src->path);
      char *id = ppc_strdup0 (src->build_id);
      if (!name || !path || !id)
        {
          free (name);
          free (path);
          free (id);
          return -1;
        }
      if (j == into->nobjects)
        into->nobjects++;
      else
        {
          free (obs[j].name);
          free (obs[j].path);
          free (obs[j].build_id);
        }
      obs[j] = (ppc_object) { name, path, id };
    }
  return 0;
}

/* ppc_merge, with WARN (may be NULL) called with the name of each
   function whose CFG checksum differs between the two (INTO's is then
   replaced by FROM's, its paths dropped in every context, as ppd_merge
   does).  Functions are the same when name and source file agree: a
   program may hold several static functions of one name.  */
PPC_API int
ppc_merge_warn (ppc_profile *into, const ppc_profile *from,
                void (*warn) (void *ctx, const char *fn_name), void *ctx,
                const char **why)
{
  if (!ppc_well_formed (from) || !ppc_well_formed (into))
    {
      *why = "malformed profile";
      return -1;
    }
  if (ppc_empty (from))
    return 0;
  int fresh = ppc_empty (into);
  if (!fresh && into->cct != from->cct)
    {
      *why = "a calling context tree and a flat profile cannot merge";
      return -1;
    }
  int same = into->nmetrics == from->nmetrics;
  for (uint32_t m = 0; same && m < from->nmetrics; m++)
    same = ppc_streq (into->metrics[m].name, from->metrics[m].name);
  if (!fresh && !same)
    {
      *why = "the metric lists differ (programs built with another "
             "-fprofile-paths-metric)";
      return -1;
    }
  /* The new metric descriptions first: once they exist, nothing can
     refuse the merge.  A fresh INTO takes FROM's (merged with
     themselves: copies).  */
  ppc_metric metrics[PPC_MAX_METRICS];
  uint32_t nm = from->nmetrics;
  for (uint32_t m = 0; m < nm; m++)
    if (ppc_merge_metric (&metrics[m], fresh ? from : into, from, m, why)
        < 0)
      {
        for (uint32_t k = 0; k < m; k++)
          {
            free (metrics[k].name);
            free (metrics[k].source);
            free (metrics[k].unit);
          }
        return -1;
      }
  for (uint32_t m = 0; m < into->nmetrics; m++)
    {
      free (into->metrics[m].name);
      free (into->metrics[m].source);
      free (into->metrics[m].unit);
    }
  memcpy (into->metrics, metrics, nm * sizeof *metrics);
  into->nmetrics = nm;
  if (fresh)
    into->cct = from->cct;

  /* Out of memory from here on leaves INTO consistent, partly merged.  */
  uint32_t *fnmap = malloc (((size_t) from->nfns + 1) * sizeof *fnmap);
  if (!fnmap || ppc_merge_fns (into, from, fnmap, warn, ctx) < 0
      || ppc_merge_nodes (into, from, fnmap) < 0
      || ppc_merge_objects (into, from) < 0)
    {
      free (fnmap);
      *why = "out of memory";
      return -1;
    }
  free (fnmap);
  /* After the costs' average, which weighs by the runs before.  */
  into->runs = pp_add_sat (into->runs, from->runs);
  return 0;
}

PPC_API int
ppc_merge (ppc_profile *into, const ppc_profile *from, const char **why)
{
  return ppc_merge_warn (into, from, NULL, NULL, why);
}

/* ---------------------------------------------------------------- files */
