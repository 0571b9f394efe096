/* A static function that -O2 inlines at its five call sites: with its
   probes, GCC's inliner would weigh it too big for them (its early and
   IPA limits on a function not declared inline), had the probes' size
   not been taken out of GCC's summaries (plugin/inline-size.cc).
   inlinesize.exp checks the calls in the assembly; here, the counts of
   its paths, which inlined copies count as the function would.  */
#include <stdio.h>

static int
classify (int x, int y)
{
  if (x < 10)
    return y * 3 + x;
  if (x < 40)
    return y * 4 + x;
  if (x < 90)
    return y * 5 + x;
  if (x < 160)
    return y * 6 + x;
  if (x < 250)
    return y * 7 + x;
  if (x < 360)
    return y * 8 + x;
  return 3;
}

__attribute__ ((noinline)) int
f (int a, int b)
{
  return classify (a, b) + classify (b, a);
}

__attribute__ ((noinline)) int
g (int a, int b)
{
  return classify (a + 1, b) * classify (b, a + 1);
}

__attribute__ ((noinline)) int
h (int a)
{
  return classify (a, 7);
}

int
main (void)
{
  long s = 0;
  for (int i = 0; i < 400; i += 7)
    s += f (i, 400 - i) + g (i, i / 2) + h (i);
  printf ("%ld\n", s);
  return 0;
}
// classify sees i (f's a, h's a), 400 - i, i + 1 and i / 2 for the 58
// values of i: 290 calls, by the first bound x is under.
// expect-paths: classify 7
// expect: classify 11 12 13
// expect: classify 25 12 14 15
// expect: classify 42 12 14 16 17
// expect: classify 60 12 14 16 18 19
// expect: classify 64 12 14 16 18 20 21
// expect: classify 64 12 14 16 18 20 22 23
// expect: classify 24 12 14 16 18 20 22 24
