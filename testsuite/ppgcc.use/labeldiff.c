/* A computed goto through a static table of label differences (the shape
   of GCC's torture test pr70460.c).  The training never jumps to `twice',
   so its block is cold; split from the rest, `&&once - &&twice' could not
   be assembled.  `scale' has a cold block too and is split as usual, and
   so is `table', whose static table holds label addresses, not their
   differences (the shape of lua's dispatch table).  */
#include <stdio.h>
#include <stdlib.h>

int total;

__attribute__ ((noinline)) static void
step (int k)
{
  static const int off[] = { &&once - &&twice, &&done - &&twice, 0 };
  goto *(&&twice + off[k]);
twice:
  total += 2;
once:
  total++;
done:
  ;
}

__attribute__ ((noinline)) static void
table (int k)
{
  static void *const go[] = { &&one, &&two, &&never };
  goto *go[k];
one:
  total += 3;
  return;
two:
  total += 5;
  return;
never:
  fprintf (stderr, "table: %d\n", k);
  exit (4);
}

__attribute__ ((noinline)) static int
scale (int x)
{
  if (x > 1000)
    {
      fprintf (stderr, "scale: %d is too large\n", x);
      exit (3);
    }
  return x * 2;
}

int
main (int argc, char **argv)
{
  (void) argv;
  /* argc is 1: k is 0 and 1 by turns, never 2.  */
  for (int i = 0; i < 30; i++)
    {
      step (i % 2 + (argc > 5));
      table (i % 2 + (argc > 5) * 2);
    }
  printf ("%d %d\n", total, scale (total));
  return 0;
}
