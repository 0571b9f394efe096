/* -fuse-path-profile: GCC's profile from the path counts.  classify runs
   10 times: 3 negative, 3 odd, 4 even; the optimized dump must show the
   counts that follow (precise, as if read by -fprofile-use).  */
#include <stdio.h>

__attribute__ ((noinline)) int
classify (int x)
{
#ifdef CHANGED
  if (x == 42)
    return 7;
#endif
  if (x < 0)
    return -1;
  else if (x % 2)
    return 1;
  return 0;
}

int
main (void)
{
  int s = 0;
  for (int i = -3; i < 7; i++)
    s += classify (i) * 10 + i;
  printf ("%d\n", s);
  return 0;
}
