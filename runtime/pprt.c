/* libpprt: the runtime linked into programs built with -fprofile-paths.

   Instrumented objects register a struct __pp_unit from a constructor
   (include/pp/rt_abi.h); at exit (a destructor, so dlclose'd shared objects
   write theirs too) and on __pp_dump () every unit's counts are merged into
   its <object>.ppd under a lock and written atomically.

   Only __pp_ symbols are global: everything else here is static, and the
   .ppd codec (lib/ppd_*.c) is linked under __pp_ names
   (lib_in_runtime.h).  The runtime allocates only
   when it writes profiles (never in a probe), except for the hash tables of
   very large functions, which come from mmap.  */
#define _GNU_SOURCE
/* Registration and the dump: cold code in every instrumented program,
   small rather than fast (-Os: 4.5 KB less text per binary).  */
#pragma GCC optimize ("Os")
/* Functions called once stay calls here: 160 bytes less.  */
#pragma GCC optimize ("no-inline-functions-called-once")
#include "lib_in_runtime.h"
#include "next_nonzero.h"
#include "resident.h"
#include "pp/ppd.h"
#include "ppd_internal.h"
#include "file_io.h"
#include "pp/sat.h"

#include <errno.h>

#include "pp/rt_abi.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db_write.h"
#include "mode.h"

/* meta_section.c: bytes of a unit's .pp_meta record (its functions'
   metadata: __pp_fn_meta, mode.h).  */
PPRT_HIDDEN const char *__pp_unit_bytes (struct __pp_unit *u,
                                         uint64_t offset, uint64_t len);

/* What instrumented objects refer to (rt_abi.h): linked without this
   runtime, the linker names it.  */
const char __pp_runtime_check __asm__ (PP_RUNTIME_CHECK_SYMBOL) = 0;

static struct __pp_unit *_Atomic registered;
static pthread_mutex_t dump_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

/* The units whose file counts this process's run already: a run counts
   once however often it dumps, as with gcov's __gcov_dump (run_counted).
   Under dump_lock.  */
static struct __pp_unit **counted;
static size_t ncounted, counted_cap;

static int
run_counted (const struct __pp_unit *u)
{
  for (size_t i = 0; i < ncounted; i++)
    if (counted[i] == u)
      return 1;
  return 0;
}

/* Out of memory: the run is counted again at the next dump, a lesser
   evil than counts lost.  */
static void
mark_run_counted (struct __pp_unit *u)
{
  if (ncounted == counted_cap)
    {
      size_t cap = counted_cap ? counted_cap * 2 : 16;
      struct __pp_unit **c = realloc (counted, cap * sizeof *c);
      if (!c)
        return;
      counted = c;
      counted_cap = cap;
    }
  counted[ncounted++] = u;
}

/* After a dump: takes what SNAP collected out of U's counters.  Array
   counters lose exactly the counts written (paths counted by other threads
   meanwhile stay for the next dump), one atomic subtraction per path that
   ran instead of clearing the whole array: a large array is mostly zeros,
   and clearing 2 MiB of them cost more than the rest of the exit.  The
   rest is cleared.  A null SNAP clears everything.  */
/* The page map of the dump in progress, or of a clear (under dump_lock,
   or in a fork's child before any other thread).  */
static struct __pp_resident resident;

/* Arrays of at least this many counters (64 KiB) are read page by page
   where the page map says a page was ever written (resident.c).  */
#define PAGED_COUNTERS 8192u

/* The next nonzero counter of C[I..N), or N: skipping pages never
   written, then zeros 16 at a time.  */
static uint64_t
next_count (const uint64_t *c, uint64_t i, uint64_t n)
{
  while (i < n)
    {
      uint64_t end = n;
      if (n >= PAGED_COUNTERS
          && (i = __pp_resident_next (&resident, c, i, n, &end)) >= n)
        return n;
      i = pprt_next_nonzero (c, i, end);
      if (i < end)
        return i;
    }
  return n;
}

/* C[0..N) zeroed, writing only where there is a count: a fork's child
   does not copy the parent's pages to write zeros over zeros.  */
static void
clear_counters (uint64_t *c, uint64_t n)
{
  for (uint64_t i = 0; (i = next_count (c, i, n)) < n;)
    {
      uint64_t end = i + 16 < n ? i + 16 : n;
      memset (c + i, 0, (end - i) * sizeof *c);
      i = end;
    }
}

/* The counting mode (mode.h) of D's paths that no array holds: the one
   whose flag D has (PP_FN_HPT: the Hot Path Table), else the default one
   (the hash table); NULL when no such mode is linked, when no probe can
   have reached one.  */
