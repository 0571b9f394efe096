/* longjmp out of a deep recursion: rec descends DEPTH levels, spins at
   the bottom, and jumps back to main; main then spins in after.  The
   samples at the bottom are under main -> rec x (DEPTH + 1) -> spin,
   those after the jump under main -> after -> spin, never a mix (the
   cached call stack of the sampler describes frames the jump removed).
   Equal work in both.  */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

volatile unsigned long sink;
static jmp_buf back;
static long work = 2000000;

__attribute__ ((noipa)) void
spin (long n)
{
  unsigned long x = sink;
  for (long i = 0; i < n; i++)
    x = x * 6364136223846793005ul + 1442695040888963407ul;
  sink = x;
}

__attribute__ ((noipa)) void
rec (int n)
{
  if (n == 0)
    {
      spin (work);
      longjmp (back, 1);
    }
  rec (n - 1);
  sink++;
}

__attribute__ ((noipa)) void
after (void)
{
  spin (work);
  sink++;
}

int
main (int argc, char **argv)
{
  int depth = 200;
  long iters = argc > 1 ? atol (argv[1]) : 100;
  for (long i = 0; i < iters; i++)
    {
      if (!setjmp (back))
        rec (depth);
      after ();
    }
  printf ("done\n");
  return 0;
}
