/* When a path counts if the flag changes inside a call.  loop (10, 4, 0)
   runs with profiling on and turns it off in its fifth iteration; loop
   (10, 6, 1), entered while off, turns it on in its seventh.  leaf's
   activations lie wholly before or after a change: it is counted for
   i = 0..3 and i = 6..9 (four odd, four even) whatever the design.
   loop's own paths show the designs' semantics: =entry counts the 11 path
   executions of the call entered while on and none of the other; =check
   counts the paths ending while on: 4 + 5.  */
#include <stdio.h>

void __pp_profile_on (void) __attribute__ ((weak));
void __pp_profile_off (void) __attribute__ ((weak));

__attribute__ ((noinline)) int
leaf (int x)
{
  return x & 1 ? x * 3 : x / 2;
}

__attribute__ ((noinline)) long
loop (int n, int flip_at, int to_on)
{
  long s = 0;
  for (int i = 0; i < n; i++)
    {
      if (i == flip_at && to_on && __pp_profile_on)
        __pp_profile_on ();
      else if (i == flip_at && !to_on && __pp_profile_off)
        __pp_profile_off ();
      s += leaf (i);
    }
  return s;
}

int
main (void)
{
  long t = loop (10, 4, 0);
  t += loop (10, 6, 1);
  printf ("%ld\n", t);
  return 0;
}