static const struct __pp_mode *
side_table (const struct __pp_fn_desc *d)
{
  const struct __pp_mode *fallback = NULL;
  PPRT_FOR_EACH_MODE (m)
    if (m->collect)
      {
        if (m->fn_flag & d->flags)
          return m;
        if (!m->fn_flag)
          fallback = m;
      }
  return fallback;
}

static void
drain_counts (struct __pp_unit *u, const ppd_profile *snap)
{
  for (uint32_t f = 0; f < u->num_fns; f++)
    {
      struct __pp_fn_desc *fn = &u->fns[f];
      if (fn->counters && snap && f < snap->nfns)
        {
          const ppd_fn *got = &snap->fns[f];
          for (uint64_t k = 0; k < got->npairs; k++)
            if (got->pairs[k].id < fn->num_paths)
              atomic_fetch_sub_explicit (
                  (_Atomic uint64_t *) &fn->counters[got->pairs[k].id],
                  got->pairs[k].count, memory_order_relaxed);
        }
      else if (fn->counters)
        clear_counters (fn->counters, fn->num_paths);
      if (PP_FN_EXT (fn, ppp_counts))
        memset (fn->ext->ppp_counts, 0,
                fn->ext->ppp_size * sizeof *fn->ext->ppp_counts);
      /* Value profiles: what the snapshot took of the sums and calls, as
         the counters; an OR of addresses stays (written again, it
         changes nothing), and the vote starts again from no votes.  */
      uint64_t nv = PP_FN_EXT (fn, num_values);
      for (uint64_t v = 0; v < nv; v++)
        {
          unsigned w = v % PPD_VALUE_WORDS;
          if (!snap || f >= snap->nfns || snap->fns[f].nvalues != nv)
            fn->ext->values[v] = 0;
          else if (w == PPD_VALUE_SUM || w == PPD_VALUE_CALLS)
            atomic_fetch_sub_explicit (
                (_Atomic uint64_t *) &fn->ext->values[v],
                snap->fns[f].values[v], memory_order_relaxed);
          else if (w == PPD_VALUE_VOTES)
            fn->ext->values[v] = 0;
        }
      const struct __pp_mode *side = side_table (fn);
      if (side)
        side->clear (fn);
    }
}

/* Between __pp_resident_begin and _end.  */
static void
zero_counts (struct __pp_unit *u)
{
  drain_counts (u, NULL);
}

/* Every linked mode's hook at offset HOOK in struct __pp_mode, one of
   type void (void): a loop for init, after_fork and reset, smaller than
   three in every program.  */
static void
run_hooks (size_t hook)
{
  PPRT_FOR_EACH_MODE (m)
    {
      void (*f) (void) = *(void (*const *) (void)) ((const char *) m + hook);
      if (f)
        f ();
    }
}
#define RUN_HOOKS(name) run_hooks (offsetof (struct __pp_mode, name))

/* fork: the child starts from zero, like gcov; what the parent counted
   before the fork is the parent's to write.  */
static void
after_fork_in_child (void)
{
  pthread_mutex_init (&dump_lock, NULL);
  /* The modes first: the Hot Path Table frees the set locks that
     clearing its functions below takes.  */
  RUN_HOOKS (after_fork);
  ncounted = 0; /* the child is a run of its own */
  __pp_resident_begin (&resident);
  for (struct __pp_unit *u = atomic_load (&registered); u; u = u->next)
    zero_counts (u);
  __pp_resident_end (&resident);
}

static void
runtime_init (void)
{
  RUN_HOOKS (init);
  pthread_atfork (NULL, NULL, after_fork_in_child);
}

void
__pp_register_unit (struct __pp_unit *u)
{
  if (u->abi_version != PP_ABI_VERSION)
    {
      fprintf (stderr,
               "ppgcc profile: %s: object built for runtime ABI %u, this "
               "runtime speaks %u; not profiled (rebuild with one ppgcc)\n",
               u->ppd_path, u->abi_version, PP_ABI_VERSION);
      return;
    }
  if (u->fns_end - u->fns != (ptrdiff_t) u->num_fns)
    {
      fprintf (stderr,
               "ppgcc profile: %s: %td function descriptors between its "
               "section's bounds, %u expected (a link that dropped some: "
               "-z start-stop-gc?); not profiled\n",
               u->ppd_path, u->fns_end - u->fns, u->num_fns);
      return;
    }
  pthread_once (&init_once, runtime_init);
  struct __pp_unit *head = atomic_load (&registered);
  do
    u->next = head;
  while (!atomic_compare_exchange_weak (&registered, &head, u));
  PPRT_FOR_EACH_MODE (m)
    if (m->register_unit)
      m->register_unit (u);
}

