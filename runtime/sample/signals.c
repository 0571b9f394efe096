/* The C library's signal calls, past the ones interpose.c puts in front
   of them, and the program's action for the sampler's signal, kept
   aside by the interposed sigaction and signal (interpose.c) and called
   for a signal the program sends itself (handler.c).  Below every part
   but state.c (state.h).  */
#define _GNU_SOURCE
#include "sample.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

PPS_HIDDEN struct sigaction __pp_sample_program_action;

/* The next definition of NAME (the C library's), or abort with one line
   when there is none.  */
PPS_HIDDEN void *
__pp_sample_next (const char *name)
{
  void *f = dlsym (RTLD_NEXT, name);
  if (!f)
    {
      fprintf (stderr, "ppgcc sampler: %s not found after the sampler "
               "(dlsym: %s)\n", name, dlerror ());
      abort ();
    }
  return f;
}

typedef int (*sigaction_fn) (int, const struct sigaction *,
                             struct sigaction *);
typedef int (*sigmask_fn) (int, const sigset_t *, sigset_t *);

PPS_HIDDEN int
__pp_sample_real_sigaction (int sig, const struct sigaction *act,
                            struct sigaction *old)
{
  static sigaction_fn real;
  if (!real)
    real = (sigaction_fn) __pp_sample_next ("sigaction");
  return real (sig, act, old);
}

PPS_HIDDEN int
__pp_sample_real_sigmask (int how, const sigset_t *set, sigset_t *old)
{
  static sigmask_fn real;
  if (!real)
    real = (sigmask_fn) __pp_sample_next ("pthread_sigmask");
  return real (how, set, old);
}

PPS_HIDDEN void
__pp_sample_unblock (void)
{
  sigset_t s;
  sigemptyset (&s);
  sigaddset (&s, __pp_sample_config.signo);
  __pp_sample_real_sigmask (SIG_UNBLOCK, &s, NULL);
}

PPS_HIDDEN void
__pp_sample_forward (int sig, siginfo_t *si, void *uc)
{
  struct sigaction a = __pp_sample_program_action;
  if (a.sa_flags & SA_SIGINFO)
    {
      if (a.sa_sigaction)
        a.sa_sigaction (sig, si, uc);
    }
  else if (a.sa_handler != SIG_DFL && a.sa_handler != SIG_IGN)
    a.sa_handler (sig);
}
