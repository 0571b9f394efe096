/* The sampled profile as a .ppc (include/pp/ppc.h, doc/ppc-format.md):
   every thread's tree merged context by context (csprof §2.5.5: a tree
   per thread, merged at the end), then merged with what the file holds
   (a forked child's run, an earlier run) under the file's lock, and
   written atomically.

   How samples map onto the format:
   - a function is its entry address as "<object>+0x<offset>" (the
     start of its FDE), flags PP_FN_SAMPLED, no CFG; `ppprof` names it
     at report time from the object's symbols (tools/sites.c), never the
     program;
   - a node's site is the return address in its caller, as the
     instrumented CCT mode writes it, "" for the outermost frame (which
     hangs under the root); calls are the returns through the
     trampoline (trampoline.c, csprof §2.4): the calls of the context
     that a sample saw, not all of them;
   - two metrics: "samples" (unit "samples"), and the time or the events
     they stand for ("cpu-time" in ns, or the hardware event's name in
     events), both of whose source names the event and its rate;
   - "[partial unwind]", "[unsafe sample]", "[node pool full]" under the
     root hold the samples that have no whole call path;
     "[lost: signal held]", "[lost: handler busy]", "[lost: thread not
     set up]" the periods no sample was taken for (handler.c), each
     period one in "samples", its time in the second metric;
   - a node's leaf PCs (its samples by interrupted instruction, state.c)
     are "leaf" records, each PC as its offset from the node's function
     entry, in the same object.  */
#define _GNU_SOURCE
#include "../lib_in_runtime.h"
#include "pp/ppc.h"
#include "pp/ppc.h"
#include "file_io.h"
#include "pp/rt_abi.h"
#include "pp/sat.h"

#include "../loaded_objects.h"
#include "sample.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------ objects */

/* Objects unloaded by dlclose before the dump (interpose.c).  */
static struct pp_segments retired;
static pthread_mutex_t retired_lock = PTHREAD_MUTEX_INITIALIZER;

PPS_HIDDEN void
__pp_sample_retire_objects (void)
{
  pthread_mutex_lock (&retired_lock);
  /* relative names made absolute: reports run elsewhere */
  __pp_segments_load (&retired, 1);
  pthread_mutex_unlock (&retired_lock);
}

/* ------------------------------------------------------------ builder */

struct builder
{
  ppc_profile p;
  struct pp_segments now;
  size_t nodes_cap;
  /* functions by key; nodes by (parent, function, site address) */
  uint64_t *fn_key;
  uint32_t *fn_slot, fn_mask;
  struct nkey
  {
    uint32_t parent, fn;
    uint64_t site;
  } *node_key;
  uint32_t *node_slot, node_mask;
  uint64_t period;
  /* every thread's leaf PCs, by profile node: summed and sorted at the
     end */
  struct bleaf
  {
    uint32_t node;
    uint64_t offset, samples;
  } *leaves;
  size_t nleaves, leaves_cap;
};

static uint64_t
mix (uint64_t h, uint64_t v)
{
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h ^= h >> 31;
  return h * 0xbf58476d1ce4e5b9ull;
}

/* The object holding ADDR: this dump's, else one unloaded before.  */
static const struct pp_segment *
object_of (struct builder *b, uintptr_t addr)
{
  const struct pp_segment *ob = __pp_segment_of (&b->now, addr);
  return ob ? ob : __pp_segment_of (&retired, addr);
}

/* "<object>+0x<offset>" of ADDR, malloc'd, its object listed.  */
static char *
address_key (struct builder *b, uint64_t addr)
{
  const struct pp_segment *ob = object_of (b, (uintptr_t) addr);
  char *key;
  if (ob && __pp_list_object (&b->p, ob) < 0)
    return NULL;
  if (asprintf (&key, "%s+0x%llx", ob ? ob->name : "?",
                (unsigned long long) (ob ? addr - ob->bias : addr))
      < 0)
    return NULL;
  return key;
}

