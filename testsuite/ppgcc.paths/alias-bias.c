/* Two inlined copies of a safe-division helper in one loop, one of them
   folded to its constant path.  The path register holds the address of
   the counter; on the helper's paths it lay below the counter array
   before the path end added its offset, and GCC's alias oracle, which
   takes a pointer never to point below its object, let loop store motion
   keep the folded copy's counter in a register across the loop: 3 of 6
   counted at -O1 and above (found by csmith).  */
#include <stdint.h>
#include <stdio.h>

static int64_t
sdiv (int64_t a, int64_t b)
{
  return ((b == 0) || ((a == INT64_MIN) && (b == -1))) ? a : (a / b);
}

int64_t x = 7, y = 2, out;
int n = 3;

__attribute__ ((noinline)) void
f (void)
{
  for (int i = 0; i < n; i++)
    {
      out += sdiv (x, y);
      out += sdiv (10, 5);
    }
}

int
main (void)
{
  f ();
  printf ("%ld\n", (long) out);
  return 0;
}
// expect-paths: sdiv 1
// expect: sdiv 6 14
