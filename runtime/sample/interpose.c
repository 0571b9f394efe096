/* The library calls the sampler overrides (csprof §2.5.2), each calling
   the C library's own (dlsym RTLD_NEXT) after or around its work:

   - pthread_create (§2.5.5): the new thread starts in __pp_sample_thread_main,
     which makes its state and arms its timer before the program's start
     routine runs, and stops the timer when the thread ends (returning
     or pthread_exit: a cleanup handler); its tree stays for the dump.
   - longjmp, _longjmp, siglongjmp, __longjmp_chk (§2.5.3, §2.4.1): a
     non-local exit removes the frames below the target's stack pointer:
     they leave the cached call stack, and the trampoline's mark with
     them (put back on the innermost frame left; trampoline.c).
   - _Unwind_RaiseException, _Unwind_Resume, _Unwind_Resume_or_Rethrow,
     _Unwind_ForcedUnwind, _Unwind_Backtrace, backtrace, pthread_exit:
     the trampoline's mark comes out before an unwinder walks the stack
     (it cannot walk through the trampoline), and no mark is put while
     it walks, or until __cxa_begin_catch for an exception.
   - dlclose (§2.5.1): samples while the loader takes objects off its
     lists count as unsafe; the objects are listed first, so that the
     samples taken in a library that is unloaded still name it.  (dlopen
     and dlmopen find their caller by their return address: jump stubs
     interpose them, ra_readers.c; the dump lists the objects loaded.)
   - _exit, _Exit: the profile is written first (exit's handlers do not
     run).
   - fork: through pthread_atfork (init.c), which every fork runs.
   - sigaction, signal, sigprocmask, pthread_sigmask: the sampler's
     signal (init.c) stays its own.  The program's action for it is
     kept aside (set and read back as if it were in force; a signal the
     program sends itself is passed to it, one the program handles by
     default, SIG_DFL or SIG_IGN, is ignored); it is taken out of the
     sets of signals to block and of every handler's mask, so that no
     thread holds it for long and loses the samples of its CPU time.
     What still holds it (a raw system call, sigsuspend's mask) delays
     samples, which then count as held (handler.c).  */
#define _GNU_SOURCE
#include "sample.h"

#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PUBLIC __attribute__ ((visibility ("default")))

