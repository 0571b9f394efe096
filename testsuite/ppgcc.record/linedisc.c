/* One source line, two blocks told apart by their discriminators: the
   then-block (64 volatile stores) runs once in 65536 iterations, the
   else-block 65535 times.  The then-block is long so that a stray
   sample in it (a timer that fires after the mispredicted branch into
   it) reads as a low rate per instruction.  */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned rare[64];

#define STORE4(k) (rare[k] = s, rare[k + 1] = s, rare[k + 2] = s, rare[k + 3] = s)
#define STORE16(k) (STORE4 (k), STORE4 (k + 4), STORE4 (k + 8), STORE4 (k + 12))
#define STORE64 (STORE16 (0), STORE16 (16), STORE16 (32), STORE16 (48))

__attribute__ ((noinline)) unsigned
skew (unsigned n)
{
  unsigned s = 0;
  for (unsigned i = 0; i < n; i++)
    { if ((i & 65535) == 0) STORE64; else s = s * 31 + (i ^ (s >> 7)); } /* the line */
  return s;
}

int
main (int argc, char **argv)
{
  unsigned n = argc > 1 ? (unsigned) atoi (argv[1]) : 1000u;
  printf ("%u\n", skew (n));
  return 0;
}