/* --------------------------------------------------------- file names */

/* PPGCC_PREFIX_STRIP: a count of directories, else (one line, once) 0.  */
static long
prefix_strip (void)
{
  static int warned;
  const char *s = getenv ("PPGCC_PREFIX_STRIP");
  if (!s || !*s)
    return 0;
  long n = 0;
  const char *p = s;
  for (; *p >= '0' && *p <= '9'; p++)
    if (n < 100000) /* more than any path has */
      n = n * 10 + (*p - '0');
  if (!*p)
    return n;
  if (!warned)
    fprintf (stderr, "ppgcc profile: PPGCC_PREFIX_STRIP=%s: expected a "
             "number of leading directories (0, 1, 2, ...); none stripped\n",
             s);
  warned = 1;
  return 0;
}

/* PPGCC_PREFIX / PPGCC_PREFIX_STRIP, as GCOV_PREFIX / GCOV_PREFIX_STRIP:
   drop that many leading directories of the absolute path, put the rest
   under the prefix.  Returns a malloc'd path.  Called under dump_lock.  */
static char *
profile_path (const char *path)
{
  const char *prefix = getenv ("PPGCC_PREFIX");
  if (!prefix || !*prefix)
    return strdup (path);
  long strip = prefix_strip ();
  const char *rest = path;
  for (; strip > 0; strip--)
    {
      const char *slash = strchr (rest + (*rest == '/'), '/');
      if (!slash)
        break;
      rest = slash;
    }
  size_t n = strlen (prefix) + strlen (rest) + 2;
  char *out = malloc (n);
  if (out)
    snprintf (out, n, "%s%s%s", prefix, *rest == '/' ? "" : "/", rest);
  return out;
}

/* Makes PATH's missing directories.  0, or the length of the first of
   them that could not be made (PATH[0..n)) with errno its mkdir's.  */
static size_t
make_parent_dirs (char *path)
{
  size_t failed = 0;
  int failed_errno = 0;
  for (char *p = path + 1; *p; p++)
    if (*p == '/')
      {
        *p = '\0';
        if (mkdir (path, 0755) < 0 && errno != EEXIST && !failed)
          {
            failed = (size_t) (p - path);
            failed_errno = errno;
          }
        *p = '/';
      }
  errno = failed_errno;
  return failed;
}

/* The lock beside profile PATH (pp_lock_beside), PATH's directories made
   first when they are missing.  Its descriptor, or -1 after one line
   saying why and that PATH is not written.  */
static int
lock_profile (char *path)
{
  /* Its directories are made only when they are missing: a mkdir per
     directory level and unit at every exit was most of a small
     program's exit (pcre2grep: 120 failing calls).  */
  const char *why = NULL;
  int fd = pp_lock_beside (path, &why);
  if (fd < 0 && errno == ENOENT)
    {
      size_t failed = make_parent_dirs (path);
      int mkdir_errno = errno;
      fd = pp_lock_beside (path, &why);
      if (fd < 0 && failed)
        {
          /* The lock's "No such file or directory" would hide why: a
             read-only file system, a directory not ours to write.  */
          fprintf (stderr, "ppgcc profile: %.*s: cannot make the "
                   "directory: %s; %s not written\n", (int) failed, path,
                   strerror (mkdir_errno), path);
          return -1;
        }
    }
  if (fd < 0)
    fprintf (stderr, "ppgcc profile: %s.lock: cannot lock: %s; %s not "
             "written\n", path, why, path);
  return fd;
}

/* The same for the modes' files (the .ppc: cct_dump.c).  */
PPRT_HIDDEN char *
__pp_profile_path (const char *path)
{
  return profile_path (path);
}

PPRT_HIDDEN int
__pp_lock_profile (char *path)
{
  return lock_profile (path);
}

/* -------------------------------------------------------------- dumping */

static int
cmp_pairs (const void *a, const void *b)
{
  uint64_t x = ((const ppd_pair *) a)->id, y = ((const ppd_pair *) b)->id;
  return x < y ? -1 : x > y;
}

/* D's counts as ascending (Ball-Larus id, count) pairs: from the array
   indexed by Ball-Larus id, from the PPP counts (ppp_ids gives each one's
   Ball-Larus id), and from the hash table (hash mode, PPP misses) or,
   with PP_FN_HPT, from the Hot Path Table, whose evictions and busy sets
   are the `dropped` (thesis §5.4).  */
/* The pairs of one unit's snapshot, one function's after another, in one
   block: a malloc and a free a function that ran were a tenth of lua's
   exit (500 of each, 0.29 M instructions a process).  */
