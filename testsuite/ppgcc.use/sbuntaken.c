/* A join outside loops whose other entrance never ran in training
   (sbuntaken.exp), the shape of sqlite3VdbeIdxRowid's checks: scale's
   `k < 0` arm never runs, so every execution of the join after it comes
   from the hot path.  A copy of that join removes only an entrance the
   profile never took; in sqlite3 five such copies kept
   sqlite3VdbeIdxRowid from being inlined (0.7 M instructions).  */
#include <stdio.h>

static int __attribute__ ((noinline))
scale (int x, int k)
{
  int r = x * k;
  if (k < 0)
    r = -r;
  if (r > 1000)
    r -= 1000;
  else
    r += 3;
  return r;
}

int
main (int argc, char **argv)
{
  (void) argv;
  long sum = 0;
  for (int i = 0; i < 3000; i++)
    sum += scale (i % 700, argc + (i % 3));
  printf ("%ld\n", sum);
  return 0;
}
