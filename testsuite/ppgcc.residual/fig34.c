/* The DAG of Fig 3.4 of the PPP thesis (Vaswani, §3.2.3) as a C function:
   entry s, exit t, edges s->a, s->b, a->c, a->b, b->c, c->d, c->t, d->t,
   so five paths: sacdt, sact, sbct, sabct, sbcdt.  Each block is on a line
   of its own, marked with its letter; residual.exp finds the lines by
   those marks.  Each argument is a path, spelt in letters ("sabct"):
   main runs fig34 once per argument along that path and prints a
   checksum.  */
#include <stdio.h>
#include <string.h>

static int
fig34 (int a, int b, int d)
{
  int r = 1; if (!a) goto B;            /* s */
  r = r * 3; if (!b) goto C;            /* a */
B: r = r + 5;                           /* b */
C: r = r * 7; if (!d) goto T;           /* c */
  r = r - 11;                           /* d */
T: return r;                            /* t */
}

int
main (int argc, char **argv)
{
  unsigned sum = 0;
  for (int i = 1; i < argc; i++)
    sum = sum * 31 + (unsigned) fig34 (strchr (argv[i], 'a') != NULL,
                                       strchr (argv[i], 'b') != NULL,
                                       strchr (argv[i], 'd') != NULL);
  printf ("%u\n", sum);
  return 0;
}
