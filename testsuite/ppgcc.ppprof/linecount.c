/* ppprof annotate and lcov against gcov (annotate.exp, lcov.exp): the
   per-line counts derived from the paths must be those gcov reports.
   Loops, do-while, a loop and an if/else each on one line, && and ||,
   ?:, a function never called.  No line holds only a break, continue or
   goto: gcov counts such a line by the jump's location, which ppgcc's
   metadata does not record (tools/line_counts.c).  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node { int key; struct node *next; };

static int
gcd (int a, int b)
{
  while (b != 0)
    {
      int t = a % b;
      a = b;
      b = t;
    }
  return a;
}

static int
count_words (const char *s)
{
  int n = 0, in = 0;
  for (; *s; s++)
    if (*s == ' ' || *s == '\n')
      in = 0;
    else if (!in)
      {
        in = 1;
        n++;
      }
  return n;
}

static int
sign (int x)
{
  return x < 0 ? -1 : x > 0 ? 1 : 0;
}

static int
digits (unsigned x)
{
  int d = 0;
  do
    {
      d++;
      x /= 10;
    }
  while (x);
  return d;
}

static int
parity (int x)
{
  int r = 0;
  if (x & 1) r += 1; else r -= 1;
  return r;
}

static struct node *
push (struct node *head, int key)
{
  struct node *n = malloc (sizeof *n);
  if (!n)
    abort ();
  n->key = key;
  n->next = head;
  return n;
}

static int
sum_list (const struct node *p)
{
  int s = 0;
  while (p) { s += p->key; p = p->next; }
  return s;
}

static int
unused (int x)
{
  return x * 2;
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 10;
  int g = 0, w = 0, sg = 0, dg = 0, par = 0;
  struct node *list = NULL;
  for (int i = 1; i <= n; i++)
    {
      g += gcd (i * 12, 18);
      sg += sign (i - n / 2);
      dg += digits ((unsigned) i * 37);
      par += parity (i);
      if (i % 3 == 0 && i % 5 != 0)
        list = push (list, i);
      else if (i % 7 == 0 || i == 1)
        list = push (list, -i);
    }
  w = count_words ("the quick  brown fox\njumps over the lazy dog");
  for (int j = 0; j < 2; j++) w += strlen (argv[0]) > 0;
  if (n < 0)
    w = unused (w);
  printf ("%d %d %d %d %d %d %d\n", g, w, sg, dg, par, sum_list (list), n);
  while (list)
    {
      struct node *next = list->next;
      free (list);
      list = next;
    }
  return 0;
}
