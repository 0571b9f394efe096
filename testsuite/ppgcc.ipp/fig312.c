/* Thesis Fig 3.12: a path of foo() runs through bar() and back.  Each
   foo(i) takes one of foo's two branches before the call, one of bar's
   two paths, and one of foo's two branches after: 8 segments, of which
   the run takes those below (counted by hand from i = 0..N-1).  */
#include <stdio.h>
#include <stdlib.h>

static int bar (int x)
{
  if (x & 1)
    return x * 3;
  else
    return x / 2;
}

int foo (int i)
{
  int s = 0;
  if (i % 3 == 0)
    s += 1;
  else
    s -= 1;
  s += bar (i);
  if (s > 5)
    s *= 2;
  return s;
}

int main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 30;
  long t = 0;
  for (int i = 0; i < n; i++)
    t += foo (i);
  printf ("%ld\n", t);
  return 0;
}
// train: 3
// ref: 7
// ips: foo 2 foo 18-20 23-24 [19:T] > bar 10 13 [10:F] > foo 23-24 26 [24:F]
// ips: foo 2 foo 18-19 22-24 [19:F] > bar 10 13 [10:F] > foo 23-24 26 [24:F]
// ips: foo 1 foo 18-20 23-24 [19:T] > bar 10-11 [10:T] > foo 23-26 [24:T]
// ips: foo 1 foo 18-19 22-24 [19:F] > bar 10-11 [10:T] > foo 23-26 [24:T]
// ips: foo 1 foo 18-19 22-24 [19:F] > bar 10-11 [10:T] > foo 23-24 26 [24:F]
// untested: foo 1 foo 18-20 23-24 [19:T] > bar 10-11 [10:T] > foo 23-26 [24:T]
// untested: foo 1 foo 18-19 22-24 [19:F] > bar 10-11 [10:T] > foo 23-26 [24:T]
