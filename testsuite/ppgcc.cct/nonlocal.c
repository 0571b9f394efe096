/* Calls the inline callee slots must get right without any help from
   the runtime: a recursive chain through two functions (down and up:
   down's activations below up fold onto down's context, a back edge,
   and up's below the folded down are the tree child's again), a
   comparison function called by qsort (uninstrumented libc: its
   context is main's child, through main's slot for the qsort call), and
   a longjmp out of a recursion (dive's five activations end without a
   return, and main's next calls are main's children, not dive's).  The
   program prints how often qsort called cmp.  */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static jmp_buf env;
static int cmp_calls;
static volatile int sink;

__attribute__ ((noinline)) static int
cmp (const void *a, const void *b)
{
  cmp_calls++;
  int x = *(const int *) a, y = *(const int *) b;
  return (x > y) - (x < y);
}

__attribute__ ((noinline)) static void
dive (int n)
{
  if (n == 0)
    longjmp (env, 1);
  dive (n - 1);
  sink++;
}

__attribute__ ((noinline)) static void
after (void)
{
  sink += 2;
}

__attribute__ ((noinline)) static int up (int n);

__attribute__ ((noinline)) static int
down (int n)
{
  if (n <= 0)
    return 0;
  return 1 + up (n - 1);
}

__attribute__ ((noinline)) static int
up (int n)
{
  if (n <= 0)
    return 0;
  return 2 + down (n - 1);
}

int
main (void)
{
  int v[16];
  for (int i = 0; i < 16; i++)
    v[i] = (i * 7) % 16;
  qsort (v, 16, sizeof *v, cmp);
  for (volatile int k = 0; k < 3; k++)
    if (setjmp (env) == 0)
      dive (4);
    else
      after ();
  int r = down (6);
  printf ("%d %d %d %d\n", v[0], v[15], r, sink);
  printf ("cmp %d\n", cmp_calls);
  return 0;
}
