/* __pp_dump in the middle of a run with a metric: what it wrote is zeroed,
   the paths' accumulators as well as their counts, so that the exit's
   dump adds only what ran after.  work() runs the same loop 30 times
   under before(), then __pp_dump, then 10 times more under before() and
   40 times under after(), interleaved: exact counts, and both contexts'
   loop paths and totals measure about the same time (a first dump's
   figures written again would give before a ratio of 1.75).  */
// retry: 3
// expect: runs 1 kind cct metrics 1
// expect: metric time clock_gettime ns
// expect: node main/before/work calls=40 rec=0 nctx=* paths=0:800,1:40
// expect: node main/after/work calls=40 rec=0 nctx=* paths=0:800,1:40
// ratio: 0 main/before/work#0 main/after/work#0 0.6 1.4
// ratio: 0 main/before/work main/after/work 0.6 1.4
#define NM 1
#define METRICS "time"
#include "hand.h"
#include <stdio.h>

DESC (main, 1);
DESC (before, 1);
DESC (after, 1);
DESC (work, 2);
UNIT (&main_desc, &before_desc, &after_desc, &work_desc)

static volatile double sink;
static volatile int reps = 10, chunk = 10000;

NOINLINE static void
work (int n)
{
  ENTER (work);
  for (int i = 0; i < n; i++)
    {
      hand_burn (&sink, chunk);
      PATH (0);
    }
  PATH (1);
  EXIT ();
}

NOINLINE static void
before (void)
{
  ENTER (before);
  work (20);
  PATH (0);
  EXIT ();
}

NOINLINE static void
after (void)
{
  ENTER (after);
  work (20);
  PATH (0);
  EXIT ();
}

int
main (void)
{
  ENTER (main);
  for (int i = 0; i < 3 * reps; i++)
    before ();
  __pp_dump ();
  for (int i = 0; i < 5 * reps; i++)
    if (i % 5 == 0)
      before ();
    else
      after ();
  printf ("%g\n", sink);
  PATH (0);
  EXIT ();
  return 0;
}