static int64_t
fn_index (struct builder *b, uint64_t key)
{
  uint32_t j = (uint32_t) mix (0, key) & b->fn_mask;
  for (; b->fn_slot[j]; j = (j + 1) & b->fn_mask)
    if (b->fn_key[b->fn_slot[j] - 1] == key)
      return b->fn_slot[j] - 1;
  static const char *const pseudo[] = { "[root]", "[partial unwind]",
                                        "[unsafe sample]",
                                        "[node pool full]",
                                        "[lost: signal held]",
                                        "[lost: handler busy]",
                                        "[lost: thread not set up]" };
  ppc_profile *p = &b->p;
  uint32_t i = p->nfns;
  ppc_fn *f = &p->fns[i];
  memset (f, 0, sizeof *f);
  f->name = key <= PPS_FN_NO_THREAD ? strdup (pseudo[key]) : address_key (b, key);
  f->meta = strdup ("");
  f->source = strdup ("");
  if (!f->name || !f->meta || !f->source)
    {
      free (f->name);
      free (f->meta);
      free (f->source);
      return -1;
    }
  f->flags = PP_FN_SAMPLED;
  b->fn_key[i] = key;
  b->fn_slot[j] = i + 1;
  p->nfns++;
  return i;
}

static int64_t
node_index (struct builder *b, uint32_t parent, uint32_t fn, uint64_t site)
{
  uint32_t j = (uint32_t) mix (mix (mix (0, parent), fn), site)
               & b->node_mask;
  for (; b->node_slot[j]; j = (j + 1) & b->node_mask)
    {
      const struct nkey *k = &b->node_key[b->node_slot[j] - 1];
      if (k->parent == parent && k->fn == fn && k->site == site)
        return b->node_slot[j] - 1;
    }
  ppc_profile *p = &b->p;
  uint32_t i = p->nnodes;
  ppc_node *n = &p->nodes[i];
  memset (n, 0, sizeof *n);
  n->parent = parent;
  n->fn = fn;
  n->site = site ? address_key (b, site) : strdup ("");
  if (!n->site)
    return -1;
  b->node_key[i] = (struct nkey){ parent, fn, site };
  b->node_slot[j] = i + 1;
  p->nnodes++;
  return i;
}

/* Thread T's tree into the profile: its nodes with samples in or below
   them (the pseudo-functions made up front and never hit are left
   out).  */
static int
add_thread (struct builder *b, const struct pps_thread *t)
{
  uint32_t n = t->nnodes;
  uint64_t *incl = calloc (n ? n : 1, sizeof *incl);
  uint32_t *to = calloc (n ? n : 1, sizeof *to);
  int rc = -1;
  if (!incl || !to)
    goto out;
  for (uint32_t i = n; i-- > 1;)
    {
      incl[i] += t->nodes[i].samples;
      incl[t->nodes[i].parent] += incl[i];
    }
  to[0] = 0;
  for (uint32_t i = 1; i < n; i++)
    {
      const struct pps_node *nd = &t->nodes[i];
      if (!incl[i])
        continue;
      int64_t fn = fn_index (b, nd->fn);
      if (fn < 0)
        goto out;
      /* under the root, no call site: the outermost frame */
      int64_t k = node_index (b, to[nd->parent], (uint32_t) fn,
                              nd->parent ? nd->site : 0);
      if (k < 0)
        goto out;
      to[i] = (uint32_t) k;
      ppc_node *pn = &b->p.nodes[k];
      pn->calls = pp_add_sat (pn->calls, nd->calls);
      pn->excl[0] = pp_add_sat (pn->excl[0], nd->samples);
      uint64_t v = nd->periods * b->period;
      if (b->period && v / b->period != nd->periods)
        v = UINT64_MAX;
      pn->excl[1] = pp_add_sat (pn->excl[1], v);
    }
  /* the leaf PCs, as offsets from their node's function (the sampled
     frame's IP is at or past its FDE's start, handler.c) */
  for (uint32_t u = 0; u < t->nleaves && u < t->leaf_cap; u++)
    {
      const struct pps_leaf *l = &t->leaves[t->leaf_used[u]];
      if (!l->samples || l->node >= n || !incl[l->node])
        continue;
      if (b->nleaves == b->leaves_cap)
        break; /* a sample that came after the count (stopping is set) */
      uint64_t fn = t->nodes[l->node].fn;
      if (fn < PPS_FN_PSEUDO_END || l->pc < fn)
        continue;
      b->leaves[b->nleaves++] = (struct bleaf){ to[l->node], l->pc - fn,
                                                l->samples };
    }
  rc = 0;
out:
  free (incl);
  free (to);
  return rc;
}

