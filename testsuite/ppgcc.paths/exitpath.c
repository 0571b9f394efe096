/* A path that ends in exit() is still counted.  */
#include <stdio.h>
#include <stdlib.h>

static int calls;

void
check (int v)
{
  calls++;
  if (v > 3)
    {
      printf ("stop at %d after %d calls\n", v, calls);
      exit (3);
    }
}

int
main (void)
{
  for (int i = 0; i < 10; i++)
    check (i);
  return 0;
}
// expect-paths: check 2
// expect: check 4 10 11 16
// expect: check 1 10 11 13 14
