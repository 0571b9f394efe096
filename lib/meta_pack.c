/* Packed function metadata (include/pp/meta_pack.h).

   Every instrumented function carries its CFG in the graph language for
   ppprof and -fuse-path-profile; as text it was most of the growth of an
   instrumented binary (zstd: 1.15 MB of 2.06 MB).  The text is
   very repetitive ("node bb12 line 200 200"), so a plain LZ77 with
   byte-aligned tokens packs it several times; the runtime copies the
   packed bytes into profiles as they are, and readers unpack.

   Stream after the header (PP_META_PACK_MAGIC, u32 LE unpacked length):
     0x00-0x7f  literal run: (byte + 1) bytes follow as they are
     0x80-0xff  match: length (byte & 0x7f) + MIN_MATCH, then a u16 LE
                distance 1..65535 back into what was unpacked so far  */
#include "pp/meta_pack.h"

#include <stdlib.h>
#include <string.h>

#define HEADER 7      /* magic (3) + unpacked length (4) */
#define MIN_MATCH 4
#define MAX_MATCH (0x7f + MIN_MATCH)
#define MAX_LITERALS 128
#define MAX_DISTANCE 65535
#define HASH_BITS 14

static uint32_t
hash4 (const unsigned char *p)
{
  uint32_t v;
  memcpy (&v, p, 4);
  return (v * 2654435761u) >> (32 - HASH_BITS);
}

static void
put_u32 (unsigned char *at, uint32_t v)
{
  for (int i = 0; i < 4; i++)
    at[i] = (unsigned char) (v >> (8 * i));
}

/* Flushes the pending literals [LIT, END) to OUT; returns the new end.  */
static unsigned char *
flush_literals (unsigned char *out, const unsigned char *lit,
                const unsigned char *end)
{
  while (lit < end)
    {
      size_t n = (size_t) (end - lit);
      if (n > MAX_LITERALS)
        n = MAX_LITERALS;
      *out++ = (unsigned char) (n - 1);
      memcpy (out, lit, n);
      out += n;
      lit += n;
    }
  return out;
}

int
pp_meta_pack (const char *text, size_t len, char **out, size_t *out_len)
{
  if (len > UINT32_MAX)
    return -1;
  /* Worst case: all literals, one control byte per 128.  */
  size_t cap = HEADER + len + len / MAX_LITERALS + 2;
  unsigned char *buf = malloc (cap);
  uint32_t *last = calloc ((size_t) 1 << HASH_BITS, sizeof *last);
  if (!buf || !last)
    {
      free (buf);
      free (last);
      return -1;
    }
  memcpy (buf, PP_META_PACK_MAGIC, 3);
  put_u32 (buf + 3, (uint32_t) len);
  unsigned char *o = buf + HEADER;
  const unsigned char *in = (const unsigned char *) text;
  const unsigned char *lit = in;
  size_t i = 0;
  /* Greedy: the last position with the same 4 bytes, if close enough.
     Positions are stored + 1 (0: none).  */
  while (i + MIN_MATCH <= len)
    {
      uint32_t h = hash4 (in + i);
      size_t cand = last[h];
      last[h] = (uint32_t) (i + 1);
      if (cand && i - (cand - 1) <= MAX_DISTANCE
          && memcmp (in + cand - 1, in + i, MIN_MATCH) == 0)
        {
          size_t from = cand - 1, n = MIN_MATCH;
          while (n < MAX_MATCH && i + n < len && in[from + n] == in[i + n])
            n++;
          o = flush_literals (o, lit, in + i);
          size_t dist = i - from;
          *o++ = (unsigned char) (0x80 | (n - MIN_MATCH));
          *o++ = (unsigned char) dist;
          *o++ = (unsigned char) (dist >> 8);
          /* Later matches may start inside this one.  */
          for (size_t k = i + 1; k < i + n && k + MIN_MATCH <= len; k++)
            last[hash4 (in + k)] = (uint32_t) (k + 1);
          i += n;
          lit = in + i;
        }
      else
        i++;
    }
  o = flush_literals (o, lit, in + len);
  free (last);
  *out = (char *) buf;
  *out_len = (size_t) (o - buf);
  return 0;
}

int
pp_meta_is_packed (const char *meta, size_t len)
{
  return len >= HEADER && memcmp (meta, PP_META_PACK_MAGIC, 3) == 0;
}

char *
pp_meta_unpack (const char *packed, size_t len, size_t *out_len)
{
  if (!pp_meta_is_packed (packed, len))
    return NULL;
  const unsigned char *p = (const unsigned char *) packed;
  const unsigned char *end = p + len;
  size_t n = 0;
  for (int i = 0; i < 4; i++)
    n |= (size_t) p[3 + i] << (8 * i);
  char *out = malloc (n + 1);
  if (!out)
    return NULL;
  size_t k = 0;
  for (p += HEADER; p < end;)
    {
      unsigned c = *p++;
      if (c < 0x80)
        {
          size_t run = c + 1;
          if (run > (size_t) (end - p) || run > n - k)
            goto bad;
          memcpy (out + k, p, run);
          p += run;
          k += run;
          continue;
        }
      if (end - p < 2)
        goto bad;
      size_t m = (c & 0x7f) + MIN_MATCH;
      size_t dist = p[0] | (size_t) p[1] << 8;
      p += 2;
      if (dist == 0 || dist > k || m > n - k)
        goto bad;
      for (size_t j = 0; j < m; j++, k++) /* may overlap itself */
        out[k] = out[k - dist];
    }
  if (k != n)
    goto bad;
  out[n] = '\0';
  *out_len = n;
  return out;
bad:
  free (out);
  return NULL;
}

/* A packed field replaced by its text (meta_pack.h).  */
int
pp_meta_unpack_field (char **meta, uint32_t *len)
{
  if (!pp_meta_is_packed (*meta, *len))
    return 0;
  size_t n;
  char *text = pp_meta_unpack (*meta, *len, &n);
  if (!text || n > UINT32_MAX)
    {
      free (text);
      return -1;
    }
  free (*meta);
  *meta = text;
  *len = (uint32_t) n;
  return 0;
}