struct pair_arena
{
  ppd_pair *p;
  uint64_t n, cap;
};

/* Room for one more pair in A (RESERVE kept free at the end): doubles it
   when full.  0, or -1 when out of memory (A kept).  */
static int
room_for_pair (struct pair_arena *a, uint64_t reserve)
{
  if (a->n + reserve + 1 < a->cap)
    return 0;
  uint64_t cap = 2 * (a->cap + reserve + 64);
  ppd_pair *more = realloc (a->p, cap * sizeof *more);
  if (!more)
    return -1;
  a->p = more;
  a->cap = cap;
  return 0;
}

/* Appends D's pairs to A; FN->npairs says how many (snapshot points
   FN->pairs at them once A stops moving).  */
static int
collect_counts (struct __pp_fn_desc *d, ppd_fn *fn, struct pair_arena *a)
{
  ppd_pair *table = NULL;
  uint64_t ntable = 0;
  const struct __pp_mode *side = side_table (d);
  if (side && side->collect (d, &table, &ntable, &fn->dropped) < 0)
    return -1;
  /* One pass over the arrays (a large one is mostly zeros: scanning it
     twice, to size and then to fill, was a third of sqlite3's exit).  The
     hash table's pairs go last, into the room kept for them.  */
  const uint64_t *ppp_ids = PP_FN_EXT (d, ppp_ids);
  const uint64_t *ppp_counts = PP_FN_EXT (d, ppp_counts);
  uint64_t base = a->n;
  int oom = 0;
  for (uint64_t i = d->counters ? next_count (d->counters, 0, d->num_paths)
                                : d->num_paths;
       !oom && i < d->num_paths;
       i = next_count (d->counters, i + 1, d->num_paths))
    {
      oom = room_for_pair (a, ntable) < 0;
      if (!oom)
        a->p[a->n++] = (ppd_pair){ i, d->counters[i] };
    }
  for (uint64_t j = 0; !oom && ppp_counts && j < d->ext->ppp_size; j++)
    if (ppp_counts[j])
      {
        oom = room_for_pair (a, ntable) < 0;
        if (!oom)
          a->p[a->n++] = (ppd_pair){ ppp_ids[j], ppp_counts[j] };
      }
  if (!oom && ntable)
    oom = room_for_pair (a, ntable) < 0;
  if (oom)
    {
      free (table);
      return -1;
    }
  ppd_pair *out = a->p ? a->p + base : NULL;
  uint64_t n = a->n - base;
  if (ntable)
    memcpy (out + n, table, ntable * sizeof *table);
  n += ntable;
  free (table);
  /* Ascending, one pair per id (a path is counted in one place only, but
     the file format must not depend on that).  The array's pairs come
     ascending and unique: sorted only with others (lua's exit: 500 sorts
     a process, 0.15 M instructions).  */
  uint64_t k = n;
  if (ntable || (ppp_counts && n))
    {
      qsort (out, n, sizeof *out, cmp_pairs);
      k = 0;
      for (uint64_t i = 0; i < n; i++)
        {
          if (k && out[k - 1].id == out[i].id)
            out[k - 1].count = pp_add_sat (out[k - 1].count, out[i].count);
          else
            out[k++] = out[i];
        }
    }
  fn->npairs = k;
  a->n = base + k;
  return 0;
}

/* D's trained list into FN, from the unit's .pp_meta record (rt_abi.h).
   Without the record (said once) FN is written as not trained: a list
   that is not there must not make every path look untested.  */
static void
copy_trained (struct __pp_unit *u, const struct __pp_fn_desc *d, ppd_fn *fn,
              uint64_t *to)
{
  uint64_t nt = PP_FN_EXT (d, num_trained);
  const unsigned char *b
      = (const unsigned char *) (nt ? __pp_unit_bytes (u, d->ext->trained_offset,
                                                       nt * 8)
                                    : "");
  if (!b)
    {
      fn->flags &= ~PP_FN_TRAINED;
      return;
    }
  fn->trained = to;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  /* The record's ids are little-endian u64s: as they are in memory here.
     Assembled byte by byte they were most of an interprocedural PPP
     build's exit (bzip2 -9 of 1 MB: 43.7 M instructions).  */
  memcpy (to, b, nt * 8);
#else
  for (uint64_t i = 0; i < nt; i++, b += 8)
    {
      uint64_t v = 0;
      for (int k = 7; k >= 0; k--)
        v = v << 8 | b[k];
      fn->trained[i] = v;
    }
#endif
  fn->ntrained = nt;
}

/* Frees a snapshot: its lists and TRAINED (the block of its trained
   lists), not the names and metadata it borrows.  */
