/* A leaf's metric is its own: outer calls the leaf spin (10 N steps in
   all, directly and through spin_out), then runs N steps of its own.
   With one metric, spin enters by its callee slot and keeps the share of
   outer's path before the call in a local, which its return gives back
   (rt_abi.h); outer's exclusive metric must be its own loop's, about a
   tenth of spin's, not spin's and its own together.  mix, a leaf that
   -O2 inlines into outer, keeps its context there (site "inlined").  */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned sink;

__attribute__ ((noinline)) static void
spin (long n)
{
  for (long i = 0; i < n; i++)
    sink = sink * 31 + (unsigned) i;
}

static inline unsigned
mix (unsigned x)
{
  return x * 2654435761u;
}

__attribute__ ((noinline)) static void
spin_out (long n)
{
  spin (n);
}

__attribute__ ((noinline)) void
outer (long n)
{
  spin (5 * n);
  spin_out (5 * n);
  for (long i = 0; i < n; i++)
    sink ^= (unsigned) i;
  sink ^= mix ((unsigned) n);
}

int
main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 200000;
  outer (n);
  printf ("%u\n", sink);
  return 0;
}
