/* 4 threads x 25000 calls, counters updated atomically: exact totals.  */
#include <pthread.h>
#include <stdio.h>

static int
step (int x)
{
  if (x & 1)
    return x * 3 + 1;
  return x / 2;
}

static void *
worker (void *arg)
{
  long s = 0;
  for (int i = 0; i < 25000; i++)
    s += step (i);
  *(long *) arg = s;
  return NULL;
}

int
main (void)
{
  pthread_t t[4];
  long r[4];
  for (int i = 0; i < 4; i++)
    pthread_create (&t[i], NULL, worker, &r[i]);
  for (int i = 0; i < 4; i++)
    pthread_join (t[i], NULL);
  printf ("%ld\n", r[0] + r[1] + r[2] + r[3]);
  return 0;
}
// flags: -pthread -fprofile-update=atomic
// expect: step 50000 8 9
// expect: step 50000 8 10
// expect: worker 99996 17 18