static void
snapshot_free (ppd_profile *p, uint64_t *trained)
{
  /* The pairs: one block, the first function's (snapshot).  */
  if (p->nfns)
    free (p->fns[0].pairs);
  for (uint32_t f = 0; f < p->nfns; f++)
    if (p->fns[f].nvalues)
      free (p->fns[f].values);
  free (trained);
  free (p->fns);
  free (p->source);
  memset (p, 0, sizeof *p); /* progs: borrowed */
}

/* The unit's counts since the last dump, as a profile of one run or (a
   later dump of this process) of none: names and metadata borrowed from
   the unit (free it with snapshot_free).  */
/* The program this process runs, for the profiles' programs section
   (include/pp/ppd.h): its run, once, in each unit's first dump.  Read at
   each dump, under dump_lock.  */
static char program_name[PATH_MAX];
static ppd_prog program_run = { program_name, 1 };

static void
read_program_name (void)
{
  ssize_t n = readlink ("/proc/self/exe", program_name,
                        sizeof program_name - 1);
  program_name[n > 0 ? n : 0] = '\0';
}

static int
snapshot (struct __pp_unit *u, ppd_profile *p, uint64_t **trained_block)
{
  memset (p, 0, sizeof *p);
  p->runs = !run_counted (u);
  /* Borrowed (snapshot_free leaves it); no name without /proc.  */
  if (p->runs && program_name[0])
    {
      p->progs = &program_run;
      p->nprogs = 1;
    }
  p->source = strdup (u->source ? u->source : "");
  p->fns = calloc (u->num_fns ? u->num_fns : 1, sizeof *p->fns);
  if (!p->source || !p->fns)
    return -1;
  /* The trained lists (PPP and residual builds) in one block, not one
     allocation a function.  */
  uint64_t all_trained = 0;
  for (uint32_t f = 0; f < u->num_fns; f++)
    if (u->fns[f].flags & PP_FN_TRAINED)
      all_trained += PP_FN_EXT (&u->fns[f], num_trained) + 1;
  uint64_t *trained = all_trained ? malloc (all_trained * sizeof *trained)
                                  : NULL;
  *trained_block = trained;
  if (all_trained && !trained)
    return -1;
  struct pair_arena pairs = { NULL, 0, 0 };
  for (uint32_t f = 0; f < u->num_fns; f++)
    {
      struct __pp_fn_desc *d = &u->fns[f];
      ppd_fn *fn = &p->fns[p->nfns++];
      /* Borrowed, not copied (snapshot_free): the codec only reads them,
         and copying every name and metadata field cost more than the
         rest of a merge into an unchanged file.  */
      fn->name = (char *) d->name;
      const char *meta = __pp_fn_meta (u, d);
      fn->meta = (char *) (meta ? meta : "");
      fn->meta_len = meta ? d->meta_len : 0;
      fn->checksum = d->cfg_checksum;
      fn->flags = d->flags & ~PP_FN_FLAT_CALLS_FROM_PATHS;
      fn->num_paths = d->num_paths;
      if (collect_counts (d, fn, &pairs) < 0)
        {
          free (pairs.p);
          return -1;
        }
      uint64_t nv = PP_FN_EXT (d, num_values);
      if (nv)
        {
          fn->values = malloc (nv * sizeof *fn->values);
          if (!fn->values)
            {
              free (pairs.p);
              return -1;
            }
          for (uint64_t v = 0; v < nv; v++)
            fn->values[v] = atomic_load_explicit (
                (_Atomic uint64_t *) &d->ext->values[v], memory_order_relaxed);
          fn->nvalues = nv;
        }
      if (d->flags & PP_FN_TRAINED)
        {
          copy_trained (u, d, fn, trained);
          trained += PP_FN_EXT (d, num_trained) + 1;
        }
    }
  /* Each function's pairs where they ended up; the first's pointer is
     the block's, for snapshot_free, even with none.  */
  uint64_t at = 0;
  for (uint32_t f = 0; f < p->nfns; f++)
    {
      p->fns[f].pairs = pairs.p ? pairs.p + at : NULL;
      at += p->fns[f].npairs;
    }
  if (!p->nfns)
    free (pairs.p);
  return 0;
}

struct warn_ctx
{
  const char *path;
};

static void
warn_changed (void *ctx, const char *fn)
{
  fprintf (stderr,
           "ppgcc profile: %s: function '%s' has had %d other CFGs (builds "
           "at other -O levels, or edits); the oldest one's counts are "
           "dropped\n",
           ((struct warn_ctx *) ctx)->path, fn, PPD_MAX_VERSIONS);
}

