/* __attribute__((no_instrument_function)) leaves a function alone.  */
#include <stdio.h>

__attribute__ ((no_instrument_function)) static int
quiet (int x)
{
  return x > 2 ? x * 2 : x + 1;
}

static int
loud (int x)
{
  return x > 2 ? x * 2 : x + 1;
}

int
main (void)
{
  int s = 0;
  for (int i = 0; i < 6; i++)
    s += quiet (i) + loud (i);
  printf ("%d\n", s);
  return 0;
}
// expect-paths: quiet 0
// expect-paths: loud 2
