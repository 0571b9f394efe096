/* The sampler's state that every part reads, and the calling context
   tree's primitives: the bottom layer of libppsample (state.c).  The
   parts call one way only, each the ones below it:

     interpose.c   the interposed C library calls
     init.c        start and stop
     thread.c, handler.c, dump.c, config.c
     ra_readers.c  the functions that read their own return address
     trampoline.c  the mark on a return address
     signals.c     the C library's signal calls
     state.c       this: the settings, the threads' states, the tree's
                   nodes and leaf PCs

   Internal to the library: every symbol here is hidden.  */
#ifndef PPSAMPLE_STATE_H
#define PPSAMPLE_STATE_H

#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#define PPS_HIDDEN __attribute__ ((visibility ("hidden")))

/* Frames unwound at most per sample; a deeper stack keeps its innermost
   frames under the "[partial unwind]" node.  */
#define PPS_MAX_DEPTH 1024

/* Function keys that are not code addresses: the pseudo-functions under
   a thread's root that hold samples that could not be attributed to a
   whole call path (csprof §3.2: "unsafe" samples, counted, not
   dropped).  */
enum
{
  PPS_FN_ROOT = 0,
  PPS_FN_PARTIAL = 1, /* unwinding stopped early: the innermost frames */
  PPS_FN_UNSAFE = 2,  /* in the dynamic loader or the profiler itself */
  PPS_FN_LOST = 3,    /* the thread's node pool was full */
  /* Samples lost, each counted as the timer periods it stands for
     (never dropped unsaid: tools/record.c reports them): */
  PPS_FN_HELD = 4,    /* timer expirations that passed while the thread
                         held the sampler's signal (blocked it past the
                         interposed calls): beyond a tick's lateness */
  PPS_FN_BUSY = 5,    /* the handler was already running in the
                         thread */
  PPS_FN_NO_THREAD = 6, /* a thread the sampler never set up (dump.c's
                           node; no tree of its own) */
  PPS_FN_PSEUDO_END = 16
};

/* A calling context: function FN (its entry address, or a PPS_FN_*)
   called from SITE (the return address in the caller; 0 for the
   outermost frame) under node PARENT.  NEXT chains the hash bucket.  */
struct pps_node
{
  uint64_t fn, site;
  uint64_t samples;
  uint64_t periods; /* the sampling periods they stand for: a CPU-time
                       timer's expirations that came late (the kernel
                       checks them at its tick) count as overruns */
  uint64_t calls;   /* returns through the trampoline (csprof §2.4): the
                       calls of this context that a sample saw */
  uint32_t parent, next;
};

/* A leaf PC's samples in one context (DCPI, Anderson et al., SOSP'97
   §4.2: the samples aggregated by PC in a hash table filled without
   allocation, so that the handler stays cheap): the sampled function's
   interrupted instruction PC in node NODE.  An entry with SAMPLES 0 is
   empty.  */
struct pps_leaf
{
  uint64_t pc;
  uint32_t node;
  uint32_t samples;        /* saturates; the node's own count does not */
};

/* One entry of the cached call stack (csprof §2.2): a frame's IP and
   stack pointer, and its node, outermost first.  A frame's IP is the
   return address into it (but the innermost's), its SP the callee's
   CFA: the return address of frame J lives at cache[J - 1].sp - 8.
   MARKABLE: that slot may take the trampoline (trampoline.c).  */
struct pps_frame
{
  uint64_t ip, sp;
  uint32_t node;
  uint32_t markable;
};

/* A thread's profiling state, mmap'd when the thread starts (never in
   the handler) and kept until the process writes its profile.  */
