/* A callee with a loop: the segment through sum ends at sum's back edge
   (inside the copy), paths restart at the loop's head inside the copy,
   and the last of them returns into foo's continuation.  */
#include <stdio.h>
#include <stdlib.h>

static int sum (int k)
{
  int s = 0;
  for (int j = 0; j < k; j++)
    s += j;
  return s;
}

int foo (int i)
{
  int r = sum (i % 3);
  if (r > 0)
    r--;
  return r + i;
}

int main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 6;
  long t = 0;
  for (int i = 0; i < n; i++)
    t += foo (i);
  printf ("%ld\n", t);
  return 0;
}
// train: 3
// ref: 7
// ips: foo 4 foo 17-18 > sum 9-11 [10:T] (break)
// ips: foo 3 foo 17-18 > sum 9-10 12 [10:F] > foo 17-18 20 [18:F]
// ips: foo 2 (cont) sum 10-11 [10:T] (break)
// ips: foo 2 (cont) sum 10 12 [10:F] > foo 17-20 [18:T]
// ips: foo 2 (cont) sum 10 12 [10:F] > foo 17-18 20 [18:F]
// untested-none: foo
