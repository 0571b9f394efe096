/* Writing the calling context trees as a .ppc (include/pp/ppc.h): every
   thread's tree merged context by context (key: parent context, function,
   call site), merged with what the file holds, written atomically.  Runs
   under pprt.c's dump lock, at exit and on __pp_dump.

   Call sites are "<object basename>+0x<offset>" of the return address
   (dl_iterate_phdr, once per dump: loaded_objects.c), so that runs of
   the same binary agree; the callees of a thread's root get "", calls
   inlined into their caller "inlined".

   What it writes comes as an argument (struct cct_dump_in, cct.h): this
   file reads no state of cct.c, and of the core only its file naming and
   metadata (mode.h) and the database's paths (db_write.h).  */
#define _GNU_SOURCE
#include "lib_in_runtime.h"
#include "pp/ppc.h"
#include "file_io.h"
#include "pp/sat.h"

#include "cct.h"
#include "loaded_objects.h"
#include "next_nonzero.h"
#include "db_write.h"
#include "mode.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t
mix (uint64_t h, uint64_t v)
{
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h ^= h >> 31;
  return h * 0xbf58476d1ce4e5b9ull;
}

/* ------------------------------------------------- a small index map */

/* Open addressing over indices into the caller's array: slot holds
   index + 1.  The caller supplies the hash of an index and compares.  */
struct imap
{
  uint32_t *slot;
  uint64_t *hash; /* per slot, the element's hash */
  size_t cap, n;
};

/* The home slot of hash H: its high half folded in (mix's low bits come
   from few of a pointer's, which are mostly alike: long probe runs).  */
static inline size_t
imap_home (uint64_t h, size_t cap)
{
  return (size_t) (h ^ (h >> 32)) & (cap - 1);
}

static int
imap_grow (struct imap *m)
{
  size_t cap = m->cap ? m->cap * 2 : 256;
  uint32_t *slot = calloc (cap, sizeof *slot);
  uint64_t *hash = calloc (cap, sizeof *hash);
  if (!slot || !hash)
    {
      free (slot);
      free (hash);
      return -1;
    }
  for (size_t i = 0; i < m->cap; i++)
    if (m->slot[i])
      {
        size_t j = imap_home (m->hash[i], cap);
        while (slot[j])
          j = (j + 1) & (cap - 1);
        slot[j] = m->slot[i];
        hash[j] = m->hash[i];
      }
  free (m->slot);
  free (m->hash);
  m->slot = slot;
  m->hash = hash;
  m->cap = cap;
  return 0;
}

/* Room for N elements without growing (an empty map): 0, or -1 when out
   of memory.  Growing a map of sqlite3's 12,000 contexts from 256 slots
   by doubling cost 1.7 M instructions, rehashing and clearing.  */
static int
imap_reserve (struct imap *m, size_t n)
{
  size_t cap = 256;
  while (cap < 2 * (n + 1))
    cap *= 2;
  m->slot = calloc (cap, sizeof *m->slot);
  m->hash = calloc (cap, sizeof *m->hash);
  if (!m->slot || !m->hash)
    {
      free (m->slot);
      free (m->hash);
      m->slot = NULL;
      m->hash = NULL;
      return -1;
    }
  m->cap = cap;
  return 0;
}

/* The slot for H: *FOUND gets index + 1 of an element with hash H that
   EQ accepts, or 0 with the slot where to add one.  Inline, as imap_get:
   EQ and ADD become direct calls (a lookup per context).  */
static inline __attribute__ ((always_inline)) size_t
imap_find (struct imap *m, uint64_t h, int (*eq) (void *, uint32_t),
           void *ctx, uint32_t *found)
{
  size_t j = imap_home (h, m->cap);
  for (; m->slot[j]; j = (j + 1) & (m->cap - 1))
    if (m->hash[j] == h && eq (ctx, m->slot[j] - 1))
      {
        *found = m->slot[j];
        return j;
      }
  *found = 0;
  return j;
}

/* Index of the element EQ accepts, else ADD's new one; -1 when out of
   memory.  */
