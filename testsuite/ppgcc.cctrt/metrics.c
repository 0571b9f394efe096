/* Metrics along paths in calling contexts (PLDI'97 §3.1, §4.3): work()
   does ten times as much under big() as under small() (as many calls
   again, interleaved one by one, so that other processes' turns on a
   shared machine fall on both alike); every metric that measures time
   says so, in its exclusive total and in its loop path, and the
   callers' own paths do not include what work() used (their carry was
   saved at the call and restored after it).  Metric
   sources: "time" is clock_gettime; "cycles" is a hardware counter where
   there is one, else the TSC (doc/metrics.md); "task-clock", the perf
   software event, counts only while the thread runs.  */
// retry: 3
// expect: runs 1 kind cct metrics 4
// expect: metric time clock_gettime ns
// expect-re: ^metric tsc (tsc ticks|clock_gettime ns)$
// expect-re: ^metric cycles (rdpmc events|perf-read events|tsc ticks|clock_gettime ns)$
// expect-re: ^metric task-clock (perf-sw:task-clock|clock_gettime:thread-cputime) ns$
// expect: node main/small/work calls=20 rec=0 nctx=1 paths=0:400,1:20
// expect: node main/big/work calls=200 rec=0 nctx=1 paths=0:4000,1:200
// ratio: 0 main/big/work main/small/work 5 20
// ratio: 1 main/big/work main/small/work 5 20
// ratio: 2 main/big/work main/small/work 5 20
// ratio: 3 main/big/work main/small/work 5 20
// ratio: 0 main/big/work#0 main/small/work#0 5 20
// ratio: 2 main/big/work#0 main/small/work#0 5 20
// ratio: 0 main/big#0 main/big/work 0 0.1
// ratio: 0 main/big main/big/work 0 0.1
// output-count: 0 ppgcc profile:
#define NM 4
#define METRICS "time,tsc,cycles,task-clock"
#include "hand.h"
#include <stdio.h>

DESC (main, 1);
DESC (small, 1);
DESC (big, 1);
DESC (work, 2);
UNIT (&main_desc, &small_desc, &big_desc, &work_desc)

static volatile double sink;
static volatile int reps = 20, chunk = 10000;

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
small (void)
{
  ENTER (small);
  work (20);
  PATH (0);
  EXIT ();
}

NOINLINE static void
big (void)
{
  ENTER (big);
  work (20);
  PATH (0);
  EXIT ();
}

int
main (void)
{
  ENTER (main);
  for (int i = 0; i < 11 * reps; i++)
    if (i % 11 == 0)
      small ();
    else
      big ();
  PATH (0);
  EXIT ();
  printf ("%g\n", sink);
  return 0;
}
