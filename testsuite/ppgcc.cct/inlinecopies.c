/* Bodies GCC inlines, whose counts the late lowering must keep exact:
   - twice, one function with calls inlined at two call sites of its
     caller (pair): both copies are one context, "inlined" under pair, and
     each copy's calls of tail are contexts of their own (four call
     statements, each called 50 times per 100 calls of pair);
   - a helper whose only calls are to small helpers that GCC's early
     inliner takes in whole (mix calls rot and rd): by the inliner's turn
     it calls nothing, is inlined into sum's loop, and counts flat, once,
     under the root (the leaves' rule), 1000 calls.  */
#include <stdio.h>

static volatile int sink;

__attribute__ ((noinline)) static int
tail (int x)
{
  sink++;
  return x * 3 + (x & 1);
}

static inline __attribute__ ((always_inline)) int
twice (int x)
{
  int s = 0;
  if (x & 2)
    s += tail (x);
  else
    s -= tail (x + 1);
  return s;
}

__attribute__ ((noinline)) static int
pair (int x)
{
  return twice (x) + twice (x + 7);
}

static inline unsigned
rot (unsigned v)
{
  return v << 5 | v >> 27;
}

static inline unsigned
rd (const unsigned char *p)
{
  return (unsigned) p[0] | (unsigned) p[1] << 8;
}

static unsigned
mix (const unsigned char *p)
{
  return rot (rd (p)) * 2654435761u;
}

__attribute__ ((noinline)) static unsigned
sum (const unsigned char *buf, int n)
{
  unsigned s = 0;
  for (int i = 0; i + 1 < n; i++)
    s += mix (buf + i);
  return s;
}

int
main (void)
{
  static unsigned char buf[1001];
  for (int i = 0; i < 1001; i++)
    buf[i] = (unsigned char) (i * 7);
  long t = 0;
  for (int i = 0; i < 100; i++)
    t += pair (i);
  printf ("%ld %u\n", t, sum (buf, 1001));
  return 0;
}