static inline __attribute__ ((always_inline)) int64_t
imap_get (struct imap *m, uint64_t h, int (*eq) (void *, uint32_t),
          int64_t (*add) (void *), void *ctx)
{
  if ((m->n + 1) * 2 > m->cap && imap_grow (m) < 0)
    return -1;
  uint32_t found;
  size_t j = imap_find (m, h, eq, ctx, &found);
  if (found)
    return found - 1;
  int64_t i = add (ctx);
  if (i < 0)
    return -1;
  m->slot[j] = (uint32_t) i + 1;
  m->hash[j] = h;
  m->n++;
  return i;
}

static void
imap_free (struct imap *m)
{
  free (m->slot);
  free (m->hash);
}

/* ---------------------------------------------------------- call sites */

struct builder
{
  const struct cct_dump_in *in;
  ppc_profile p;
  size_t fns_cap, nodes_cap;
  /* functions: by desc, and by name and checksum */
  struct desc_ent
  {
    struct __pp_fn_desc *d;
    uint32_t fn;
    int flat_done; /* its flat arrays are in the profile */
  } *descs;
  size_t ndescs, descs_cap;
  struct imap by_desc, by_name;
  /* sites: by return address, and by key (one pointer per key) */
  struct site_ent
  {
    void *addr;
    char *key;
    int owns; /* KEY is this entry's, not an earlier one's */
  } *sites;
  size_t nsites, sites_cap;
  struct imap by_site, by_key;
  const char *want_key;
  struct pp_segments objs;
  /* nodes: by (parent, fn, site); path lists grow as they are filled,
     in the arena's chunks (path_room) */
  struct imap by_node;
  uint64_t *paths_cap;
  struct path_chunk *chunks;
  ppc_path *top, *end; /* the free room of the newest chunk */
  /* the lookups' arguments */
  const void *want;
  const char *want_source;
  struct __pp_unit *want_unit;
  /* each registered desc's unit, open addressing on the desc's address
     (unit_of); NULL until first asked */
  struct unit_ent
  {
    const struct __pp_fn_desc *d;
    struct __pp_unit *unit;
  } *unit_tab;
  size_t unit_mask;
  uint32_t want_parent, want_fn;
  const char *want_site;
};

/* The builder's path lists, in chunks freed at once: a context's list
   was a realloc and a free of its own (sqlite3: 12,000 of each, a tenth
   of the builder).  */
struct path_chunk
{
  struct path_chunk *next;
  ppc_path paths[];
};

/* Room for one more path in node N's list: 0, or -1 when out of
   memory.  A list grows in place while it is the newest in its chunk
   (the paths of a record are added one after the other), else moves.  */
static int
path_room (struct builder *b, ppc_node *node, uint64_t *cap)
{
  if (node->npaths < *cap)
    return 0;
  uint64_t want = *cap ? *cap * 2 : 4;
  if (node->paths && node->paths + *cap == b->top
      && (uint64_t) (b->end - b->top) >= want - *cap)
    {
      b->top += want - *cap;
      *cap = want;
      return 0;
    }
  if ((uint64_t) (b->end - b->top) < want)
    {
      uint64_t n = 4096;
      while (n < want)
        n *= 2;
      struct path_chunk *c = malloc (sizeof *c + n * sizeof (ppc_path));
      if (!c)
        return -1;
      c->next = b->chunks;
      b->chunks = c;
      b->top = c->paths;
      b->end = c->paths + n;
    }
  if (node->npaths)
    memcpy (b->top, node->paths, node->npaths * sizeof (ppc_path));
  node->paths = b->top;
  b->top += want;
  *cap = want;
  return 0;
}

static int
grow (void **a, size_t *cap, size_t need, size_t size)
{
  if (need <= *cap)
    return 0;
  /* From 4: a context's path list is mostly short, and a path is 80
     bytes (64 at first cost sqlite3's exit 12,000 allocations of 5 KB).  */
  size_t c = *cap ? *cap * 2 : 4;
  while (c < need)
    c *= 2;
  void *p = realloc (*a, c * size);
  if (!p)
    return -1;
  *a = p;
  *cap = c;
  return 0;
}

/* Call site keys, and so contexts, are compared as pointers: one per
   key's text (site_add), and these two for the sites that have no
   address.  */
static const char no_site[] = "";
static const char inlined_site[] = CCT_SITE_INLINED_KEY;

static uint64_t str_hash (const char *s);

static int
key_eq (void *ctx, uint32_t i)
{
  struct builder *b = ctx;
  return strcmp (b->sites[i].key, b->want_key) == 0;
}

