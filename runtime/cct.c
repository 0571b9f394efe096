/* Calling context trees and metrics along paths, in memory: the probes
   __pp_enter, __pp_exit and __pp_metric_path (include/pp/rt_abi.h;
   doc/cct.md, doc/metrics.md).

   Each thread builds its own tree of call records (PLDI'97 §4.2) and keeps
   a shadow stack of its active calls, in memory of its own: no locks and
   no malloc in a probe, which may run in a signal handler.  Records come
   from per-thread mmap'd arenas, claimed by one atomic fetch-add; a record
   is complete before a release store links it to its parent, so the dump
   (another thread) and a signal handler (this thread) only ever see whole
   records.  Every thread's state joins a global list when the thread
   first enters instrumented code, and stays there after the thread exits:
   the dump sees every thread.

   A mode (mode.h): this file comes out of libpprt.a only when an object
   calls __pp_enter (a -fprofile-paths=cct or metric build), and with it
   cct_dump.c, metric.c and the .ppc codec; a plain Ball-Larus program
   links none of them (65 KB of text before).  */
#define _GNU_SOURCE
#include "cct.h"
#include "mode.h"
#include "next_nonzero.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_DEPTH 65536        /* shadow stack entries per thread */
#define ARENA_BYTES (1u << 20) /* records and links, per chunk */

struct cct_arena
{
  _Atomic size_t used;
  size_t size;
  _Alignas (16) char mem[];
};

static struct cct_thread *_Atomic threads; /* every thread's, ever */
static struct cct_unit *_Atomic units;
static int program_cct;  /* a unit has PP_UNIT_CCT */
static int any_mismatch; /* a unit whose metric list is not the program's */
/* This process's run is in the .ppc already (struct cct_dump_in).  Under
   the core's dump lock.  */
static int run_counted;

static __thread struct cct_thread *self
    __attribute__ ((tls_model ("initial-exec")));

/* What an empty callee slot holds: the token of a record of no function
   (no inline entry matches it).  ROOT_SLOT: where __pp_slot points
   before any call site stored it (a thread's first calls, calls from
   uninstrumented code): a slot of no record, never filled, so every
   call through it takes __pp_enter_slot, which makes it a child of the
   thread's root.  */
static struct cct_rec empty_rec;
static struct __pp_cct_slot root_slot = { empty_rec.slots, NULL, 0, NULL };
__attribute__ ((tls_model ("initial-exec")))
__thread struct __pp_cct_slot *__pp_slot = &root_slot;
/* The reading each metric's current path started from, less what the path
   took before its calls (rt_abi.h).  */
__attribute__ ((tls_model ("initial-exec")))
__thread uint64_t __pp_metric_mark[PPC_MAX_METRICS];

static void
die (const char *msg)
{
  (void) !write (2, msg, strlen (msg));
  abort ();
}

/* ------------------------------------------------------------- memory */

