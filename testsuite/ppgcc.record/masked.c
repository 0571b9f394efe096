/* Two threads spin for the same CPU time (0.6 s each): one created with
   every signal blocked, which it blocks again itself (as xz's worker
   threads do), the other with main's usual mask.  A sampler whose
   signal such a thread holds would see it only at its end: each thread
   must get its share of the samples.  */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

volatile unsigned long sink;
static double seconds = 0.6;

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

__attribute__ ((noipa)) void
masked_work (void)
{
  while (thread_cpu () < seconds)
    spin (100000);
}

__attribute__ ((noipa)) void
open_work (void)
{
  while (thread_cpu () < seconds)
    spin (100000);
}

static void *
masked_thread (void *arg)
{
  sigset_t all;
  sigfillset (&all);
  pthread_sigmask (SIG_BLOCK, &all, NULL);
  masked_work ();
  return arg;
}

static void *
open_thread (void *arg)
{
  open_work ();
  return arg;
}

int
main (int argc, char **argv)
{
  if (argc > 1)
    seconds = atof (argv[1]);
  sigset_t all, old;
  sigfillset (&all);
  pthread_t a, b;
  pthread_sigmask (SIG_SETMASK, &all, &old);
  if (pthread_create (&a, NULL, masked_thread, NULL) != 0)
    return 1;
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  if (pthread_create (&b, NULL, open_thread, NULL) != 0)
    return 1;
  pthread_join (a, NULL);
  pthread_join (b, NULL);
  printf ("done\n");
  return 0;
}