/* No index for a key not seen yet: site_add adds it.  */
static int64_t
key_absent (void *ctx)
{
  struct builder *b = ctx;
  return (int64_t) b->nsites;
}

static int
site_eq (void *ctx, uint32_t i)
{
  struct builder *b = ctx;
  return b->sites[i].addr == b->want;
}

static int64_t
site_add (void *ctx)
{
  struct builder *b = ctx;
  if (grow ((void **) &b->sites, &b->sites_cap, b->nsites + 1,
            sizeof *b->sites) < 0)
    return -1;
  uintptr_t a = (uintptr_t) b->want;
  const char *obj = "?";
  uintptr_t off = a;
  const struct pp_segment *ob = __pp_segment_of (&b->objs, a);
  if (ob)
    {
      obj = ob->name;
      off = a - ob->bias;
      if (__pp_list_object (&b->p, ob) < 0)
        return -1;
    }
  /* "<object>+0x<offset>", formatted here: asprintf cost 1,400
     instructions a site (sqlite3: 1,866 sites).  */
  size_t on = strlen (obj), digits = 1;
  for (uintptr_t v = off; v >= 16; v >>= 4)
    digits++;
  char *key = malloc (on + 3 + digits + 1);
  if (!key)
    return -1;
  memcpy (key, obj, on);
  memcpy (key + on, "+0x", 3);
  for (size_t d = 0; d < digits; d++)
    key[on + 3 + digits - 1 - d] = "0123456789abcdef"[(off >> (4 * d)) & 15];
  key[on + 3 + digits] = '\0';
  /* Two addresses with one key (objects of one basename): the first's
     pointer, so that their contexts are one, as the file has them.  */
  b->want_key = key;
  int64_t same = imap_get (&b->by_key, str_hash (key), key_eq, key_absent,
                           b);
  if (same < 0)
    {
      free (key);
      return -1;
    }
  int owns = same == (int64_t) b->nsites;
  if (!owns)
    {
      free (key);
      key = b->sites[same].key;
    }
  b->sites[b->nsites] = (struct site_ent){ (void *) b->want, key, owns };
  return (int64_t) b->nsites++;
}

/* The key of the call site that returns to ADDR; "" for NULL.  */
static const char *
site_key (struct builder *b, void *addr)
{
  if (!addr)
    return no_site;
  if (addr == CCT_SITE_INLINED)
    return inlined_site;
  b->want = addr;
  int64_t i = imap_get (&b->by_site, mix (0, (uintptr_t) addr), site_eq,
                        site_add, b);
  return i < 0 ? NULL : b->sites[i].key;
}

/* ----------------------------------------------------------- functions */

static uint64_t
str_hash (const char *s)
{
  uint64_t h = 0xcbf29ce484222325ull;
  for (; *s; s++)
    h = (h ^ (unsigned char) *s) * 0x100000001b3ull;
  return h;
}

static int
desc_eq (void *ctx, uint32_t i)
{
  struct builder *b = ctx;
  return b->descs[i].d == b->want;
}

static int
fn_eq (void *ctx, uint32_t i)
{
  struct builder *b = ctx;
  const struct __pp_fn_desc *d = b->want;
  return b->p.fns[i].checksum == d->cfg_checksum
         && !strcmp (b->p.fns[i].name, d->name)
         && !strcmp (b->p.fns[i].source, b->want_source);
}

/* Every registered desc with its unit, in B->unit_tab: 0, or -1 when
   out of memory.  */
static int
index_units (struct builder *b)
{
  size_t n = 0, cap = 64;
  for (const struct cct_unit *u = b->in->units; u; u = u->next)
    n += u->unit->num_fns;
  while (cap < 2 * n)
    cap *= 2;
  b->unit_tab = calloc (cap, sizeof *b->unit_tab);
  if (!b->unit_tab)
    return -1;
  b->unit_mask = cap - 1;
  for (const struct cct_unit *u = b->in->units; u; u = u->next)
    for (uint32_t f = 0; f < u->unit->num_fns; f++)
      {
        const struct __pp_fn_desc *d = &u->unit->fns[f];
        size_t j = mix (0, (uintptr_t) d) & b->unit_mask;
        while (b->unit_tab[j].d && b->unit_tab[j].d != d)
          j = (j + 1) & b->unit_mask;
        if (!b->unit_tab[j].d) /* the first unit that lists D keeps it */
          b->unit_tab[j] = (struct unit_ent){ d, u->unit };
      }
  return 0;
}

