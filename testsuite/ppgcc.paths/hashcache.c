/* Hash-mode counting through the inline first probe (rt_abi.h): a
   function of 2^14 paths, 3000 of them run, many sharing a cache slot, from
   4 threads with atomic counters.  hashcache.exp compares the counts of
   the hash-mode build (-fprofile-paths-array-max=0) with the array-mode
   build's, path by path.  */
#include <pthread.h>
#include <stdio.h>

unsigned
paths14 (unsigned w)
{
  unsigned s = 0;
  if ((w >> 0) & 1) s += 1; else s ^= 3;
  if ((w >> 1) & 1) s += 2; else s ^= 10;
  if ((w >> 2) & 1) s += 3; else s ^= 17;
  if ((w >> 3) & 1) s += 4; else s ^= 24;
  if ((w >> 4) & 1) s += 5; else s ^= 31;
  if ((w >> 5) & 1) s += 6; else s ^= 38;
  if ((w >> 6) & 1) s += 7; else s ^= 45;
  if ((w >> 7) & 1) s += 8; else s ^= 52;
  if ((w >> 8) & 1) s += 9; else s ^= 59;
  if ((w >> 9) & 1) s += 10; else s ^= 66;
  if ((w >> 10) & 1) s += 11; else s ^= 73;
  if ((w >> 11) & 1) s += 12; else s ^= 80;
  if ((w >> 12) & 1) s += 13; else s ^= 87;
  if ((w >> 13) & 1) s += 14; else s ^= 94;
  return s;
}

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
