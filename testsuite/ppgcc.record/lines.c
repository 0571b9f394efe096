/* Samples by source line: work's two loops run the same body 3n and n
   times (3:1 of its time); mix's loop calls an always_inline helper.  */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned sink;

static inline __attribute__ ((always_inline)) unsigned
helper (unsigned x)
{
  unsigned y = x * 2654435761u; /* helper first */
  y ^= y >> 13;
  y *= 0x85ebca6bu;
  return y ^ (y >> 16);         /* helper last */
}

__attribute__ ((noinline)) unsigned
work (unsigned n)
{
  unsigned s = 0;
  for (unsigned i = 0; i < 3 * n; i++) /* loop three */
    s = s * 31 + (i ^ (s >> 7));
  for (unsigned i = 0; i < n; i++) /* loop one */
    s = s * 31 + (i ^ (s >> 7));
  return s;
}

__attribute__ ((noinline)) unsigned
mix (unsigned n)
{
  unsigned s = 0;
  for (unsigned i = 0; i < n; i++)
    s += helper (s + i); /* the call */
  return s;
}

int
main (int argc, char **argv)
{
  unsigned n = argc > 1 ? (unsigned) atoi (argv[1]) : 1000u;
  sink = work (n) + mix (n / 2);
  printf ("%u\n", sink);
  return 0;
}
