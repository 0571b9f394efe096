/* The .ppc codec, merging: two context profiles into one, contexts
   matched by parent, function and call site, functions by name and source
   (hash indexes: whole-program trees have many thousands of contexts);
   metrics matched by name, a metric one side could not measure stays
   unavailable.  */
#include "ppc_internal.h"
#include "pp/sat.h"
#include "pp/rt_abi.h"
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

/* The slot where F's function is in F's CFG version, or the empty one
   where it would go (the key hashes name and source: a function's
   versions share a probe sequence).  */
static size_t
ppc_find_fn (const ppc_index *ix, const ppc_fn *fns, const ppc_fn *f)
{
  size_t s = (size_t) ppc_fn_key (f) & ix->mask;
  while (ix->slot[s] != UINT32_MAX
         && !(ppc_streq (fns[ix->slot[s]].name, f->name)
              && ppc_streq (fns[ix->slot[s]].source, f->source)
              && fns[ix->slot[s]].checksum == f->checksum))
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

/* Where FROM's metrics go in the merged profile: FROM's metric m is
   metric to[m] of the result (INTO's keep their places).  */
typedef struct
{
  uint32_t n;
  uint32_t to[PPC_MAX_METRICS];
} ppc_mmap;

/* P's metrics moved to their places in the result.  */
static ppc_path
ppc_mapped_path (const ppc_path *p, const ppc_mmap *mm)
{
  ppc_path q = { p->id, p->count, { 0 } };
  for (uint32_t m = 0; m < mm->n; m++)
    q.metric[mm->to[m]] = p->metric[m];
  return q;
}

/* A's and B's paths (B's metrics mapped by MM), ascending by id, into a
   new array.  */
static ppc_path *
ppc_merge_paths (const ppc_node *a, const ppc_node *b, const ppc_mmap *mm,
                 uint64_t *n)
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
        out[k++] = ppc_mapped_path (&b->paths[j++], mm);
      else
        {
          ppc_path q = ppc_mapped_path (&b->paths[j++], mm);
          out[k] = a->paths[i++];
          out[k].count = pp_add_sat (out[k].count, q.count);
          for (int m = 0; m < PPC_MAX_METRICS; m++)
            out[k].metric[m] = pp_add_sat (out[k].metric[m], q.metric[m]);
          k++;
        }
    }
  *n = k;
  return out;
}

/* A's and B's leaf PCs, ascending by offset, into a new array; *N their
   number.  NULL when out of memory.  */
static ppc_leaf *
ppc_merge_leaves (const ppc_node *a, const ppc_node *b, uint64_t *n)
{
  ppc_leaf *out = malloc ((a->nleaves + b->nleaves + 1) * sizeof *out);
  if (!out)
    return NULL;
  uint64_t i = 0, j = 0, k = 0;
  while (i < a->nleaves || j < b->nleaves)
    if (j == b->nleaves
        || (i < a->nleaves && a->leaves[i].offset < b->leaves[j].offset))
      out[k++] = a->leaves[i++];
    else if (i == a->nleaves || b->leaves[j].offset < a->leaves[i].offset)
      out[k++] = b->leaves[j++];
    else
      {
        out[k] = a->leaves[i++];
        out[k].samples = pp_add_sat (out[k].samples, b->leaves[j++].samples);
        k++;
      }
  *n = k;
  return out;
}

