/* A thread that blocks every signal by the raw system call, past the C
   library (and so past any interposer), spins for 0.6 s of its CPU time,
   then unblocks them.  The sampler cannot sample it meanwhile: what it
   lost must be said.  */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

volatile unsigned long sink;

static double
thread_cpu (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__ ((noipa)) void
spin (long n)
{
  unsigned long x = sink;
  for (long i = 0; i < n; i++)
    x = x * 6364136223846793005ul + 1442695040888963407ul;
  sink = x;
}

static void *
blocked (void *arg)
{
  unsigned long all = ~0ul, old = 0;
  syscall (SYS_rt_sigprocmask, SIG_BLOCK, &all, &old, sizeof all);
  while (thread_cpu () < 0.6)
    spin (100000);
  syscall (SYS_rt_sigprocmask, SIG_SETMASK, &old, NULL, sizeof old);
  return arg;
}

int
main (void)
{
  pthread_t t;
  if (pthread_create (&t, NULL, blocked, NULL) != 0)
    return 1;
  pthread_join (t, NULL);
  printf ("done\n");
  return 0;
}
