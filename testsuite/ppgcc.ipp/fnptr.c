/* An indirect call (thesis §3.4.6): the profile says which functions
   were called through the pointer; each is expanded behind a test of the
   pointer, and any other target goes through the plain call, whose path
   is the caller's own.  Training calls twice and thrice; the reference
   run also calls negate, which was never a target.  */
#include <stdio.h>
#include <stdlib.h>

static int twice (int v)
{
  if (v > 7)
    return 2 * v;
  return v;
}

static int thrice (int v)
{
  return 3 * v;
}

static int negate (int v)
{
  return -v;
}

int apply (int (*f) (int), int v)
{
  int r = f (v);
  if (r < 0)
    r = 0;
  return r + 1;
}

int main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 10;
  int (*const fs[3]) (int) = { twice, thrice, negate };
  int kinds = argc > 2 ? 3 : 2;
  long t = 0;
  for (int i = 0; i < n; i++)
    t += apply (fs[i % kinds], i);
  printf ("%ld\n", t);
  return 0;
}
// train: 3
// ref: 7 x
// ips: apply 3 apply 28-29 > twice 11 13 [11:F] > apply 28-29 31 [29:F]
// ips: apply 2 apply 28-29 > thrice 18 > apply 28-29 31 [29:F]
// ips: apply 2 28-29 28-31 [29:T]
// untested: apply 2 28-29 28-31 [29:T]