static int
leaf_order (const void *x, const void *y)
{
  const struct bleaf *a = x, *b = y;
  if (a->node != b->node)
    return a->node < b->node ? -1 : 1;
  return a->offset < b->offset ? -1 : a->offset > b->offset;
}

/* The leaves gathered from every thread, summed by (node, offset), into
   their nodes.  */
static int
attach_leaves (struct builder *b)
{
  qsort (b->leaves, b->nleaves, sizeof *b->leaves, leaf_order);
  for (size_t i = 0; i < b->nleaves;)
    {
      size_t e = i;
      while (e < b->nleaves && b->leaves[e].node == b->leaves[i].node)
        e++;
      ppc_node *pn = &b->p.nodes[b->leaves[i].node];
      pn->leaves = malloc ((e - i) * sizeof *pn->leaves);
      if (!pn->leaves)
        return -1;
      for (; i < e; i++)
        {
          ppc_leaf *last = pn->nleaves ? &pn->leaves[pn->nleaves - 1] : NULL;
          if (last && last->offset == b->leaves[i].offset)
            last->samples = pp_add_sat (last->samples, b->leaves[i].samples);
          else
            pn->leaves[pn->nleaves++] = (ppc_leaf){ b->leaves[i].offset,
                                                    b->leaves[i].samples };
        }
    }
  return 0;
}

static int
build (struct builder *b)
{
  const struct pps_config *c = &__pp_sample_config;
  ppc_profile *p = &b->p;
  p->runs = 1;
  p->cct = 1;
  p->nmetrics = 2;
  p->metrics[0] = (ppc_metric){ strdup ("samples"), strdup (c->source),
                                strdup ("samples"), 0, 0, 1 };
  p->metrics[1] = (ppc_metric){ strdup (c->metric), strdup (c->source),
                                strdup (c->unit), 0, 0, 1 };
  for (int m = 0; m < 2; m++)
    if (!p->metrics[m].name || !p->metrics[m].source || !p->metrics[m].unit)
      return -1;
  b->period = c->period;
  __pp_segments_load (&b->now, 1);
  /* room for every node of every thread, and "[lost: thread not set
     up]": no reallocation below */
  size_t total = 2, leaves = 1;
  for (struct pps_thread *t = atomic_load (&__pp_sample_threads); t;
       t = t->next)
    {
      total += t->nnodes;
      leaves += t->nleaves;
    }
  b->leaves = malloc (leaves * sizeof *b->leaves);
  b->leaves_cap = leaves;
  size_t cap = 1;
  while (cap < 2 * total)
    cap <<= 1;
  p->nodes = calloc (total, sizeof *p->nodes);
  p->fns = calloc (total, sizeof *p->fns);
  b->fn_key = calloc (total, sizeof *b->fn_key);
  b->node_key = calloc (total, sizeof *b->node_key);
  b->fn_slot = calloc (cap, sizeof *b->fn_slot);
  b->node_slot = calloc (cap, sizeof *b->node_slot);
  if (!p->nodes || !p->fns || !b->fn_key || !b->node_key || !b->fn_slot
      || !b->node_slot || !b->leaves)
    return -1;
  b->fn_mask = b->node_mask = (uint32_t) cap - 1;
  /* the root */
  p->nodes[0] = (ppc_node){ .fn = PPC_NO_FN, .parent = UINT32_MAX,
                            .site = strdup ("") };
  if (!p->nodes[0].site)
    return -1;
  p->nnodes = 1;
  for (struct pps_thread *t = atomic_load (&__pp_sample_threads); t;
       t = t->next)
    if (add_thread (b, t) < 0)
      return -1;
  if (attach_leaves (b) < 0)
    return -1;
  uint64_t lost = atomic_load (&__pp_sample_no_thread);
  if (lost)
    {
      int64_t fn = fn_index (b, PPS_FN_NO_THREAD);
      int64_t k = fn < 0 ? -1 : node_index (b, 0, (uint32_t) fn, 0);
      if (k < 0)
        return -1;
      ppc_node *pn = &b->p.nodes[k];
      pn->excl[0] = pp_add_sat (pn->excl[0], lost);
      uint64_t v = lost * b->period;
      pn->excl[1] = pp_add_sat (pn->excl[1],
                                v / b->period != lost ? UINT64_MAX : v);
    }
  return 0;
}