/* The unit of D, NULL when it did not register here.  Through an index:
   a scan of every unit's functions per desc was sqlite3's whole exit
   write's 6% (one unit of 2,500 functions).  */
static struct __pp_unit *
unit_of (struct builder *b, const struct __pp_fn_desc *d)
{
  if (b->unit_tab || index_units (b) == 0)
    {
      size_t j = mix (0, (uintptr_t) d) & b->unit_mask;
      for (; b->unit_tab[j].d; j = (j + 1) & b->unit_mask)
        if (b->unit_tab[j].d == d)
          return b->unit_tab[j].unit;
      return NULL;
    }
  for (const struct cct_unit *u = b->in->units; u; u = u->next)
    for (uint32_t f = 0; f < u->unit->num_fns; f++)
      if (&u->unit->fns[f] == d)
        return u->unit;
  return NULL;
}

static int64_t
fn_add (void *ctx)
{
  struct builder *b = ctx;
  const struct __pp_fn_desc *d = b->want;
  if (grow ((void **) &b->p.fns, &b->fns_cap, b->p.nfns + 1,
            sizeof *b->p.fns) < 0)
    return -1;
  ppc_fn *f = &b->p.fns[b->p.nfns];
  memset (f, 0, sizeof *f);
  /* The name, source and metadata where the objects have them, not
     copies (sqlite3: 2 MB of metadata at every exit, and the text merge
     copies the file's own): builder_free does not free them.  */
  f->name = (char *) d->name;
  const char *meta = b->want_unit ? __pp_fn_meta (b->want_unit, d) : NULL;
  f->meta = (char *) (meta ? meta : "");
  f->meta_len = meta ? d->meta_len : 0;
  f->source = (char *) b->want_source;
  f->checksum = d->cfg_checksum;
  f->flags = d->flags & ~PP_FN_FLAT_CALLS_FROM_PATHS;
  f->num_paths = d->num_paths;
  return b->p.nfns++;
}

static int64_t
desc_add (void *ctx)
{
  struct builder *b = ctx;
  struct __pp_fn_desc *d = (struct __pp_fn_desc *) b->want;
  if (grow ((void **) &b->descs, &b->descs_cap, b->ndescs + 1,
            sizeof *b->descs) < 0)
    return -1;
  /* Descs of one function (a header's inline function, in two objects)
     share its entry; functions are told apart by name and source, as
     ppc_merge does (static functions of one name).  */
  b->want_unit = unit_of (b, d);
  b->want_source = b->want_unit && b->want_unit->source
                       ? b->want_unit->source
                       : "";
  int64_t fn = imap_get (&b->by_name,
                         mix (mix (str_hash (d->name), d->cfg_checksum),
                              str_hash (b->want_source)),
                         fn_eq, fn_add, b);
  if (fn < 0)
    return -1;
  b->descs[b->ndescs] = (struct desc_ent){ d, (uint32_t) fn, 0 };
  return (int64_t) b->ndescs++;
}

static struct desc_ent *
desc_of (struct builder *b, struct __pp_fn_desc *d)
{
  b->want = d;
  int64_t i = imap_get (&b->by_desc, mix (0, (uintptr_t) d), desc_eq,
                        desc_add, b);
  return i < 0 ? NULL : &b->descs[i];
}

/* --------------------------------------------------------------- nodes */

static int
node_eq (void *ctx, uint32_t i)
{
  struct builder *b = ctx;
  const ppc_node *n = &b->p.nodes[i];
  return n->parent == b->want_parent && n->fn == b->want_fn
         && n->site == b->want_site; /* one pointer per key */
}

