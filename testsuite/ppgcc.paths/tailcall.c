/* Paths that end in a tail call are counted before the call, which stays
   a jump (tailcall.exp checks the assembly): GCC's lowering sent every
   return through one block, the count went after the call, and no call
   in an instrumented function was a tail call any more.  walk is
   self-recursive at its end (-O2 makes that a loop); pick returns one
   call's value as it is and another's plus one (no tail call); show's
   return block ends its buffer's life (a clobber), and both its arms end
   in calls; finish exits the program inside a tail call of last, whose
   path is counted all the same.  */
#include <stdio.h>
#include <stdlib.h>

struct node
{
  struct node *left, *right;
  int value;
};

static long sum;

void
walk (struct node *n)
{
  if (n->left)
    walk (n->left);
  sum += n->value;
  if (n->right)
    walk (n->right);
}

__attribute__ ((noinline)) int
triple (int x)
{
  return x * 3;
}

__attribute__ ((noinline)) int
pick (int x)
{
  if (x > 10)
    return triple (x);
  if (x < 0)
    return triple (-x) + 1;
  return x;
}

/* buf's life ends at the return: the return block holds its clobber.  */
__attribute__ ((noinline)) int
show (int x)
{
  char buf[16];
  if (x > 5)
    {
      snprintf (buf, sizeof buf, "<%d>", x);
      return puts (buf);
    }
  return triple (x);
}

__attribute__ ((noinline)) int
finish (long t)
{
  printf ("%ld\n", t);
  if (t > 100)
    exit (0);
  return 1;
}

__attribute__ ((noinline)) int
last (long t)
{
  if (t > 0)
    return finish (t);
  return 0;
}

int
main (void)
{
  struct node n[7] = { { &n[1], &n[2], 4 }, { &n[3], &n[4], 2 },
                       { &n[5], &n[6], 6 }, { 0, 0, 1 },
                       { 0, 0, 3 },         { 0, 0, 5 },
                       { 0, 0, 7 } };
  walk (&n[0]);
  long t = sum;
  for (int i = -5; i < 20; i++)
    t += pick (i);
  t += show (3);
  show (7);
  last (-1);
  return last (t);
}
// walk: the three inner nodes take both branches, the four leaves
// neither.  pick: i from -5 to 19: 9 above 10, 5 below 0, 11 between.
// t = 28 + 3 * (11 + ... + 19) + 3 * 15 + 5 + (0 + ... + 10) + 9 = 547.
// last (547) ends in finish's exit: its path is counted.  (main's last
// path is not: n's end of life follows its call of last, no tail call.)
// expect: walk 3 24 25 26 27 28
// expect: walk 4 24 26 27 29
// expect: pick 9 40 41
// expect: pick 5 40 42 43
// expect: pick 11 40 42 44
// expect: show 1 52 54 55
// expect: show 1 52 57
// expect: last 1 72 73
// expect: last 1 72 74
