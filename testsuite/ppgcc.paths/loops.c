/* Nested loops with known trip counts: 3 x 4.  */
#include <stdio.h>

int
grid (int rows, int cols)
{
  int s = 0;
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      s += i * j;
  return s;
}

int
main (void)
{
  printf ("%d\n", grid (3, 4));
  return 0;
}
// Loops split paths at back edges (PLDI'97 2.2): 12 inner iterations are the
// first one (entering from the outer loop: 1 + 2 times) and 9 more.
// expect-paths: grid 5
// expect: grid 1 7 8 9 10
// expect: grid 9 9 10
// expect: grid 2 8 9 10
// expect: grid 3 9 8
// expect: grid 1 8 11