static int64_t
node_add (void *ctx)
{
  struct builder *b = ctx;
  size_t cap = b->nodes_cap;
  if (grow ((void **) &b->p.nodes, &b->nodes_cap, b->p.nnodes + 1,
            sizeof *b->p.nodes) < 0)
    return -1;
  if (b->nodes_cap != cap)
    {
      uint64_t *pc = realloc (b->paths_cap, b->nodes_cap * sizeof *pc);
      if (!pc)
        return -1;
      b->paths_cap = pc;
    }
  ppc_node *n = &b->p.nodes[b->p.nnodes];
  memset (n, 0, sizeof *n);
  /* The site's key is the builder's (b->sites, or a literal): not a copy
     per node (sqlite3: 12,027 strdups); builder_free forgets it before
     ppc_free.  */
  n->site = (char *) b->want_site;
  n->parent = b->want_parent;
  n->fn = b->want_fn;
  b->paths_cap[b->p.nnodes] = 0;
  return b->p.nnodes++;
}

static int64_t
node_of (struct builder *b, uint32_t parent, uint32_t fn, const char *site)
{
  b->want_parent = parent;
  b->want_fn = fn;
  b->want_site = site;
  /* One multiply per field: the map's home slot folds the halves.  */
  uint64_t h = ((uint64_t) parent * 0x9e3779b97f4a7c15ull)
               ^ ((uint64_t) fn * 0xc2b2ae3d27d4eb4full)
               ^ ((uint64_t) (uintptr_t) site * 0x165667b19e3779f9ull);
  return imap_get (&b->by_node, h, node_eq, node_add, b);
}

/* Adds path ID, run COUNT times with metric accumulators ACC[0..NACC)
   (or none), to node N; duplicates are combined later.  */
static int
add_path (struct builder *b, uint32_t n, uint64_t id, uint64_t count,
          const uint64_t *acc, uint32_t nacc)
{
  ppc_node *node = &b->p.nodes[n];
  if (path_room (b, node, &b->paths_cap[n]) < 0)
    return -1;
  ppc_path *p = &node->paths[node->npaths++];
  memset (p, 0, sizeof *p);
  p->id = id;
  p->count = count;
  for (uint32_t m = 0; m < nacc; m++)
    p->metric[m] = acc[m];
  return 0;
}

/* Path counts and metrics of a record with slots (PP_FN_CCT), or of a
   flat function's desc (once per desc).  */
static int
add_paths (struct builder *b, uint32_t n, struct cct_rec *r,
           struct desc_ent *de)
{
  const struct __pp_fn_desc *d = r->fn;
  uint32_t nm = r->nmet < b->p.nmetrics ? r->nmet : b->p.nmetrics;
  const uint64_t *counts = r->slots, *acc = r->acc_lo;
  uint64_t npaths = r->npaths;
  int own = 1;
  if (!(d->flags & PP_FN_CCT))
    {
      own = 0;
      if (de->flat_done || !d->counters)
        return 0;
      de->flat_done = 1;
      counts = d->counters;
      npaths = d->num_paths;
      if (!d->metrics)
        nm = 0;
    }
  /* The counters and accumulators to zero once written: a record's own
     slots hold nothing else (cct.h, struct cct_dumped).  */
  struct cct_dumped *z = own ? b->in->dumped : NULL;
  uint32_t nacc = r->acc_lo == r->slots + npaths ? d->nmetrics : 0;
  if (z && !z->complete)
    z = NULL;
  /* A context runs few of its function's paths (up to 4096 slots).  */
  for (uint64_t i = pprt_next_nonzero (counts, 0, npaths); i < npaths;
       i = pprt_next_nonzero (counts, i + 1, npaths))
    {
      if (add_path (b, n, i, counts[i], nm ? acc + i * d->nmetrics : NULL,
                    nm) < 0)
        return -1;
      /* A record's own accumulators are its exclusive total, less what
         no path end claimed (r->excl): the path ends add to them alone
         (rt_abi.h).  */
      if (own)
        for (uint32_t m = 0; m < nm; m++)
          b->p.nodes[n].excl[m] = pp_add_sat (b->p.nodes[n].excl[m],
                                              acc[i * d->nmetrics + m]);
      if (z)
        {
          if (z->n == z->cap
              && grow ((void **) &z->slot, &z->cap, z->n + 1,
                       sizeof *z->slot) < 0)
            {
              z->complete = 0; /* cct.c zeroes every slot */
              z = NULL;
              continue;
            }
          z->slot[z->n++] = &r->slots[i];
          for (uint32_t m = 0; m < nacc && z; m++)
            {
              if (z->n == z->cap
                  && grow ((void **) &z->slot, &z->cap, z->n + 1,
                           sizeof *z->slot) < 0)
                {
                  z->complete = 0;
                  z = NULL;
                  break;
                }
              z->slot[z->n++] = &r->acc_lo[i * nacc + m];
            }
        }
    }
  return 0;
}

