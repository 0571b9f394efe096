/* Four threads run a function with 2^14 paths at once, hot words and a
   stream of cold ones, so that they hit, evict and contend for the same
   sets of the Hot Path Table.  Every path execution must be either counted
   or dropped: counts plus dropped equal THREADS x ITERS.  */
#include <pthread.h>
#include <stdio.h>

#define THREADS 4
#define ITERS 200000

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
