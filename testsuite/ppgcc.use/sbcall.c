/* Superblocks and calls (sbcall.exp): the hot paths of step's loop run
   through two joins.  -fpath-superblock duplicates the first (no call)
   onto them; the second, the loop's latch, calls scale and stays one
   block, one call site of scale.  step_inline is step with an inline
   function in scale's place: its latch is duplicated too.  The joins are
   in a loop because outside loops a trace stops at the tail after its
   first copied join.  */
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

/* Stores in one arm of each condition: a join of register writes only
   would be a select (sbselect.exp).  */
static long quarters, others;

/* step and step_inline: the same body, calling CALLEE at the end.  */
#define STEP(name, callee)                                                    \
  __attribute__ ((noinline)) long name (int n)                                \
  {                                                                           \
    long s = 0;                                                               \
    for (int x = 0; x < n; x++)                                               \
      {                                                                       \
        int y;                                                                \
        if (x % 4 != 0)                                                       \
          y = x * 5;                                                          \
        else                                                                  \
          {                                                                   \
            y = x / 2;                                                        \
            quarters++;                                                       \
          }                                                                   \
        y += 7;                                                               \
        if (y % 3 == 0)                                                       \
          y -= 1;                                                             \
        else                                                                  \
          {                                                                   \
            y += 2;                                                           \
            others++;                                                         \
          }                                                                   \
        s += callee (y);                                                      \
      }                                                                       \
    return s;                                                                 \
  }

STEP (step, scale)
STEP (step_inline, scale_inline)

int
main (void)
{
  long s = step (100) + step_inline (100);
  printf ("%ld %ld %ld\n", s, quarters, others);
  return 0;
}
