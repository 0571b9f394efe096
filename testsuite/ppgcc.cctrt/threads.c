/* Two threads' trees merged context by context: their start routine is a
   child of the root in both (site ""), one context; main's own calls
   stay under main.  The threads have exited when the profile is
   written.  */
// flags: -pthread
// expect: node worker calls=2 rec=0 nctx=1 paths=0:2
// expect: node worker/leaf calls=2000 rec=0 nctx=1 paths=0:1000,1:1000
// expect: node main/leaf calls=10 rec=0 nctx=1 paths=0:5,1:5
// expect: node main calls=1 rec=0 nctx=1 paths=0:1
// expect: fn leaf calls=2010
#include "hand.h"
#include <pthread.h>
#include <stdio.h>

DESC (main, 1);
DESC (worker, 1);
DESC (leaf, 2);
UNIT (&main_desc, &worker_desc, &leaf_desc)

static volatile long sink;
static volatile int ten = 10, thousand = 1000;

NOINLINE static void
leaf (int i)
{
  ENTER (leaf);
  sink += i;
  if (i & 1)
    PATH (1);
  else
    PATH (0);
  EXIT ();
}

NOINLINE static void *
worker (void *arg)
{
  ENTER (worker);
  for (int i = 0; i < thousand; i++)
    leaf (i);
  PATH (0);
  EXIT ();
  return arg;
}

int
main (void)
{
  ENTER (main);
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create (&t[i], NULL, worker, NULL);
  for (int i = 0; i < ten; i++)
    leaf (i);
  for (int i = 0; i < 2; i++)
    pthread_join (t[i], NULL);
  PATH (0);
  EXIT ();
  printf ("%ld\n", sink);
  return 0;
}
