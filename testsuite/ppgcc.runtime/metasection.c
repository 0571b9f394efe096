/* The metadata section test (metasection.exp): a program and its shared
   library, each with its own .pp_meta records.  */
#include <stdio.h>

int classify (int x); /* metasection-lib.c */

static __attribute__ ((noinline)) int
twice (int x)
{
  if (x > 50)
    return 2 * x;
  return x;
}

int
main (void)
{
  int s = 0;
  for (int i = 0; i < 100; i++)
    s += classify (i) + twice (i);
  printf ("%d\n", s);
  return 0;
}
