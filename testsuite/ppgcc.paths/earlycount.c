/* Path ends counted on the edges into the block that ends them
   (lib/placement.c, pp_plan_early).  `pick' returns from five arms
   through one return block: each arm counts its own path.  `halve'
   joins its two arms in a block that calls `bail', which longjmps for 7:
   that block is not counted early, and the path the longjmp cuts short
   counts nothing.  */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf jump;

__attribute__ ((noinline)) static void
bail (int r)
{
  if (r == 7)
    longjmp (jump, 1);
}

__attribute__ ((noinline)) int
pick (int x)
{
  if (x < 0)
    return -1;
  if (x == 0)
    return 10;
  if (x < 10)
    return x * 3;
  if (x < 100)
    return x / 7;
  return 0;
}

__attribute__ ((noinline)) int
halve (int x)
{
  int r;
  if (x & 1)
    r = x;
  else
    r = x / 2;
  bail (r);
  return r;
}

int
main (void)
{
  long s = 0;
  for (int x = -3; x < 120; x += 3)
    s += pick (x);
  for (int x = 0; x < 20; x++)
    if (!setjmp (jump))
      s += halve (x);
  printf ("%ld\n", s);
  return 0;
}
// pick, x = -3, 0, 3, ..., 117: below 0 once, 0 once, 3 6 9, then 30
// values below 100 and 6 from 102.
// expect-paths: pick 5
// expect: pick 30 22 24 26 28 29
// expect: pick 6 22 24 26 28 30
// expect: pick 3 22 24 26 27
// expect: pick 1 22 23
// expect: pick 1 22 24 25
// halve, x = 0..19: r is 7 for x = 7 and 14, whose paths bail cuts short.
// expect-paths: halve 2
// expect: halve 9 37 38 41 42
// expect: halve 9 37 40 41 42
// expect-paths: bail 2
// expect: bail 18 15 17
// expect: bail 2 15 16
