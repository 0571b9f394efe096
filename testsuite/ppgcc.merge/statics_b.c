/* ppgcc.merge/merge.exp: see statics_a.c.  twin runs its other path
   here; helper has three paths.  */
static int twin (int x) { if (x > 0) return x; return -x; }

static int
helper (int x)
{
  if (x % 2)
    return x;
  if (x % 5)
    return -x;
  return 0;
}

#include <stdio.h>

int a_work (int n);

int
b_work (int n)
{
  int s = 0;
  for (int i = 1; i <= n; i++)
    s += helper (i) + twin (-i);
  return s;
}

int
main (void)
{
  printf ("%d %d\n", a_work (30), b_work (70));
  return 0;
}
