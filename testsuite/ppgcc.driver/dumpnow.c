/* ppgcc.h (driver.exp): the profile written by PPGCC_DUMP before _exit,
   which skips the exit's own write; without the runtime (plain gcc) the
   macro does nothing.  twice runs 5 times: 3 times x > 2.  */
#include <ppgcc.h>
#include <stdio.h>
#include <unistd.h>

static __attribute__ ((noinline)) int
twice (int x)
{
  if (x > 2)
    return 2 * x;
  return x;
}

int
main (void)
{
  int s = 0;
  for (int i = 1; i <= 5; i++)
    s += twice (i);
  printf ("%d\n", s);
  fflush (stdout);
  PPGCC_DUMP ();
  _exit (0);
}
