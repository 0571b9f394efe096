/* Two inlined calls of a small helper in one loop, one with constant
   arguments GCC folds to a single path.  With the path register holding a
   counter's address, GCC's alias analysis once let loop store motion keep
   the folded copy's counter in a register while the other copy counted
   into it through memory: half the helper's calls were lost at -O1 and
   above (difftest's comparison with gcov's calls catches that).  */
#include <stdint.h>
#include <stdio.h>

static int64_t
checked_div (int64_t a, int64_t b)
{
  return (b == 0 || (a == INT64_MIN && b == -1)) ? a : a / b;
}

static int32_t
checked_mod (int32_t a, int32_t b)
{
  return b == 0 ? a : a % b;
}

int64_t num = 91, den = 7, total;
int32_t small = 23;
int rounds = 5;

__attribute__ ((noinline)) static void
accumulate (void)
{
  for (int i = 0; i < rounds; i++)
    {
      total += checked_div (num, den);
      total += checked_div (100, 4);
    }
}

__attribute__ ((noinline)) static void
remainders (void)
{
  for (int i = 0; i < rounds; i++)
    {
      total += checked_mod (small, 5);
      total += checked_mod (17, 5);
    }
}

int
main (void)
{
  accumulate ();
  remainders ();
  accumulate ();
  printf ("%lld\n", (long long) total);
  return 0;
}
