/* The calling context tree in memory (PLDI'97 §4.2): per thread, a tree of
   call records built by __pp_enter, a shadow stack of the active ones, and
   the state of the metrics along the current path (§3.1).  runtime/cct.c
   builds it, runtime/cct_dump.c writes it as a .ppc (include/pp/ppc.h).

   Within the mode, dependencies go one way too: cct.c holds the probes,
   the trees and the mode's hooks (mode.h), what instrumented code links
   in, and uses the two other files, which use nothing of it.  cct_dump.c
   gets the trees and their description as arguments (struct cct_dump_in)
   and reads no state of cct.c: the writer can be read and changed as a
   function of its input.  metric.c reads the events (metric.h says why
   cct.c calls it, and not the other way round).  */
#ifndef PPRT_CCT_H
#define PPRT_CCT_H

#include <stdatomic.h>
#include <stdint.h>

#include "metric.h"
#include "pp/ppc.h"
#include "pp/rt_abi.h"

#define PPRT_HIDDEN __attribute__ ((visibility ("hidden")))

struct cct_rec;

/* A child link of a record: the callee FN called from SITE (its return
   address) has record TO.  BACK: TO is an ancestor's record, recursion
   folded onto it (§4.1's backedge), not a tree child.  */
struct cct_edge
{
  void *site;
  struct __pp_fn_desc *fn;
  struct cct_rec *to;
  struct cct_edge *next;
  int back;
};

/* The site of the calls inlined into their caller (see __pp_enter).  */
#define CCT_SITE_INLINED ((void *) 1)
#define CCT_SITE_INLINED_KEY "inlined"

/* A call record: one calling context of FN (§4.2, Fig 6).  Roots (one per
   thread) have FN == NULL.  SLOTS holds NPATHS path counters, then
   NPATHS * NMET metric accumulators (per path id, nmet each): the token
   __pp_enter returns points at slots.  */
struct cct_rec
{
  struct cct_rec *parent;
  void *site;                    /* return address; NULL in flat mode,
                                    CCT_SITE_INLINED */
  void *frame_ret;               /* the return address of the frame it
                                    runs in: its own call's, or for a
                                    body inlined, its caller's */
  uint64_t recursive;            /* calls made while the record was
                                    already active (§4.1: folded) */
  uint64_t active;               /* its entries on the shadow stack */
  struct cct_edge *_Atomic children;
  struct cct_edge *cache;        /* the last child link found */
  uint64_t *acc_lo, *acc_hi;     /* where its paths' metric accumulators
                                    are: in slots, or the flat desc's */
  uint64_t npaths;               /* path counters in slots */
  uint32_t nmet;                 /* metrics recorded here (0: its unit's
                                    list is not the program's) */
  uint32_t dump_node;            /* cct_dump.c's scratch */
  uint64_t nslots;               /* u64s in slots */
  struct cct_edge *via;          /* the tree link to it from its parent */
  /* The last eleven words before slots are the ABI's (rt_abi.h
     PP_CCT_EXCL, PP_CCT_BACK, PP_CCT_CALLS, PP_CCT_FN): inline entries
     and path ends use them.  */
  uint64_t excl[PPC_MAX_METRICS]; /* exclusive totals per metric */
  uint64_t back_calls;           /* recursive calls through callee slots
                                    (its calls and recursive calls are
                                    the fields' plus these) */
  uint64_t calls;
  struct __pp_fn_desc *fn;
  uint64_t slots[];              /* then PP_CCT_SLOTS: fn->num_sites
                                    callee slots (struct __pp_cct_slot) */
};
_Static_assert (sizeof (struct cct_rec) % 8 == 0
                    && __builtin_offsetof (struct cct_rec, fn)
                           == sizeof (struct cct_rec) + 8 * PP_CCT_FN
                    && __builtin_offsetof (struct cct_rec, calls)
                           == sizeof (struct cct_rec) + 8 * PP_CCT_CALLS
                    && __builtin_offsetof (struct cct_rec, back_calls)
                           == sizeof (struct cct_rec) + 8 * PP_CCT_BACK
                    && __builtin_offsetof (struct cct_rec, excl)
                           == sizeof (struct cct_rec) + 8 * PP_CCT_EXCL (0)
                    && PPC_MAX_METRICS == 8,
                "cct_rec's last words are rt_abi.h's");

