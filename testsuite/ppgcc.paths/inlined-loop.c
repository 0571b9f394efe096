/* A static inline function with a loop (bzip2's bsW), inlined at four
   consecutive call sites; GCC peels the copies and carries the counts
   from one copy to the next.  */
#include <stdio.h>

struct bits
{
  unsigned buf;
  int live, n, calls;
  unsigned char out[64];
};

static inline void
put (struct bits *s, int n, unsigned v)
{
  s->calls++;
  while (s->live >= 8)
    {
      s->out[s->n++] = (unsigned char) (s->buf >> 24);
      s->buf <<= 8;
      s->live -= 8;
    }
  s->buf |= v << (32 - s->live - n);
  s->live += n;
}

static void
header (struct bits *s, int level)
{
  s->live = 0;
  s->buf = 0;
  put (s, 8, 'B');
  put (s, 8, 'Z');
  put (s, 8, 'h');
  put (s, 8, '0' + level);
}

int
main (void)
{
  struct bits s = { 0 };
  unsigned sum = 0;
  for (int level = 1; level <= 3; level++)
    {
      s.n = 0;
      header (&s, level);
      for (int i = 0; i < s.n; i++)
        sum = sum * 31 + s.out[i];
    }
  printf ("%u %u %d\n", sum, s.buf, s.calls);
  return 0;
}
// The path register may hold the address of the path's counter
// (plugin/probes.cc): then the counters must not be marked as reached by no
// pointer, or GCC's alias analysis lets one copy's count overwrite
// another's (found on bzip2: one count lost per stream at -O2).
// expect-paths: put 3
// expect: put 9 16 17 19 20 21
// expect: put 9 17 23 24 25
// expect: put 3 16 17 23 24 25
// expect: main 6 47 48