static int
record (struct builder *b, struct cct_rec *r, struct cct_rec *root)
{
  struct desc_ent *de = desc_of (b, r->fn);
  if (!de)
    return -1;
  uint32_t fn = de->fn;
  const char *site
      = r->parent == root ? no_site : site_key (b, r->site);
  if (!site)
    return -1;
  int64_t n = node_of (b, r->parent->dump_node, fn, site);
  if (n < 0)
    return -1;
  r->dump_node = (uint32_t) n;
  ppc_node *node = &b->p.nodes[n];
  node->calls = pp_add_sat (node->calls,
                           pp_add_sat (r->calls, r->back_calls));
  node->recursive = pp_add_sat (node->recursive,
                               pp_add_sat (r->recursive, r->back_calls));
  for (uint32_t m = 0; m < b->p.nmetrics; m++)
    node->excl[m] = pp_add_sat (node->excl[m], r->excl[m]);
  return add_paths (b, (uint32_t) n, r, de);
}

static int
cmp_path (const void *x, const void *y)
{
  uint64_t a = ((const ppc_path *) x)->id, c = ((const ppc_path *) y)->id;
  return a < c ? -1 : a > c;
}

/* Paths ascending and combined; contexts where nothing ran below or in
   them (zeroed since the last dump) left out.  */
static int
finish (struct builder *b)
{
  ppc_profile *p = &b->p;
  for (uint32_t i = 0; i < p->nnodes; i++)
    {
      ppc_node *n = &p->nodes[i];
      /* Mostly ascending already (one record per context, its slots in
         id order): sorted only when not.  */
      uint64_t j = 1;
      while (j < n->npaths && n->paths[j - 1].id < n->paths[j].id)
        j++;
      if (j < n->npaths)
        qsort (n->paths, n->npaths, sizeof *n->paths, cmp_path);
      uint64_t k = 0;
      for (uint64_t j = 0; j < n->npaths; j++)
        if (k && n->paths[k - 1].id == n->paths[j].id)
          {
            ppc_path *to = &n->paths[k - 1];
            to->count = pp_add_sat (to->count, n->paths[j].count);
            for (uint32_t m = 0; m < PPC_MAX_METRICS; m++)
              to->metric[m] = pp_add_sat (to->metric[m], n->paths[j].metric[m]);
          }
        else if (k++ != j)
          n->paths[k - 1] = n->paths[j];
      n->npaths = k;
    }
  char *keep = calloc (p->nnodes ? p->nnodes : 1, 1);
  uint32_t *to = calloc (p->nnodes ? p->nnodes : 1, sizeof *to);
  if (!keep || !to)
    {
      free (keep);
      free (to);
      return -1;
    }
  keep[0] = 1;
  for (uint32_t i = p->nnodes; i-- > 1;)
    {
      ppc_node *n = &p->nodes[i];
      for (uint32_t m = 0; m < p->nmetrics; m++)
        keep[i] |= n->excl[m] != 0;
      keep[i] |= n->calls || n->npaths;
      if (keep[i])
        keep[n->parent] = 1;
    }
  uint32_t k = 0;
  for (uint32_t i = 0; i < p->nnodes; i++)
    if (keep[i])
      {
        to[i] = k;
        if (k != i)
          p->nodes[k] = p->nodes[i];
        if (k)
          p->nodes[k].parent = to[p->nodes[k].parent];
        k++;
      }
  /* (the dropped ones' paths are the arena's, their leaves none) */
  p->nnodes = k;
  free (keep);
  free (to);
  return 0;
}

/* Every thread's tree (flat records included) as one profile of one run.
   0, or -1 when out of memory.  */
