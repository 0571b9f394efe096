/* Three paths through f, chosen by the argument's range: with the
   arguments 0 to 99 (the default), 90, 9 and 1 runs.  Each argument of
   main is "LO HI"-style: main runs f on LO..HI-1 and prints a checksum.
   main is not instrumented, so that f's paths are the only ones.  */
#include <stdio.h>
#include <stdlib.h>

static int
f (int i)
{
  int r = i;
  if (i < 90)
    r = r * 3;
  else if (i < 99)
    r = r + 7;
  else
    r = r - 1;
  return r;
}

__attribute__ ((no_instrument_function)) int
main (int argc, char **argv)
{
  int lo = argc > 1 ? (int) strtol (argv[1], NULL, 10) : 0;
  int hi = argc > 2 ? (int) strtol (argv[2], NULL, 10) : 100;
  unsigned sum = 0;
  for (int i = lo; i < hi; i++)
    sum = sum * 31u + (unsigned) f (i);
  printf ("%u\n", sum);
  return 0;
}
