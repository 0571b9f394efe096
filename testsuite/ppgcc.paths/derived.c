/* One-path local functions are counted from their callers' paths, without
   probes (plugin/derive.cc, lib/derive.c): a chain of them, two calls in
   one block, calls in a loop and in both arms of a branch.  `twice' has
   its address taken and `pub' is public: they keep their probes.  The
   counts are what probes count.  */
#include <stdio.h>

static int sq (int x) { return x * x; }
static int sq2 (int x) { return sq (x) + sq (x + 1); }
static int sq3 (int x) { return sq2 (x) - sq (x); }
static int twice (int x) { return 2 * x; }
static int (*volatile fp) (int) = twice;
static int never (int x) { return x + 7; }
int pub (int x) { return x + 1; }

static int
step (int i)
{
  if (i % 3 == 0)
    return sq3 (i);
  return sq (i) + pub (i) + (i > 100 ? never (i) : 0);
}

int
main (void)
{
  long s = 0;
  for (int i = 0; i < 10; i++)
    s += step (i) + fp (i);
  printf ("%ld\n", s);
  return 0;
}
// expect-paths: sq 1
// expect: sq 18 8
// expect: sq2 4 9
// expect: sq3 4 10
// expect: twice 10 11
// expect: pub 6 14
// expect-paths: never 0
