/* Vector registers across a PPP miss: the accumulators below live in SSE
   registers through every path end of mix's loop; trained on mode 'a',
   run on mode 'b', every iteration's path is untested and goes through
   the miss arm (x86-64: __pp_ppp_miss, which saves no vector register).
   The output must be gcc's.  */
#include <stdio.h>

__attribute__ ((noinline)) double
mix (const char *mode, int n)
{
  double s = 0.5, t = 1.25, u = -2.0;
  for (int i = 0; i < n; i++)
    {
      if (mode[0] == 'a')
        s += i * 0.25;
      else if (i % 3)
        t = t * 1.0001 + s;
      else
        u -= t / (i + 1.0);
      s = s * 0.999 + u * 1e-6;
    }
  return s + t * 3.0 + u * 7.0;
}

int
main (int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "a";
  printf ("%.17g\n", mix (mode, 100000));
  return 0;
}
