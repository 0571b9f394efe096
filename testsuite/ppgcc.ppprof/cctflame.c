/* ppprof html's icicle graph of a calling context tree (htmlcct.exp):
   hot called from two sites, each calling leaf N times; cold and a
   recursion small enough to be merged at --min-percent 0.1.  */
#include <stdio.h>
#include <stdlib.h>

static int
leaf (int x)
{
  return x * 3 + 1;
}

static int
hot (int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    s += leaf (i);
  return s;
}

static int
cold (void)
{
  return leaf (7);
}

static int
rec (int n)
{
  return n ? rec (n - 1) + 1 : 0;
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 10;
  int a = hot (n);
  int b = hot (n) % 7;
  printf ("%d %d %d %d\n", a, b, cold (), rec (5));
  return 0;
}
