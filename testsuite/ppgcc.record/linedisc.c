/* One source line, two blocks told apart by their discriminators: the
   then-block runs once in 1024 iterations, the else-block 1023 times.  */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned rare;

__attribute__ ((noinline)) unsigned
skew (unsigned n)
{
  unsigned s = 0;
  for (unsigned i = 0; i < n; i++)
    { if ((i & 1023) == 0) rare = s; else s = s * 31 + (i ^ (s >> 7)); } /* the line */
  return s;
}

int
main (int argc, char **argv)
{
  unsigned n = argc > 1 ? (unsigned) atoi (argv[1]) : 1000u;
  printf ("%u\n", skew (n));
  return 0;
}
