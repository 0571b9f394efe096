/* Skipping the zeros of a counter array at dump time.  */
#ifndef PPRT_NEXT_NONZERO_H
#define PPRT_NEXT_NONZERO_H

#include <stdint.h>

/* The first nonzero counter of C[I..N), or N.  Arrays are mostly zeros
   (2^18 counters for a function cut at -fprofile-paths-max, of which a run
   touches a few hundred; a hash cache's 4096 slots): 16 counters are
   OR'ed together in vectors and skipped at once, about 1.2 instructions a
   counter where a test and a branch for each cost 7 (pcre2's
   exit).  Plain reads: a count another thread adds meanwhile is left for
   the next dump.  */
typedef uint64_t pprt_v2u64
    __attribute__ ((vector_size (16), aligned (8), may_alias));

static inline uint64_t
pprt_next_nonzero (const uint64_t *c, uint64_t i, uint64_t n)
{
  while (i + 16 <= n)
    {
      const pprt_v2u64 *v = (const pprt_v2u64 *) (c + i);
      pprt_v2u64 any = (v[0] | v[1]) | (v[2] | v[3]) | (v[4] | v[5])
                       | (v[6] | v[7]);
      if (any[0] | any[1])
        break;
      i += 16;
    }
  while (i < n && !c[i])
    i++;
  return i;
}

#endif
