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
   settings come from the environment (config.c); the state every part
   reads and the tree's primitives are state.c's (state.h gives the
   order in which the parts call each other); init.c starts and stops
   the sampler.

   Internal to the library: every symbol here is hidden; the library
   exports only the functions it interposes (interpose.c, and the
   stubs of ra_readers_x86_64.S) and __pp_ ones.  */
#ifndef PPSAMPLE_H
#define PPSAMPLE_H

#include "state.h"

/* signals.c: the program's action for the sampler's signal (what its
   sigaction set and reads back: interpose.c).  */
PPS_HIDDEN extern struct sigaction __pp_sample_program_action;
/* The next definition of NAME (the C library's): dlsym RTLD_NEXT, or
   abort with one line.  */
PPS_HIDDEN void *__pp_sample_next (const char *name);
/* signals.c: the C library's sigaction and pthread_sigmask, past the
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
/* In a child after fork: only the calling thread's state, emptied, and
   a new timer (timers are not inherited).  */
PPS_HIDDEN void __pp_sample_after_fork (void);

/* handler.c: the handler of the sampler's signal.  */
PPS_HIDDEN void __pp_sample_handler (int sig, siginfo_t *si, void *uc);

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
/* A non-local exit to stack pointer SP (0: unknown): the mark and the
   cached frames below SP dropped, the mark put on the innermost frame
   left.  */
PPS_HIDDEN void __pp_sample_nonlocal_exit (struct pps_thread *t, uint64_t sp);

/* ra_readers.c and ra_readers_x86_64.S: the functions that read their
   own return address (setjmp, sigsetjmp, getcontext, swapcontext,
   vfork; dlopen and dlmopen, which find their caller's object by it),
   interposed by stubs that take the mark out of it first.  */
#define PPS_RA_READERS 9
/* The index of dlopen's stub; dlmopen's follows.  */
#define PPS_RA_DLOPEN 7
/* The C library's functions, in the stubs' order (NULL: not found yet).  */
PPS_HIDDEN extern void *__pp_sample_ra_real[PPS_RA_READERS];
/* The stubs' code.  */
PPS_HIDDEN extern const char __pp_sample_ra_stubs[];
PPS_HIDDEN extern const char __pp_sample_ra_stubs_end[];
/* Whether the function starting at FN reads its own return address (one
   of the C library's, or a stub): its frame is never marked.  */
PPS_HIDDEN int __pp_sample_no_mark_fn (uint64_t fn);
/* Finds the C library's functions (at start; a stub called before
   finds its own).  */
PPS_HIDDEN void __pp_sample_find_no_mark_fns (void);

/* thread.c: libunwind's per-thread set-up, outside the handler.  */
PPS_HIDDEN void __pp_sample_warm_up (void);

/* config.c: the settings read from the environment (once, at start):
   no file (__pp_sample_config.file NULL) when memory ran out.  */
PPS_HIDDEN void __pp_sample_configure (void);

/* dump.c: every thread's tree merged and written.  0, or -1 (said).  */
PPS_HIDDEN int __pp_sample_write (void);
/* init.c: stops sampling and writes the profile, once per process.  */
PPS_HIDDEN void __pp_sample_finish (void);

#endif
