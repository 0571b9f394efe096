/* Starting and stopping the sampler (csprof §2: the preloaded library's
   initialization starts profiling, its finalization writes the profile).
   The settings come from the environment `ppprof record` sets:

     PPGCC_SAMPLE_FILE   the .ppc to write (default: the program's
                         basename + ".sampled.ppc" in the working
                         directory)
     PPGCC_SAMPLE_HZ     samples per second of the event (default 200)
     PPGCC_SAMPLE_EVENT  cpu-clock (default: a CPU-time timer per thread,
                         no PMU needed), task-clock (perf_event's
                         software clock), cycles, instructions,
                         branch-misses, cache-misses (hardware counters)
     PPGCC_SAMPLE_PERIOD events per sample of a hardware event (default
                         1e9 / HZ)
     PPGCC_SAMPLE_NODES  calling contexts per thread (default 65536)
     PPGCC_SAMPLE_CALLS  0: no trampoline, no call counts (default 1;
                         off by itself under a shadow stack)
     PPGCC_SAMPLE_STATS  set: a line per thread at the end on stderr
                         (samples, how many unwound only to the
                         trampoline's mark, unsafe, partial, lost)
     PPGCC_SAMPLE_SIGNAL the sampler's signal, a real-time one (default
                         SIGRTMAX - 3)

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
#include "perf_events.h"

#include <errno.h>
#include <libunwind.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

PPS_HIDDEN struct pps_config __pp_sample_config;
PPS_HIDDEN atomic_int __pp_sample_stopping;
PPS_HIDDEN int __pp_sample_active;
static atomic_int finished;
/* the process that samples: a vfork child (which shares our memory and
   runs no fork handler) must not write, nor mark the profile written */
static pid_t sampling_pid;

/* Whether the kernel keeps a shadow stack for this thread (x86 CET): a
   return through the trampoline would then fault, the return address on
   the stack no longer being the one the call pushed.  */
static int
shadow_stack (void)
{
  FILE *f = fopen ("/proc/self/status", "re");
  if (!f)
    return 0;
  char line[256];
  int on = 0;
  while (fgets (line, sizeof line, f))
    if (!strncmp (line, "x86_Thread_features:", 20) && strstr (line, "shstk"))
      on = 1;
  fclose (f);
  if (on)
    {
      static const char m[] = "ppgcc sampler: shadow stack on: no call "
                              "counts (the trampoline would fault)\n";
      write (2, m, sizeof m - 1);
    }
  return on;
}

static long
env_long (const char *name, long dflt, long lo, long hi)
{
  const char *v = getenv (name);
  if (!v || !*v)
    return dflt;
  char *end;
  errno = 0;
  long n = strtol (v, &end, 10);
  if (*end || errno || n < lo || n > hi)
    {
      fprintf (stderr, "ppgcc sampler: %s=%s: not a number from %ld to %ld; "
               "using %ld\n", name, v, lo, hi, dflt);
      return dflt;
    }
  return n;
}

static void
configure (void)
{
  struct pps_config *c = &__pp_sample_config;
  c->hz = env_long ("PPGCC_SAMPLE_HZ", 200, 1, 100000);
  c->nodes = (uint32_t) env_long ("PPGCC_SAMPLE_NODES", 65536, 64,
                                  1L << 26);
  const char *ev = getenv ("PPGCC_SAMPLE_EVENT");
  if (!ev || !*ev)
    ev = "cpu-clock";
  snprintf (c->event, sizeof c->event, "%s", ev);
  c->period = 1000000000u / (uint64_t) c->hz;
  const struct pp_perf_event *e = pp_perf_event_named (ev);
  if (e)
    {
      c->perf = 1;
      c->perf_type = e->type;
      c->perf_config = e->config;
    }
  if (!c->perf && strcmp (ev, "cpu-clock") != 0)
    {
      fprintf (stderr, "ppgcc sampler: PPGCC_SAMPLE_EVENT=%s: unknown "
               "event; sampling the CPU-time timer (cpu-clock)\n", ev);
      snprintf (c->event, sizeof c->event, "cpu-clock");
    }
  if (c->perf && c->perf_type == PERF_TYPE_HARDWARE)
    {
      c->period = (uint64_t) env_long ("PPGCC_SAMPLE_PERIOD",
                                       (long) c->period, 1, 1L << 40);
      snprintf (c->metric, sizeof c->metric, "%.40s", c->event);
      snprintf (c->unit, sizeof c->unit, "events");
      snprintf (c->source, sizeof c->source, "perf-hw:%.40s/%llu", c->event,
                (unsigned long long) c->period);
    }
  else
    {
      /* the time each sample stands for */
      snprintf (c->metric, sizeof c->metric, "cpu-time");
      snprintf (c->unit, sizeof c->unit, "ns");
      snprintf (c->source, sizeof c->source, "%s@%ldHz",
                c->perf ? "perf-sw:task-clock" : "timer:thread-cpu-clock",
                c->hz);
    }
  c->signo = (int) env_long ("PPGCC_SAMPLE_SIGNAL", SIGRTMAX - 3, SIGRTMIN,
                             SIGRTMAX);
  /* A CPU-time timer is checked at the kernel's tick: a signal comes
     a tick late or so, standing for the periods that passed; on a
     loaded machine, 17 ms of the thread's CPU time late has been seen
     (2 cores, load 5, 1 kHz).  Later than 100 ms, the thread held the
     signal: the periods beyond are lost, not the stack's it finds.  */
  c->late = c->perf ? UINT64_MAX : 100000000u / c->period + 1;
  const char *calls = getenv ("PPGCC_SAMPLE_CALLS");
  c->calls = !(calls && !strcmp (calls, "0")) && !shadow_stack ();
  const char *file = getenv ("PPGCC_SAMPLE_FILE");
  if (file && *file)
    c->file = strdup (file);
  else
    {
      char exe[4096];
      ssize_t n = readlink ("/proc/self/exe", exe, sizeof exe - 1);
      exe[n > 0 ? n : 0] = '\0';
      const char *base = strrchr (exe, '/');
      base = base ? base + 1 : (*exe ? exe : "program");
      if (asprintf (&c->file, "%s.sampled.ppc", base) < 0)
        c->file = NULL;
    }
}

/* libunwind's caches per thread (its signal-safe setting), and its
   lazy set-up done here rather than in the first sample.  */
PPS_HIDDEN void
__pp_sample_warm_up (void)
{
  unw_context_t uc;
  unw_cursor_t c;
  if (unw_getcontext (&uc) == 0 && unw_init_local (&c, &uc) == 0)
    {
      unw_proc_info_t pi;
      int guard = 0;
      do
        unw_get_proc_info (&c, &pi);
      while (unw_step (&c) > 0 && ++guard < 64);
    }
}

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
  configure ();
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
               "the signal held, %llu with the handler busy\n", (long) t->tid,
               (unsigned long long) t->samples,
               (unsigned long long) t->suffix_samples,
               (unsigned long long) t->unsafe_samples,
               (unsigned long long) t->partial,
               (unsigned long long) t->nonlocal_exits,
               (unsigned long long) t->held,
               (unsigned long long) t->busy);
}
