/* ppgcc.ppprof/branches.exp: paths through the same lines told apart by
   the branch taken at each condition.  */
#include <stdio.h>
#include <stdlib.h>

int
f (int x)
{
  int r = 0;
  if (x & 1) r += 1; else r -= 1;
  if (x & 2) r += 2; else r -= 2;
  return r;
}

int
g (int x)
{
  if (x > 1 && x < 5) return 1; return 0;
}

int
h (int x)
{
  switch (x)
    {
    case 1: return 10;
    case 2: case 3: return 20;
    default: return 0;
    }
}

int
k (int x)
{
  switch (x)
    {
    case 100: case 200: case 300: case 400: case 500: return 1;
    default: return 0;
    }
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 10;
  long s = 0;
  for (int i = 0; i < n; i++)
    s += f (i) + g (i % 8) + h (i % 4) + k (i * 100);
  printf ("%ld\n", s);
  return 0;
}
