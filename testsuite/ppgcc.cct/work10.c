/* A metric grows with the work: spin (N) from one call site and
   spin (10 N) from another; their contexts' metric must be about 1:10.  */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned sink;

void
spin (long n)
{
  for (long i = 0; i < n; i++)
    sink = sink * 31 + (unsigned) i;
}

void small (long n) { spin (n); }
void large (long n) { spin (10 * n); }

int
main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 2000000;
  small (n);
  large (n);
  printf ("%u\n", sink);
  return 0;
}
