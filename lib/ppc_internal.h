/* What the .ppc codec's three files share (ppc_read.c, ppc_write.c,
   ppc_merge.c): the format's fixed words (but PPC_MAGIC, which the
   runtime needs too: pp/ppc.h) and two helpers.  Not installed; in the
   runtime these names are __pp_ ones (runtime/lib_in_runtime.h).  */
#ifndef PP_PPC_INTERNAL_H
#define PP_PPC_INTERNAL_H

#include "pp/ppc.h"

#include "file_io.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Shared by the codec's files only: hidden in the runtime, renamed there
   (runtime/lib_in_runtime.h).  */
#ifndef PPC_INTERNAL
#define PPC_INTERNAL PPC_API
#endif

#define PPC_NONE "-"
#define PPC_UNAVAILABLE "unavailable"

/* A reason with a line number or a name, formatted into a static buffer
   that lives until the next call (the interface promises a reason the
   caller does not free).  ppc_read.c.  */
PPC_API const char *ppc_whyf (const char *fmt, ...)
    __attribute__ ((format (printf, 1, 2)));

/* N bytes at S as a double, '.' the radix whatever the locale: 0, or -1
   when they are not one.  ppc_read.c; the writer checks that what it
   writes reads back the same.  */
PPC_API int ppc_parse_double (const char *s, size_t n, double *out);


/* ------------------------------------------- writing: ppc_write.c */

typedef struct
{
  pp_buf b;
  unsigned long lines;
} ppc_out;

/* Fields are a few bytes and a profile has hundreds of thousands: the
   copy into room already there is inline, only growing calls out.  */
static inline __attribute__ ((always_inline)) void
ppc_put (ppc_out *o, const char *data, size_t n)
{
  if (o->b.cap - o->b.len >= n)
    {
      memcpy (o->b.buf + o->b.len, data, n);
      o->b.len += n;
    }
  else
    pp_buf_put (&o->b, data, n);
}

/* " V" at D, which has room for 21 bytes: the bytes written.  Two digits
   per division, the length from the highest bit: a profile's counts have
   six to ten digits, and its hundreds of thousands of fields were a
   tenth of the exit write one digit at a time (lua's cct profile: 6.1 M
   instructions a process counting the digits in two loops, about half
   that now).  The writer's ppc_put_u64 and the text merge's put_num.  */
static inline __attribute__ ((always_inline)) size_t
ppc_format_u64 (unsigned char *d, uint64_t v)
{
  static const char pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";
  static const uint64_t pow10[20] = {
    1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
    10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
    100000000000ull, 1000000000000ull, 10000000000000ull,
    100000000000000ull, 1000000000000000ull, 10000000000000000ull,
    100000000000000000ull, 1000000000000000000ull,
    10000000000000000000ull
  };
  d[0] = ' ';
  if (v < 10)
    {
      d[1] = (unsigned char) ('0' + v);
      return 2;
    }
  /* floor (log10 (v)) is bits * log10 (2) or one more.  */
  int bits = 64 - __builtin_clzll (v);
  int digits = (bits * 1233) >> 12;
  digits += v >= pow10[digits];
  int i = digits;
  for (; v >= 100; v /= 100, i -= 2)
    memcpy (d + i - 1, pairs + 2 * (v % 100), 2);
  if (v >= 10)
    memcpy (d + i - 1, pairs + 2 * v, 2);
  else
    d[i] = (unsigned char) ('0' + v);
  return (size_t) digits + 1;
}

PPC_INTERNAL void ppc_puts (ppc_out *o, const char *s);
PPC_INTERNAL void ppc_put_eol (ppc_out *o);
/* " N", " \"escaped\"": each field with the space before it.  */
PPC_INTERNAL void ppc_put_u64 (ppc_out *o, uint64_t v);
PPC_INTERNAL void ppc_put_str (ppc_out *o, const char *s, size_t n);
PPC_INTERNAL void ppc_put_cstr (ppc_out *o, const char *s);
/* Whole records, each with its end of line.  */
PPC_INTERNAL void ppc_put_metric (ppc_out *o, const ppc_metric *mt);
PPC_INTERNAL void ppc_put_fn (ppc_out *o, uint32_t index, const ppc_fn *fn);
PPC_INTERNAL void ppc_put_path (ppc_out *o, const ppc_path *pa, uint32_t nm);
PPC_INTERNAL void ppc_put_node (ppc_out *o, uint32_t index, uint32_t parent,
                                uint32_t fn, const ppc_node *nd, uint32_t nm);
PPC_INTERNAL void ppc_put_object (ppc_out *o, const ppc_object *ob);
PPC_INTERNAL int ppc_put_seal (ppc_out *o, char **buf, size_t *len);

/* ------------------------------------------- reading: ppc_read.c */

/* The end line at LAST of BUF (NLINES lines before it, format VERSION):
   0; -1 with *WHY; -2 when only the checksum is wrong.  */
PPC_INTERNAL int ppc_check_seal (const char *buf, size_t len, size_t last,
                                 unsigned long nlines, unsigned version,
                                 const char **why);

/* ------------------------------------------- merging: ppc_merge.c */

/* Metric A's description after adding B's runs (same name); A NULL: B's
   copy.  0, or -1 with *WHY.  */
PPC_INTERNAL int ppc_merge_metric (ppc_metric *res, const ppc_metric *a,
                                   const ppc_metric *b, const char **why);
PPC_INTERNAL void ppc_free_metric (ppc_metric *m);

#endif
