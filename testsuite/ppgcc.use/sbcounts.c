/* Superblock copies carry exact counts (use.exp): classify runs 10
   times, 3 negative, 3 odd, 4 even, and its three paths meet at a join
   that computes before it returns; each of the two hotter paths gets its
   own copy of the join.  */
#include <stdio.h>

__attribute__ ((noinline)) int
classify (int x)
{
  int r;
  if (x < 0)
    r = -1;
  else if (x % 2)
    r = 1;
  else
    r = 0;
  return r * x + 2 * r;
}

int
main (void)
{
  long weighted = 0;
  /* -3..6, from the top: 3 negative, 3 odd, 4 even.  */
  for (int i = 6; i >= -3; i--)
    weighted = weighted * 3 + classify (i);
  printf ("%ld\n", weighted);
  return 0;
}
