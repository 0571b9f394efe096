/* A hash of N bytes at P for in-memory lookups (never written, so its
   values may change between versions): eight bytes a step, the rest as
   one word (the last eight bytes, or the first and last four, or the few
   there are).  A multiply per byte was a tenth of a .ppd merge into an
   unchanged file (2,700 names); a .ppc call site's key is twenty bytes.  */
#ifndef PP_HASH_BYTES_H
#define PP_HASH_BYTES_H

#include <stdint.h>
#include <string.h>

static inline uint64_t
pp_hash_bytes (uint64_t h, const void *p, size_t n)
{
  const unsigned char *s = p;
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    {
      uint64_t w;
      memcpy (&w, s + i, 8);
      h = (h ^ w) * 0x9e3779b97f4a7c15ull;
      h ^= h >> 32;
    }
  if (i < n)
    {
      uint64_t w = 0;
      if (n >= 8)
        memcpy (&w, s + n - 8, 8);
      else if (n >= 4)
        {
          uint32_t a, b;
          memcpy (&a, s, 4);
          memcpy (&b, s + n - 4, 4);
          w = (uint64_t) a | (uint64_t) b << 32;
        }
      else
        for (size_t k = 0; k < n; k++)
          w = w << 8 | s[k];
      h = (h ^ w) * 0x9e3779b97f4a7c15ull;
      h ^= h >> 32;
    }
  return h;
}

#endif