static int
build (struct builder *b)
{
  ppc_profile *p = &b->p;
  const struct cct_dump_in *in = b->in;
  p->runs = !in->run_counted;
  p->cct = in->cct;
  p->nmetrics = in->nmetrics;
  for (uint32_t m = 0; m < p->nmetrics; m++)
    {
      p->metrics[m] = in->metrics[m];
      p->metrics[m].runs = p->runs;
      p->metrics[m].name = strdup (in->metrics[m].name);
      p->metrics[m].source = strdup (in->metrics[m].source);
      p->metrics[m].unit = strdup (in->metrics[m].unit);
      if (!p->metrics[m].name || !p->metrics[m].source
          || !p->metrics[m].unit)
        return -1;
    }
  __pp_segments_load (&b->objs, 0);
  /* Every record may be a context of its own: the map and the nodes
     sized for them all, once.  */
  size_t nrec = 1;
  for (struct cct_thread *t = in->threads; t; t = t->next)
    for (struct cct_rec *r = cct_next (t->root, t->root); r;
         r = cct_next (r, t->root))
      nrec++;
  if (imap_reserve (&b->by_node, nrec) < 0
      || grow ((void **) &p->nodes, &b->nodes_cap, nrec, sizeof *p->nodes)
             < 0)
    return -1;
  b->paths_cap = malloc (b->nodes_cap * sizeof *b->paths_cap);
  if (!b->paths_cap)
    return -1;
  b->want_site = no_site;
  if (node_of (b, UINT32_MAX, PPC_NO_FN, no_site) != 0)
    return -1;
  for (struct cct_thread *t = in->threads; t; t = t->next)
    {
      t->root->dump_node = 0;
      for (struct cct_rec *r = cct_next (t->root, t->root); r;
           r = cct_next (r, t->root))
        if (record (b, r, t->root) < 0)
          return -1;
    }
  return finish (b);
}

static void
builder_free (struct builder *b)
{
  /* The nodes' sites are the sites' keys (freed below), their paths the
     arena's; the functions' strings the objects'.  ppc_free frees the
     rest (metrics, objects).  */
  free (b->p.nodes);
  b->p.nodes = NULL;
  b->p.nnodes = 0;
  free (b->p.fns);
  b->p.fns = NULL;
  b->p.nfns = 0;
  ppc_free (&b->p);
  while (b->chunks)
    {
      struct path_chunk *c = b->chunks;
      b->chunks = c->next;
      free (c);
    }
  free (b->descs);
  for (size_t i = 0; i < b->nsites; i++)
    if (b->sites[i].owns)
      free (b->sites[i].key);
  free (b->sites);
  __pp_segments_free (&b->objs);
  free (b->paths_cap);
  free (b->unit_tab);
  imap_free (&b->by_desc);
  imap_free (&b->by_name);
  imap_free (&b->by_site);
  imap_free (&b->by_key);
  imap_free (&b->by_node);
}

/* -------------------------------------------------------------- the file */

/* $PPGCC_CCT_FILE, else the program with ".ppc" appended, under
   $PPGCC_PREFIX (include/pp/ppc.h), or in the database of session DB.
   malloc'd.  */
static char *
profile_file (struct __pp_db_session *db)
{
  const char *env = getenv ("PPGCC_CCT_FILE");
  if (env && *env)
    return strdup (env);
  if (db->epoch_dir)
    return __pp_db_writer->context_path (db);
  char exe[PATH_MAX + 8];
  ssize_t n = readlink ("/proc/self/exe", exe, PATH_MAX);
  if (n <= 0)
    return NULL;
  memcpy (exe + n, ".ppc", 5);
  return __pp_profile_path (exe);
}

/* FILE kept aside as FILE SUFFIX; when LOUD, with one line saying why:
   0; -1 when that fails (a directory there): FILE left as it is, which
   is always said.  */
static int
keep_aside (const char *path, const char *why, const char *suffix, int loud)
{
  char *aside = NULL;
  int e = ENOMEM;
  if (asprintf (&aside, "%s%s", path, suffix) >= 0)
    {
      if (rename (path, aside) == 0)
        {
          if (loud)
            fprintf (stderr, "ppgcc profile: %s: %s; kept as %s, writing "
                     "this run's contexts afresh\n", path, why, aside);
          free (aside);
          return 0;
        }
      e = errno;
      free (aside);
    }
  fprintf (stderr, "ppgcc profile: %s: %s; cannot keep it as %s%s: %s; "
           "left as it is, contexts not written\n", path, why, path, suffix,
           strerror (e));
  return -1;
}

