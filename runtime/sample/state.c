/* The sampler's shared state and the calling context tree's primitives
   (state.h): the bottom layer, calling nothing of the sampler's.  A
   thread's tree and leaf table live in its mapping (thread.c); what is
   here only fills them, from the handler (handler.c) or when a thread
   starts or forks, so nothing here allocates.  */
#define _GNU_SOURCE
#include "state.h"

#include <string.h>

PPS_HIDDEN struct pps_config __pp_sample_config;
PPS_HIDDEN atomic_int __pp_sample_stopping;
PPS_HIDDEN int __pp_sample_active;
PPS_HIDDEN struct pps_thread *_Atomic __pp_sample_threads;
PPS_HIDDEN atomic_uint_fast64_t __pp_sample_no_thread;

static __thread struct pps_thread *self
    __attribute__ ((tls_model ("initial-exec")));

PPS_HIDDEN struct pps_thread *
__pp_sample_self (void)
{
  return self;
}

PPS_HIDDEN void
__pp_sample_set_self (struct pps_thread *t)
{
  self = t;
}

static uint32_t
hash3 (uint64_t a, uint64_t b, uint64_t c)
{
  uint64_t h = a * 0x9e3779b97f4a7c15ull;
  h ^= b + 0x632be59bd9b4e019ull + (h << 6) + (h >> 2);
  h ^= c + 0x85ebca6b0b6f4b33ull + (h << 6) + (h >> 2);
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9ull;
  return (uint32_t) (h ^ (h >> 32));
}

PPS_HIDDEN uint32_t
__pp_sample_child (struct pps_thread *t, uint32_t parent, uint64_t fn,
                   uint64_t site)
{
  uint32_t b = hash3 (parent, fn, site) & (t->nbuckets - 1);
  for (uint32_t k = t->buckets[b]; k; k = t->nodes[k - 1].next)
    {
      const struct pps_node *n = &t->nodes[k - 1];
      if (n->parent == parent && n->fn == fn && n->site == site)
        return k - 1;
    }
  if (t->nnodes == t->cap)
    return UINT32_MAX;
  uint32_t i = t->nnodes;
  t->nodes[i] = (struct pps_node){ fn, site, 0, 0, 0, parent, t->buckets[b] };
  /* the node is whole before the bucket points at it */
  atomic_signal_fence (memory_order_release);
  t->buckets[b] = i + 1;
  t->nnodes = i + 1;
  return i;
}

/* Probes before a leaf counts as without room: a long run means the
   table is nearly full, and the handler's time must stay bounded.  */
#define PPS_LEAF_PROBES 32

PPS_HIDDEN void
__pp_sample_leaf (struct pps_thread *t, uint32_t node, uint64_t pc)
{
  uint32_t mask = t->leaf_cap - 1;
  uint32_t j = hash3 (node, pc, 0) & mask;
  for (int probe = 0; probe < PPS_LEAF_PROBES; probe++, j = (j + 1) & mask)
    {
      struct pps_leaf *l = &t->leaves[j];
      if (l->samples == 0)
        {
          /* three quarters full: the rest of the room keeps probes
             short for the entries already there */
          if (t->nleaves >= t->leaf_cap / 4 * 3)
            break;
          l->pc = pc;
          l->node = node;
          t->leaf_used[t->nleaves] = j;
          atomic_signal_fence (memory_order_release);
          l->samples = 1;
          t->nleaves++;
          return;
        }
      if (l->pc == pc && l->node == node)
        {
          if (l->samples != UINT32_MAX)
            l->samples++;
          return;
        }
    }
  t->leaf_full++;
}

PPS_HIDDEN void
__pp_sample_tree_reset (struct pps_thread *t, int fresh)
{
  if (!fresh)
    {
      memset (t->buckets, 0, t->nbuckets * sizeof *t->buckets);
      /* only the entries used: the table is mostly untouched pages */
      for (uint32_t k = 0; k < t->nleaves; k++)
        t->leaves[t->leaf_used[k]].samples = 0;
    }
  t->nnodes = 1;
  t->nleaves = 0;
  t->leaf_full = 0;
  t->nodes[0] = (struct pps_node){ PPS_FN_ROOT, 0, 0, 0, 0, UINT32_MAX, 0 };
  /* the pseudo-functions first, so that a full pool still has them */
  for (uint64_t f = PPS_FN_PARTIAL; f <= PPS_FN_BUSY; f++)
    __pp_sample_child (t, 0, f, 0);
}
