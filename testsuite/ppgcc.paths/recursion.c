/* fib (10): 177 calls, 89 of them base cases.  */
#include <stdio.h>

int
fib (int n)
{
  if (n < 2)
    return n;
  return fib (n - 1) + fib (n - 2);
}

int
main (void)
{
  printf ("%d\n", fib (10));
  return 0;
}
// expect-paths: fib 2
// expect: fib 89 7 8
// expect: fib 88 7 9
