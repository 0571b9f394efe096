/* __builtin_setjmp/__builtin_longjmp (in the spirit of GCC's pr60003.c):
   `seen' is set in the loop before the call that longjmps back, so after
   the return to the setjmp it must read 1.  The longjmp comes from a
   callee of an inlined callee: the inlined call needs its abnormal edge
   to GCC's dispatcher block.  */
#include <stdio.h>

static void *buf[5];

__attribute__ ((noinline, noclone)) static void
thrower (void)
{
  __builtin_longjmp (buf, 1);
}

static void
relay (void)
{
  thrower ();
}

__attribute__ ((noinline, noclone)) static int
catcher (int x)
{
  int seen = 0;
  if (__builtin_setjmp (buf) == 0)
    {
      for (;;)
        {
          seen = 1;
          relay ();
        }
    }
  if (seen == 0)
    return 0;
  return x;
}

int
main (void)
{
  int r = catcher (7);
  printf ("catcher %d\n", r);
  return r == 7 ? 0 : 1;
}
// catcher: from the entry to the setup (counted before it: it may jump),
// the first iteration up to the call that longjmps, the receiver, the
// dispatcher's own one-block path (no source line; counted at the
// receiver), and from the setjmp's test to the return.
// expect-paths: catcher 5
// expect: catcher 1 25 26
// expect: catcher 1 26 30 31
// expect: catcher 1 26
// expect: catcher 1
// expect: catcher 1 26 34 36
// expect: thrower 1 13
