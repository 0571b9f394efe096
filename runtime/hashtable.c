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
#include "hash_layout.h"
#include "mode.h"
#include "next_nonzero.h"

#include <stdatomic.h>
#include <stddef.h>
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

/* A table has a power of two of slots; the probe sequence looks at PROBES
   of them from the id's hash before going on to the next table.  The first
   table is sized from what the function's training ran (twice its trained
   paths, within [MIN_SLOTS, FIRST_MAX_SLOTS]), so that a lookup usually
   finds its id at the first probe or the second: a linear probe sequence
   in a table near full runs long (bzip2's mainSimpleSort, about 25,000
   distinct ids in chained 4096-slot tables: 22 probes per lookup).  Each
   further table is twice the last (up to MAX_SLOTS), so that a function
   with many distinct ids walks a short chain.  Tables are mapped lazily:
   only the pages with a counted id become memory.  */
#define MIN_SLOTS 4096u
#define FIRST_MAX_SLOTS (1u << 16)
#define MAX_SLOTS (1u << 20)
#define PROBES 64

struct slot
{
  _Atomic uint64_t key;
  _Atomic uint64_t count;
};

struct table
{
  struct table *_Atomic next;
  _Atomic uint64_t dropped; /* only used in the first table */
  uint64_t mask;            /* slots - 1; set before the table is shared */
  uint64_t pad;             /* slots start 16-byte aligned */
  struct slot slot[];
};

/* __pp_ppp_miss's fast path reads these by offset (hash_layout.h).  */
_Static_assert (offsetof (struct __pp_fn_desc, rt_private)
                    == HL_DESC_RT_PRIVATE, "hash_layout.h");
_Static_assert (offsetof (struct __pp_fn_desc, ext) == HL_DESC_EXT,
                "hash_layout.h");
_Static_assert (offsetof (struct __pp_fn_desc, flags) == HL_DESC_FLAGS,
                "hash_layout.h");
_Static_assert (sizeof (((struct __pp_fn_desc *) 0)->flags) == 4,
                "hash_layout.h");
_Static_assert (PP_FN_HPT == HL_FN_HPT, "hash_layout.h");
_Static_assert (offsetof (struct __pp_fn_ext, hash_keys) == HL_EXT_HASH_KEYS,
                "hash_layout.h");
_Static_assert (offsetof (struct __pp_fn_ext, hash_cache_bits)
                    == HL_EXT_CACHE_BITS,
                "hash_layout.h");
_Static_assert (PP_HASH_CACHE_MULT == HL_CACHE_MULT, "hash_layout.h");
_Static_assert (offsetof (struct table, mask) == HL_TABLE_MASK,
                "hash_layout.h");
_Static_assert (offsetof (struct table, slot) == HL_TABLE_SLOTS
                    && sizeof (struct slot) == 16,
                "hash_layout.h");

static size_t
table_bytes (uint64_t slots)
{
  return sizeof (struct table) + slots * sizeof (struct slot);
}

