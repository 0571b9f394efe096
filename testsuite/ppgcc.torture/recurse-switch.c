/* Mutual recursion through a switch with fall-through, a static helper
   that returns a struct, and a noreturn path: each function's calls are
   what gcov counts, in every mode and at every -O.  */
#include <stdio.h>
#include <stdlib.h>

struct pair
{
  long lo, hi;
};

static struct pair
split (long v)
{
  struct pair p = { v & 0xff, v >> 8 };
  return p;
}

static long odd_walk (long n);

static long
even_walk (long n)
{
  switch (n % 4)
    {
    case 0:
      n += 3;
      /* fall through */
    case 2:
      n -= 1;
      break;
    default:
      return n <= 1 ? n : odd_walk (n - 1);
    }
  return n <= 1 ? n : odd_walk (n - 2);
}

static long
odd_walk (long n)
{
  if (n <= 1)
    return 1;
  struct pair p = split (n * 37);
  return even_walk (n - 1) + (p.lo & 1);
}

__attribute__ ((noreturn, noinline)) static void
give_up (long v)
{
  printf ("giving up at %ld\n", v);
  exit (0);
}

int
main (void)
{
  long sum = 0;
  for (long i = 0; i < 40; i++)
    sum += even_walk (i) + odd_walk (i);
  printf ("%ld\n", sum);
  if (sum > 0)
    give_up (sum);
  return 1;
}
