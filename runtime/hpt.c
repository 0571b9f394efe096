/* The Hot Path Table (thesis §5.4, Fig 5.6): a set-associative table of
   SETS x WAYS entries shared by the whole program, each a path descriptor
   (function descriptor, Ball-Larus id) and a counter.  A lookup that hits
   increments the counter; a miss replaces the least frequently used entry
   of the set (LFU: the thesis found LRU loses the hot paths) and starts it
   at the incoming count, one.  The size comes from PPGCC_HPT ("SETSxWAYS",
   512x4 by default), read once, when the table is first used.

   A profile never loses counts silently: the count of an evicted entry is
   added to its function's `dropped`, and so is a hit that found its set
   locked.  Per-function dropped counts live in a small side structure the
   descriptor's rt_private points to (unused otherwise by HPT functions).

   Probes may run in signal handlers and in any thread: memory comes from
   mmap (never malloc), allocated lazily with compare-and-swap, and each
   set has a lock that probes only try, a bounded number of times: a probe
   never waits, so a signal handler's probe cannot deadlock on a lock its
   own thread holds.

   A counting mode (mode.h), of the functions flagged PP_FN_HPT; the
   probes reach it through __pp_hash_hit (hashtable.c).  This file comes
   out of libpprt.a only for objects built with -fprofile-paths-table=hpt,
   which refer to PP_RUNTIME_HPT_SYMBOL (plugin/emit.cc); other programs
   link none of it.  */
