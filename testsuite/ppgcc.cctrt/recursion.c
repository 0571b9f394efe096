/* Recursion folded onto the ancestor's record (PLDI'97 §4.1, Fig 5): A and
   B call each other; every A below the first is the first A's record, and
   so for B: the tree stays two deep, the calls exact, the recursive ones
   counted.  The same recursion under C gets records of its own; fact()
   recurses directly.  hsh counts its paths in the hash table: a context
   without path slots.  */
// expect: node main calls=1 rec=0 nctx=1 paths=0:1
// expect: node main/A calls=6 rec=5 nctx=1 paths=0:5,1:1
// expect: node main/A/B calls=5 rec=4 nctx=1 paths=0:5
// expect: node main/C calls=1 rec=0 nctx=1 paths=0:1
// expect: node main/C/A calls=4 rec=3 nctx=1 paths=0:3,1:1
// expect: node main/C/A/B calls=3 rec=2 nctx=1 paths=0:3
// expect: node main/fact calls=11 rec=10 nctx=1 paths=0:10,1:1
// expect: node main/hsh calls=3 rec=0 nctx=1 paths=
// absent-re: /A/B/A
// absent-re: fact/fact
#include "hand.h"
#include <stdio.h>

static volatile int three = 3;

DESC (main, 1);
DESC (A, 2);
DESC (B, 1);
DESC (C, 1);
DESC (fact, 2);
DESC_FLAGS (hsh, 100000, PP_FN_CCT | PP_FN_HASHED);
UNIT (&main_desc, &A_desc, &B_desc, &C_desc, &fact_desc, &hsh_desc)

static void B (int n);

NOINLINE static void
A (int n)
{
  ENTER (A);
  if (n > 0)
    {
      B (n);
      PATH (0);
    }
  else
    PATH (1);
  EXIT ();
}

NOINLINE static void
B (int n)
{
  ENTER (B);
  A (n - 1);
  PATH (0);
  EXIT ();
}

NOINLINE static void
C (void)
{
  ENTER (C);
  A (3);
  PATH (0);
  EXIT ();
}

NOINLINE static long
fact (long n)
{
  ENTER (fact);
  long r = 1;
  if (n > 0)
    {
      r = n * fact (n - 1);
      PATH (0);
    }
  else
    PATH (1);
  EXIT ();
  return r;
}

NOINLINE static void
hsh (int i)
{
  ENTER (hsh);
  PATH (i * 1000);
  EXIT ();
}

int
main (void)
{
  ENTER (main);
  A (5);
  C ();
  long f = fact (10);
  for (int i = 0; i < three; i++)
    hsh (i);
  PATH (0);
  EXIT ();
  printf ("%ld\n", f);
  return 0;
}
