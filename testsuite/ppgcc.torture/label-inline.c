/* An inline function that stores the address of one of its labels,
   inlined into two callers: each inlined copy has its own label, so the
   two addresses differ when GCC optimises.  GCC inlines such a function
   as a matter of quality of implementation; probes once kept it out of
   line (context probes under -fprofile-paths=cct at -O1 and above, a
   flag test at each path end with -fprofile-paths-switch at -Os), and
   the addresses were equal.  */
#include <stdio.h>
#include <stdlib.h>

static void *seen_by_left, *seen_by_right;
static volatile int enabled = 1;

static inline void
remember (void **slot, int cond)
{
  if (cond)
    {
    spot:
      *slot = &&spot;
    }
}

__attribute__ ((noinline)) static void
left (int cond)
{
  remember (&seen_by_left, cond);
}

__attribute__ ((noinline)) static void
right (int cond)
{
  remember (&seen_by_right, cond);
}

int
main (void)
{
  left (enabled);
  right (enabled);
#ifdef __OPTIMIZE__
  if (seen_by_left == seen_by_right)
    abort ();
#endif
  puts (seen_by_left && seen_by_right ? "both set" : "unset");
  return 0;
}
