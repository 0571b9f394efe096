/* Depth 2 (-fprofile-paths-ipp-depth=2): top calls mid, mid calls leaf;
   top's segments run through both.  top is kept out of main's segments
   (noinline) so that its own body runs.  For i = 0..N-1: leaf's branch
   is i's parity, mid's is i > 3.  */
#include <stdio.h>
#include <stdlib.h>

static int leaf (int x)
{
  if (x & 1)
    return 1;
  return 2;
}

static int mid (int x)
{
  int r = leaf (x) * 10;
  if (x > 3)
    r++;
  return r;
}

__attribute__ ((noinline)) int top (int i)
{
  int s = mid (i);
  return s + 1;
}

int main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 5;
  long t = 0;
  for (int i = 0; i < n; i++)
    t += top (i);
  printf ("%ld\n", t);
  return 0;
}
// ipp-flags: -fprofile-paths-ipp-depth=2
// train: 3
// ref: 7
// ips: top 2 top 25-26 > mid 17-18 > leaf 10-11 [10:T] > mid 17-18 20 [18:F] > top 25-26
// ips: top 2 top 25-26 > mid 17-18 > leaf 10 12 [10:F] > mid 17-20 [18:T] > top 25-26
// ips: top 2 top 25-26 > mid 17-18 > leaf 10 12 [10:F] > mid 17-18 20 [18:F] > top 25-26
// ips: top 1 top 25-26 > mid 17-18 > leaf 10-11 [10:T] > mid 17-20 [18:T] > top 25-26
// untested: top 2 top 25-26 > mid 17-18 > leaf 10 12 [10:F] > mid 17-20 [18:T] > top 25-26
// untested: top 1 top 25-26 > mid 17-18 > leaf 10-11 [10:T] > mid 17-20 [18:T] > top 25-26
