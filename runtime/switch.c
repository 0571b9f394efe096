/* The profile flag (paper 003 §II-III): programs built with
   -fprofile-paths-switch test __pp_on at function entries (entry: the
   dispatch to the instrumented copy) or at path ends (check), and profile
   only while it is set.

   It is set by the API (__pp_profile_on, __pp_profile_off), at start-up by
   PPGCC_PROFILE=off, in bursts by PPGCC_SAMPLE=ON_MS:OFF_MS (a thread of
   the runtime flips it; after fork the child gets its own), and by a signal
   named in PPGCC_SWITCH_SIGNAL (e.g. USR2), whose handler flips it.  A
   program built without switching ignores all of this: this file comes
   out of libpprt.a only when an object refers to the flag (__pp_on: a
   -fprofile-paths-switch build) or calls __pp_profile_on/off, and plugs
   into the core as a mode (mode.h): a program without switching reads
   none of PPGCC_PROFILE, PPGCC_SAMPLE and PPGCC_SWITCH_SIGNAL (issue
   15).  */
#define _GNU_SOURCE
#include "mode.h"
#include "pp/rt_abi.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* 0 or 1, nothing else: =entry's dispatch tests its bit 0
   (switch-entry.cc).  */
volatile int __pp_on = 1;
/* The same flag for =entry's dispatch at function entries: a plain load,
   which GCC may share between the entries of callees inlined into one
   stretch of code without calls (switch-entry.cc).  */
extern int __pp_on_entry __attribute__ ((alias ("__pp_on")));

/* Defined (weak, hidden) by every object built with switching
   (plugin/switch.cc); null when none is linked into this module.  */
extern const char __pp_switched __attribute__ ((weak));

/* Set while profiling has been off since the process started
   (PPGCC_PROFILE=off) and never came on since: no probe has counted.  */
static int never_on;

void
__pp_profile_on (void)
{
  __atomic_store_n (&never_on, 0, __ATOMIC_RELAXED);
  __atomic_store_n (&__pp_on, 1, __ATOMIC_RELAXED);
}

void
__pp_profile_off (void)
{
  __atomic_store_n (&__pp_on, 0, __ATOMIC_RELAXED);
}

static long sample_on_ms, sample_off_ms;

static void
sleep_ms (long ms)
{
  struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
  while (nanosleep (&ts, &ts) < 0 && errno == EINTR)
    ;
}

static void *
sampler (void *arg)
{
  (void) arg;
  for (;;)
    {
      __pp_profile_on ();
      sleep_ms (sample_on_ms);
      __pp_profile_off ();
      sleep_ms (sample_off_ms);
    }
  return NULL;
}

static void
start_sampler (void)
{
  pthread_t t;
  pthread_attr_t attr;
  pthread_attr_init (&attr);
  pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
  /* The user's signals go to the user's threads.  */
  sigset_t all, old;
  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &old);
  if (pthread_create (&t, &attr, sampler, NULL) != 0)
    fprintf (stderr, "ppgcc profile: PPGCC_SAMPLE: cannot start the "
             "sampling thread; profiling stays on\n");
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  pthread_attr_destroy (&attr);
}

static void
flip (int sig)
{
  (void) sig;
  if (!__atomic_load_n (&__pp_on, __ATOMIC_RELAXED))
    __pp_profile_on ();
  else
    __pp_profile_off ();
}

static int
signal_number (const char *name)
{
  if (!strncmp (name, "SIG", 3))
    name += 3;
  static const struct { const char *name; int sig; } known[] = {
    { "USR1", SIGUSR1 }, { "USR2", SIGUSR2 }, { "HUP", SIGHUP },
    { "PROF", SIGPROF }, { "WINCH", SIGWINCH }, { "URG", SIGURG },
  };
  for (size_t i = 0; i < sizeof known / sizeof *known; i++)
    if (!strcmp (name, known[i].name))
      return known[i].sig;
  char *end;
  long n = strtol (name, &end, 10);
  return *name && !*end && n > 0 && n < NSIG ? (int) n : 0;
}

/* Called once, when the first unit registers.  */
static void
switch_init (void)
{
  const char *initial = getenv ("PPGCC_PROFILE");
  if (initial && !strcmp (initial, "off"))
    {
      __pp_profile_off ();
      __atomic_store_n (&never_on, 1, __ATOMIC_RELAXED);
    }
  else if (initial && *initial && strcmp (initial, "on"))
    fprintf (stderr, "ppgcc profile: PPGCC_PROFILE=%s: expected on or off; "
             "profiling stays on\n", initial);
  const char *sig = getenv ("PPGCC_SWITCH_SIGNAL");
  if (sig && *sig)
    {
      int n = signal_number (sig);
      struct sigaction sa;
      memset (&sa, 0, sizeof sa);
      sa.sa_handler = flip;
      sa.sa_flags = SA_RESTART;
      if (!n || sigaction (n, &sa, NULL) < 0)
        fprintf (stderr, "ppgcc profile: PPGCC_SWITCH_SIGNAL=%s: not a "
                 "signal that can be caught; ignored\n", sig);
    }
  const char *sample = getenv ("PPGCC_SAMPLE");
  if (sample && *sample)
    {
      char *end;
      sample_on_ms = strtol (sample, &end, 10);
      if (*end == ':')
        sample_off_ms = strtol (end + 1, &end, 10);
      if (*end || sample_on_ms <= 0 || sample_off_ms <= 0)
        fprintf (stderr, "ppgcc profile: PPGCC_SAMPLE=%s: not ON_MS:OFF_MS "
                 "(positive milliseconds); ignored\n", sample);
      else
        start_sampler ();
    }
}

/* fork: the sampling thread is the parent's; the child gets one too.  */
static void
switch_after_fork (void)
{
  if (sample_on_ms > 0 && sample_off_ms > 0)
    start_sampler ();
}

/* Whether the exit dump can be skipped: this module's objects were built
   with switching and profiling was off from the first unit's registration
   (PPGCC_PROFILE=off) to now, so no probe has counted (except in code run
   before that registration, i.e. constructors of a higher priority, which
   count while the flag still has its initial 1).  Nothing to write: the
   .ppd files are left as they are, their run count not bumped.  A fork's
   child inherits the parent's state.  */
static int
nothing_counted (void)
{
  return &__pp_switched != 0 && __atomic_load_n (&never_on, __ATOMIC_RELAXED);
}

PPRT_MODE (switch_mode) = {
  .init = switch_init,
  .after_fork = switch_after_fork,
  .nothing_counted = nothing_counted,
};
