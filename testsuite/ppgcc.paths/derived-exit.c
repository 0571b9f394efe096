/* What a derived count counts (plugin/derive.cc): a one-path local
   function's calls on its callers' finished paths.  quit_if, not declared
   noreturn, ends the program in main's fourth iteration, so that
   iteration's path of main never finishes: helper ran 4 times, and 3 are
   counted, as main's path through its call is counted 3 times.  */
#include <stdio.h>
#include <stdlib.h>

static int helper (int x) { return x + 1; }

void
quit_if (int c)
{
  if (c)
    {
      fflush (stdout);
      exit (0);
    }
}

int
main (void)
{
  int s = 0;
  for (int i = 0; i < 5; i++)
    {
      s += helper (i);
      printf ("%d\n", s);
      quit_if (i == 3);
    }
  return 0;
}
// expect: helper 3 9
// expect: quit_if 3 14 19
// expect: quit_if 1 14 16 17
