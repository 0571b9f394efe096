/* Paths named by a -fprofile-paths-interesting spec.  f has six paths (a
   three-way choice on x % 3, then x > 100 or not); g has four, all on one
   source line, so that one `path lines` names all of them; h has 2^21,
   all on one line too.  Each argument of main is a number x: main runs f
   and g on it (h only when x is 7777777, never in these tests) and prints
   a checksum.  main is not instrumented, so that the paths of f, g and h
   are the only ones.  */
#include <stdio.h>
#include <stdlib.h>

static int
f (int x)
{
  int r = 0;
  if (x % 3 == 0)
    r += 1;
  else if (x % 3 == 1)
    r += 2;
  else
    r += 3;
  if (x > 100)
    r *= 5;
  return r;
}

static int
g (int x)
{
  return (x & 1 ? x * 3 : x + 7) + (x & 2 ? x * 5 : x - 1);
}

static int
h (int x)
{
#define T(b) (x >> b & 1 ? x * (b + 2) : x + b)
  return T (0) + T (1) + T (2) + T (3) + T (4) + T (5) + T (6) + T (7) + T (8) + T (9) + T (10) + T (11) + T (12) + T (13) + T (14) + T (15) + T (16) + T (17) + T (18) + T (19) + T (20);
#undef T
}

__attribute__ ((no_instrument_function)) int
main (int argc, char **argv)
{
  unsigned sum = 0;
  for (int i = 1; i < argc; i++)
    {
      int x = (int) strtol (argv[i], NULL, 10);
      sum = sum * 31u + (unsigned) f (x) + (unsigned) g (x);
      if (x == 7777777)
        sum += (unsigned) h (x);
    }
  printf ("%u\n", sum);
  return 0;
}
