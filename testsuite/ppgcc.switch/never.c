/* Profiling never on: run with PPGCC_PROFILE=off, this program never calls
   __pp_profile_on, so a build with -fprofile-paths-switch counts nothing
   and writes no profile at exit; a build without switching ignores the
   flag, counts, and writes.  */
#include <stdio.h>

static int
half (int x)
{
  return x & 1 ? 3 * x + 1 : x / 2;
}

int
steps (int x)
{
  int n = 0;
  while (x != 1)
    {
      x = half (x);
      n++;
    }
  return n;
}

int
main (void)
{
  printf ("%d\n", steps (27));
  return 0;
}