#define REAL(type, name)                                                    \
  static type real_##name;                                                  \
  if (!real_##name)                                                         \
    real_##name = (type) __pp_sample_next (#name)

/* ------------------------------------------------------------ threads */

struct start
{
  void *(*fn) (void *);
  void *arg;
};

static void
thread_ends (void *t)
{
  __pp_sample_thread_stop (t);
}

static void *
__pp_sample_thread_main (void *p)
{
  struct start s = *(struct start *) p;
  free (p);
  struct pps_thread *t = __pp_sample_active ? __pp_sample_thread_start ()
                                            : NULL;
  void *r;
  pthread_cleanup_push (thread_ends, t);
  r = s.fn (s.arg);
  pthread_cleanup_pop (1);
  return r;
}

typedef int (*pthread_create_fn) (pthread_t *, const pthread_attr_t *,
                                  void *(*) (void *), void *);

PUBLIC int
pthread_create (pthread_t *th, const pthread_attr_t *attr,
                void *(*fn) (void *), void *arg)
{
  REAL (pthread_create_fn, pthread_create);
  struct start *s = malloc (sizeof *s);
  if (!s)
    return real_pthread_create (th, attr, fn, arg);
  s->fn = fn;
  s->arg = arg;
  int rc = real_pthread_create (th, attr, __pp_sample_thread_main, s);
  if (rc != 0)
    free (s);
  return rc;
}

/* ---------------------------------------------------- non-local exits */

/* The stack pointer a jmp_buf goes back to: glibc's x86-64 layout
   (JB_RSP, slot 6), mangled with the thread's pointer guard
   (PTR_MANGLE: xor %fs:0x30, rol $0x11).  Checked against the
   thread's stack by __pp_sample_nonlocal_exit.  */
static uint64_t
jmp_buf_sp (struct __jmp_buf_tag *env)
{
#if defined __x86_64__ && defined __GLIBC__
  uint64_t v = (uint64_t) env->__jmpbuf[6], guard;
  __asm__ ("movq %%fs:0x30, %0" : "=r"(guard));
  v = (v >> 0x11) | (v << (64 - 0x11));
  return v ^ guard;
#else
  (void) env;
  return 0;
#endif
}

static void
nonlocal_exit (struct __jmp_buf_tag *env)
{
  struct pps_thread *t = __pp_sample_self ();
  if (t)
    __pp_sample_nonlocal_exit (t, env ? jmp_buf_sp (env) : 0);
}

/* An unwinder is about to walk the stack, which the trampoline's
   address would stop: the mark comes out (the frames it removes are not
   counted) and no mark is put until it is done (BY_ONE: a walk that
   returns, undone by walk_done) or until a handler catches the
   exception (__cxa_begin_catch).  */
static struct pps_thread *
unwinder_walks (int by_one)
{
  struct pps_thread *t = __pp_sample_self ();
  if (t)
    {
      t->unsafe++;
      atomic_signal_fence (memory_order_seq_cst);
      if (by_one)
        t->no_mark++;
      else
        t->in_exception = 1;
      __pp_sample_unmark (t, (uint64_t) __builtin_frame_address (0));
      atomic_signal_fence (memory_order_seq_cst);
      t->unsafe--;
    }
  return t;
}

static void
walk_done (struct pps_thread *t)
{
  if (t && __pp_sample_self () == t)
    t->no_mark--;
}

typedef void (*longjmp_fn) (struct __jmp_buf_tag[1], int);

PUBLIC void
longjmp (struct __jmp_buf_tag env[1], int val)
{
  REAL (longjmp_fn, longjmp);
  nonlocal_exit (env);
  real_longjmp (env, val);
  __builtin_unreachable ();
}

PUBLIC void
_longjmp (struct __jmp_buf_tag env[1], int val)
{
  REAL (longjmp_fn, _longjmp);
  nonlocal_exit (env);
  real__longjmp (env, val);
  __builtin_unreachable ();
}

PUBLIC void
siglongjmp (struct __jmp_buf_tag env[1], int val)
{
  REAL (longjmp_fn, siglongjmp);
  nonlocal_exit (env);
  real_siglongjmp (env, val);
  __builtin_unreachable ();
}

/* what longjmp becomes under _FORTIFY_SOURCE */
PUBLIC void
__longjmp_chk (struct __jmp_buf_tag env[1], int val)
{
  REAL (longjmp_fn, __longjmp_chk);
  nonlocal_exit (env);
  real___longjmp_chk (env, val);
  __builtin_unreachable ();
}

/* ------------------------------------------- unwinders (trampoline.c) */

struct _Unwind_Exception;
struct _Unwind_Context;
typedef int (*raise_fn) (struct _Unwind_Exception *);
typedef int (*forced_fn) (struct _Unwind_Exception *, void *, void *);
typedef int (*trace_fn) (void *, void *);
typedef int (*backtrace_fn) (void **, int);
typedef void (*pthread_exit_fn) (void *);
typedef void (*resume_fn) (struct _Unwind_Exception *);
typedef void *(*begin_catch_fn) (void *);

PUBLIC int
_Unwind_RaiseException (struct _Unwind_Exception *e)
{
  REAL (raise_fn, _Unwind_RaiseException);
  struct pps_thread *t = unwinder_walks (0);
  int r = real__Unwind_RaiseException (e);
  if (t && __pp_sample_self () == t)
    t->in_exception = 0; /* no handler: it returns, to terminate */
  return r;
}

PUBLIC void
_Unwind_Resume (struct _Unwind_Exception *e)
{
  REAL (resume_fn, _Unwind_Resume);
  unwinder_walks (0);
  real__Unwind_Resume (e);
  __builtin_unreachable ();
}

PUBLIC int
_Unwind_Resume_or_Rethrow (struct _Unwind_Exception *e)
{
  REAL (raise_fn, _Unwind_Resume_or_Rethrow);
  struct pps_thread *t = unwinder_walks (0);
  int r = real__Unwind_Resume_or_Rethrow (e);
  if (t && __pp_sample_self () == t)
    t->in_exception = 0;
  return r;
}

PUBLIC int
_Unwind_ForcedUnwind (struct _Unwind_Exception *e, void *stop, void *arg)
{
  REAL (forced_fn, _Unwind_ForcedUnwind);
  unwinder_walks (0);
  return real__Unwind_ForcedUnwind (e, stop, arg);
}

/* the exception caught: marks again */
PUBLIC void *
__cxa_begin_catch (void *e)
{
  REAL (begin_catch_fn, __cxa_begin_catch);
  struct pps_thread *t = __pp_sample_self ();
  if (t)
    t->in_exception = 0;
  return real___cxa_begin_catch (e);
}

/* The walks below see this function's frame too: left out, so that
   the program sees the frames it would without the sampler.  */
struct trace_skip
{
  int (*trace) (void *, void *);
  void *arg;
  int skipped;
};

static int
trace_skip_one (void *ctx, void *p)
{
  struct trace_skip *s = p;
  if (!s->skipped)
    {
      s->skipped = 1;
      return 0; /* _URC_NO_REASON */
    }
  return s->trace (ctx, s->arg);
}

PUBLIC int
_Unwind_Backtrace (void *trace, void *arg)
{
  REAL (trace_fn, _Unwind_Backtrace);
  struct trace_skip s = { (int (*) (void *, void *)) trace, arg, 0 };
  struct pps_thread *t = unwinder_walks (1);
  int r = real__Unwind_Backtrace ((void *) trace_skip_one, &s);
  walk_done (t);
  return r;
}

PUBLIC int
backtrace (void **buf, int size)
{
  REAL (backtrace_fn, backtrace);
  if (size <= 0 || size > 4096)
    {
      unwinder_walks (1);
      struct pps_thread *t = __pp_sample_self ();
      if (t)
        t->no_mark--; /* marks again: the walk may meet one */
      return real_backtrace (buf, size);
    }
  void *all[size + 1];
  struct pps_thread *t = unwinder_walks (1);
  int r = real_backtrace (all, size + 1);
  walk_done (t);
  if (r <= 0)
    return r;
  memcpy (buf, all + 1, (size_t) (r - 1) * sizeof *buf);
  return r - 1;
}

/* glibc unwinds the thread's stack with the libgcc_s it loads itself;
   the thread ends: no more marks */
PUBLIC void
pthread_exit (void *r)
{
  REAL (pthread_exit_fn, pthread_exit);
  unwinder_walks (0);
  real_pthread_exit (r);
  __builtin_unreachable ();
}

/* --------------------------------------------------- dynamic loading */

/* Dumps list the objects loaded then; one unloaded before is listed
   here first (dump.c).  */
PPS_HIDDEN void __pp_sample_retire_objects (void);

typedef int (*dlclose_fn) (void *);

PUBLIC int
dlclose (void *h)
{
  REAL (dlclose_fn, dlclose);
  struct pps_thread *t = __pp_sample_self ();
  if (t)
    t->unsafe++;
  if (__pp_sample_active)
    __pp_sample_retire_objects ();
  int rc = real_dlclose (h);
  if (t)
    t->unsafe--;
  return rc;
}

/* --------------------------------------------------------------- exit */

typedef void (*exit_fn) (int);

PUBLIC void
_exit (int status)
{
  REAL (exit_fn, _exit);
  __pp_sample_finish ();
  real__exit (status);
  __builtin_unreachable ();
}

PUBLIC void
_Exit (int status)
{
  REAL (exit_fn, _Exit);
  __pp_sample_finish ();
  real__Exit (status);
  __builtin_unreachable ();
}

/* ------------------------------------------------------------ signals */

typedef int (*sigaction_fn) (int, const struct sigaction *,
                             struct sigaction *);
typedef int (*sigmask_fn) (int, const sigset_t *, sigset_t *);
typedef void (*handler_fn) (int);
typedef handler_fn (*signal_fn) (int, handler_fn);

static int
sampler_signal (int sig)
{
  return __pp_sample_active && sig == __pp_sample_config.signo;
}

/* SET without the sampler's signal (in COPY) when it would block it.  */
static const sigset_t *
keep_unblocked (int how, const sigset_t *set, sigset_t *copy)
{
  if (!set || !__pp_sample_active || (how != SIG_BLOCK && how != SIG_SETMASK)
      || sigismember (set, __pp_sample_config.signo) != 1)
    return set;
  *copy = *set;
  sigdelset (copy, __pp_sample_config.signo);
  return copy;
}

PUBLIC int
sigaction (int sig, const struct sigaction *act, struct sigaction *old)
{
  REAL (sigaction_fn, sigaction);
  if (sampler_signal (sig))
    {
      if (old)
        *old = __pp_sample_program_action;
      if (act)
        __pp_sample_program_action = *act;
      return 0;
    }
  if (act && __pp_sample_active
      && sigismember (&act->sa_mask, __pp_sample_config.signo) == 1)
    {
      struct sigaction a = *act;
      sigdelset (&a.sa_mask, __pp_sample_config.signo);
      return real_sigaction (sig, &a, old);
    }
  return real_sigaction (sig, act, old);
}

PUBLIC handler_fn
signal (int sig, handler_fn h)
{
  REAL (signal_fn, signal);
  if (!sampler_signal (sig))
    return real_signal (sig, h);
  struct sigaction a;
  memset (&a, 0, sizeof a);
  a.sa_handler = h;
  a.sa_flags = SA_RESTART; /* glibc's signal: BSD semantics */
  sigemptyset (&a.sa_mask);
  struct sigaction old = __pp_sample_program_action;
  __pp_sample_program_action = a;
  return (old.sa_flags & SA_SIGINFO)
             ? (handler_fn) (void (*) (void)) old.sa_sigaction
             : old.sa_handler;
}

PUBLIC int
sigprocmask (int how, const sigset_t *set, sigset_t *old)
{
  REAL (sigmask_fn, sigprocmask);
  sigset_t copy;
  return real_sigprocmask (how, keep_unblocked (how, set, &copy), old);
}

PUBLIC int
pthread_sigmask (int how, const sigset_t *set, sigset_t *old)
{
  REAL (sigmask_fn, pthread_sigmask);
  sigset_t copy;
  return real_pthread_sigmask (how, keep_unblocked (how, set, &copy), old);
}
