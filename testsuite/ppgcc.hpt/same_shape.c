/* Many functions of one shape, as csmith's safe math helpers
   (safe_add_func_uint32_t_u_u, safe_sub_func_uint16_t_u_u, ...): the
   same CFG, so the same CFG checksum, metadata length and path count,
   told apart only by their names.  Each has 4 Ball-Larus paths (two
   diamonds) and all of them run, NFN * 4 distinct paths in all: 256,
   an eighth of the Hot Path Table's 512x4 entries.  */
#include <stdio.h>
#include <stdlib.h>

#define SHAPE(name, k)                                                 \
  __attribute__ ((noinline)) static unsigned name (unsigned a,         \
                                                   unsigned b)         \
  {                                                                    \
    unsigned r = a;                                                    \
    if (a & 1)                                                         \
      r += b * (k);                                                    \
    else                                                               \
      r -= b ^ (k);                                                    \
    if (a & 2)                                                         \
      r ^= r >> ((k) % 7 + 1);                                           \
    else                                                               \
      r *= (k) | 1;                                                    \
    return r;                                                          \
  }

#define SIGNS(op, t, k)                                                \
  SHAPE (safe_##op##_func_##t##_s_s, k)                                \
  SHAPE (safe_##op##_func_##t##_u_u, k + 1)
#define TYPES(op, k)                                                   \
  SIGNS (op, int8_t, k) SIGNS (op, int16_t, k + 2)                     \
  SIGNS (op, int32_t, k + 4) SIGNS (op, int64_t, k + 6)                \
  SIGNS (op, uint8_t, k + 8) SIGNS (op, uint16_t, k + 10)              \
  SIGNS (op, uint32_t, k + 12) SIGNS (op, uint64_t, k + 14)
TYPES (add, 3)
TYPES (sub, 19)
TYPES (mul, 35)
TYPES (div, 51)

#define CALL_SIGNS(op, t) safe_##op##_func_##t##_s_s, safe_##op##_func_##t##_u_u,
#define CALL_TYPES(op)                                                 \
  CALL_SIGNS (op, int8_t) CALL_SIGNS (op, int16_t)                     \
  CALL_SIGNS (op, int32_t) CALL_SIGNS (op, int64_t)                    \
  CALL_SIGNS (op, uint8_t) CALL_SIGNS (op, uint16_t)                   \
  CALL_SIGNS (op, uint32_t) CALL_SIGNS (op, uint64_t)

static unsigned (*const fns[]) (unsigned, unsigned)
    = { CALL_TYPES (add) CALL_TYPES (sub) CALL_TYPES (mul) CALL_TYPES (div) };
#define NFN (sizeof fns / sizeof fns[0])

int
main (void)
{
  unsigned sum = 0;
  /* Every function, each of its 4 paths (a mod 4) 3 times.  */
  for (unsigned i = 0; i < 3 * 4 * NFN; i++)
    sum += fns[i % NFN] (i / NFN, i);
  printf ("%zu functions, %u\n", NFN, sum);
  return 0;
}