GENERAL_REGS_ONLY static struct table *
new_table (uint64_t slots)
{
  void *p = mmap (NULL, table_bytes (slots), PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return NULL;
  struct table *t = p; /* zero-filled */
  t->mask = slots - 1;
  return t;
}

/* The table after *LINK, created with SLOTS slots if missing.  The
   compare-and-swap publishes the new table's mask with it (release); the
   acquiring load sees it.  */
GENERAL_REGS_ONLY static struct table *
next_table (struct table *_Atomic *link, uint64_t slots)
{
  struct table *t = atomic_load_explicit (link, memory_order_acquire);
  if (t)
    return t;
  struct table *fresh = new_table (slots);
  if (!fresh)
    return NULL;
  if (atomic_compare_exchange_strong (link, &t, fresh))
    return fresh;
  munmap (fresh, table_bytes (slots)); /* another thread won */
  return t;
}

/* The first table's slots for FN: twice its trained paths (a function
   trained on a similar run meets about as many), a power of two.  */
GENERAL_REGS_ONLY static uint64_t
first_slots (const struct __pp_fn_desc *fn)
{
  uint64_t want = PP_FN_EXT (fn, num_trained) * 2, slots = MIN_SLOTS;
  while (slots < want && slots < FIRST_MAX_SLOTS)
    slots *= 2;
  return slots;
}

GENERAL_REGS_ONLY static uint64_t
hash (uint64_t id)
{
  id ^= id >> 33;
  id *= (uint64_t) HL_HASH_MULT;
  id ^= id >> 33;
  return id;
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
     free, so that the path's next runs count in place (rt_abi.h), and
     count this run there too: the path then has one pair at the dump, not
     one in the cache and one in a table to sort and sum.  Once taken a
     slot stays taken: a plain load tells so without a locked instruction
     on every miss.  */
  uint64_t *keys = PP_FN_EXT (fn, hash_keys);
  if (keys)
    {
      uint32_t h = PP_HASH_CACHE_SLOT (id, fn->ext->hash_cache_bits);
      _Atomic uint64_t *ck = (_Atomic uint64_t *) &keys[h];
      uint64_t expected = 0;
      if (atomic_load_explicit (ck, memory_order_relaxed) == 0
          && atomic_compare_exchange_strong (ck, &expected, id + 1))
        {
          atomic_fetch_add_explicit (
              (_Atomic uint64_t *) &fn->ext->hash_counts[h], 1,
              memory_order_relaxed);
          return;
        }
    }
  struct table *_Atomic *root = (struct table *_Atomic *) &fn->rt_private;
  struct table *first = atomic_load_explicit (root, memory_order_acquire);
  if (!first && !(first = next_table (root, first_slots (fn))))
    return; /* nowhere to count: nothing to report either */
  uint64_t key = id + 1, h = hash (id);
  for (struct table *t = first; t;)
    {
      uint64_t mask = t->mask;
      for (unsigned k = 0; k < PROBES; k++)
        {
          struct slot *s = &t->slot[(h + k) & mask];
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
      uint64_t slots = mask + 1;
      t = next_table (&t->next, slots < MAX_SLOTS ? slots * 2 : slots);
    }
  atomic_fetch_add_explicit (&first->dropped, 1, memory_order_relaxed);
}

static void
table_clear (struct __pp_fn_desc *fn)
{
  uint64_t *counts = PP_FN_EXT (fn, hash_counts);
  uint64_t nc = counts ? 1ull << fn->ext->hash_cache_bits : 0;
  for (uint64_t i = 0; (i = pprt_next_nonzero (counts, i, nc)) < nc; i++)
    atomic_store_explicit ((_Atomic uint64_t *) &counts[i], 0,
                           memory_order_relaxed);
  for (struct table *t = fn->rt_private; t; t = atomic_load (&t->next))
    {
      /* Only claimed slots: a store to the rest would make every page of
         a large table memory.  */
      for (uint64_t i = 0; i <= t->mask; i++)
        if (atomic_load_explicit (&t->slot[i].key, memory_order_relaxed))
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
    cap += t->mask + 1;
  uint64_t *keys = PP_FN_EXT (fn, hash_keys);
  uint64_t *counts = PP_FN_EXT (fn, hash_counts);
  uint64_t nc = counts ? 1ull << fn->ext->hash_cache_bits : 0;
  cap += nc;
  ppd_pair *out = malloc ((cap + 1) * sizeof *out);
  if (!out)
    return -1;
  /* The inline probe's counts; the caller sums pairs of one id.  */
  for (uint64_t i = 0; (i = pprt_next_nonzero (counts, i, nc)) < nc; i++)
    {
      uint64_t key = atomic_load ((_Atomic uint64_t *) &keys[i]);
      uint64_t c = atomic_load ((_Atomic uint64_t *) &counts[i]);
      if (key && c)
        out[k++] = (ppd_pair){ key - 1, c };
    }
  for (struct table *t = fn->rt_private; t; t = atomic_load (&t->next))
    {
      *dropped += atomic_load (&t->dropped);
      for (uint64_t i = 0; i <= t->mask; i++)
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
