/* A loop left by a break, then a call at the function's end: the call
   gets the function's return (tail-returns.cc) and the loops are left to
   be fixed.  The -fuse-path-profile build's superblocks walked them
   unfixed and crashed GCC at -O1 and up (bzip2's BZ2_blockSort: every
   program of the bench but pcre2).  find (a, n) for n = 0..8: 3 is first
   at index 2, so n = 0, 1, 2 call fail and n = 3..8 break there.  */
#include <stdio.h>

__attribute__ ((noinline)) void
fail (int code)
{
  printf ("fail %d\n", code);
}

int origin;

__attribute__ ((noinline)) void
find (const int *a, int n)
{
  origin = -1;
  for (int i = 0; i < n; i++)
    if (a[i] == 3)
      {
        origin = i;
        break;
      }
  if (origin == -1)
    fail (n);
}

int
main (void)
{
  int a[8] = { 5, 1, 3, 7, 3, 0, 2, 9 };
  for (int n = 0; n <= 8; n++)
    find (a, n);
  printf ("%d\n", origin);
  return 0;
}
// n = 1..8 start the loop at 5, n = 2..8 go on at 1; n = 3..8 break at
// index 2 and return; n = 1, 2 leave the loop and call fail, n = 0 at
// once.
// expect: find 8 20 21 22 21
// expect: find 7 21 22 21
// expect: find 6 21 22 24 27 29
// expect: find 2 21 27 28
// expect: find 1 20 21 27 28
