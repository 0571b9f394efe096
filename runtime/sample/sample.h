/* libppsample: the sampling call-path profiler (csprof, Froyd,
   Mellor-Crummey and Fowler, ICS'05), preloaded into any program by
   `ppprof record` (tools/record.c).  A CPU-time timer per thread (or a
   perf_event counter's overflow) sends the sampler's own real-time
   signal (init.c: not SIGPROF, which stays the program's, with
   ITIMER_PROF); the handler
   (handler.c) unwinds the interrupted thread's stack with libunwind
   from the signal's ucontext, through the compiler's DWARF CFI, and
   adds the call path to the thread's calling context tree (csprof §2.2),
   built of nodes preallocated outside the handler (thread.c); the
   trampoline (trampoline.c, csprof §2.3) marks the sampled frame's
   return, counts the calls a sample saw and lets the next sample walk
   only the frames below the mark.  At exit
   the trees are merged and written as a .ppc (dump.c): each node a
   function (its entry address "<object>+0x<offset>", named at report
   time) called from a call site (the return address, as the
   instrumented CCT mode writes it), its samples the metrics.  The
   settings, from the environment, and the state every part reads are
   config.c's; init.c starts and stops the sampler.

   Internal to the library: every symbol here is hidden; the library
   exports only the functions it interposes (interpose.c) and __pp_
   ones.  */
#ifndef PPSAMPLE_H
#define PPSAMPLE_H

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
  volatile sig_atomic_t unsafe; /* > 0: inside dlopen, longjmp, the
                                   profiler: samples count as unsafe */
  /* the tree: nodes[0] is the thread's root */
  struct pps_node *nodes;
  uint32_t nnodes, cap;
  uint32_t *buckets;       /* node index + 1, 0 empty */
  uint32_t nbuckets;       /* a power of two */
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
  int calls;               /* PPGCC_SAMPLE_CALLS=1 (ppprof record
                              --calls): the trampoline marks frames
                              (off by default: see trampoline.c) */
  char *file;              /* the profile, malloc'd */
  int signo;               /* the sampler's signal, PPGCC_SAMPLE_SIGNAL
                              (default SIGRTMAX - 3) */
  uint64_t late;           /* periods a sample may stand for before the
                              rest count as held (PPS_FN_HELD) */
};

/* config.c: the settings, and the state every part reads.  */
PPS_HIDDEN extern struct pps_config __pp_sample_config;
/* Set while the profile is being written: samples are ignored.  */
PPS_HIDDEN extern atomic_int __pp_sample_stopping;
/* Whether the library's constructor has run (and sampling is on).  */
PPS_HIDDEN extern int __pp_sample_active;
/* The settings read from the environment (once, at start): no file
   (__pp_sample_config.file NULL) when memory ran out.  */
PPS_HIDDEN void __pp_sample_configure (void);

/* thread.c: every thread's state, newest first.  */
PPS_HIDDEN extern struct pps_thread *_Atomic __pp_sample_threads;
/* Periods of the sampler's signal that reached a thread without a
   state (PPS_FN_NO_THREAD).  */
PPS_HIDDEN extern atomic_uint_fast64_t __pp_sample_no_thread;

/* interpose.c: the C library's sigaction and pthread_sigmask, past the
   interposed ones, which keep the sampler's signal from the program.  */
PPS_HIDDEN int __pp_sample_real_sigaction (int sig,
                                           const struct sigaction *act,
                                           struct sigaction *old);
PPS_HIDDEN int __pp_sample_real_sigmask (int how, const sigset_t *set,
                                         sigset_t *old);
/* The calling thread's mask without the sampler's signal.  */
PPS_HIDDEN void __pp_sample_unblock (void);
/* The program's action for the sampler's signal (what its sigaction
   set and reads back): a signal it sends itself is passed to it.  */
PPS_HIDDEN void __pp_sample_forward (int sig, siginfo_t *si, void *uc);

/* thread.c: the calling thread's state, made and its timer started;
   NULL when that fails (one line said).  */
PPS_HIDDEN struct pps_thread *__pp_sample_thread_start (void);
/* Its timer stopped; the tree stays for the dump.  */
PPS_HIDDEN void __pp_sample_thread_stop (struct pps_thread *t);
/* The calling thread's state, or NULL.  */
PPS_HIDDEN struct pps_thread *__pp_sample_self (void);
/* In a child after fork: only the calling thread's state, emptied, and
   a new timer (timers are not inherited).  */
PPS_HIDDEN void __pp_sample_after_fork (void);
/* An empty tree (nodes 0..PPS_FN_LOST made).  */
PPS_HIDDEN void __pp_sample_thread_reset (struct pps_thread *t);

/* handler.c: the handler of the sampler's signal.  */
PPS_HIDDEN void __pp_sample_handler (int sig, siginfo_t *si, void *uc);
/* The child node of PARENT for (FN, SITE), made if need be; UINT32_MAX
   when the pool is full.  Safe in the handler.  */
PPS_HIDDEN uint32_t __pp_sample_child (struct pps_thread *t,
                                       uint32_t parent, uint64_t fn,
                                       uint64_t site);

/* trampoline.c and trampoline_x86_64.S (csprof §2.3).  */
PPS_HIDDEN extern const char __pp_sample_trampoline[];
PPS_HIDDEN extern const char __pp_sample_trampoline_end[];
/* The trampoline put in the return address of cache[I] (when it is
   markable, its slot holds the expected return address and lies in the
   thread's stack at or above SP_LO); 1 when it is there.  T's mark must
   be clear.  */
PPS_HIDDEN int __pp_sample_mark (struct pps_thread *t, uint32_t i,
                                 uint64_t sp_lo);
/* The mark taken out: the real return address put back if the slot
   still holds the trampoline and lies at or above SP_LO (below it, the
   stack is dead or another frame's red zone: left alone).  */
PPS_HIDDEN void __pp_sample_unmark (struct pps_thread *t, uint64_t sp_lo);
/* Whether the function starting at FN reads its own return address
   (setjmp, getcontext, vfork): its frame is never marked.  */
PPS_HIDDEN int __pp_sample_no_mark_fn (uint64_t fn);
/* A non-local exit to stack pointer SP (0: unknown): the mark and the
   cached frames below SP dropped, the mark put on the innermost frame
   left.  */
PPS_HIDDEN void __pp_sample_nonlocal_exit (struct pps_thread *t, uint64_t sp);
/* Finds the functions __pp_sample_no_mark_fn knows (at start).  */
PPS_HIDDEN void __pp_sample_find_no_mark_fns (void);

/* thread.c: libunwind's per-thread set-up, outside the handler.  */
PPS_HIDDEN void __pp_sample_warm_up (void);

/* dump.c: every thread's tree merged and written.  0, or -1 (said).  */
PPS_HIDDEN int __pp_sample_write (void);
/* init.c: stops sampling and writes the profile, once per process.  */
PPS_HIDDEN void __pp_sample_finish (void);

#endif
