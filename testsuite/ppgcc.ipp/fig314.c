/* Thesis Fig 3.14: foo1 and foo2 both call bar.  With =clone one
   duplicate of bar serves both call sites (two contexts); with =inline
   each site gets its own copy.  The segments and their counts are the
   same either way.  */
#include <stdio.h>
#include <stdlib.h>

static int bar (int x)
{
  int r;
  if (x > 4)
    r = x - 4;
  else
    r = 4 - x;
  return r;
}

int foo1 (int i)
{
  int s = bar (i);
  if (s & 1)
    s++;
  return s;
}

int foo2 (int i)
{
  int s = 10;
  if (i & 2)
    s = 20;
  s += bar (i + 1);
  return s;
}

int main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 10;
  long t = 0;
  for (int i = 0; i < n; i++)
    t += foo1 (i) * foo2 (i);
  printf ("%ld\n", t);
  return 0;
}
// train: 3
// ref: 7
// dups-clone: bar 1
// ipp-flags: -fprofile-paths-ipp-inline-stmts=0
// ips: foo1 3 foo1 20-21 > bar 11 14-15 [11:F] > foo1 20-21 23 [21:F]
// ips: foo1 2 foo1 20-21 > bar 11 14-15 [11:F] > foo1 20-23 [21:T]
// ips: foo1 1 foo1 20-21 > bar 11-12 15 [11:T] > foo1 20-23 [21:T]
// ips: foo1 1 foo1 20-21 > bar 11-12 15 [11:T] > foo1 20-21 23 [21:F]
// ips: foo2 2 foo2 28-32 [29:T] > bar 11 14-15 [11:F] > foo2 31-32
// ips: foo2 2 foo2 28-29 31-32 [29:F] > bar 11-12 15 [11:T] > foo2 31-32
// ips: foo2 2 foo2 28-29 31-32 [29:F] > bar 11 14-15 [11:F] > foo2 31-32
// ips: foo2 1 foo2 28-32 [29:T] > bar 11-12 15 [11:T] > foo2 31-32
// untested: foo1 1 foo1 20-21 > bar 11-12 15 [11:T] > foo1 20-23 [21:T]
// untested: foo1 1 foo1 20-21 > bar 11-12 15 [11:T] > foo1 20-21 23 [21:F]
// untested: foo2 2 foo2 28-29 31-32 [29:F] > bar 11-12 15 [11:T] > foo2 31-32
// untested: foo2 1 foo2 28-32 [29:T] > bar 11-12 15 [11:T] > foo2 31-32
