/* A caller that keeps values in call-clobbered registers across calls of
   a function GCC knows leaves them alone (-fipa-ra, on at -O2): a return
   through the sampler's trampoline must not change them (record.exp).  */
#include <stdio.h>
#include <stdlib.h>

__attribute__ ((noinline)) static unsigned
leaf (unsigned x)
{
  for (unsigned k = 0; k < 400; k++)
    x = x * 2654435761u + k;
  return x;
}

__attribute__ ((noinline)) static unsigned long
run (unsigned long n)
{
  unsigned a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8, i = 9,
           j = 10, k = 11, l = 12;
  for (unsigned long r = 0; r < n; r++)
    {
      a += leaf (a + r);
      b ^= a + c;
      c += b ^ d;
      d ^= c + e;
      e += d ^ f;
      f ^= e + g;
      g += f ^ h;
      h ^= g + i;
      i += h ^ j;
      j ^= i + k;
      k += j ^ l;
      l ^= k + a;
    }
  return (unsigned long) a + b + c + d + e + f + g + h + i + j + k + l;
}

int
main (int argc, char **argv)
{
  unsigned long n = argc > 1 ? strtoul (argv[1], 0, 10) : 3000000;
  printf ("%lu\n", run (n));
  return 0;
}
