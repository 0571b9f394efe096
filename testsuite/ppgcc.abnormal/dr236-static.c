/* DR#236-style aliasing through a union: struct s1 and s2 are members
   of one union, which gcc -O2 sees once it inlines `store_load' into
   main, so it keeps the store before the load.  Here store_load is
   local: with -fprofile-paths-switch=entry main's copy calls its copy,
   which was never inlined (with strict aliasing the load went before the
   store: 1 instead of 2).  */
#include <stdio.h>

struct s1 { double d; };
struct s2 { double d; };
union u { struct s1 x; struct s2 y; };

static double
store_load (struct s1 *a, struct s2 *b)
{
  a->d = 1.0;
  return b->d + 1.0;
}

int
main (void)
{
  union u v;
  v.x.d = 0.0;
  double r = store_load (&v.x, &v.y);
  printf ("%g\n", r);
  return r != 2.0;
}
// expect-paths: store_load 1
// expect: store_load 1 16 17
// expect: main 1 24 25 26 27