/* What is at PATH, read for the merge: 0 with its bytes *BUF (*LEN), as
   far as its header says the profile goes, *SIZE the file's size (more
   than *LEN: bytes after the profile, not read); 1 when there is nothing;
   -1 when something that is not a ppgcc profile is there (a directory, a
   symbolic link, another file), or when it does not fit in memory: left
   alone, and nothing is written.  */
static int
read_old (const char *path, char **buf, size_t *len, uint64_t *size)
{
  const char *why = NULL;
  int rc = pp_read_own_file (path, PPD_MAGIC, 4, PPD_HEADER_SIZE,
                             ppd_file_size, buf, len, size, &why);
  if (rc == PP_READ_OOM)
    fprintf (stderr, "ppgcc profile: %s: out of memory reading its %zu "
             "bytes of profile; left as it is, counts not written\n", path,
             *len);
  else if (rc < 0)
    fprintf (stderr, "ppgcc profile: %s: %s; not a ppgcc profile, left as "
             "it is; counts not written\n", path, why);
  return rc < 0 ? -1 : rc;
}

/* PATH, a damaged profile of ours (WHY), kept aside as PATH.corrupt and
   never overwritten; THEN says what the dump does next.  0; -1 when it
   cannot be kept aside (a directory at PATH.corrupt): left as it is,
   nothing written.  */
/* Set while dump_unit reads a profile settled from a directory listing
   made for an earlier unit: a profile torn by a writer killed since the
   listing would be kept aside with its journal unseen, so damage found
   then is only noted (damage_seen), and dump_unit settles again from the
   directory itself and reads the profile once more.  */
static int settled_from_listing, damage_seen;

static int
keep_aside (const char *path, const char *why, const char *then)
{
  if (settled_from_listing)
    {
      damage_seen = 1;
      return -1;
    }
  size_t n = strlen (path) + 16;
  char *aside = malloc (n);
  int e = ENOMEM;
  if (aside)
    {
      snprintf (aside, n, "%s.corrupt", path);
      if (rename (path, aside) == 0)
        {
          fprintf (stderr, "ppgcc profile: %s: %s; kept as %s, %s\n", path,
                   why, aside, then);
          free (aside);
          return 0;
        }
      e = errno;
    }
  fprintf (stderr, "ppgcc profile: %s: %s; cannot keep it as %s.corrupt: "
           "%s; left as it is, counts not written\n", path, why, path,
           strerror (e));
  free (aside);
  return -1;
}

/* BUF (LEN bytes, read from PATH) decoded into *OLD: 0; 1 when it is
   damaged, now kept aside as PATH.corrupt (write afresh); -1 when it is
   damaged and cannot be kept aside, or when memory ran out decoding it:
   left as it is, nothing written.  */
static int
decode_old (const char *path, const char *buf, size_t len, ppd_profile *old)
{
  const char *why = NULL;
  int rc = ppd_decode ((const unsigned char *) buf, len, old, &why);
  if (rc == 0)
    return 0;
  if (rc == PPD_OOM)
    {
      fprintf (stderr, "ppgcc profile: %s: out of memory decoding its %zu "
               "bytes of profile; left as it is, counts not written\n",
               path, len);
      return -1;
    }
  return keep_aside (path, why, "writing this run's counts afresh") < 0 ? -1
                                                                      : 1;
}

/* PATH, of SIZE bytes, holds more than the profile its header describes,
   read into BUF (LEN bytes): damaged, so kept aside as PATH.corrupt,
   whole; the profile, when it checks, is merged with this run's as it
   would be without the bytes after it (they were never read: a 1 GiB
   sparse file after a profile cost the program 1 GiB and 3 s at exit).
   0: merge BUF; 1: write this run's counts afresh; -1: left as it is,
   nothing written.  */
static int
keep_longer_aside (const char *path, const char *buf, size_t len,
                   uint64_t size)
{
  const char *bad = NULL;
  int sound = ppd_check ((const unsigned char *) buf, len, &bad) != 0;
  char why[160];
  snprintf (why, sizeof why, "%llu bytes after the %zu-byte profile its "
            "header describes%s%s", (unsigned long long) (size - len), len,
            sound ? "" : ", which is damaged: ", sound ? "" : bad);
  if (keep_aside (path, why, sound ? "merging that profile with this run's"
                                   : "writing this run's counts afresh")
      < 0)
    return -1;
  return sound ? 0 : 1;
}

/* SNAP merged into the profile BUF (LEN bytes) read from PATH, written to
   PATH: straight from BUF's bytes when it holds the same functions (a
   program run again: ppd_merge_encoded), else decoded and merged.  0 when
   written.  */
