/* Hash-mode counting through the inline first probe (rt_abi.h): a
   function of 2^14 paths, 3000 of them run, many sharing a cache slot, from
   4 threads with atomic counters.  hashcache.exp compares the counts of
   the hash-mode build (-fprofile-paths-array-max=0) with the array-mode
   build's, path by path.  */
#include <pthread.h>
#include <stdio.h>

#include "../ppgcc.hpt/paths14.h"

static void *
worker (void *arg)
{
  unsigned long s = 0;
  /* Word 5k (distinct for k < 3000) runs k % 7 + 1 times.  */
  for (unsigned k = 0; k < 3000; k++)
    for (unsigned r = 0; r <= k % 7; r++)
      s += paths14 ((k * 5) & 0x3fff);
  *(unsigned long *) arg = s;
  return NULL;
}

int
main (void)
{
  pthread_t t[4];
  unsigned long r[4];
  for (int i = 0; i < 4; i++)
    pthread_create (&t[i], NULL, worker, &r[i]);
  for (int i = 0; i < 4; i++)
    pthread_join (t[i], NULL);
  printf ("%lu %lu %lu %lu\n", r[0], r[1], r[2], r[3]);
  return 0;
}

// flags: -pthread -fprofile-update=atomic
// expect-paths: paths14 3000
