/* Four threads run a function with 2^14 paths at once, hot words and a
   stream of cold ones, so that they hit, evict and contend for the same
   sets of the Hot Path Table.  Every path execution must be either counted
   or dropped: counts plus dropped equal THREADS x ITERS.  */
#include <pthread.h>
#include <stdio.h>

#define THREADS 4
#define ITERS 200000

#include "paths14.h"

static void *
worker (void *arg)
{
  unsigned long long *sum = arg, s = 0;
  unsigned x = 12345;
  for (int i = 0; i < ITERS; i++)
    {
      x = x * 1103515245u + 12345u;
      /* Three in four: one of eight hot words; else any word.  */
      unsigned w = (x >> 8) & 3 ? (x >> 12) & 7 : (x >> 12) & 0x3fff;
      s += paths14 (w);
    }
  *sum = s;
  return NULL;
}

int
main (void)
{
  pthread_t t[THREADS];
  unsigned long long r[THREADS], total = 0;
  for (int i = 0; i < THREADS; i++)
    pthread_create (&t[i], NULL, worker, &r[i]);
  for (int i = 0; i < THREADS; i++)
    {
      pthread_join (t[i], NULL);
      total += r[i];
    }
  printf ("%llu\n", total);
  return 0;
}
