/* csprof's Figure 1 shape: h's cost depends on its caller.  f calls
   h (N) and g calls h (3 N).  Built by plain gcc -O2
   -fomit-frame-pointer (no ppgcc): the sampler unwinds by the DWARF CFI
   alone.  noipa: h stays one function (no clone per constant argument);
   the work after each call keeps f and g in the call path (no tail
   call).  Prints the CPU time f's and g's calls took (measured around
   each call: the true split the samples should show).  */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

volatile unsigned long sink;

__attribute__ ((noipa)) void
h (long n)
{
  unsigned long x = sink;
  for (long i = 0; i < n; i++)
    x = x * 6364136223846793005ul + 1442695040888963407ul;
  sink = x;
}

__attribute__ ((noipa)) void
f (void)
{
  h (4000000);
  sink++;
}

__attribute__ ((noipa)) void
g (void)
{
  h (12000000);
  sink++;
}

static double
cpu (void)
{
  struct timespec t;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &t);
  return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}

int
main (int argc, char **argv)
{
  long iters = argc > 1 ? atol (argv[1]) : 100;
  double tf = 0, tg = 0;
  for (long i = 0; i < iters; i++)
    {
      double a = cpu ();
      f ();
      double b = cpu ();
      g ();
      double c = cpu ();
      tf += b - a;
      tg += c - b;
    }
  printf ("f %.6f g %.6f\n", tf, tg);
  return 0;
}