/* R's callee slots.  */
static inline struct __pp_cct_slot *
cct_rec_sites (struct cct_rec *r)
{
  return (struct __pp_cct_slot *) (r->slots + r->nslots);
}

/* The record whose token is TOK.  */
static inline struct cct_rec *
cct_rec_of (uint64_t *tok)
{
  return (struct cct_rec *) ((char *) tok
                             - __builtin_offsetof (struct cct_rec, slots));
}

/* An active call: its record, frame and return address (a function
   inlined into its caller has the caller's); SAVED, the caller's metric
   partial path at the call (now - __pp_metric_mark: §3.1's counter,
   saved at entry, restored at exit).  The token is rec->slots.  */
struct cct_entry
{
  struct cct_rec *rec;
  uintptr_t frame;
  void *ret;
  struct __pp_cct_slot *slot;    /* __pp_slot at the entry (the exit
                                    restores it) */
  uint64_t saved[PPC_MAX_METRICS];
};

struct cct_arena;

/* __pp_enter's cache of child links (cct.c).  */
#define CCT_LINK_CACHE 4096
struct cct_link_cache
{
  struct cct_rec *parent;
  struct cct_edge *edge;
};

struct cct_thread
{
  struct cct_thread *next;       /* every thread's, for the dump */
  struct cct_rec *root;
  struct cct_arena *_Atomic arena;
  uint32_t depth;                /* entries in stack */
  uint32_t base;                 /* bottom of the stack's current view
                                    (calibration works above the rest) */
  uint32_t overflow;             /* calls beyond the stack's capacity */
  uint32_t seq;                  /* pushes so far (signal handlers) */
  struct pp_mthread m;
  struct cct_link_cache links[CCT_LINK_CACHE];
  struct cct_entry stack[];
};

/* A registered unit with calling contexts or metrics.  */
struct cct_unit
{
  struct __pp_unit *unit;
  int metrics_ok;                /* its metric list is the program's */
  struct cct_unit *next;
};

/* The record after R in a preorder walk of ROOT's tree (tree links only,
   parents before children), or NULL.  No memory, no locks: usable in a
   fork handler, and while the owner thread adds records.  */
static inline struct cct_rec *
cct_first_child (struct cct_edge *e)
{
  for (; e; e = e->next)
    if (!e->back)
      return e->to;
  return NULL;
}

static inline struct cct_rec *
cct_next (struct cct_rec *r, struct cct_rec *root)
{
  struct cct_rec *c = cct_first_child (
      atomic_load_explicit (&r->children, memory_order_acquire));
  if (c)
    return c;
  for (; r != root; r = r->parent)
    if ((c = cct_first_child (r->via->next)))
      return c;
  return NULL;
}

/* What cct_dump.c writes: every thread's tree, described.  */
struct __pp_db_session;
struct cct_dump_in
{
  struct cct_thread *threads;    /* every thread's (their next links) */
  struct cct_unit *units;        /* the units with contexts or metrics */
  int cct;                       /* calling contexts (a unit has
                                    PP_UNIT_CCT), else flat metrics */
  int run_counted;               /* this process's run is in the file
                                    already: a run counts once however
                                    often it dumps (pprt.c's
                                    run_counted) */
  uint32_t nmetrics;             /* the program's metrics (metric.c's
                                    __pp_metric_describe) */
  ppc_metric metrics[PPC_MAX_METRICS];
  struct __pp_db_session *db;    /* the dump's (mode.h) */
  struct cct_dumped *dumped;     /* filled by the writer, or NULL */
};

/* The path counters the writer found nonzero in the records' slots
   (PP_FN_CCT records), and their paths' accumulators, so that what was
   written is zeroed without clearing every record's whole array (a
   context runs few of its function's paths: sqlite3's exit spent 3.4 M
   instructions in memset, and 6.7 M with the cycles metric before its
   accumulators were listed too).  COMPLETE: every such counter is listed (not
   when out of memory).  */
struct cct_dumped
{
  uint64_t **slot;
  size_t n, cap;
  int complete;
};

/* IN merged into the program's .ppc under the core's dump lock; 0 when
   written, or when there was nothing new to write.  */
PPRT_HIDDEN int __pp_cct_write (const struct cct_dump_in *in);

#endif
