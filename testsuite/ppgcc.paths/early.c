/* Early returns and goto.  */
#include <stdio.h>

int
find (const int *a, int n, int key)
{
  int i = 0;
  if (n <= 0)
    return -1;
again:
  if (a[i] == key)
    return i;
  if (++i < n)
    goto again;
  return -2;
}

int
main (void)
{
  int a[] = { 5, 7, 9, 11 };
  int s = 0;
  s += find (a, 4, 5);
  s += find (a, 4, 11);
  s += find (a, 4, 4);
  s += find (a, 0, 5);
  printf ("%d\n", s);
  return 0;
}
// expect-paths: find 6
// expect: find 1 7 8 9
// expect: find 1 7 8 10 11 12
// expect: find 2 7 8 10 11 13 14
// expect: find 4 10 11 13 14
// expect: find 1 10 11 12
// expect: find 1 10 11 13 15
