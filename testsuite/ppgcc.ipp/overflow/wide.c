/* Expanding wide's call of narrow would give a supergraph of more than
   2^64 paths (2^33 * 2^32): the call is given up rather than cut paths
   (thesis §3.4.4 step 5 keeps the segments whole).  */
#include <stdio.h>

#define B(i)                                                                  \
  if (x & (1ull << (i)))                                                      \
    s += i;                                                                   \
  else                                                                        \
    s -= i;
#define B8(i) B (i) B (i + 1) B (i + 2) B (i + 3) B (i + 4) B (i + 5)         \
    B (i + 6) B (i + 7)

static long
narrow (unsigned long long x)
{
  long s = 0;
  B8 (0) B8 (8) B8 (16) B8 (24)
  return s;
}

long
wide (unsigned long long x)
{
  long s = 0;
  B8 (0) B8 (8) B8 (16) B8 (24) B (32)
  return s + narrow (x * 2654435761u);
}

int
main (void)
{
  long t = 0;
  for (unsigned long long i = 0; i < 100; i++)
    t += wide (i * 0x9e3779b97f4a7c15ull);
  printf ("%ld\n", t);
  return 0;
}
