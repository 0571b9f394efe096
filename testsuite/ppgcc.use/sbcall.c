/* Superblocks and calls (sbcall.exp): step's hot paths run through two
   joins.  -fpath-superblock duplicates the first (no call) onto them; the
   second calls scale and stays one block, one call site of scale.
   step_inline is step with an inline function in scale's place: its
   second join is duplicated too.  */
#include <stdio.h>

static __attribute__ ((noinline)) int
scale (int v)
{
  return v * 3 + 1;
}

static inline int
scale_inline (int v)
{
  return v * 3 + 1;
}

/* step and step_inline: the same body, calling CALLEE at the end.  */
#define STEP(name, callee)                                                    \
  __attribute__ ((noinline)) int name (int x)                                 \
  {                                                                           \
    int y;                                                                    \
    if (x % 4 != 0)                                                           \
      y = x * 5;                                                              \
    else                                                                      \
      y = x / 2;                                                              \
    y += 7;                                                                   \
    if (y % 3 == 0)                                                           \
      y -= 1;                                                                 \
    else                                                                      \
      y += 2;                                                                 \
    y = callee (y);                                                           \
    return y;                                                                 \
  }

STEP (step, scale)
STEP (step_inline, scale_inline)

int
main (void)
{
  long s = 0;
  for (int i = 0; i < 100; i++)
    s += step (i) + step_inline (i);
  printf ("%ld\n", s);
  return 0;
}
