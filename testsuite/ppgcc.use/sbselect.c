/* A select in a loop that runs to its count (sbselect.exp): slide's loop
   is left by one edge, and its body joins the arms of
   `m >= SHIFT ? m - SHIFT : 0`, which write a register only.  GCC
   if-converts and vectorises that loop; a superblock's tail copy of the
   join stopped both (gzip's fill_window is this loop).  A join whose arms
   store is still duplicated (correlated.c).  */
#include <stdio.h>

#define N 4096
#define SHIFT 1000

unsigned short table[N];

static void __attribute__ ((noinline))
slide (void)
{
  for (int n = 0; n < N; n++)
    {
      unsigned m = table[n];
      table[n] = (unsigned short) (m >= SHIFT ? m - SHIFT : 0);
    }
}

int
main (void)
{
  long sum = 0;
  for (int round = 0; round < 40; round++)
    {
      for (int n = 0; n < N; n++)
        table[n] += (unsigned short) (n % 8 ? SHIFT + n % 13 : n % 5);
      slide ();
      sum += table[round * 97 % N];
    }
  long check = 0;
  for (int n = 0; n < N; n++)
    check += (long) table[n] * (n + 1);
  printf ("%ld %ld\n", sum, check);
  return 0;
}
