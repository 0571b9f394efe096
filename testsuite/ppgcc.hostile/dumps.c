/* dumps N: N calls of __pp_dump, each after some work, then more work
   before exit.  The run counts once in the profile however many times it
   dumps; every call of work is in it once.  */
#include <stdio.h>
#include <stdlib.h>

void __pp_dump (void) __attribute__ ((weak));

static volatile int sink;

__attribute__ ((noinline)) static void
work (void)
{
  sink++;
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 0;
  for (int k = 0; k < n; k++)
    {
      work ();
      if (__pp_dump)
        __pp_dump ();
    }
  work ();
  printf ("sink %d\n", sink);
  return 0;
}