static int
merge_and_write (const char *path, const char *buf, size_t len,
                 ppd_profile *snap)
{
  unsigned char *out;
  size_t out_len;
  if (buf && ppd_merge_encoded ((const unsigned char *) buf, len, snap, &out,
                                &out_len) == 0)
    {
      int rc = pp_write_file_in_place (path, out, out_len);
      free (out);
      if (rc != 0)
        fprintf (stderr, "ppgcc profile: %s: cannot write: %s\n", path,
                 strerror (errno));
      return rc;
    }
  ppd_profile old;
  int have = buf ? decode_old (path, buf, len, &old) : 1;
  if (have < 0)
    return -1;
  ppd_profile *result = snap;
  if (have == 0)
    {
      struct warn_ctx wc = { path };
      if (ppd_merge (&old, snap, warn_changed, &wc) == 0)
        result = &old;
      else
        fprintf (stderr, "ppgcc profile: %s: out of memory while merging, "
                 "writing this run only\n", path);
    }
  int rc = ppd_rewrite_file (path, result);
  if (rc != 0)
    fprintf (stderr, "ppgcc profile: %s: cannot write: %s\n", path,
             strerror (errno));
  if (have == 0)
    ppd_free (&old);
  return rc;
}

/* SNAP merged into the profile at PATH, read under its lock: 0 when
   written.  */
static int
merge_into_file (const char *path, ppd_profile *snap)
{
  char *buf = NULL;
  size_t len = 0;
  uint64_t size = 0;
  int rc = -1;
  int have = read_old (path, &buf, &len, &size);
  if (have == 0 && size > len)
    have = keep_longer_aside (path, buf, len, size);
  if (have >= 0)
    rc = merge_and_write (path, have == 0 ? buf : NULL, len, snap);
  free (buf); /* NULL when nothing was read */
  return rc;
}

/* Merges SNAP, the unit's counts since the last dump, into its file;
   TEMPS, the listing of the temporaries in the directory of the previous
   unit's file.  Returns 0 when written.  */
static int
dump_unit (struct __pp_unit *u, ppd_profile *snap,
           struct pp_temp_listing *temps)
{
  char *path = profile_path (u->ppd_path);
  int rc = -1;
  if (!path)
    {
      fprintf (stderr, "ppgcc profile: %s: out of memory, not written\n",
               u->ppd_path);
      return -1;
    }
  /* A lock file beside the profile: the profile itself is made by a
     rename and moved aside when damaged, so a lock on it would not
     exclude a writer that opened the old one.  */
  int lock_fd = lock_profile (path);
  if (lock_fd < 0)
    goto out;
  /* A writer killed while it overwrote the profile left it torn, beside
     its whole journal: put back first.  The directory is read once for
     all the units whose files are there; when the profile then read is
     damaged, once more (a temporary may have come since).  */
  int listed = temps->dir != NULL;
  settled_from_listing = listed;
  damage_seen = 0;
  pp_settle_temps_listed (path, PPD_HEADER_SIZE, ppd_file_size, ppd_whole,
                          temps);
  rc = merge_into_file (path, snap);
  settled_from_listing = 0;
  if (listed && damage_seen)
    {
      pp_settle_temps (path, PPD_HEADER_SIZE, ppd_file_size, ppd_whole);
      rc = merge_into_file (path, snap);
    }
  pp_unlock (lock_fd);
out:
  free (path);
  return rc;
}

/* The most path executions of one function in the profiles P[0..N): the
   program's sum_max for this run (include/pp/ppd.h).  */
static uint64_t
program_max (const ppd_profile *p, int n)
{
  uint64_t max = 0;
  for (int i = 0; i < n; i++)
    for (uint32_t f = 0; f < p[i].nfns; f++)
      {
        uint64_t total = 0;
        for (uint64_t k = 0; k < p[i].fns[f].npairs; k++)
          total = pp_add_sat (total, p[i].fns[f].pairs[k].count);
        if (total > max)
          max = total;
      }
  return max;
}

/* Whether snapshot P holds no count.  */
static int
nothing_new (const ppd_profile *p)
{
  for (uint32_t f = 0; f < p->nfns; f++)
    if (p->fns[f].npairs || p->fns[f].dropped)
      return 0;
  return 1;
}

/* The database session of the dump in progress (the modes' dump hooks
   get it: cct_dump.c writes the .ppc into it too).  Under dump_lock.  */
static struct __pp_db_session session;

/* db_write.c's, when the program was linked with it (db_write.h).  */
__attribute__ ((weak)) const struct __pp_db_writer *__pp_db_writer;

/* 1 (no database) or the writer's begin.  PPGCC_PROFILE_DB given to a
   program linked without the writer: one line, once, and the counts go
   where they would without it (beside the objects), not lost.  */
