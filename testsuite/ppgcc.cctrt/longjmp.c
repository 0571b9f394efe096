/* longjmp out of nested calls: their __pp_exit never runs.  The next
   __pp_enter finds their frames below its own and pops them, so k() is
   f's child, not h's; f's own exit pops what is left; a longjmp back to
   main, then more calls.  100 times, exact.  m() takes arguments on the
   stack, so its frame is below the dead g's and h's: the caller's saved
   frame pointer, not the frames' order, tells they are dead.  */
// expect: node main calls=1 rec=0 nctx=1 paths=0:1
// expect: node main/f calls=1 rec=0 nctx=1 paths=0:1
// expect: node main/f/g calls=200 rec=0 nctx=* paths=
// expect: node main/f/g/h calls=200 rec=0 nctx=* paths=0:200
// expect: node main/f/k calls=100 rec=0 nctx=1 paths=0:100
// expect: node main/f/m calls=100 rec=0 nctx=1 paths=0:100
// expect: node main/g calls=1 rec=0 nctx=1 paths=
// expect: node main/g/h calls=1 rec=0 nctx=1 paths=0:1
// expect: node main/k calls=2 rec=0 nctx=2 paths=0:2
// absent-re: h/[km]
// absent-re: g/[km]
// absent-re: g/g
#include "hand.h"
#include <setjmp.h>
#include <stdio.h>

DESC (main, 1);
DESC (f, 1);
DESC (g, 1);
DESC (h, 1);
DESC (k, 1);
DESC (m, 1);
UNIT (&main_desc, &f_desc, &g_desc, &h_desc, &k_desc, &m_desc)

static jmp_buf jb;
static volatile int sink;

NOINLINE static void
h (void)
{
  ENTER (h);
  PATH (0);
  longjmp (jb, 1);
}

NOINLINE static void
g (void)
{
  ENTER (g);
  h ();
  PATH (0);
  EXIT ();
}

NOINLINE static void
k (void)
{
  ENTER (k);
  sink++;
  PATH (0);
  EXIT ();
}

NOINLINE static void
m (long a, long b, long c, long d, long e, long f, long g, long h, long i,
   long j)
{
  ENTER (m);
  sink += (int) (a + b + c + d + e + f + g + h + i + j);
  PATH (0);
  EXIT ();
}

NOINLINE static void
f (void)
{
  ENTER (f);
  for (volatile int i = 0; i < 100; i++)
    {
      if (!setjmp (jb))
        g ();
      else
        k ();
      if (!setjmp (jb))
        g ();
      else
        m (1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
    }
  PATH (0);
  EXIT ();
}

int
main (void)
{
  ENTER (main);
  f ();
  k ();
  if (!setjmp (jb))
    g ();
  k ();
  PATH (0);
  EXIT ();
  printf ("%d\n", sink);
  return 0;
}
