/* Eight threads, each in a call chain of its own: thread K runs tK,
   which calls spin.  Each thread's tree is its own; merged at exit, the
   tree has start routine -> tK -> spin for every K, and equal work.  */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

volatile unsigned long sink;
static long work = 40000000;

__attribute__ ((noipa)) void
spin (long n)
{
  unsigned long x = sink;
  for (long i = 0; i < n; i++)
    x = x * 6364136223846793005ul + 1442695040888963407ul;
  sink = x;
}

#define T(k)                                                               \
  __attribute__ ((noipa)) void *t##k (void *arg)                           \
  {                                                                        \
    spin (work);                                                           \
    sink++;                                                                \
    return arg;                                                            \
  }
T (0) T (1) T (2) T (3) T (4) T (5) T (6) T (7)

int
main (int argc, char **argv)
{
  void *(*fn[8]) (void *) = { t0, t1, t2, t3, t4, t5, t6, t7 };
  pthread_t th[8];
  if (argc > 1)
    work = atol (argv[1]);
  for (int k = 0; k < 8; k++)
    if (pthread_create (&th[k], NULL, fn[k], NULL) != 0)
      return 1;
  for (int k = 0; k < 8; k++)
    pthread_join (th[k], NULL);
  printf ("done\n");
  return 0;
}