static int
ppc_add_node (ppc_node *dst, const ppc_node *src, const ppc_mmap *mm)
{
  uint64_t n;
  ppc_path *paths = ppc_merge_paths (dst, src, mm, &n);
  if (!paths)
    return -1;
  free (dst->paths);
  dst->paths = paths;
  dst->npaths = n;
  if (src->nleaves)
    {
      ppc_leaf *leaves = ppc_merge_leaves (dst, src, &n);
      if (!leaves)
        return -1;
      free (dst->leaves);
      dst->leaves = leaves;
      dst->nleaves = n;
    }
  dst->calls = pp_add_sat (dst->calls, src->calls);
  dst->recursive = pp_add_sat (dst->recursive, src->recursive);
  for (uint32_t m = 0; m < mm->n; m++)
    dst->excl[mm->to[m]] = pp_add_sat (dst->excl[mm->to[m]], src->excl[m]);
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

PPC_INTERNAL void
ppc_free_metric (ppc_metric *m)
{
  free (m->name);
  free (m->source);
  free (m->unit);
}

/* The description of metric A after adding B's runs (same name): the
   sources listed once each ("tsc,clock_gettime"), the unit of the runs
   that measured, the probe costs averaged over the runs, the runs added.
   B alone (A NULL): a copy.  0, or -1 with *WHY (units differ, out of
   memory).  */
PPC_INTERNAL int
ppc_merge_metric (ppc_metric *res, const ppc_metric *a, const ppc_metric *b,
                  const char **why)
{
  memset (res, 0, sizeof *res);
  if (!a)
    a = b;
  const char *as = a->source ? a->source : "", *bs = b->source ? b->source : "";
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
      ppc_free_metric (res);
      *why = "out of memory";
      return -1;
    }
  double ra = (double) a->runs, rb = (double) b->runs;
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
  res->runs = a != b ? pp_add_sat (a->runs, b->runs) : b->runs;
  return 0;
}

/* FROM's metric named NAME, or NULL.  */
static const ppc_metric *
ppc_metric_named (const ppc_profile *p, const char *name, uint32_t *at)
{
  for (uint32_t m = 0; m < p->nmetrics; m++)
    if (ppc_streq (p->metrics[m].name, name))
      {
        if (at)
          *at = m;
        return &p->metrics[m];
      }
  return NULL;
}

/* The metrics of INTO and FROM by name (a program rebuilt with another
   -fprofile-paths-metric list still adds its paths and calls): INTO's in
   their places, then FROM's others; MM says where FROM's go.  Built
   aside, then put in INTO: 0; -1 with *WHY, INTO unchanged, when they
   are more than PPC_MAX_METRICS or a metric's units differ.  */
