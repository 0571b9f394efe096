/* Many distinct paths counted outside any array: all 2^14 paths of
   paths14, path w run w % 5 + 1 times, from 4 threads with atomic
   counters, in a scattered order.  Far more than the inline cache's slots
   and than one side table holds, so the runtime's table chains (and a
   preferential build trained on a few paths misses on nearly all of them).
   hashmany.exp compares the counts with an array build's, path by path.
   With the argument "train", only the words 0 to 7, once each.  */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "../ppgcc.hpt/paths14.h"

static int train;

static void *
worker (void *arg)
{
  unsigned long s = 0;
  for (unsigned k = 0; k < (train ? 8u : 1u << 14); k++)
    {
      unsigned w = train ? k : (k * 40503u) & 0x3fff; /* odd: a bijection */
      for (unsigned r = 0; r <= (train ? 0 : w % 5); r++)
        s += paths14 (w);
    }
  *(unsigned long *) arg = s;
  return NULL;
}

int
main (int argc, char **argv)
{
  train = argc > 1 && !strcmp (argv[1], "train");
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
// expect-paths: paths14 16384
