/* C99 inline: step has no external definition anywhere, so the program
   links only because gcc -O2 inlines every call (it does not link at
   -O0).  Instrumenting step's body made it too big to inline at the call
   outside the loop: undefined reference to `step'.  */
// opts: -O2 -O3
#include <stdio.h>

int bias;

inline int
step (int x)
{
  int r = x;
  if (r & 1)
    r = r * 3 + bias;
  else
    r ^= 7;
  return r;
}

int
main (void)
{
  int s = 0;
  for (int i = 0; i < 10; i++)
    s += step (i);
  s += step (s);
  printf ("sum %d\n", s);
  return 0;
}
// main: the entry to the loop test, 9 more iterations, the exit; step is
// not instrumented (its body is only there to be inlined).
// expect-paths: main 3
// expect: main 1 24 25 26
// expect: main 9 25 26
// expect: main 1 25 27 28 29
// expect-paths: step 0
