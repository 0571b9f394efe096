/* Counts add saturating at 2^64-1 (profiles never wrap, include/pp/ppd.h):
   one definition for the core library, the runtime and the tools.  Static
   inline, so the runtime gets no global symbol from it.  */
#ifndef PP_SAT_H
#define PP_SAT_H

#include <stdint.h>

static inline uint64_t
pp_add_sat (uint64_t a, uint64_t b)
{
  uint64_t s;
  return __builtin_add_overflow (a, b, &s) ? UINT64_MAX : s;
}

#endif