static int
db_begin (void)
{
  if (__pp_db_writer)
    return __pp_db_writer->begin (&session);
  static int said;
  const char *db = getenv ("PPGCC_PROFILE_DB");
  if (db && *db && !said)
    {
      said = 1;
      fprintf (stderr, "ppgcc profile: PPGCC_PROFILE_DB=%s: this program "
               "was linked without the database writer (link it with "
               "ppgcc -fprofile-paths-db); counts written beside its "
               "objects\n", db);
    }
  return 1;
}

void
__pp_dump (void)
{
  /* Not cancelled half way (a thread calling __pp_dump): the lock would
     stay held, and this code has no unwind tables (Makefile.am).  */
  int cancel_state;
  pthread_setcancelstate (PTHREAD_CANCEL_DISABLE, &cancel_state);
  pthread_mutex_lock (&dump_lock);
  int saved = errno;
  __pp_resident_begin (&resident);
  /* PPGCC_PROFILE_DB: into the database, not beside the objects; when it
     cannot be written, the counts stay for a later dump.  */
  int in_db = db_begin ();
  /* The modes' files first (the contexts: flat metric profiles read the
     units' counters, which the .ppd dump below zeroes).  */
  if (in_db >= 0)
    PPRT_FOR_EACH_MODE (m)
      if (m->dump)
        m->dump (&session);
  /* Every unit's counts first, once: the program's maximum goes into each
     unit's profile.  */
  int n = 0;
  for (struct __pp_unit *u = atomic_load (&registered); u; u = u->next)
    n++;
  read_program_name ();
  ppd_profile *snaps = calloc (n ? n : 1, sizeof *snaps);
  char *ok = calloc (n ? n : 1, 1);
  uint64_t **trained = calloc (n ? n : 1, sizeof *trained);
  if (!snaps || !ok || !trained)
    fprintf (stderr, "ppgcc profile: out of memory, no profile written\n");
  int i = 0;
  for (struct __pp_unit *u = atomic_load (&registered);
       u && snaps && ok && trained; u = u->next, i++)
    {
      ok[i] = snapshot (u, &snaps[i], &trained[i]) == 0;
      if (!ok[i])
        fprintf (stderr, "ppgcc profile: %s: out of memory, not written\n",
                 u->ppd_path);
    }
  uint64_t sum_max = snaps && ok && trained ? program_max (snaps, n) : 0;
  struct pp_temp_listing temps = { 0 };
  i = 0;
  for (struct __pp_unit *u = atomic_load (&registered);
       u && snaps && ok && trained; u = u->next, i++)
    {
      snaps[i].sum_max = sum_max;
      if (ok[i] && !snaps[i].runs && nothing_new (&snaps[i]))
        ; /* its file has this run and all its counts */
      else if (ok[i] && in_db >= 0
               && (in_db == 0 ? __pp_db_writer->write_unit (&session, u, &snaps[i])
                              : dump_unit (u, &snaps[i], &temps)) == 0)
        {
          drain_counts (u, &snaps[i]);
          if (snaps[i].runs)
            mark_run_counted (u);
        }
      snapshot_free (&snaps[i], trained[i]);
    }
  pp_temp_listing_free (&temps);
  if (in_db == 0)
    __pp_db_writer->end (&session);
  free (snaps);
  free (ok);
  free (trained);
  __pp_resident_end (&resident);
  errno = saved;
  pthread_mutex_unlock (&dump_lock);
  pthread_setcancelstate (cancel_state, NULL);
}

void
__pp_reset (void)
{
  pthread_mutex_lock (&dump_lock);
  __pp_resident_begin (&resident);
  for (struct __pp_unit *u = atomic_load (&registered); u; u = u->next)
    zero_counts (u);
  __pp_resident_end (&resident);
  RUN_HOOKS (reset);
  pthread_mutex_unlock (&dump_lock);
}

/* At exit, and when a shared object holding this copy of the runtime is
   unloaded; not when switching kept profiling off all along (nothing was
   counted: switch.c).  The module's last destructor, as gcov's: priority
   100 (0 to 100 are the implementation's) runs after the program's
   destructors of priority 101 and up and of none, so that what they count
   is written too.  atexit handlers need nothing more: they all run before
   any destructor (a dynamic program's destructors run from the first
   atexit handler there is, the dynamic linker's).  */
#pragma GCC diagnostic ignored "-Wprio-ctor-dtor"
__attribute__ ((destructor (100))) static void
dump_at_exit (void)
{
  PPRT_FOR_EACH_MODE (m)
    if (m->nothing_counted && m->nothing_counted ())
      return;
  __pp_dump ();
}
