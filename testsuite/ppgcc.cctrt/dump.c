/* __pp_dump in the middle of a run writes what ran so far and zeroes it:
   the exit's dump adds only the rest, and the file holds each count once
   and the run once (two dumps: one run, as gcov counts it).  Three runs of
   the program: three times that.  */
// runs: 3
// expect: runs 3 kind cct metrics 0
// expect: node main calls=3 rec=0 nctx=1 paths=0:3
// expect: node main/f calls=15 rec=0 nctx=2 paths=0:9,1:6
// expect: node main/f/g calls=21 rec=0 nctx=* paths=0:21
#include "hand.h"
#include <stdio.h>

DESC (main, 1);
DESC (f, 2);
DESC (g, 1);
UNIT (&main_desc, &f_desc, &g_desc)

static volatile int sink, three = 3, two = 2;

NOINLINE static void
g (void)
{
  ENTER (g);
  sink++;
  PATH (0);
  EXIT ();
}

NOINLINE static void
f (int n)
{
  ENTER (f);
  for (int i = 0; i < n; i++)
    g ();
  if (n & 1)
    PATH (0);
  else
    PATH (1);
  EXIT ();
}

int
main (void)
{
  ENTER (main);
  for (int i = 0; i < three; i++)
    f (1);
  __pp_dump ();
  for (int i = 0; i < two; i++)
    f (2);
  PATH (0);
  EXIT ();
  printf ("%d\n", sink);
  return 0;
}
