/* listedtemps.exp's unit whose profile is written second (units are
   written in the reverse of their link order): shift runs 4 paths a
   run.  */
#include <stdio.h>

int half_or_triple (int);

static int
shift (int x)
{
  return x > 2 ? x - 2 : x + 5;
}

int
main (void)
{
  long s = 0;
  for (int i = 0; i < 4; i++)
    s += shift (i) + half_or_triple (i);
  printf ("%ld\n", s);
  return 0;
}
