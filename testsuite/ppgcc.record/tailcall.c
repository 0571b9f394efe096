/* A tail-calling chain: main calls a, a tail-calls b, b tail-calls c,
   which does the work.  At -O2 a and b leave no frame (each jumps to
   the next, c returns to main): the samples are main -> c, at the call
   site of a in main.  */
#include <stdio.h>
#include <stdlib.h>

volatile unsigned long sink;

__attribute__ ((noipa)) long
c (long n)
{
  unsigned long x = sink;
  for (long i = 0; i < n; i++)
    x = x * 6364136223846793005ul + 1442695040888963407ul;
  sink = x;
  return (long) (x & 1);
}

__attribute__ ((noipa)) long
b (long n)
{
  return c (n + 1);
}

__attribute__ ((noipa)) long
a (long n)
{
  return b (n + 1);
}

int
main (int argc, char **argv)
{
  long iters = argc > 1 ? atol (argv[1]) : 50;
  long r = 0;
  for (long i = 0; i < iters; i++)
    r += a (4000000);
  printf ("done %ld\n", r & 0);
  return 0;
}
