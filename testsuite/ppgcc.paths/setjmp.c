/* setjmp/longjmp: the receiver restarts paths; results stay right.  */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;

static void
fail_if (int x)
{
  if (x % 3 == 0)
    longjmp (env, x + 1);
}

int
main (void)
{
  int caught = 0, ok = 0;
  for (volatile int i = 0; i < 9; i++)
    {
      int r = setjmp (env);
      if (r)
        {
          caught += r;
          continue;
        }
      fail_if (i);
      ok++;
    }
  printf ("caught %d ok %d\n", caught, ok);
  return 0;
}
// fail_if (0, 3, 6) longjmps: the path ends before the noreturn call.
// expect-paths: fail_if 2
// expect: fail_if 6 10 12
// expect: fail_if 3 10 11