/* What is at PATH: 2 with NOW merged into it as text in *TEXT; 0 with
   *OLD, to merge the long way; 1 when nothing (or a damaged profile,
   now kept aside); -1 when something that is not a ppgcc context profile
   is there (a directory, a symbolic link, another file) or a damaged one
   cannot be kept aside: left alone, and nothing is written (pprt.c's
   read_old).  */
static int
read_old (const char *path, const ppc_profile *now, ppc_profile *old,
          char **text, size_t *text_len)
{
  char *buf;
  size_t len;
  const char *why = NULL;
  uint64_t size;
  int rc = pp_read_own_file (path, PPC_MAGIC " ", strlen (PPC_MAGIC " "), 0,
                             NULL, &buf, &len, &size, &why);
  if (rc == PP_READ_OOM)
    fprintf (stderr, "ppgcc profile: %s: out of memory reading its %zu "
             "bytes; left as it is, contexts not written\n", path, len);
  else if (rc < 0)
    fprintf (stderr, "ppgcc profile: %s: %s; not a ppgcc profile, left as "
             "it is; contexts not written\n", path, why);
  if (rc != 0)
    return rc < 0 ? -1 : rc;
  /* Mostly a run merges into its file as text (lib/ppc_merge_text.c):
     sqlite3's exit write took 67 M instructions less.  */
  rc = ppc_merge_text (buf, len, now, text, text_len);
  if (rc <= 0)
    {
      if (rc < 0)
        fprintf (stderr, "ppgcc profile: %s: out of memory merging its "
                 "%zu bytes; left as it is, contexts not written\n", path,
                 len);
      free (buf);
      return rc < 0 ? -1 : 2;
    }
  rc = ppc_decode (buf, len, old, &why);
  free (buf);
  if (rc == 0)
    return 0;
  return keep_aside (path, why ? why : "unreadable", ".corrupt", 1) < 0 ? -1
                                                                        : 1;
}

static int
merge_and_write (char *path, ppc_profile *now)
{
  /* A lock file beside it, as pprt.c does for .ppd files.  */
  const char *why = NULL;
  int fd = __pp_lock_profile (path);
  if (fd < 0)
    return -1;
  pp_settle_temps (path, 0, NULL, ppc_whole);
  ppc_profile old;
  ppc_profile *result = now;
  int rc = -1;
  char *text = NULL;
  size_t text_len = 0;
  int have = read_old (path, now, &old, &text, &text_len);
  if (have < 0)
    goto unlock;
  if (have == 2)
    {
      rc = pp_write_file_in_place (path, text, text_len);
      free (text);
      if (rc < 0)
        fprintf (stderr, "ppgcc profile: %s: cannot write: %s\n", path,
                 strerror (errno));
      goto unlock;
    }
  if (have == 0)
    {
      /* A rebuilt program's other CFGs of a function, or other metrics,
         merge as versions and metrics of their own, silently: the
         program's stderr is its own (a test suite compares it), and
         ppprof tells them apart.  */
      if (ppc_merge (&old, now, &why) == 0)
        result = &old;
      /* What does not add up (a flat profile and a tree, a metric's
         units, more than 8 metrics) is kept aside as FILE.old, which
         ppprof points at, silently too; else nothing is written.  */
      else if (keep_aside (path, why ? why : "cannot merge", ".old", 0) < 0)
        goto free_old;
    }
  rc = ppc_rewrite_file (path, result);
  if (rc < 0)
    fprintf (stderr, "ppgcc profile: %s: cannot write: %s\n", path,
             strerror (errno));
free_old:
  if (have == 0)
    ppc_free (&old);
unlock:
  pp_unlock (fd);
  return rc;
}

int
__pp_cct_write (const struct cct_dump_in *in)
{
  char *path = profile_file (in->db);
  if (!path)
    {
      fprintf (stderr, "ppgcc profile: no file for the calling context "
               "profile (/proc/self/exe unreadable); not written\n");
      return -1;
    }
  struct builder b;
  memset (&b, 0, sizeof b);
  b.in = in;
  int rc = -1;
  if (build (&b) < 0)
    fprintf (stderr, "ppgcc profile: %s: out of memory, not written\n",
             path);
  else if (in->run_counted && b.p.nnodes <= 1)
    rc = 0; /* nothing ran since the last write */
  else
    rc = merge_and_write (path, &b.p);
  builder_free (&b);
  free (path);
  return rc;
}
