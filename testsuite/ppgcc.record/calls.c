/* Calls counted by the trampoline (csprof §2.3, §2.4): main calls work
   exactly K times and fwork exactly K times, each call about 20 ms of
   CPU, so that at the default 200 Hz every call holds samples; work
   spends its time in spin, a leaf it calls four times (the trampoline
   catches spin's return, then moves up to catch work's), fwork in
   itself.  Each call that a sample saw returns through the trampoline:
   main;work and main;fwork count K calls exactly.  The output (a
   checksum of what work returns in %rax and fwork in %xmm0) must not
   change under the profiler.  */
#include <stdio.h>
#include <stdlib.h>

volatile unsigned long sink;
static long n = 15000000;

__attribute__ ((noipa)) unsigned long
spin (long m)
{
  unsigned long x = sink;
  for (long i = 0; i < m; i++)
    x = x * 6364136223846793005ul + 1442695040888963407ul;
  sink = x;
  return x >> 40;
}

__attribute__ ((noipa)) long
work (long i)
{
  unsigned long r = 0;
  for (int k = 0; k < 4; k++)
    r += spin (n / 4);
  return (long) (r & 0xffff) + i;
}

__attribute__ ((noipa)) double
fwork (long i)
{
  double x = 1.0 + (double) i;
  for (long k = 0; k < n / 2; k++)
    x = x * 0.999999 + 1e-7;
  return x;
}

int
main (int argc, char **argv)
{
  long k = argc > 1 ? atol (argv[1]) : 25;
  if (argc > 2)
    n = atol (argv[2]);
  sink = 12345;
  long sum = 0;
  double fsum = 0;
  for (long i = 0; i < k; i++)
    {
      sum += work (i);
      fsum += fwork (i);
    }
  printf ("calls %ld sum %ld fsum %.6f\n", k, sum, fsum);
  return 0;
}
