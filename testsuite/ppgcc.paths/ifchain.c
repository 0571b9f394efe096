/* if/else chain: classify -3..6 -> 3 negative, 3 odd, 4 even.  */
#include <stdio.h>

int
classify (int x)
{
  if (x < 0)
    return -1;
  else if (x % 2)
    return 1;
  return 0;
}

int
main (void)
{
  int s = 0;
  for (int i = -3; i < 7; i++)
    s += classify (i) * 10 + i;
  printf ("%d\n", s);
  return 0;
}
// expect-paths: classify 3
// expect: classify 3 7 8
// expect: classify 3 7 9 10
// expect: classify 4 7 9 11
