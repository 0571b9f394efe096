/* csprof Fig 1: a() and b() call c() through a function pointer, c calls
   d() in a loop; c's cost depends on its caller.  The tree keeps c under
   a and under b, each with its exact calls and path counts; e() calls c
   from two call sites: two contexts.
   Paths: c's 0 = loop iteration (back edge), 1 = the exit.  */
// expect: node main calls=1 rec=0 nctx=1 paths=0:1
// expect: node main/a calls=1 rec=0 nctx=1 paths=0:1
// expect: node main/b calls=1 rec=0 nctx=1 paths=0:1
// expect: node main/a/c calls=2 rec=0 nctx=1 paths=0:128,1:2
// expect: node main/b/c calls=4 rec=0 nctx=1 paths=0:128,1:4
// expect: node main/a/c/d calls=128 rec=0 nctx=1 paths=0:128
// expect: node main/b/c/d calls=128 rec=0 nctx=1 paths=0:128
// expect: node main/e/c calls=2 rec=0 nctx=2 paths=0:48,1:2
// expect: node main/e/c/d calls=48 rec=0 nctx=2 paths=0:48
// expect: fn c calls=8
// expect: runs 1 kind cct metrics 0
// expect: site main ""
// expect-re: ^site main/a "fig1-O[02]\+0x[0-9a-f]+"$
#include "hand.h"
#include <stdio.h>

#define HUGE 64

DESC (main, 1);
DESC (a, 1);
DESC (b, 1);
DESC (c, 2);
DESC (d, 1);
DESC (e, 1);
UNIT (&main_desc, &a_desc, &b_desc, &c_desc, &d_desc, &e_desc)

static volatile int sink, two = 2, four = 4;

NOINLINE static void
d (void)
{
  ENTER (d);
  sink++;
  PATH (0);
  EXIT ();
}

NOINLINE static void
c (int n)
{
  ENTER (c);
  for (int i = 0; i < HUGE / n; i++)
    {
      d ();
      PATH (0);
    }
  PATH (1);
  EXIT ();
}

NOINLINE static void
b (void (*f) (int))
{
  ENTER (b);
  for (int i = 0; i < four; i++)
    f (2);
  PATH (0);
  EXIT ();
}

NOINLINE static void
a (void (*f) (int))
{
  ENTER (a);
  for (int i = 0; i < two; i++)
    f (1);
  PATH (0);
  EXIT ();
}

NOINLINE static void
e (void (*f) (int))
{
  ENTER (e);
  f (4);
  sink++;
  f (2);
  PATH (0);
  EXIT ();
}

int
main (void)
{
  ENTER (main);
  void (*volatile f) (int) = c;
  a (f);
  b (f);
  e (f);
  PATH (0);
  EXIT ();
  printf ("%d\n", sink);
  return 0;
}
