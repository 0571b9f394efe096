/* The hash table behind __pp_hash_hit.  Thread-safe without locks: a slot
   is claimed by compare-and-swap on its key (id + 1; 0 is empty) and
   counted with an atomic add.  A full table chains to a new one, so nothing
   is lost while memory lasts; tables come from mmap (no malloc in a probe,
   which may run in a signal handler).  If mmap fails the hit is counted as
   dropped, and the profile says so.

   A counting mode (mode.h), the default one: it counts every function no
   other linked mode's flag selects.  This file comes out of libpprt.a only
   for programs with an object that counts in a hash table, whose probes
   (or PPP's miss path, ppp_miss_x86_64.S) call __pp_hash_hit, the only way
   a table comes to be; since path splitting (-fprofile-paths-max) most
   have none, and link none of it (2.2 KB).  */
#include "mode.h"
#include "next_nonzero.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* __pp_ppp_miss (ppp_miss_x86_64.S) saves only the general registers
   around __pp_hash_hit: the code it reaches must not touch vector
   registers.  */
#if defined(__x86_64__)
#define GENERAL_REGS_ONLY __attribute__ ((target ("general-regs-only")))
#else
#define GENERAL_REGS_ONLY
#endif

#define SLOTS 4096 /* per table; the probe sequence looks at PROBES of them */
#define PROBES 64

struct slot
{
  _Atomic uint64_t key;
  _Atomic uint64_t count;
};

struct table
{
  struct slot slot[SLOTS];
  struct table *_Atomic next;
  _Atomic uint64_t dropped; /* only used in the first table */
};

GENERAL_REGS_ONLY static struct table *
new_table (void)
{
  void *p = mmap (NULL, sizeof (struct table), PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p; /* zero-filled */
}

/* The table after *LINK, created if missing.  */
GENERAL_REGS_ONLY static struct table *
next_table (struct table *_Atomic *link)
{
  struct table *t = atomic_load_explicit (link, memory_order_acquire);
  if (t)
    return t;
  struct table *fresh = new_table ();
  if (!fresh)
    return NULL;
  if (atomic_compare_exchange_strong (link, &t, fresh))
    return fresh;
  munmap (fresh, sizeof *fresh); /* another thread won */
  return t;
}

GENERAL_REGS_ONLY static unsigned
hash (uint64_t id)
{
  id ^= id >> 33;
  id *= 0xff51afd7ed558ccdull;
  id ^= id >> 33;
  return (unsigned) id;
}

GENERAL_REGS_ONLY void
__pp_hash_hit (struct __pp_fn_desc *fn, uint64_t id)
{
  /* -fprofile-paths-table=hpt: one bounded table for the whole program
     instead (thesis §5.4); its rt_private is the HPT's, not a table.
     The probes reach every side table here (rt_abi.h): the mode that
     PP_FN_HPT selects, when one is linked (hpt.c), counts it.  */
  if (fn->flags & PP_FN_HPT)
    PPRT_FOR_EACH_MODE (m)
      if ((m->fn_flag & fn->flags) && m->hit)
        {
          m->hit (fn, id);
          return;
        }
  /* The inline first probe missed: give its slot to this path if it is
     free, so that the path's next runs count in place (rt_abi.h).  This
     run counts below, like every miss.  */
  uint64_t *keys = PP_FN_EXT (fn, hash_keys);
  if (keys)
    {
      uint64_t expected = 0;
      atomic_compare_exchange_strong (
          (_Atomic uint64_t *) &keys[PP_HASH_CACHE_SLOT (id)],
          &expected, id + 1);
    }
  struct table *first
      = next_table ((struct table *_Atomic *) &fn->rt_private);
  if (!first)
    return; /* nowhere to count: nothing to report either */
  uint64_t key = id + 1;
  for (struct table *t = first; t; t = next_table (&t->next))
    {
      unsigned h = hash (id);
      for (unsigned k = 0; k < PROBES; k++)
        {
          struct slot *s = &t->slot[(h + k) % SLOTS];
          uint64_t seen = atomic_load_explicit (&s->key, memory_order_relaxed);
          if (seen == 0
              && atomic_compare_exchange_strong (&s->key, &seen, key))
            seen = key;
          if (seen == key)
            {
              atomic_fetch_add_explicit (&s->count, 1, memory_order_relaxed);
              return;
            }
        }
      if (!atomic_load_explicit (&t->next, memory_order_acquire)
          && !next_table (&t->next))
        break;
    }
  atomic_fetch_add_explicit (&first->dropped, 1, memory_order_relaxed);
}

static void
table_clear (struct __pp_fn_desc *fn)
{
  uint64_t *counts = PP_FN_EXT (fn, hash_counts);
  for (uint64_t i = 0; counts
                      && (i = pprt_next_nonzero (counts, i,
                                                 PP_HASH_CACHE_SLOTS))
                             < PP_HASH_CACHE_SLOTS;
       i++)
    atomic_store_explicit ((_Atomic uint64_t *) &counts[i], 0,
                           memory_order_relaxed);
  for (struct table *t = fn->rt_private; t; t = atomic_load (&t->next))
    {
      for (unsigned i = 0; i < SLOTS; i++)
        atomic_store (&t->slot[i].count, 0);
      atomic_store (&t->dropped, 0);
    }
}

static int
table_collect (struct __pp_fn_desc *fn, ppd_pair **pairs, uint64_t *n,
               uint64_t *dropped)
{
  uint64_t cap = 0, k = 0;
  *dropped = 0;
  for (struct table *t = fn->rt_private; t; t = atomic_load (&t->next))
    cap += SLOTS;
  uint64_t *keys = PP_FN_EXT (fn, hash_keys);
  uint64_t *counts = PP_FN_EXT (fn, hash_counts);
  if (counts)
    cap += PP_HASH_CACHE_SLOTS;
  ppd_pair *out = malloc ((cap + 1) * sizeof *out);
  if (!out)
    return -1;
  /* The inline probe's counts; the caller sums pairs of one id.  */
  for (uint64_t i = 0; counts
                      && (i = pprt_next_nonzero (counts, i,
                                                 PP_HASH_CACHE_SLOTS))
                             < PP_HASH_CACHE_SLOTS;
       i++)
    {
      uint64_t key = atomic_load ((_Atomic uint64_t *) &keys[i]);
      uint64_t c = atomic_load ((_Atomic uint64_t *) &counts[i]);
      if (key && c)
        out[k++] = (ppd_pair){ key - 1, c };
    }
  for (struct table *t = fn->rt_private; t; t = atomic_load (&t->next))
    {
      *dropped += atomic_load (&t->dropped);
      for (unsigned i = 0; i < SLOTS; i++)
        {
          uint64_t key = atomic_load (&t->slot[i].key);
          uint64_t c = atomic_load (&t->slot[i].count);
          if (key && c)
            out[k++] = (ppd_pair){ key - 1, c };
        }
    }
  *pairs = out;
  *n = k;
  return 0;
}

PPRT_MODE (hash_mode) = {
  .collect = table_collect,
  .clear = table_clear,
};
