/* Functions with target and optimize attributes have option sets of their
   own; switching to them and back restored the feedback flag that
   -fuse-path-profile turns on, and GCC's inliner asserted (found building
   zstd).  */
#include <stdio.h>

static int
g (int x)
{
  return x * 3 + 1;
}

__attribute__ ((target ("bmi2"))) int
h (int x)
{
  int s = 0;
  for (int i = 0; i < x; i++)
    s += g (i) & 7;
  return s;
}

__attribute__ ((optimize ("O3"))) int
k (int x)
{
  int s = 0;
  for (int i = 0; i < x; i++)
    s += g (i) ^ 5;
  return s;
}

int
main (int argc, char **argv)
{
  (void) argv;
  printf ("%d %d\n", h (argc * 1000), k (argc * 1000));
  return 0;
}
