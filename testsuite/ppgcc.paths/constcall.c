/* A branch on what a local function returns, when that function does
   nothing but return a constant, is folded before the CFG is numbered
   (plugin/const-branch.cc): swap_if_big, to_le and width_class have one
   path and are counted from their callers' paths.  side_effect's callee
   does more than return its constant and interposable's is public (a
   shared object's may take its place): they keep both paths.
   constcall.exp checks which functions have how many paths; here, the
   counts, which are what probes on the branches count.  */
#include <stdio.h>

static unsigned little_endian (void) { return 1; }
static unsigned word_bits (void) { return sizeof (long) * 8; }
static int calls;
static unsigned counted (void) { calls++; return 1; }
unsigned public_one (void) { return 1; }
static unsigned (*volatile fp) (void) = little_endian;

static unsigned
swap_if_big (unsigned x)
{
  if (little_endian ())
    return x;
  return __builtin_bswap32 (x);
}

static unsigned
to_le (unsigned x)
{
  unsigned le = little_endian ();
  if ((unsigned char) le != 0)
    return x;
  return __builtin_bswap32 (x);
}

static int
width_class (int x)
{
  if (word_bits () == 64)
    return x & 63;
  if (word_bits () == 32)
    return x & 31;
  return x & 15;
}

static int
side_effect (int x)
{
  if (counted ())
    return x + 1;
  return x;
}

static int
interposable (int x)
{
  if (public_one ())
    return x + 2;
  return x;
}

int
main (void)
{
  long s = 0;
  for (int i = 0; i < 40; i++)
    {
      s += swap_if_big (i) + to_le (i) + width_class (i);
      s += side_effect (i) + interposable (i);
      if (i % 4 == 0 && fp ())
        s++;
    }
  printf ("%ld %d\n", s, calls);
  return 0;
}
// little_endian also runs through a pointer (its address is taken: it
// keeps its probe), 10 times, beside its 80 direct calls.
// expect: swap_if_big 40 21 22
// expect: to_le 40 29 30 31
// expect: width_class 40 38 39
// expect: side_effect 40 48 49
// expect: interposable 40 56 57
// expect: little_endian 90 11
// expect: counted 40 14
// expect-paths: side_effect 1
// expect-paths: interposable 1