struct pps_thread
{
  struct pps_thread *next; /* all threads' states, newest first */
  pid_t tid;
  timer_t timer;
  int have_timer;
  int perf_fd;             /* the perf_event counter, or -1 */
  volatile sig_atomic_t in_handler;
  volatile sig_atomic_t unsafe; /* > 0: inside dlclose, longjmp, the
                                   profiler: samples count as unsafe */
  /* a dlopen or dlmopen under way (ra_readers.c, handler.c): the slot of
     its call's return address on the thread's stack (NULL: none) and
     the return address; samples count as unsafe */
  uint64_t *volatile dl_slot;
  uint64_t dl_ra;
  /* the tree: nodes[0] is the thread's root */
  struct pps_node *nodes;
  uint32_t nnodes, cap;
  uint32_t *buckets;       /* node index + 1, 0 empty */
  uint32_t nbuckets;       /* a power of two */
  /* the leaf PCs (state.c): samples per (node, interrupted PC) */
  struct pps_leaf *leaves;
  uint32_t *leaf_used;     /* the entries used, in the order filled: the
                              dump reads these, not the whole table */
  uint32_t leaf_cap, nleaves; /* a power of two; entries used */
  uint64_t leaf_full;      /* samples whose PC the table had no room for
                              (their node still counts them) */
  /* the cached call stack of the last sample (csprof §2.2) */
  struct pps_frame *cache;
  uint32_t cache_depth;
  /* the trampoline (csprof §2.3, trampoline.c): at most one return
     address replaced, at MARK_SLOT (0: none), that of cache[MARK_IDX];
     MARK_RET the real one */
  uint64_t *mark_slot;
  uint64_t mark_ret;
  uint32_t mark_idx;
  /* > 0: an unwinder walks the stack (backtrace); set: an exception (or
     pthread_exit's forced unwinding) is under way, until a handler
     catches it: no mark is put (interpose.c) */
  volatile sig_atomic_t no_mark, in_exception;
  /* the thread's stack, [STACK_LO, STACK_HI): marks only there */
  uint64_t stack_lo, stack_hi;
  uint64_t suffix_samples; /* samples that unwound only to the mark */
  /* the handler's scratch: this sample's frames, innermost first */
  struct pps_frame *scratch;
  uint64_t *scratch_fn;
  /* counts */
  uint64_t samples, partial, unsafe_samples, lost, nonlocal_exits;
  uint64_t held, busy;     /* periods lost (PPS_FN_HELD, PPS_FN_BUSY) */
  size_t map_len;          /* of the one mapping holding all of this */
};

/* The settings (from the environment that `ppprof record` sets).  */
struct pps_config
{
  long hz;                 /* PPGCC_SAMPLE_HZ */
  uint64_t period;         /* ns of CPU time (timer), or events (perf) */
  int perf;                /* 0: the CPU-time timer; 1: perf_event */
  uint32_t perf_type;
  uint64_t perf_config;
  char event[64];          /* as named: "cpu-clock", "task-clock", ... */
  char source[128];        /* the metrics' source, e.g. "timer
                              CLOCK_THREAD_CPUTIME_ID @ 1000 Hz" */
  char unit[16];           /* the second metric's: "ns" or "events" */
  char metric[64];         /* its name: "cpu-time", "cycles", ... */
  uint32_t nodes;          /* per thread, PPGCC_SAMPLE_NODES */
  uint32_t leaves;         /* (node, PC) entries per thread,
                              PPGCC_SAMPLE_LEAVES */
  int calls;               /* PPGCC_SAMPLE_CALLS=1 (ppprof record
                              --calls): the trampoline marks frames
                              (off by default: see trampoline.c) */
  char *file;              /* the profile, malloc'd */
  int signo;               /* the sampler's signal, PPGCC_SAMPLE_SIGNAL
                              (default SIGRTMAX - 3) */
  uint64_t late;           /* periods a sample may stand for before the
                              rest count as held (PPS_FN_HELD) */
};

/* The settings (config.c fills them at start).  */
PPS_HIDDEN extern struct pps_config __pp_sample_config;
/* Set while the profile is being written: samples are ignored.  */
PPS_HIDDEN extern atomic_int __pp_sample_stopping;
/* Whether the library's constructor has run (and sampling is on).  */
PPS_HIDDEN extern int __pp_sample_active;
/* Every thread's state, newest first.  */
PPS_HIDDEN extern struct pps_thread *_Atomic __pp_sample_threads;
/* Periods of the sampler's signal that reached a thread without a
   state (PPS_FN_NO_THREAD).  */
PPS_HIDDEN extern atomic_uint_fast64_t __pp_sample_no_thread;

/* The calling thread's state, or NULL; set by thread.c.  */
PPS_HIDDEN struct pps_thread *__pp_sample_self (void);
PPS_HIDDEN void __pp_sample_set_self (struct pps_thread *t);

/* The child node of PARENT for (FN, SITE), made if need be; UINT32_MAX
   when the pool is full.  Safe in the handler.  */
PPS_HIDDEN uint32_t __pp_sample_child (struct pps_thread *t,
                                       uint32_t parent, uint64_t fn,
                                       uint64_t site);
/* One sample of NODE at PC in T's leaf table; when the table is full,
   counted in T->leaf_full.  Safe in the handler.  */
PPS_HIDDEN void __pp_sample_leaf (struct pps_thread *t, uint32_t node,
                                  uint64_t pc);
/* An empty tree (nodes 0..PPS_FN_BUSY made) and leaf table; the buckets
   and leaves are cleared unless FRESH (just mapped: zero already, their
   pages spared).  */
PPS_HIDDEN void __pp_sample_tree_reset (struct pps_thread *t, int fresh);

#endif
