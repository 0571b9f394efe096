/* Calls that do not come straight from their instrumented caller: qsort
   (not instrumented) calls cmp, which is f's child; an inlined function
   (inl: its return address and frame are f's) is f's child too, one
   context for its inlined calls (site "inlined"), and the function it
   calls is its own child.  */
// expect: node main/f/cmp calls=${cmps} rec=0 nctx=1 paths=0:${lt},1:${ge}
// expect: node main/f/inl calls=2 rec=0 nctx=1 paths=0:2
// expect: site main/f/inl "inlined"
// expect: node main/f/inl/g calls=2 rec=0 nctx=* paths=0:2
// expect: node main/f calls=1 rec=0 nctx=1 paths=0:1
// absent-re: cmp/
// absent-re: inl/inl
#include "hand.h"
#include <stdio.h>
#include <stdlib.h>

DESC (main, 1);
DESC (f, 1);
DESC (cmp, 2);
DESC (inl, 1);
DESC (g, 1);
UNIT (&main_desc, &f_desc, &cmp_desc, &inl_desc, &g_desc)

static volatile int sink;
static int cmps, lt, ge;

NOINLINE static int
cmp (const void *a, const void *b)
{
  ENTER (cmp);
  int x = *(const int *) a, y = *(const int *) b;
  cmps++;
  int r = (x > y) - (x < y);
  if (r < 0)
    {
      lt++;
      PATH (0);
    }
  else
    {
      ge++;
      PATH (1);
    }
  EXIT ();
  return r;
}

NOINLINE static void
g (void)
{
  ENTER (g);
  sink++;
  PATH (0);
  EXIT ();
}

static inline __attribute__ ((always_inline)) void
inl (void)
{
  ENTER (inl);
  g ();
  PATH (0);
  EXIT ();
}

NOINLINE static void
f (void)
{
  ENTER (f);
  int a[100];
  for (int i = 0; i < 100; i++)
    a[i] = (i * 37) % 101;
  qsort (a, 100, sizeof *a, cmp);
  inl ();
  inl ();
  PATH (0);
  EXIT ();
}

int
main (void)
{
  ENTER (main);
  f ();
  PATH (0);
  EXIT ();
  printf ("var cmps=%d\nvar lt=%d\nvar ge=%d\n", cmps, lt, ge);
  return 0;
}
