/* Starting and stopping the sampler (csprof §2: the preloaded library's
   initialization starts profiling, its finalization writes the profile).
   The settings come from the environment `ppprof record` sets
   (config.c).

   The sampler's signal is its own real-time signal, not SIGPROF: a
   program that profiles itself (its own SIGPROF handler, ITIMER_PROF)
   keeps both, and the sampler keeps its handler.  The program cannot
   take that signal from the sampler: sigaction and signal on it keep
   the program's action aside (a signal the program sends itself goes
   to it), sigprocmask and pthread_sigmask never block it, and each
   thread unblocks it when it starts (interpose.c).  Its handler runs
   with every other signal blocked but the synchronous faults, so that
   no handler of the program's can interrupt a sample and jump out of
   it (siglongjmp), which would leave the sample unfinished.

   The profile is written once per process: at exit (an atexit handler
   registered before the program's, so it runs after them, and a
   destructor), at _exit (interpose.c), and at SIGINT, SIGTERM or SIGHUP
   that the program leaves to their default action (written, then the
   signal raised again with that action).  */
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY
#include "sample.h"

#include <errno.h>
#include <libunwind.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_int finished;
/* the process that samples: a vfork child (which shares our memory and
   runs no fork handler) must not write, nor mark the profile written */
static pid_t sampling_pid;

static void
fatal (int sig)
{
  /* SA_RESETHAND: the default action is back; SA_NODEFER: the raise
     below is not held.  Writing here is not async-signal-safe (malloc),
     but the process is ending: its profile is worth the risk.  */
  int saved = errno;
  __pp_sample_finish ();
  errno = saved;
  raise (sig);
}

static void
catch_fatal (int sig)
{
  struct sigaction old;
  if (sigaction (sig, NULL, &old) != 0 || old.sa_handler != SIG_DFL)
    return; /* the program's own, or ignored */
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = fatal;
  sa.sa_flags = SA_RESETHAND | SA_NODEFER;
  sigaction (sig, &sa, NULL);
}

static void
at_exit (void)
{
  __pp_sample_finish ();
}

static void
child_after_fork (void)
{
  if (!__pp_sample_active)
    return;
  atomic_store (&finished, 0);
  sampling_pid = getpid ();
  atomic_store (&__pp_sample_stopping, 0);
  atomic_store (&__pp_sample_no_thread, 0); /* the parent's, not ours */
  __pp_sample_after_fork ();
}

__attribute__ ((constructor)) static void
start (void)
{
  __pp_sample_configure ();
  if (!__pp_sample_config.file)
    return;
  unw_set_caching_policy (unw_local_addr_space, UNW_CACHE_PER_THREAD);
  __pp_sample_find_no_mark_fns ();
  __pp_sample_warm_up ();
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_sigaction = __pp_sample_handler;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigfillset (&sa.sa_mask);
  sigdelset (&sa.sa_mask, SIGSEGV);
  sigdelset (&sa.sa_mask, SIGBUS);
  sigdelset (&sa.sa_mask, SIGILL);
  sigdelset (&sa.sa_mask, SIGFPE);
  sigdelset (&sa.sa_mask, SIGTRAP);
  int sig = __pp_sample_config.signo;
  if (__pp_sample_real_sigaction (sig, &sa, NULL) != 0)
    {
      fprintf (stderr, "ppgcc sampler: cannot handle signal %d: %s; not "
               "sampling\n", sig, strerror (errno));
      return;
    }
  /* a mask inherited through exec may hold it */
  __pp_sample_unblock ();
  catch_fatal (SIGINT);
  catch_fatal (SIGTERM);
  catch_fatal (SIGHUP);
  atexit (at_exit);
  pthread_atfork (NULL, NULL, child_after_fork);
  sampling_pid = getpid ();
  __pp_sample_active = 1;
  __pp_sample_thread_start ();
}

__attribute__ ((destructor)) static void
stop (void)
{
  __pp_sample_finish ();
}

PPS_HIDDEN void
__pp_sample_finish (void)
{
  if (!__pp_sample_active || getpid () != sampling_pid)
    return;
  int expected = 0;
  if (!atomic_compare_exchange_strong (&finished, &expected, 1))
    return;
  atomic_store (&__pp_sample_stopping, 1);
  /* a sample under way in another thread ends within microseconds;
     one this thread interrupted (a fatal signal in the handler) never
     will: not waited for long */
  for (struct pps_thread *t = atomic_load (&__pp_sample_threads); t;
       t = t->next)
    for (int i = 0; t->in_handler && i < 2000; i++)
      sched_yield ();
  __pp_sample_write ();
  /* PPGCC_SAMPLE_STATS: a line per thread on how its samples went */
  if (getenv ("PPGCC_SAMPLE_STATS"))
    for (struct pps_thread *t = atomic_load (&__pp_sample_threads); t;
         t = t->next)
      fprintf (stderr, "ppgcc sampler: thread %ld: %llu samples, %llu "
               "unwound to the trampoline's mark only, %llu unsafe, %llu "
               "partial, %llu non-local exits, %llu periods lost with "
               "the signal held, %llu with the handler busy, %llu without "
               "their PC (leaf table full)\n", (long) t->tid,
               (unsigned long long) t->samples,
               (unsigned long long) t->suffix_samples,
               (unsigned long long) t->unsafe_samples,
               (unsigned long long) t->partial,
               (unsigned long long) t->nonlocal_exits,
               (unsigned long long) t->held,
               (unsigned long long) t->busy,
               (unsigned long long) t->leaf_full);
}
