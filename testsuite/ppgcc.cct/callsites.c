/* ppgcc.cct/callsites.exp: call sites shown as the source line of the
   call.  */
#include <stdio.h>

__attribute__ ((noinline)) int
leaf (int x)
{
  return x * 2;
}

__attribute__ ((noinline)) int
mid (int x)
{
  int s = leaf (x);
  s += leaf (x + 1);
  return s;
}

int
main (void)
{
  int t = 0;
  for (int i = 0; i < 10; i++)
    t += mid (i);
  printf ("%d\n", t);
  return 0;
}