#include "mode.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* __pp_ppp_miss (ppp_miss_x86_64.S) saves only the general registers
   around __pp_hash_hit, which calls here: the code the probe reaches must
   not touch vector registers, hence no libc string functions on that path
   (glibc's use AVX2), only system calls.  */
#if defined(__x86_64__)
#define GENERAL_REGS_ONLY __attribute__ ((target ("general-regs-only")))
#else
#define GENERAL_REGS_ONLY
#endif

extern char **environ;

#define DEFAULT_SETS 512 /* the thesis's best configuration (§5.5.2) */
#define DEFAULT_WAYS 4
#define MAX_WAYS 64      /* a miss scans the whole set */
#define MAX_ENTRIES (1u << 24)

struct entry
{
  struct __pp_fn_desc *fn; /* NULL: empty */
  uint64_t id;
  uint64_t count;          /* 0: free to replace */
};

struct hpt
{
  uint64_t sets, ways;
  unsigned bits;           /* of sets - 1: how set_of folds an id */
  size_t bytes;            /* of the mapping, this header included */
  struct entry *entry;     /* [sets * ways]: set S at S * ways */
  _Atomic unsigned char *lock; /* [sets]: 1 held */
};

/* What -fprofile-paths-table=hpt objects refer to (rt_abi.h), so that
   linking them takes this file out of libpprt.a.  */
PPRT_HIDDEN const char __pp_hpt_linked __asm__ (PP_RUNTIME_HPT_SYMBOL) = 0;

static struct hpt *_Atomic the_hpt;

/* A function's losses (desc->rt_private), and the hash of the function
   its paths' sets start from (fn_hash), computed once, with the stats.  */
struct fn_stats
{
  _Atomic uint64_t busy;    /* hits that found their set locked */
  _Atomic uint64_t evicted; /* counts its evicted entries held */
  uint64_t hash;            /* fn_hash (FN): set before it is published */
};

/* fn_stats come from mmap'd chunks, claimed by an atomic bump.  */
#define CHUNK_BYTES 65536
struct stats_chunk
{
  _Atomic uint32_t used;
  struct fn_stats stats[];
};
#define CHUNK_STATS                                                        \
  ((CHUNK_BYTES - sizeof (struct stats_chunk)) / sizeof (struct fn_stats))

static struct stats_chunk *_Atomic stats_chunk;

/* ------------------------------------------------------------- memory */

GENERAL_REGS_ONLY static void *
map_zeroed (size_t bytes)
{
  void *p = mmap (NULL, bytes, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

GENERAL_REGS_ONLY static struct fn_stats *
new_stats (void)
{
  for (;;)
    {
      struct stats_chunk *c
          = atomic_load_explicit (&stats_chunk, memory_order_acquire);
      if (c)
        {
          uint32_t i = atomic_fetch_add_explicit (&c->used, 1,
                                                  memory_order_relaxed);
          if (i < CHUNK_STATS)
            return &c->stats[i];
        }
      struct stats_chunk *fresh = map_zeroed (CHUNK_BYTES);
      if (!fresh)
        return NULL;
      atomic_store_explicit (&fresh->used, 1, memory_order_relaxed);
      if (atomic_compare_exchange_strong (&stats_chunk, &c, fresh))
        return &fresh->stats[0];
      munmap (fresh, CHUNK_BYTES); /* another thread made one: use it */
    }
}

/* What tells FN from the other functions for set_of: its name, with its
   CFG's checksum, metadata length and path count, mixed so that every bit
   of it moves the low bits.  The shape alone is not enough: functions of
   one shape (csmith's safe_add_func_uint32_t_u_u, safe_sub_func_uint16_t_u_u
   and dozens more) had one hash, so their paths shared sets and thrashed
   at 10% occupancy (csmith seed 900222: 15 of 16 executions of a path
   dropped from 512x4).  The name, not the descriptor's address, so that
   placement, and so what is dropped, is the same in every run (ASLR).
   FNV-1a by hand: no libc string functions here (GENERAL_REGS_ONLY).  */
GENERAL_REGS_ONLY static uint64_t
fn_hash (const struct __pp_fn_desc *fn)
{
  uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char *c = (const unsigned char *) fn->name; c && *c;
       c++)
    h = (h ^ *c) * 0x100000001b3ull;
  h ^= ((uint64_t) fn->cfg_checksum << 32 | fn->meta_len) ^ fn->num_paths;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

/* FN's side structure, made on its first hit.  */
GENERAL_REGS_ONLY static struct fn_stats *
stats_of (struct __pp_fn_desc *fn, int create)
{
  struct fn_stats *_Atomic *link = (struct fn_stats *_Atomic *) &fn->rt_private;
  struct fn_stats *s = atomic_load_explicit (link, memory_order_acquire);
  if (s || !create)
    return s;
  struct fn_stats *fresh = new_stats ();
  if (!fresh)
    return NULL;
  fresh->hash = fn_hash (fn); /* published by the release of the CAS */
  /* A loser's slot stays unused: zeroed, referenced by nobody.  */
  if (atomic_compare_exchange_strong (link, &s, fresh))
    return fresh;
  return s;
}

/* ------------------------------------------------------ configuration */

/* getenv without libc string functions (see GENERAL_REGS_ONLY).  */
GENERAL_REGS_ONLY static const char *
env_value (const char *name)
{
  for (char **e = environ; e && *e; e++)
    {
      const char *s = *e, *n = name;
      while (*n && *s == *n)
        s++, n++;
      if (!*n && *s == '=')
        return s + 1;
    }
  return NULL;
}

GENERAL_REGS_ONLY static int
parse_count (const char **s, uint64_t *out)
{
  const char *p = *s;
  uint64_t v = 0;
  if (*p < '0' || *p > '9')
    return -1;
  for (; *p >= '0' && *p <= '9'; p++)
    if ((v = v * 10 + (uint64_t) (*p - '0')) > MAX_ENTRIES)
      return -1;
  *s = p;
  *out = v;
  return 0;
}

/* "SETSxWAYS".  Returns 0, or -1 when S is not a size we accept.  */
GENERAL_REGS_ONLY static int
parse_size (const char *s, uint64_t *sets, uint64_t *ways)
{
  if (parse_count (&s, sets) < 0 || *s++ != 'x' || parse_count (&s, ways) < 0
      || *s)
    return -1;
  return *sets >= 1 && *ways >= 1 && *ways <= MAX_WAYS
                 && *sets * *ways <= MAX_ENTRIES
             ? 0
             : -1;
}

/* One stderr line, by write(2): no stdio on the probe path.  */
GENERAL_REGS_ONLY static void
warn_bad_size (const char *value)
{
  static const char head[] = "ppgcc profile: PPGCC_HPT=";
  static const char tail[] = ": not SETSxWAYS (ways at most 64, at most "
                             "2^24 entries); using 512x4\n";
  size_t n = 0;
  while (n < 64 && value[n])
    n++;
  ssize_t ignored = write (2, head, sizeof head - 1);
  ignored = write (2, value, n);
  ignored = write (2, tail, sizeof tail - 1);
  (void) ignored;
}

/* The table, mapped on first use.  */
GENERAL_REGS_ONLY static struct hpt *
hpt_get (void)
{
  struct hpt *t = atomic_load_explicit (&the_hpt, memory_order_acquire);
  if (t)
    return t;
  uint64_t sets = DEFAULT_SETS, ways = DEFAULT_WAYS;
  const char *v = env_value ("PPGCC_HPT");
  int bad = v && parse_size (v, &sets, &ways) < 0;
  if (bad)
    sets = DEFAULT_SETS, ways = DEFAULT_WAYS;
  size_t bytes = sizeof (struct hpt) + sets * ways * sizeof (struct entry)
                 + sets * sizeof (unsigned char);
  struct hpt *fresh = map_zeroed (bytes); /* zero: empty, unlocked */
  if (!fresh)
    return NULL;
  fresh->sets = sets;
  fresh->ways = ways;
  fresh->bits = 1;
  while (fresh->bits < 63 && (sets - 1) >> fresh->bits)
    fresh->bits++;
  fresh->bytes = bytes;
  fresh->entry = (struct entry *) (fresh + 1);
  fresh->lock = (_Atomic unsigned char *) (fresh->entry + sets * ways);
  if (!atomic_compare_exchange_strong (&the_hpt, &t, fresh))
    {
      munmap (fresh, bytes); /* another thread mapped it first */
      return t;
    }
  if (bad)
    warn_bad_size (v);
  return fresh;
}

/* ------------------------------------------------------------ probes */

/* The set of a path of the function whose fn_hash is FN_HASH, ID its
   Ball-Larus id.  The thesis's best index XORs bits of the path's
   start address with its branch outcomes (§5.5.2): here a hash of the
   function XOR the Ball-Larus id, its high bits folded onto the low ones.
   The function's hash is read from its stats, which the probe has
   loaded already: one load, where hashing the descriptor's fields took
   three loads and a multiply on every path end.
   With SETS a power of two, a function's paths whose ids differ only in
   their low log2(SETS) bits (or in bits at distinct positions modulo
   log2(SETS)) fall in different sets; and placement is the same in every
   run (no addresses, so no ASLR): profiles are reproducible.  */
GENERAL_REGS_ONLY static uint64_t
set_of (const struct hpt *t, uint64_t fn_hash, uint64_t id)
{
  uint64_t fold = id;
  for (uint64_t high = id >> t->bits; high; high >>= t->bits)
    fold ^= high;
  return (fn_hash ^ fold) % t->sets;
}

/* A few tries, then give up: another thread holds a set for a few
   instructions, so retrying keeps contended hot paths counted (4 threads
   on 8 hot paths: 24% dropped with a single try); the bound keeps a
   signal handler that interrupted the holder from waiting forever.  */
#define LOCK_TRIES 64

GENERAL_REGS_ONLY static int
try_lock_set (struct hpt *t, uint64_t s)
{
  for (unsigned k = 0; k < LOCK_TRIES; k++)
    {
      if (!atomic_load_explicit (&t->lock[s], memory_order_relaxed)
          && !atomic_exchange_explicit (&t->lock[s], 1,
                                        memory_order_acquire))
        return 1;
#if defined(__x86_64__) || defined(__i386__)
      __asm__ volatile ("pause");
#endif
    }
  return 0;
}

/* One path end of FN (from __pp_hash_hit: general registers only).  */
GENERAL_REGS_ONLY static void
hpt_hit (struct __pp_fn_desc *fn, uint64_t id)
{
  struct fn_stats *st = stats_of (fn, 1);
  struct hpt *t = hpt_get ();
  if (!st || !t)
    return; /* out of memory: nowhere to count, nothing to report */
  uint64_t s = set_of (t, st->hash, id);
  if (!try_lock_set (t, s))
    {
      /* Never wait: the holder may be the code this handler interrupted. */
      atomic_fetch_add_explicit (&st->busy, 1, memory_order_relaxed);
      return;
    }
  struct entry *e = &t->entry[s * t->ways], *victim = e;
  uint64_t w;
  for (w = 0; w < t->ways; w++)
    {
      if (e[w].fn == fn && e[w].id == id)
        break;
      if (e[w].count < victim->count)
        victim = &e[w];
    }
  if (w < t->ways)
    e[w].count++;
  else
    {
      /* LFU replacement (§5.4): the victim's count is lost to the table,
         so it goes to its function's dropped.  Every function in the
         table has its stats (made before its first entry).  */
      if (victim->fn && victim->count)
        atomic_fetch_add_explicit (&stats_of (victim->fn, 0)->evicted,
                                   victim->count, memory_order_relaxed);
      victim->fn = fn;
      victim->id = id;
      victim->count = 1;
    }
  atomic_store_explicit (&t->lock[s], 0, memory_order_release);
}

/* ------------------------------------------------- dumping, clearing */

/* Outside probes (dumps, resets) a set lock is waited for: probes hold
   one for a few instructions.  */
static void
lock_set (struct hpt *t, uint64_t s)
{
  while (atomic_exchange_explicit (&t->lock[s], 1, memory_order_acquire))
    sched_yield ();
}

static void
unlock_set (struct hpt *t, uint64_t s)
{
  atomic_store_explicit (&t->lock[s], 0, memory_order_release);
}

/* FN's entries as (id, count) pairs, malloc'd, unsorted; *DROPPED gets
   the path ends the table lost (evicted or found their set busy).  */
static int
hpt_collect (struct __pp_fn_desc *fn, ppd_pair **pairs, uint64_t *n,
             uint64_t *dropped)
{
  struct fn_stats *st = stats_of (fn, 0);
  struct hpt *t = atomic_load_explicit (&the_hpt, memory_order_acquire);
  uint64_t k = 0, cap = 16;
  ppd_pair *out = malloc (cap * sizeof *out);
  if (!out)
    return -1;
  *dropped = 0;
  /* No stats: FN never ran a path, so it has no entries.  */
  for (uint64_t s = 0; st && t && s < t->sets; s++)
    {
      ppd_pair here[MAX_WAYS];
      unsigned m = 0;
      lock_set (t, s); /* copied out, so no malloc under the lock */
      for (struct entry *e = &t->entry[s * t->ways];
           e < &t->entry[(s + 1) * t->ways]; e++)
        if (e->fn == fn && e->count)
          here[m++] = (ppd_pair){ e->id, e->count };
      unlock_set (t, s);
      if (k + m > cap)
        {
          ppd_pair *bigger = realloc (out, 2 * (cap + m) * sizeof *out);
          if (!bigger)
            {
              free (out);
              return -1;
            }
          out = bigger;
          cap = 2 * (cap + m);
        }
      memcpy (out + k, here, m * sizeof *here);
      k += m;
    }
  if (st)
    *dropped = atomic_load (&st->busy) + atomic_load (&st->evicted);
  *pairs = out;
  *n = k;
  return 0;
}

/* Removes FN's entries and zeroes its dropped counts.  */
static void
hpt_clear (struct __pp_fn_desc *fn)
{
  struct fn_stats *st = stats_of (fn, 0);
  struct hpt *t = atomic_load_explicit (&the_hpt, memory_order_acquire);
  if (!st)
    return; /* never ran a path: nothing in the table */
  for (uint64_t s = 0; t && s < t->sets; s++)
    {
      lock_set (t, s);
      for (struct entry *e = &t->entry[s * t->ways];
           e < &t->entry[(s + 1) * t->ways]; e++)
        if (e->fn == fn)
          *e = (struct entry){ NULL, 0, 0 };
      unlock_set (t, s);
    }
  atomic_store (&st->busy, 0);
  atomic_store (&st->evicted, 0);
}

/* In a forked child: the only thread left; empties the table and frees
   every set lock (a parent thread may have held one at the fork), before
   the core clears the functions (hpt_clear waits for set locks).  */
static void
hpt_after_fork (void)
{
  struct hpt *t = atomic_load_explicit (&the_hpt, memory_order_acquire);
  if (!t)
    return;
  memset (t->entry, 0, t->sets * t->ways * sizeof *t->entry);
  for (uint64_t s = 0; s < t->sets; s++)
    atomic_store (&t->lock[s], 0);
}

PPRT_MODE (hpt_mode) = {
  .after_fork = hpt_after_fork,
  .fn_flag = PP_FN_HPT,
  .hit = hpt_hit,
  .collect = hpt_collect,
  .clear = hpt_clear,
};
