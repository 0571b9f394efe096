/* A function with 2^14 Ball-Larus paths (more than 2^13, so it counts
   outside the array at -fprofile-paths-array-max=4096, which the tests give): one
   diamond per bit of a 14-bit word, so each word runs its own path.
   Skewed like real programs (thesis Fig 5.2): ten hot words, the k-th run
   1000 * (k + 1) times, and NCOLD cold words run once each, interleaved in
   a fixed pseudo-random order.  The hot words differ in their low four
   bits only, so their Ball-Larus ids differ in four bits at distinct
   positions modulo 4 (whichever end the numbering starts from): the Hot
   Path Table's index, which folds an id's bits onto the low ones, puts
   them in ten different sets of 16, each with a way left for the cold.

   usage: skewed NCOLD  */
#include <stdio.h>
#include <stdlib.h>

#define HOT 10

#include "paths14.h"

static unsigned
hot_word (unsigned k)
{
  return k | 0x1230;
}

static int
is_hot (unsigned w)
{
  for (unsigned k = 0; k < HOT; k++)
    if (w == hot_word (k))
      return 1;
  return 0;
}

int
main (int argc, char **argv)
{
  long ncold = argc > 1 ? atol (argv[1]) : 100;
  if (ncold < 0 || ncold > 16000)
    {
      fprintf (stderr, "usage: skewed NCOLD (at most 16000)\n");
      return 1;
    }
  long n = ncold;
  for (unsigned k = 0; k < HOT; k++)
    n += 1000 * (k + 1);
  unsigned *run = malloc (n * sizeof *run);
  if (!run)
    return 1;
  long i = 0;
  for (unsigned k = 0; k < HOT; k++)
    for (unsigned r = 0; r < 1000 * (k + 1); r++)
      run[i++] = hot_word (k);
  /* Distinct cold words: an odd multiplier permutes 14-bit words.  */
  for (unsigned j = 1; i < n; j++)
    {
      unsigned w = (j * 0x2f1bu) & 0x3fff;
      if (!is_hot (w))
        run[i++] = w;
    }
  unsigned long long x = 88172645463325252ull;
  for (long k = n - 1; k > 0; k--)
    {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      long m = (long) (x % (unsigned long long) (k + 1));
      unsigned t = run[k];
      run[k] = run[m];
      run[m] = t;
    }
  unsigned long long sum = 0;
  for (i = 0; i < n; i++)
    sum += paths14 (run[i]);
  printf ("%ld path runs, sum %llu\n", n, sum);
  free (run);
  return (int) (sum % 7);
}