static void *
map_zeroed (size_t bytes)
{
  void *p = mmap (NULL, bytes, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

/* N zeroed bytes from T's arena.  A signal handler on this thread may
   allocate in between: the fetch-add gives each its own bytes, and a new
   chunk is installed by compare-and-swap.  */
static void *
arena_alloc (struct cct_thread *t, size_t n)
{
  n = (n + 15) & ~(size_t) 15;
  if (n > ARENA_BYTES / 4)
    {
      struct cct_arena *big = map_zeroed (sizeof *big + n);
      return big ? big->mem : NULL;
    }
  struct cct_arena *a = atomic_load (&t->arena);
  if (a)
    {
      size_t off = atomic_fetch_add_explicit (&a->used, n,
                                              memory_order_relaxed);
      if (off + n <= a->size)
        return a->mem + off;
    }
  struct cct_arena *fresh = map_zeroed (ARENA_BYTES);
  if (!fresh)
    return NULL;
  fresh->size = ARENA_BYTES - sizeof *fresh;
  atomic_store_explicit (&fresh->used, n, memory_order_relaxed);
  /* If a handler installed one meanwhile, theirs stays current; this
     allocation still owns its bytes of FRESH.  */
  atomic_compare_exchange_strong (&t->arena, &a, fresh);
  return fresh->mem;
}

/* ------------------------------------------------------------- threads */

static void
read_now (struct cct_thread *t, uint64_t *now)
{
  int fresh = t->m.n != __pp_metric_n;
  __pp_metric_read (&t->m, now);
  if (fresh)
    {
      /* This thread's first reading (or the program got metrics since):
         everything so far is before the measurement.  */
      for (uint32_t m = 0; m < __pp_metric_n; m++)
        __pp_metric_mark[m] = now[m];
      for (uint32_t i = 0; i < t->depth; i++)
        memset (t->stack[i].saved, 0, sizeof t->stack[i].saved);
    }
}

static struct cct_thread *
thread_init (void)
{
  struct cct_thread *t
      = map_zeroed (sizeof *t + MAX_DEPTH * sizeof (struct cct_entry));
  if (!t)
    die ("ppgcc profile: out of memory for a thread's calling contexts\n");
  t->root = arena_alloc (t, sizeof *t->root);
  if (!t->root)
    die ("ppgcc profile: out of memory for a thread's calling contexts\n");
  if (__pp_metric_n)
    {
      uint64_t now[PPC_MAX_METRICS];
      read_now (t, now);
    }
  struct cct_thread *head = atomic_load (&threads);
  do
    t->next = head;
  while (!atomic_compare_exchange_weak (&threads, &head, t));
  self = t;
  return t;
}

/* ------------------------------------------------------------- records */

/* Whether FN's unit records metrics (its list is the program's).  */
static int
metrics_ok (const struct __pp_fn_desc *fn)
{
  if (!any_mismatch)
    return 1;
  for (struct cct_unit *u = atomic_load (&units); u; u = u->next)
    if (!u->metrics_ok)
      for (uint32_t f = 0; f < u->unit->num_fns; f++)
        if (&u->unit->fns[f] == fn)
          return 0;
  return 1;
}

/* A new record for FN under PARENT, called from SITE, with its link in
   *EDGE (not yet in PARENT's list).  With PP_FN_CCT: the path counters of
   an array-mode function, then its metric accumulators (§4.3: the
   procedure's counters kept in the call record); hash-mode functions
   count in their hash table, so get none.  Flat metrics (no PP_FN_CCT):
   the function's accumulators stay in its desc.  */
static struct cct_rec *
rec_new (struct cct_thread *t, struct __pp_fn_desc *fn,
         struct cct_rec *parent, void *site, void *key, void *frame_ret,
         struct cct_edge **edge)
{
  uint64_t npaths = 0, nacc = 0, nsites = 0;
  if ((fn->flags & PP_FN_CCT) && !(fn->flags & (PP_FN_HASHED | PP_FN_HPT)))
    {
      npaths = fn->num_paths;
      nacc = fn->num_paths * fn->nmetrics;
    }
  if (fn->flags & PP_FN_CCT)
    nsites = fn->num_sites;
  struct cct_rec *r = arena_alloc (
      t, sizeof *r + (npaths + nacc) * sizeof (uint64_t)
             + nsites * sizeof (struct __pp_cct_slot));
  struct cct_edge *e = arena_alloc (t, sizeof *e);
  if (!r || !e)
    die ("ppgcc profile: out of memory for calling context records\n");
  r->fn = fn;
  r->parent = parent;
  r->site = site;
  r->frame_ret = frame_ret;
  r->npaths = npaths;
  r->nslots = npaths + nacc;
  if (fn->flags & PP_FN_CCT)
    {
      r->acc_lo = r->slots + npaths;
      r->acc_hi = r->acc_lo + nacc;
    }
  else if (fn->metrics)
    {
      r->acc_lo = fn->metrics;
      r->acc_hi = fn->metrics + fn->num_paths * fn->nmetrics;
    }
  r->nmet = metrics_ok (fn) ? fn->nmetrics : 0;
  struct __pp_cct_slot *sites = cct_rec_sites (r);
  for (uint64_t k = 0; k < nsites; k++)
    {
      sites[k].token = empty_rec.slots;
      sites[k].owner = r;
    }
  r->via = e;
  e->site = key;
  e->fn = fn;
  e->to = r;
  *edge = e;
  return r;
}

/* PARENT's link for FN called from SITE (PLDI'97 §4.2): the one found
   last, else its list (an indirect call site has several callees), else a
   new one: to an ancestor's record for FN when the call is recursive
   (folded onto it, a backedge), or to a new record.  Links match by KEY,
   which is SITE but for a body inlined into PARENT (site_key).  */
static struct cct_edge *
child_keyed (struct cct_thread *t, struct cct_rec *parent, void *site,
             void *key, void *frame_ret, struct __pp_fn_desc *fn, int tree)
{
  struct cct_edge *e = parent->cache;
  if (e && e->site == key && e->fn == fn)
    return e;
  struct cct_edge *head
      = atomic_load_explicit (&parent->children, memory_order_acquire);
  for (e = head; e; e = e->next)
    if (e->site == key && e->fn == fn)
      {
        parent->cache = e;
        return e;
      }
  struct cct_rec *anc = NULL;
  if (tree)
    for (anc = parent; anc->fn && anc->fn != fn; anc = anc->parent)
      ;
  if (anc && anc->fn)
    {
      e = arena_alloc (t, sizeof *e);
      if (!e)
        die ("ppgcc profile: out of memory for calling context records\n");
      e->site = key;
      e->fn = fn;
      e->to = anc;
      e->back = 1;
    }
  else
    rec_new (t, fn, parent, site, key, frame_ret, &e);
  /* Linked complete: a release store, retried if a signal handler on
     this thread linked one of its own meanwhile.  */
  do
    e->next = head;
  while (!atomic_compare_exchange_weak_explicit (
      &parent->children, &head, e, memory_order_release,
      memory_order_acquire));
  parent->cache = e;
  return e;
}

/* The thread's link cache first (the callee slots' misses use it too):
   a flat-metric build enters every function under the root, whose list
   holds one link per function, and the parent's one-entry cache missed
   whenever two functions took turns (lua's flat-metric run spent 86% of
   its time in this list, 40 G instructions against 1.6 G with contexts).  */
static struct cct_edge *
child (struct cct_thread *t, struct cct_rec *parent, void *site,
       struct __pp_fn_desc *fn, int tree)
{
  struct cct_link_cache *c
      = &t->links[((uintptr_t) parent >> 6 ^ (uintptr_t) site >> 2
                   ^ (uintptr_t) fn >> 4)
                  & (CCT_LINK_CACHE - 1)];
  struct cct_edge *e = c->edge;
  if (e && c->parent == parent && e->site == site && e->fn == fn)
    return e;
  e = child_keyed (t, parent, site, site, site, fn, tree);
  c->parent = parent;
  c->edge = e;
  return e;
}

/* ------------------------------------------------------- shadow stack */

static inline uint64_t
unclaimed (struct cct_thread *t, uint32_t m, const uint64_t *now)
{
  (void) t;
  uint64_t d = now[m] - __pp_metric_mark[m];
  /* A signal handler's probes between this probe's reading and its use
     can leave the mark ahead of NOW: never a negative amount.  */
  return (int64_t) d < 0 ? 0 : d;
}

/* Pops T's entries down to index I (those at I and above): each call's
   unclaimed metric (what no path end of it took) goes to its record's
   exclusive total, and its caller's carry comes back (§3.1: saved on
   entry, restored on exit).  NOW: the metrics read, when there are.  */
static void
pop_to (struct cct_thread *t, uint32_t i, const uint64_t *now)
{
  uint32_t n = __pp_metric_n;
  for (uint32_t j = t->depth; j-- > i;)
    {
      struct cct_entry *e = &t->stack[j];
      e->rec->active--;
      for (uint32_t m = 0; m < n; m++)
        {
          e->rec->excl[m] += unclaimed (t, m, now);
          __pp_metric_mark[m] = now[m] - e->saved[m];
        }
    }
  atomic_signal_fence (memory_order_seq_cst);
  t->depth = i;
}

/* Whether the call with frame FRAME and return address RET, whose caller's
   frame pointer its prologue saved as UP, is a child of entry E: E is its
   caller, or (FRAME and RET are E's) the function it was inlined into.
   Every instrumented function has a frame pointer (it takes
   __builtin_frame_address), so an instrumented caller's frame is UP.  */
static inline int
continues (const struct cct_entry *e, uintptr_t frame, uintptr_t up,
           void *ret)
{
  return e->frame == up || (e->frame == frame && e->ret == ret);
}

/* By frames alone: whether E is of a call that has ended without its
   exit.  Its frame is below FRAME (the stack grows down), or is FRAME
   but it returns elsewhere (a sibling called from another site of the
   same caller).  */
static inline int
dead (const struct cct_entry *e, uintptr_t frame, void *ret)
{
  return e->frame < frame || (e->frame == frame && e->ret != ret);
}

/* The top entry is not this call's parent: either a longjmp (or an
   exception) left the calls above the parent without their exits, or
   the call comes through code of its own between (a library calling
   back, a signal handler).  The parent is the topmost entry with the
   caller's frame UP, when there is one (entries below UP's are further
   up the stack; stop there); the entries above it are dead.  Else (the
   code between has no frame pointer) the entries dead by their frames
   go.  A signal handler runs below every live frame, so pops nothing,
   unless it runs on an alternate signal stack: then only entries on that
   stack can go.  */
static void
recover (struct cct_thread *t, uintptr_t frame, uintptr_t up, void *ret,
         const uint64_t *now)
{
  for (uint32_t j = t->depth; j > t->base; j--)
    {
      const struct cct_entry *e = &t->stack[j - 1];
      if (continues (e, frame, up, ret))
        {
          pop_to (t, j, now);
          return;
        }
      if (e->frame > up)
        break;
    }
  uint32_t j = t->depth;
  while (j > t->base && dead (&t->stack[j - 1], frame, ret))
    j--;
  if (j == t->depth)
    return;
  stack_t ss;
  if (sigaltstack (NULL, &ss) == 0 && (ss.ss_flags & SS_ONSTACK))
    {
      uintptr_t lo = (uintptr_t) ss.ss_sp, hi = lo + ss.ss_size;
      for (j = t->depth; j > t->base && dead (&t->stack[j - 1], frame, ret)
                         && t->stack[j - 1].frame >= lo
                         && t->stack[j - 1].frame < hi;
           j--)
        ;
    }
  pop_to (t, j, now);
}

/* ------------------------------------------------------------- probes */

/* The probes keep a frame pointer, from their prologue on: a signal
   handler's instrumented function takes the interrupted %rbp (x29) for
   its caller's frame (recover), and a probe that held another value there
   could make it pop entries the probe is still working on.  The caller's
   own frame is what %rbp holds when __pp_exit is a tail call (after its
   epilogue): then the handler pops the exiting call's entry, and the exit,
   had it read the entry already, would pop it again.  With a frame of its
   own, that is only so before the probe has read anything.  */
#define PROBE_FRAME                                                         \
  __attribute__ ((optimize ("no-omit-frame-pointer", "no-tree-slp-vectorize")))
/* And at each probe's start: a leaf function keeps no frame pointer
   without it (-momit-leaf-frame-pointer or not).  */
#define PROBE_FRAME_HERE()                                                  \
  __asm__ volatile ("" : : "r" (__builtin_frame_address (0)))

/* Out of line: inlined, it would give the fast path its frame.  */
static uint64_t *enter_slow (struct __pp_fn_desc *fn, void *ret_addr,
                             void *frame) __attribute__ ((noinline))
    PROBE_FRAME;


/* Pushes R's entry at index I of T's stack, frame FR, return address
   RET.  A signal handler that runs before the entry is published pushes
   its own at index I, and bumps seq: then the entry is written again
   (once published, handlers push above it).  */
static inline void
push_entry (struct cct_thread *t, uint32_t i, struct cct_rec *r,
            uintptr_t fr, void *ret, const uint64_t *now, uint32_t n)
{
  uint32_t seq = ++t->seq;
  struct cct_entry *s = &t->stack[i];
  for (int again = 0; again < 2; again++)
    {
      s->rec = r;
      s->frame = fr;
      s->ret = ret;
      s->slot = __pp_slot;
      for (uint32_t m = 0; m < n; m++)
        s->saved[m] = unclaimed (t, m, now);
      atomic_signal_fence (memory_order_seq_cst);
      t->depth = i + 1;
      atomic_signal_fence (memory_order_seq_cst);
      if (t->seq == seq)
        break;
    }
}

/* Whether the fast paths may take T's call: no metrics, or the TSC alone
   (__pp_metric_fast), read since the thread has it.  */
static inline int
fast_metrics (const struct cct_thread *t)
{
  return !__pp_metric_n || (__pp_metric_fast && t->m.n == 1);
}

/* The common call's record, or NULL (then the general path): a cct
   function without metrics, or with the TSC alone, called from the function on top of T's
   stack, or inlined into it, whose context exists already.  Kept lean
   (measured on bzip2: ~200 instructions per entry and exit through the
   general code, most of them its frame and its cases).  *D: the depth.  */
static inline struct cct_rec *
fast_record (struct cct_thread *t, struct __pp_fn_desc *fn, void *ret_addr,
             void *frame, uint32_t *d)
{
  if (!(t && fast_metrics (t) && (fn->flags & PP_FN_CCT)
        && (*d = t->depth) > t->base && *d < MAX_DEPTH))
    return NULL;
  const struct cct_entry *top = &t->stack[*d - 1];
  uintptr_t fr = (uintptr_t) frame;
  void *site;
  if (top->frame == fr && top->ret == ret_addr)
    site = CCT_SITE_INLINED;
  else if (fr && top->frame == *(const uintptr_t *) frame)
    site = ret_addr;
  else
    return NULL;
  /* The thread's direct-mapped cache of child links, by (parent, site,
     function): a parent's own one-entry cache misses whenever it calls
     two functions in turn (bzip2's mainSort).  */
  struct cct_rec *parent = top->rec;
  struct cct_link_cache *c
      = &t->links[((uintptr_t) parent >> 6 ^ (uintptr_t) site >> 2
                   ^ (uintptr_t) fn >> 4)
                  & (CCT_LINK_CACHE - 1)];
  struct cct_edge *e = c->edge;
  if (__builtin_expect (!(e && c->parent == parent && e->site == site
                          && e->fn == fn), 0))
    {
      /* The parent's list (the links made so far; a new one, or a
         recursive call to fold, is the general path's).  */
      for (e = atomic_load_explicit (&parent->children, memory_order_acquire);
           e && !(e->site == site && e->fn == fn); e = e->next)
        ;
      if (!e)
        return NULL;
      c->parent = parent;
      c->edge = e;
    }
  struct cct_rec *r = e->to;
  r->calls++;
  r->recursive += r->active != 0;
  return r;
}

/* The metrics' entry (rt_abi.h): the common call, a cct function called
   from the function on top of the stack or inlined into it whose context
   exists, is pushed here; the rest (a new context, recovery, metrics) is
   enter_slow's.  */
PROBE_FRAME uint64_t *
__pp_enter (struct __pp_fn_desc *fn, void *ret_addr, void *frame)
{
  PROBE_FRAME_HERE ();
  struct cct_thread *t = self;
  uint32_t d;
  struct cct_rec *r = fast_record (t, fn, ret_addr, frame, &d);
  if (__builtin_expect (r != NULL, 1))
    {
      r->active++;
      if (__pp_metric_n)
        {
          /* The TSC alone (fast_metrics): §3.1's save, as enter_slow.  */
          uint64_t now = pp_tsc ();
          push_entry (t, d, r, (uintptr_t) frame, ret_addr, &now, 1);
          __pp_metric_mark[0] = now;
        }
      else
        push_entry (t, d, r, (uintptr_t) frame, ret_addr, NULL, 0);
      return r->slots;
    }
  return enter_slow (fn, ret_addr, frame);
}

/* The helpers of a slot miss use general registers only, so that
   __pp_enter_slot_cached, which must not touch a vector register, can
   inline them as __pp_enter_slot does.  */
#if defined(__x86_64__) && !defined(__ILP32__)
#define SLOT_MISS_REGS_ATTR __attribute__ ((target ("general-regs-only")))
#else
#define SLOT_MISS_REGS_ATTR
#endif

/* Fills callee slot S with R's token for calls from RET_ADDR, through
   edge E.  A signal handler on this thread may fill the slot while the
   code it interrupted reads it: the key is NULL from the first store to
   the last, so an entry that reads it meanwhile misses; one that read the
   old token and key before and the new calls_at after counts its call in
   the right record, as a recursive one or not by the new edge (only a
   handler whose function is also an ancestor of the interrupted context
   changes that).  */
static SLOT_MISS_REGS_ATTR void
slot_fill (struct __pp_cct_slot *s, struct cct_rec *r, void *ret_addr,
           const struct cct_edge *e)
{
  s->key = NULL;
  atomic_signal_fence (memory_order_seq_cst);
  s->token = r->slots;
  s->calls_at = e->back ? PP_CCT_BACK : PP_CCT_CALLS;
  atomic_signal_fence (memory_order_seq_cst);
  s->key = ret_addr;
}

/* The parent, site and key of a slot miss, and the thread's link-cache
   entry for them (__pp_enter_slot).  */
struct slot_miss
{
  struct cct_rec *parent;
  void *site, *key;
  struct cct_link_cache *c;
};

static inline __attribute__ ((always_inline)) SLOT_MISS_REGS_ATTR void
slot_miss_key (struct cct_thread *t, struct __pp_fn_desc *fn,
               void *ret_addr, struct __pp_cct_slot *s, struct slot_miss *m)
{
  struct cct_rec *parent = s->owner ? s->owner : t->root;
  m->parent = parent;
  m->site = m->key = ret_addr;
  /* A body inlined into PARENT (the return address is the one of the
     frame PARENT runs in, also when PARENT is itself a body inlined): its
     context is PARENT's one "inlined" child for the function, but each
     copy of the body GCC made (a function inlined at two call sites of
     one caller) links to a record of its own, keyed by the slot of the
     call it replaced.  Sharing one record, the copies' call statements
     shared its slots: each copy's call refilled the slot with its own
     return address, and every call missed (a static helper inlined
     twice, calling a leaf: every call; zstd's ZSTD_RowFindBestMatch:
     154,655 misses in a 1 MB compression).  The dump adds the records
     into one context.  The key is the slot's address with its low bit
     set: no return address is in the runtime's arena.  */
  if (parent->fn && parent->frame_ret == ret_addr)
    {
      m->site = CCT_SITE_INLINED;
      m->key = (void *) ((uintptr_t) s | 1);
    }
  /* The thread's direct-mapped cache of links: a slot that misses again
     and again is one of several callees of an indirect call site or of
     one call statement GCC duplicated, whose parent has many children
     (sqlite3VdbeExec's list: hundreds).  */
  m->c = &t->links[((uintptr_t) parent >> 6 ^ (uintptr_t) m->key >> 2
                    ^ (uintptr_t) fn >> 4)
                   & (CCT_LINK_CACHE - 1)];
}

/* The cached link of M, or NULL.  A signal handler's entry may refill the
   entry between two of these reads: the link is taken only when the
   parent read before and after it is this call's (the entry is written
   link last, after clearing it).  */
static inline __attribute__ ((always_inline)) SLOT_MISS_REGS_ATTR struct cct_edge *
slot_miss_cached (const struct slot_miss *m, struct __pp_fn_desc *fn)
{
  struct cct_rec *before = m->c->parent;
  atomic_signal_fence (memory_order_seq_cst);
  struct cct_edge *e = m->c->edge;
  atomic_signal_fence (memory_order_seq_cst);
  if (e && before == m->parent && m->c->parent == m->parent
      && e->site == m->key && e->fn == fn)
    return e;
  return NULL;
}

/* The call through E counted, and the slot refilled: the entry's
   record's counters.  */
static inline __attribute__ ((always_inline)) SLOT_MISS_REGS_ATTR uint64_t *
slot_miss_enter (struct cct_edge *e, void *ret_addr, struct __pp_cct_slot *s)
{
  struct cct_rec *r = e->to;
  r->calls++;
  r->recursive += e->back;
  if (s->owner)
    slot_fill (s, r, ret_addr, e);
  return r->slots;
}

/* A cct function's entry when its inline one missed (rt_abi.h): the
   slot's record is the parent (PLDI'97 §4.2: the caller's context is
   where its callee slot is), the thread's root for ROOT_SLOT.  The call
   is inlined into the parent when it returns where the parent does (the
   inline entry's return address is its caller's): one context, site
   "inlined", for the function's inlined calls.  */
PROBE_FRAME uint64_t *
__pp_enter_slot (struct __pp_fn_desc *fn, void *ret_addr,
                 struct __pp_cct_slot *s)
{
  PROBE_FRAME_HERE ();
  struct cct_thread *t = self;
  if (__builtin_expect (!t, 0))
    t = thread_init ();
  struct slot_miss m;
  slot_miss_key (t, fn, ret_addr, s, &m);
  struct cct_edge *e = slot_miss_cached (&m, fn);
  if (!e)
    {
      e = child_keyed (t, m.parent, m.site, m.key, ret_addr, fn, 1);
      m.c->edge = NULL;
      atomic_signal_fence (memory_order_seq_cst);
      m.c->parent = m.parent;
      atomic_signal_fence (memory_order_seq_cst);
      m.c->edge = e;
    }
  return slot_miss_enter (e, ret_addr, s);
}

#if defined(__x86_64__) && !defined(__ILP32__)
/* A miss the link cache answers, in general registers only, or NULL for
   __pp_enter_slot (cct_slot_x86_64.S tries it before it saves the vector
   registers: lua's calls of C functions through one indirect call site
   miss their slot about 57,000 times a process, and the 16 %xmm saves
   and restores were 32 of a miss's 170 instructions).  */
SLOT_MISS_REGS_ATTR PROBE_FRAME uint64_t *
__pp_enter_slot_cached (struct __pp_fn_desc *fn, void *ret_addr,
                        struct __pp_cct_slot *s)
{
  PROBE_FRAME_HERE ();
  struct cct_thread *t = self;
  if (__builtin_expect (!t, 0))
    return NULL;
  struct slot_miss m;
  slot_miss_key (t, fn, ret_addr, s, &m);
  struct cct_edge *e = slot_miss_cached (&m, fn);
  return e ? slot_miss_enter (e, ret_addr, s) : NULL;
}
#endif

static PROBE_FRAME uint64_t *
enter_slow (struct __pp_fn_desc *fn, void *ret_addr, void *frame)
{
  PROBE_FRAME_HERE ();
  struct cct_thread *t = self;
  if (__builtin_expect (!t, 0))
    t = thread_init ();
  uint64_t now[PPC_MAX_METRICS];
  uint32_t n = __pp_metric_n;
  if (n)
    read_now (t, now);
  uintptr_t fr = (uintptr_t) frame;
  if (t->depth > t->base)
    {
      /* The caller's frame pointer, saved by this function's prologue
         (x86-64 and AArch64 alike: the first word of the frame).  */
      uintptr_t up = fr ? *(const uintptr_t *) frame : 0;
      if (!continues (&t->stack[t->depth - 1], fr, up, ret_addr))
        recover (t, fr, up, ret_addr, now);
    }

  struct cct_rec *parent = t->root;
  void *site = ret_addr;
  if (t->depth > t->base)
    {
      const struct cct_entry *top = &t->stack[t->depth - 1];
      parent = top->rec;
      /* Inlined into the parent: RET_ADDR is the parent's own, not this
         call's site; one context for the function's inlined calls.  */
      if (top->frame == fr && top->ret == ret_addr)
        site = CCT_SITE_INLINED;
    }
  struct cct_edge *e;
  if (fn->flags & PP_FN_CCT)
    e = child (t, parent, site, fn, 1);
  else
    e = child (t, t->root, NULL, fn, 0); /* flat: one record per function */
  struct cct_rec *r = e->to;
  r->calls++;

  uint32_t i = t->depth;
  if (__builtin_expect (i >= MAX_DEPTH, 0))
    {
      t->overflow++; /* counted, not tracked: the caller keeps the metric */
      return r->slots;
    }
  /* Recursive: a call of a context already active in this thread (a
     back edge's target, or a tree child reached again below itself).  */
  r->recursive += r->active != 0;
  r->active++;
  push_entry (t, i, r, fr, ret_addr, now, n);
  for (uint32_t m = 0; m < n; m++)
    __pp_metric_mark[m] = now[m];
  return r->slots;
}

/* __pp_exit's other cases, out of line: the common one then needs no
   frame of its own.  */
static __attribute__ ((noinline)) PROBE_FRAME void
exit_slow (struct cct_thread *t, uint64_t *tok)
{
  PROBE_FRAME_HERE ();
  if (!t)
    return;
  if (t->overflow)
    {
      t->overflow--;
      return;
    }
  uint32_t i = t->depth;
  while (i > t->base && t->stack[i - 1].rec->slots != tok)
    i--;
  if (i == t->base)
    return; /* not an active call of this thread */
  uint64_t now[PPC_MAX_METRICS];
  if (__pp_metric_n)
    read_now (t, now);
  struct __pp_cct_slot *slot = t->stack[i - 1].slot;
  pop_to (t, i - 1, now);
  /* The caller's slot, as at this call's entry: a signal handler's
     calls do not leave theirs to the code it interrupted.  */
  __pp_slot = slot;
}

PROBE_FRAME void
__pp_exit (uint64_t *tok)
{
  PROBE_FRAME_HERE ();
  struct cct_thread *t = self;
  if (__builtin_expect (t && !t->overflow && fast_metrics (t), 1))
    {
      uint32_t i = t->depth;
      struct cct_entry *e = &t->stack[i - 1];
      if (__builtin_expect (i > t->base && e->rec->slots == tok, 1))
        {
          /* The common exit: this call is the top entry and there are no
             metrics to settle but the TSC: pop_to (t, i - 1) in short.  A signal
             handler landing anywhere here finds the entry either still
             pushed (active or not: it pushes above it and pops back) or
             popped.  */
          struct __pp_cct_slot *slot = e->slot;
          if (__pp_metric_n)
            {
              /* The TSC alone: pop_to's accounting for one entry.  */
              uint64_t now = pp_tsc ();
              e->rec->excl[0] += unclaimed (t, 0, &now);
              __pp_metric_mark[0] = now - e->saved[0];
            }
          e->rec->active--;
          atomic_signal_fence (memory_order_seq_cst);
          t->depth = i - 1;
          __pp_slot = slot;
          return;
        }
    }
  exit_slow (t, tok);
}

/* __pp_metric_path's, with TOK the path's record when it is not on the
   shadow stack (a leaf entered by its slot, rt_abi.h), or NULL.  */
static PROBE_FRAME void
metric_path (uint64_t *acc, uint32_t nmetrics, uint64_t *tok)
{
  PROBE_FRAME_HERE ();
  struct cct_thread *t = self;
  uint32_t n = __pp_metric_n;
  if (!t || !n)
    return;
  if (nmetrics < n)
    n = nmetrics;
  /* The record ACC belongs to: the top one, unless a longjmp left the
     entries of dead calls above it (then they go now).  */
  uint32_t i = t->depth;
  struct cct_rec *r = NULL;
  while (i > t->base)
    {
      struct cct_rec *c = t->stack[--i].rec;
      if (acc >= c->acc_lo && acc < c->acc_hi)
        {
          r = c;
          break;
        }
    }
  if (r && r->nmet < n)
    n = r->nmet;
  if (!n)
    return;
  uint64_t now[PPC_MAX_METRICS];
  read_now (t, now);
  if (r && i + 1 < t->depth)
    pop_to (t, i + 1, now);
  if (!r && tok)
    {
      /* A leaf's: the marks move on whatever its record (the leaf's
         exit gives its saved share back to the mark, rt_abi.h).  */
      r = cct_rec_of (tok);
      if (!r->nmet)
        r = NULL;
    }
  /* §3.1: the path's metric is what changed since it started, less what
     its callees took (their exits moved the mark on by it).  A record's
     own accumulators add up to its exclusive total when it is written
     (cct_dump.c); a flat function's are shared by its records.  */
  if (r && acc >= r->slots && acc < r->slots + r->nslots)
    r = NULL;
  for (uint32_t m = 0; m < n; m++)
    {
      uint64_t d = unclaimed (t, m, now);
      acc[m] += d;
      if (r)
        r->excl[m] += d;
      __pp_metric_mark[m] = now[m];
    }
}

PROBE_FRAME void
__pp_metric_path (uint64_t *acc, uint32_t nmetrics)
{
  PROBE_FRAME_HERE ();
  metric_path (acc, nmetrics, NULL);
}

/* A one-metric path end the plugin did not lower (rt_abi.h): the call.  */
PROBE_FRAME void
__pp_metric_path1 (uint64_t *acc, uint64_t *tok)
{
  PROBE_FRAME_HERE ();
  metric_path (acc, 1, tok);
}

/* The same when the inline one is not taken (x86-64, through
   __pp_metric_path1_at_x86): path IDX's accumulator in ACC.  */
PROBE_FRAME void
__pp_metric_path1_at (uint64_t idx, uint64_t *tok, uint64_t *acc)
{
  PROBE_FRAME_HERE ();
  metric_path (acc + idx, 1, tok);
}

/* A one-metric function's entry when the inline one is not taken
   (rt_abi.h): the path's share so far of metric 0, which the function's
   returns give back; the mark is now.  */
PROBE_FRAME uint64_t
__pp_metric_enter1 (void)
{
  PROBE_FRAME_HERE ();
  struct cct_thread *t = self;
  if (__builtin_expect (!t, 0))
    t = thread_init ();
  if (!__pp_metric_n)
    return 0;
  uint64_t now[PPC_MAX_METRICS];
  read_now (t, now);
  uint64_t saved = unclaimed (t, 0, now);
  __pp_metric_mark[0] = now[0];
  return saved;
}

/* The exit of a one-metric function without metric accumulators (hash
   mode) when the inline one is not taken: what none of its paths took
   goes to its record's exclusive total, and the caller's share SAVED
   back to the mark (rt_abi.h).  */
PROBE_FRAME void
__pp_metric_exit1 (uint64_t *tok, uint64_t saved)
{
  PROBE_FRAME_HERE ();
  struct cct_thread *t = self;
  if (!t || !__pp_metric_n)
    return;
  uint64_t now[PPC_MAX_METRICS];
  read_now (t, now);
  /* As pop_to's: hash-mode records have no accumulators (nmet 0).  */
  cct_rec_of (tok)->excl[0] += unclaimed (t, 0, now);
  __pp_metric_mark[0] = now[0] - saved;
}

/* The inline path end of rt_abi.h, as plugin/context-lower.cc emits it
   for a record's own accumulator (calibrate measures it).  */
static inline void
inline_path_end (uint64_t *acc)
{
  uint64_t m = __pp_metric_mark[0];
  __asm__ volatile ("" : : "r" (m));
  uint64_t now = pp_tsc ();
  __pp_metric_mark[0] = now;
  acc[0] += now - m;
}

/* A one-metric function's inline entry and exit with the TSC (rt_abi.h:
   its callee slot's check aside), as calibrate measures them.  */
static inline void
inline_enter_exit (void)
{
  uint64_t m = __pp_metric_mark[0];
  __asm__ volatile ("" : : "r" (m));
  uint64_t now = pp_tsc ();
  uint64_t saved = now - m;
  __pp_metric_mark[0] = now;
  __asm__ volatile ("" : : : "memory");
  __pp_metric_mark[0] -= saved;
}

/* ------------------------------------------------------- calibration */

static struct cct_rec *saved_root;
static uint32_t saved_base;

/* Until private_end, this thread's __pp_enter builds under a private
   root, outside every profile, and its shadow stack's older entries are
   out of view.  */
static int
private_begin (void)
{
  struct cct_thread *t = self ? self : thread_init ();
  struct cct_rec *root = arena_alloc (t, sizeof *root);
  if (!root)
    return -1;
  saved_root = t->root;
  saved_base = t->base;
  t->root = root;
  t->base = t->depth;
  return 0;
}

static void
private_end (void)
{
  struct cct_thread *t = self;
  t->depth = t->base;
  t->root = saved_root;
  t->base = saved_base;
}

#define CAL_ROUNDS 5
#define CAL_PAIRS 400

/* The probes' own cost (PLDI'97 §3.2 perturbation), for the profile's
   header (metric.c) and `ppprof --subtract-probes`: the least metric
   change over CAL_ROUNDS rounds of CAL_PAIRS __pp_enter/__pp_exit pairs
   (a cct program's inline entry and exit with the TSC alone), and of
   CAL_PAIRS path ends (__pp_metric_path calls, or the inline form with
   the TSC alone), on a private record.  The
   minimum, because interrupts and misses only ever add.  Here, not in
   metric.c: it drives this file's probes, and metric.c knows nothing of
   them (metric.h).  The probes are called as instrumented code calls
   them, out of line: GCC inlines no function with an optimize attribute
   (PROBE_FRAME) into a caller with other options, and -O2 does not clone
   a global function for one caller's constants (no -fipa-cp-clone).  */
__attribute__ ((noinline)) static void
calibrate (void)
{
  static struct __pp_fn_desc cal = {
    .name = "__pp_calibrate", .flags = PP_FN_CCT, .num_paths = 1,
  };
  uint32_t n = __pp_metric_n;
  cal.nmetrics = n;
  double ee[PPC_MAX_METRICS], pc[PPC_MAX_METRICS];
  for (uint32_t m = 0; m < n; m++)
    ee[m] = pc[m] = -1;
  void *ret = __builtin_return_address (0);
  void *frame = __builtin_frame_address (0);
  if (private_begin () < 0)
    return;
  struct pp_mthread t = { 0 };
  uint64_t a[PPC_MAX_METRICS], b[PPC_MAX_METRICS];
  for (int r = 0; r < CAL_ROUNDS; r++)
    {
      __pp_metric_read (&t, a);
      if (__pp_metric_fast && program_cct)
        for (int k = 0; k < CAL_PAIRS; k++)
          inline_enter_exit ();
      else
        for (int k = 0; k < CAL_PAIRS; k++)
          __pp_exit (__pp_enter (&cal, ret, frame));
      __pp_metric_read (&t, b);
      for (uint32_t m = 0; m < n; m++)
        {
          double d = (double) (b[m] - a[m]) / CAL_PAIRS;
          if (ee[m] < 0 || d < ee[m])
            ee[m] = d;
        }
      uint64_t *tok = __pp_enter (&cal, ret, frame);
      __pp_metric_read (&t, a);
      if (__pp_metric_fast)
        for (int k = 0; k < CAL_PAIRS; k++)
          inline_path_end (tok + 1);
      else
        for (int k = 0; k < CAL_PAIRS; k++)
          __pp_metric_path (tok + 1, n);
      __pp_metric_read (&t, b);
      __pp_exit (tok);
      for (uint32_t m = 0; m < n; m++)
        {
          double d = (double) (b[m] - a[m]) / CAL_PAIRS;
          if (pc[m] < 0 || d < pc[m])
            pc[m] = d;
        }
    }
  private_end ();
  __pp_metric_thread_close (&t);
  __pp_metric_costs (ee, pc);
}

/* ------------------------------------------------- registration, hooks */

static void
cct_register_unit (struct __pp_unit *u)
{
  int metrics = u->metrics && *u->metrics;
  if (!(u->flags & PP_UNIT_CCT) && !metrics)
    return;
  struct cct_unit *c = calloc (1, sizeof *c);
  if (!c)
    return;
  c->unit = u;
  c->metrics_ok = 1;
  if (u->flags & PP_UNIT_CCT)
    program_cct = 1;
  uint32_t had = __pp_metric_n;
  if (metrics && !__pp_metric_register (u->metrics, u->ppd_path))
    {
      c->metrics_ok = 0;
      any_mismatch = 1;
    }
  /* The first list registered became the program's: its sources are
     chosen, the probes' cost is measured now, once.  */
  else if (!had && __pp_metric_n)
    calibrate ();
  struct cct_unit *head = atomic_load (&units);
  do
    c->next = head;
  while (!atomic_compare_exchange_weak (&units, &head, c));
}

/* The flat counts of the bodies of leaves that GCC inlined into other
   functions (rt_abi.h __pp_fn_ext.inlined), for each registered leaf:
   TAKE: what is new since the last time goes to the function's context
   under the dumping thread's root (site "inlined": the calls inlined
   anywhere), else it is only passed over (a reset, a forked child).
   The probes of every thread count in those arrays; the runtime only
   reads them and writes its copy beside them.  */
static void
inlined_counts (int take)
{
  struct cct_thread *t = NULL;
  for (struct cct_unit *u = atomic_load (&units); u; u = u->next)
    for (uint32_t f = 0; f < u->unit->num_fns; f++)
      {
        struct __pp_fn_desc *fn = &u->unit->fns[f];
        uint64_t *a = PP_FN_EXT (fn, inlined);
        if (!a || !(fn->flags & PP_FN_CCT))
          continue;
        uint64_t np = fn->num_paths, *seen = a + np + 1, paths = 0;
        struct cct_rec *r = NULL;
        /* The paths that ever ran (the counts only grow: a zero is a path
           with nothing new, skipped sixteen at a time), then the calls
           (K == NP).  */
        for (uint64_t k = pprt_next_nonzero (a, 0, np); k <= np;
             k = k < np ? pprt_next_nonzero (a, k + 1, np) : np + 1)
          {
            uint64_t v = atomic_load_explicit ((_Atomic uint64_t *) &a[k],
                                               memory_order_relaxed);
            uint64_t d = v - seen[k];
            seen[k] = v;
            /* Bodies without loops count no calls: one path per call.  */
            if (k < np)
              paths += d;
            else if (fn->flags & PP_FN_FLAT_CALLS_FROM_PATHS)
              d = paths;
            if (!d || !take)
              continue;
            if (!r)
              {
                if (!t)
                  t = self ? self : thread_init ();
                r = child (t, t->root, CCT_SITE_INLINED, fn, 0)->to;
              }
            if (k < fn->num_paths)
              r->slots[k] += d;
            else
              r->calls += d;
          }
      }
}

static void
zero_tree (struct cct_rec *root)
{
  for (struct cct_rec *r = root; r; r = cct_next (r, root))
    {
      r->calls = r->recursive = r->back_calls = 0;
      memset (r->excl, 0, sizeof r->excl);
      memset (r->slots, 0, r->nslots * sizeof *r->slots);
      if (r->fn && !(r->fn->flags & PP_FN_CCT) && r->acc_lo)
        memset (r->acc_lo, 0, (size_t) (r->acc_hi - r->acc_lo) * 8);
    }
}

/* Zeroes every thread's counts and metrics (after a dump, __pp_reset,
   in a forked child).  Other threads may be counting meanwhile; what
   they add during the zeroing may be lost, as in pprt.c.  */
static void
cct_zero (void)
{
  inlined_counts (0);
  for (struct cct_thread *t = atomic_load (&threads); t; t = t->next)
    zero_tree (t->root);
}

/* After a write: what it wrote zeroed, as cct_zero does, but of a
   PP_FN_CCT record's slots only the counters and accumulators D lists
   (the rest were zero when written: a path end adds to its accumulator
   and its count together).  The inlined bodies' arrays
   are not read again: inlined_counts (1) has just taken them, and what
   other threads add meanwhile is for the next dump.  */
static void
zero_written (const struct cct_dumped *d)
{
  for (struct cct_thread *t = atomic_load (&threads); t; t = t->next)
    for (struct cct_rec *r = t->root; r; r = cct_next (r, t->root))
      {
        r->calls = r->recursive = r->back_calls = 0;
        memset (r->excl, 0, sizeof r->excl);
        if (!(r->fn && (r->fn->flags & PP_FN_CCT)))
          memset (r->slots, 0, r->nslots * sizeof *r->slots);
        if (r->fn && !(r->fn->flags & PP_FN_CCT) && r->acc_lo)
          memset (r->acc_lo, 0, (size_t) (r->acc_hi - r->acc_lo) * 8);
      }
  for (size_t i = 0; i < d->n; i++)
    *d->slot[i] = 0;
}

/* Under the core's dump lock.  */
static void
cct_dump (struct __pp_db_session *db)
{
  struct cct_dumped dumped = { NULL, 0, 0, 1 };
  struct cct_dump_in in = {
    .threads = atomic_load (&threads),
    .units = atomic_load (&units),
    .cct = program_cct,
    .run_counted = run_counted,
    .db = db,
    .dumped = &dumped,
  };
  if (!in.units)
    return;
  inlined_counts (1);
  in.nmetrics = __pp_metric_describe (in.metrics);
  if (__pp_cct_write (&in) == 0)
    {
      run_counted = 1;
      if (dumped.complete)
        zero_written (&dumped);
      else
        cct_zero ();
    }
  free (dumped.slot);
}

/* fork: the child is its forking thread only; it counts from zero (like
   pprt.c's counters) on events of its own, as a run of its own.  Other
   threads' trees stay, zeroed, and their events are closed.  */
static void
cct_after_fork (void)
{
  run_counted = 0;
  for (struct cct_thread *t = atomic_load (&threads); t; t = t->next)
    if (t != self)
      __pp_metric_thread_close (&t->m);
  struct cct_thread *t = self;
  if (t)
    {
      __pp_metric_thread_reopen (&t->m);
      uint64_t now[PPC_MAX_METRICS];
      if (__pp_metric_n)
        {
          __pp_metric_read (&t->m, now);
          for (uint32_t m = 0; m < __pp_metric_n; m++)
            __pp_metric_mark[m] = now[m];
        }
      for (uint32_t i = 0; i < t->depth; i++)
        memset (t->stack[i].saved, 0, sizeof t->stack[i].saved);
    }
  cct_zero ();
}

PPRT_MODE (cct_mode) = {
  .register_unit = cct_register_unit,
  .dump = cct_dump,
  .reset = cct_zero,
  .after_fork = cct_after_fork,
};