static void
builder_free (struct builder *b)
{
  ppc_free (&b->p);
  __pp_segments_free (&b->now);
  free (b->fn_key);
  free (b->fn_slot);
  free (b->node_key);
  free (b->node_slot);
  free (b->leaves);
}

/* --------------------------------------------------------------- file */

/* NOW merged with what PATH holds (a sampled profile), under its lock,
   written in place (ppc_rewrite_file: crash safe, its inode kept).  What is there and is not a ppgcc context
   profile, or does not merge (other metrics: an instrumented run's), is
   left alone and nothing is written.  */
static int
merge_and_write (const char *path, ppc_profile *now)
{
  const char *why = NULL;
  int fd = pp_lock_beside (path, &why);
  if (fd < 0)
    {
      fprintf (stderr, "ppgcc sampler: %s.lock: cannot lock: %s; %s not "
               "written\n", path, why, path);
      return -1;
    }
  pp_settle_temps (path, 0, NULL, ppc_whole);
  char *buf = NULL;
  size_t len = 0;
  ppc_profile old;
  ppc_profile *result = now;
  uint64_t size;
  int have = pp_read_own_file (path, PPC_MAGIC " ", strlen (PPC_MAGIC " "),
                               0, NULL, &buf, &len, &size, &why);
  int rc = -1;
  if (have == PP_READ_OOM)
    fprintf (stderr, "ppgcc sampler: %s: out of memory reading its %zu "
             "bytes; left as it is; samples not written\n", path, len);
  else if (have < 0)
    fprintf (stderr, "ppgcc sampler: %s: %s; not a ppgcc profile, left as "
             "it is; samples not written\n", path, why);
  else if (have == 0 && ppc_decode (buf, len, &old, &why) < 0)
    {
      fprintf (stderr, "ppgcc sampler: %s: %s; left as it is; samples not "
               "written\n", path, why ? why : "unreadable");
      have = -1;
    }
  else if (have == 0 && ppc_merge (&old, now, &why) < 0)
    {
      fprintf (stderr, "ppgcc sampler: %s: cannot add this run: %s; left "
               "as it is; samples not written\n", path, why);
      ppc_free (&old);
      have = -1;
    }
  else if (have == 0)
    result = &old;
  free (buf);
  if (have >= 0)
    {
      rc = ppc_rewrite_file (path, result);
      if (rc < 0)
        fprintf (stderr, "ppgcc sampler: %s: cannot write: %s\n", path,
                 strerror (errno));
      if (have == 0)
        ppc_free (&old);
    }
  pp_unlock (fd);
  return rc;
}

PPS_HIDDEN int
__pp_sample_write (void)
{
  const char *path = __pp_sample_config.file;
  struct builder b;
  memset (&b, 0, sizeof b);
  pthread_mutex_lock (&retired_lock);
  int rc = -1;
  if (build (&b) < 0)
    fprintf (stderr, "ppgcc sampler: %s: out of memory; samples not "
             "written\n", path);
  else
    rc = merge_and_write (path, &b.p);
  pthread_mutex_unlock (&retired_lock);
  builder_free (&b);
  return rc;
}
