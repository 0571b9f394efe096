/* The program of modes.exp: calls twice () ten times, and the library's
   lib_work once (or its own copy, linked in).  */
#include <stdio.h>

int lib_work (int n);

static __attribute__ ((noinline)) int
twice (int x)
{
  return x > 5 ? 2 * x : x;
}

int
main (void)
{
  int s = 0;
  for (int i = 0; i < 10; i++)
    s += twice (i);
  printf ("%d\n", s + lib_work (10));
  return 0;
}
