/* Flat metric profiling (-fprofile-paths-metric without cct): one context
   per function under the root, the path counts and metrics in the
   functions' own arrays; ten times the work (ten times the calls,
   interleaved), about ten times the time.  */
// flags: -DFLAT
// retry: 3
// expect: runs 1 kind flat metrics 1
// expect: metric time clock_gettime ns
// expect: node f calls=20 rec=0 nctx=1 paths=0:400,1:20
// expect: node g calls=200 rec=0 nctx=1 paths=0:4000,1:200
// expect: node main calls=1 rec=0 nctx=1 paths=0:1
// absent-re: ^node main/
// ratio: 0 g#0 f#0 5 20
// ratio: 0 g f 5 20
// ratio: 0 main g 0 0.1
#define NM 1
#define METRICS "time"
#include "hand.h"
#include <stdio.h>

DESC (main, 1);
DESC (f, 2);
DESC (g, 2);
UNIT (&main_desc, &f_desc, &g_desc)

static volatile double sink;
static volatile int reps = 20, chunk = 10000;


NOINLINE static void
f (void)
{
  ENTER (f);
  for (int i = 0; i < 20; i++)
    {
      hand_burn (&sink, chunk);
      PATH (0);
    }
  PATH (1);
  EXIT ();
}

NOINLINE static void
g (void)
{
  ENTER (g);
  for (int i = 0; i < 20; i++)
    {
      hand_burn (&sink, chunk);
      PATH (0);
    }
  PATH (1);
  EXIT ();
}

int
main (void)
{
  ENTER (main);
  for (int i = 0; i < 11 * reps; i++)
    if (i % 11 == 0)
      f ();
    else
      g ();
  PATH (0);
  EXIT ();
  printf ("%g\n", sink);
  return 0;
}
