/* Threads with their own contexts, with a metric: four threads each call
   step (a leaf, by its callee slot) 1000 times from run, and a forked
   child does the same once.  Each thread's first call takes the root
   slot and makes the thread's tree; the mark is per thread.  Exact calls
   and paths, every figure below 2^60 (none wrapped).  */
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned sink;

__attribute__ ((noinline)) static void
step (unsigned i)
{
  if (i & 1)
    sink += i;
  else
    sink ^= i;
}

__attribute__ ((noinline)) static void *
run (void *arg)
{
  for (unsigned i = 0; i < 1000; i++)
    step (i);
  return arg;
}

int
main (void)
{
  pthread_t t[4];
  for (int k = 0; k < 4; k++)
    pthread_create (&t[k], NULL, run, NULL);
  for (int k = 0; k < 4; k++)
    pthread_join (t[k], NULL);
  pid_t pid = fork ();
  if (pid == 0)
    {
      run (NULL);
      return 0;
    }
  int st;
  waitpid (pid, &st, 0);
  printf ("%d\n", WIFEXITED (st) ? WEXITSTATUS (st) : -1);
  return 0;
}