static int
ppc_merge_metrics (ppc_profile *into, const ppc_profile *from, ppc_mmap *mm,
                   const char **why)
{
  uint32_t n = into->nmetrics;
  for (uint32_t m = 0; m < from->nmetrics; m++)
    if (!ppc_metric_named (into, from->metrics[m].name, NULL))
      n++;
  if (n > PPC_MAX_METRICS)
    {
      *why = ppc_whyf ("more than %d metrics in all (programs built with "
                       "other -fprofile-paths-metric lists)",
                       PPC_MAX_METRICS);
      return -1;
    }
  ppc_metric res[PPC_MAX_METRICS];
  uint32_t k = 0;
  int rc = 0;
  for (uint32_t m = 0; m < into->nmetrics && rc == 0; m++)
    {
      const ppc_metric *a = &into->metrics[m];
      uint32_t j;
      const ppc_metric *b = ppc_metric_named (from, a->name, &j);
      if (b)
        mm->to[j] = k;
      rc = ppc_merge_metric (&res[k], b ? a : NULL, b ? b : a, why);
      k += rc == 0;
    }
  for (uint32_t m = 0; m < from->nmetrics && rc == 0; m++)
    if (!ppc_metric_named (into, from->metrics[m].name, NULL))
      {
        mm->to[m] = k;
        rc = ppc_merge_metric (&res[k], NULL, &from->metrics[m], why);
        k += rc == 0;
      }
  if (rc < 0)
    {
      while (k > 0)
        ppc_free_metric (&res[--k]);
      return -1;
    }
  for (uint32_t m = 0; m < into->nmetrics; m++)
    ppc_free_metric (&into->metrics[m]);
  memcpy (into->metrics, res, k * sizeof *res);
  into->nmetrics = k;
  mm->n = from->nmetrics;
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

/* Whether F and G are versions of one function: name and source agree
   (a program may have several static functions of one name).  */
static int
ppc_same_fn (const ppc_fn *f, const ppc_fn *g)
{
  return ppc_streq (f->name, g->name) && ppc_streq (f->source, g->source);
}

/* The flags of one version after adding another run's: PP_FN_OLDER only
   when both are older (as ppd_merge does).  */
static uint32_t
ppc_add_flags (uint32_t a, uint32_t b)
{
  return ((a | b) & ~PP_FN_OLDER) | (a & b & PP_FN_OLDER);
}

/* FNS[G] is the latest build's version of its function: the versions
   INTO had before this merge (below OLD_N) other than G become older.
   A function's versions are all on the probe sequence of its key in IX
   (name and source), which is walked instead of every function: the scan
   of all was quadratic (sqlite3's 1186 functions: 1.4 million string
   compares, 58 M instructions, a sixth of its profile's write).  */
static void
ppc_make_current (const ppc_index *ix, ppc_fn *fns, uint32_t old_n,
                  uint32_t g, const char *drop)
{
  for (size_t s = (size_t) ppc_fn_key (&fns[g]) & ix->mask;
       ix->slot[s] != UINT32_MAX; s = (s + 1) & ix->mask)
    {
      uint32_t h = ix->slot[s];
      if (h < old_n && h != g && !drop[h] && ppc_same_fn (&fns[h], &fns[g]))
        fns[h].flags |= PP_FN_OLDER;
    }
}

/* After FNS[G] (N records) was added: a function in more than
   PPC_MAX_VERSIONS versions loses its oldest, an older one first, the
   first in the list (added longest ago) among them; DROP marks it.  */
static void
ppc_drop_excess (const ppc_index *ix, ppc_fn *fns, uint32_t g, char *drop,
                 void (*warn) (void *ctx, const char *fn_name), void *ctx)
{
  uint32_t versions = 0, older = UINT32_MAX, other = UINT32_MAX;
  for (size_t s = (size_t) ppc_fn_key (&fns[g]) & ix->mask;
       ix->slot[s] != UINT32_MAX; s = (s + 1) & ix->mask)
    {
      uint32_t h = ix->slot[s];
      if (drop[h] || !ppc_same_fn (&fns[h], &fns[g]))
        continue;
      versions++;
      if (h != g && (fns[h].flags & PP_FN_OLDER) && h < older)
        older = h;
      if (h != g && h < other)
        other = h;
    }
  if (versions <= PPC_MAX_VERSIONS)
    return;
  if (warn)
    warn (ctx, fns[g].name);
  drop[older != UINT32_MAX ? older : other] = 1;
}

/* Removes the functions DROP marks and INTO's nodes of them with their
   subtrees (the contexts of a build no longer kept), renumbering the
   rest; FNMAP's entries of dropped functions become PPC_NO_FN.  0, or -1
   when out of memory (nothing removed).  */
static int
ppc_prune (ppc_profile *into, const char *drop, uint32_t *fnmap,
           uint32_t nfrom)
{
  uint32_t *fnew = malloc (((size_t) into->nfns + 1) * sizeof *fnew);
  uint32_t *nnew = malloc (((size_t) into->nnodes + 1) * sizeof *nnew);
  if (!fnew || !nnew)
    {
      free (fnew);
      free (nnew);
      return -1;
    }
  uint32_t k = 0;
  for (uint32_t g = 0; g < into->nfns; g++)
    fnew[g] = drop[g] ? PPC_NO_FN : k++;
  /* Parents come before children: one pass keeps a node whose function
     stays and whose parent was kept, moved down to its new index.  */
  uint32_t j = 0;
  for (uint32_t i = 0; i < into->nnodes; i++)
    {
      ppc_node nd = into->nodes[i];
      if (i > 0 && (fnew[nd.fn] == PPC_NO_FN || nnew[nd.parent] == UINT32_MAX))
        {
          nnew[i] = UINT32_MAX;
          free (nd.site);
          free (nd.paths);
          free (nd.leaves);
          continue;
        }
      if (i > 0)
        {
          nd.fn = fnew[nd.fn];
          nd.parent = nnew[nd.parent];
        }
      nnew[i] = j;
      into->nodes[j++] = nd;
    }
  into->nnodes = j;
  k = 0;
  for (uint32_t g = 0; g < into->nfns; g++)
    if (drop[g])
      {
        free (into->fns[g].name);
        free (into->fns[g].source);
        free (into->fns[g].meta);
      }
    else
      into->fns[k++] = into->fns[g];
  for (uint32_t f = 0; f < nfrom; f++)
    fnmap[f] = fnew[fnmap[f]];
  into->nfns = k;
  free (fnew);
  free (nnew);
  return 0;
}

/* Functions: FNMAP[f] is INTO's index of FROM's function f (PPC_NO_FN
   when that version is dropped).  Versions match by name, source and CFG
   checksum; FROM's latest build makes INTO's other versions older.  */
static int
ppc_merge_fns (ppc_profile *into, const ppc_profile *from, uint32_t *fnmap,
               void (*warn) (void *ctx, const char *fn_name), void *ctx)
{
  size_t max = (size_t) into->nfns + from->nfns;
  ppc_fn *fns = realloc (into->fns, (max + 1) * sizeof *fns);
  if (!fns)
    return -1;
  into->fns = fns;
  ppc_index ix;
  if (ppc_index_init (&ix, max) < 0)
    return -1;
  char *drop = calloc (max + 1, 1);
  if (!drop)
    {
      free (ix.slot);
      return -1;
    }
  for (uint32_t f = 0; f < into->nfns; f++)
    ix.slot[ppc_find_fn (&ix, fns, &fns[f])] = f;
  int rc = 0;
  uint32_t old_n = into->nfns;
  for (uint32_t f = 0; f < from->nfns && rc == 0; f++)
    {
      const ppc_fn *src = &from->fns[f];
      size_t s = ppc_find_fn (&ix, fns, src);
      uint32_t g = ix.slot[s];
      if (g != UINT32_MAX && !drop[g])
        fns[g].flags = ppc_add_flags (fns[g].flags, src->flags);
      else
        {
          ppc_fn copy;
          if (ppc_copy_fn (&copy, src) < 0)
            {
              rc = -1;
              break;
            }
          g = into->nfns++;
          fns[g] = copy;
          ix.slot[s] = g;
        }
      if (!(src->flags & PP_FN_OLDER))
        ppc_make_current (&ix, fns, old_n, g, drop);
      if (g >= old_n)
        ppc_drop_excess (&ix, fns, g, drop, warn, ctx);
      fnmap[f] = g;
    }
  free (ix.slot);
  int any = 0;
  for (uint32_t g = 0; g < into->nfns; g++)
    any |= drop[g];
  if (rc == 0 && any)
    rc = ppc_prune (into, drop, fnmap, from->nfns);
  free (drop);
  return rc;
}

/* Nodes: FROM's node i goes to INTO's node map[i], matched by parent (as
   mapped), function and call site; parents come first in both lists, so
   a new node's parent is always placed already.  A node of a function
   version dropped (FNMAP: PPC_NO_FN) is left out with its subtree.  */
static int
ppc_merge_nodes (ppc_profile *into, const ppc_profile *from,
                 const uint32_t *fnmap, const ppc_mmap *mm)
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
  int rc = ppc_add_node (&nodes[0], &from->nodes[0], mm);
  map[0] = 0;
  for (uint32_t i = 1; i < from->nnodes && rc == 0; i++)
    {
      const ppc_node *src = &from->nodes[i];
      uint32_t parent = map[src->parent], fn = fnmap[src->fn];
      if (parent == UINT32_MAX || fn == PPC_NO_FN)
        {
          map[i] = UINT32_MAX;
          continue;
        }
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
      rc = ppc_add_node (&nodes[j], src, mm);
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
   function whose oldest CFG version is dropped (a fifth checksum of it).
   Functions are the same when name and source file agree (a program may
   hold several static functions of one name), and each CFG checksum of
   one is its own version, with its own contexts, as ppd_merge keeps
   them.  */
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
  /* The metrics first: once they are merged, nothing can refuse the
     merge.  */
  ppc_mmap mm;
  if (ppc_merge_metrics (into, from, &mm, why) < 0)
    return -1;
  if (fresh)
    into->cct = from->cct;

  /* Out of memory from here on leaves INTO consistent, partly merged.  */
  uint32_t *fnmap = malloc (((size_t) from->nfns + 1) * sizeof *fnmap);
  if (!fnmap || ppc_merge_fns (into, from, fnmap, warn, ctx) < 0
      || ppc_merge_nodes (into, from, fnmap, &mm) < 0
      || ppc_merge_objects (into, from) < 0)
    {
      free (fnmap);
      *why = "out of memory";
      return -1;
    }
  free (fnmap);
  into->runs = pp_add_sat (into->runs, from->runs);
  return 0;
}

PPC_API int
ppc_merge (ppc_profile *into, const ppc_profile *from, const char **why)
{
  return ppc_merge_warn (into, from, NULL, NULL, why);
}

/* ---------------------------------------------------------------- files */
