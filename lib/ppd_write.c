/* The .ppd codec, writing (format in include/pp/ppd.h): a profile
   encoded into a checksummed image, and written to a file atomically.
   The words and the seal here serve merging into an encoded profile too
   (ppd_merge.c).  Linked into the core library as is; the runtime
   compiles this file as its own object, under __pp_ names with hidden
   visibility (runtime/lib_in_runtime.h).  */
#include "ppd_internal.h"
#include "file_io.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

PPD_INTERNAL void
ppd_put (ppd_out *o, const void *data, size_t n)
{
  pp_buf_put (o, data, n);
}

PPD_INTERNAL void
ppd_put_u32 (ppd_out *o, uint32_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap32 (v);
#endif
  if (o->cap - o->len >= 4) /* in place, as ppd_put_u64 */
    {
      memcpy (o->buf + o->len, &v, 4);
      o->len += 4;
    }
  else
    ppd_put (o, &v, 4);
}

PPD_INTERNAL void
ppd_put_u64 (ppd_out *o, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap64 (v);
#endif
  /* In place when there is room: a profile's pairs are most of its
     words, and each went through pp_buf_put and a memcpy call.  */
  if (o->cap - o->len >= 8)
    {
      memcpy (o->buf + o->len, &v, 8);
      o->len += 8;
    }
  else
    ppd_put (o, &v, 8);
}

PPD_INTERNAL void
ppd_put_str (ppd_out *o, const char *s, uint32_t n)
{
  ppd_put_u32 (o, n);
  ppd_put (o, s, n);
}

PPD_INTERNAL void
ppd_put_progs (ppd_out *o, const ppd_prog *progs, uint32_t n)
{
  ppd_put_u32 (o, n);
  for (uint32_t i = 0; i < n; i++)
    {
      ppd_put_str (o, progs[i].name, (uint32_t) strlen (progs[i].name));
      ppd_put_u64 (o, progs[i].runs);
    }
}

/* The payload's length and checksum into the header of O's image.  */
PPD_INTERNAL void
ppd_seal (ppd_out *o)
{
  uint64_t payload = o->len - PPD_HEADER_SIZE;
  uint64_t sum = pp_sum64_lanes (o->buf + PPD_HEADER_SIZE, payload);
  for (int i = 0; i < 8; i++)
    {
      o->buf[8 + i] = (unsigned char) (payload >> (8 * i));
      o->buf[16 + i] = (unsigned char) (sum >> (8 * i));
    }
}

PPD_API int
ppd_encode (const ppd_profile *p, unsigned char **buf, size_t *len)
{
  ppd_out o = { NULL, 0, 0, 0 };
  ppd_put (&o, PPD_MAGIC, 4);
  ppd_put_u32 (&o, PPD_VERSION);
  ppd_put_u64 (&o, 0); /* length, patched below */
  ppd_put_u64 (&o, 0); /* checksum, patched below */
  ppd_put_u64 (&o, p->runs);
  ppd_put_u64 (&o, p->sum_max);
  ppd_put_str (&o, p->source ? p->source : "",
               p->source ? (uint32_t) strlen (p->source) : 0);
  ppd_put_u32 (&o, p->nfns);
  for (uint32_t f = 0; f < p->nfns; f++)
    {
      const ppd_fn *fn = &p->fns[f];
      ppd_put_str (&o, fn->name, (uint32_t) strlen (fn->name));
      ppd_put_u32 (&o, fn->checksum);
      ppd_put_u32 (&o, fn->flags);
      ppd_put_u64 (&o, fn->num_paths);
      ppd_put_u64 (&o, fn->dropped);
      ppd_put_str (&o, fn->meta ? fn->meta : "", fn->meta ? fn->meta_len : 0);
      ppd_put_u64 (&o, fn->npairs);
      for (uint64_t k = 0; k < fn->npairs; k++)
        {
          ppd_put_u64 (&o, fn->pairs[k].id);
          ppd_put_u64 (&o, fn->pairs[k].count);
        }
      ppd_put_u64 (&o, fn->ntrained);
      for (uint64_t k = 0; k < fn->ntrained; k++)
        ppd_put_u64 (&o, fn->trained[k]);
      ppd_put_u64 (&o, fn->nvalues);
      for (uint64_t k = 0; k < fn->nvalues; k++)
        ppd_put_u64 (&o, fn->values[k]);
    }
  ppd_put_progs (&o, p->progs, p->nprogs);
  if (o.oom)
    {
      free (o.buf);
      return -1;
    }
  ppd_seal (&o);
  *buf = o.buf;
  *len = o.len;
  return 0;
}

PPD_API int
ppd_write_file (const char *path, const ppd_profile *p)
{
  unsigned char *buf;
  size_t len;
  if (ppd_encode (p, &buf, &len) < 0)
    {
      errno = ENOMEM;
      return -1;
    }
  int rc = pp_write_file_atomic (path, buf, len);
  free (buf);
  return rc;
}

/* The image of P over PATH in place, its inode kept: for a writer that
   holds PATH's lock (the runtime), crash safe through
   pp_write_file_in_place's journal.  */
PPD_API int
ppd_rewrite_file (const char *path, const ppd_profile *p)
{
  unsigned char *buf;
  size_t len;
  if (ppd_encode (p, &buf, &len) < 0)
    {
      errno = ENOMEM;
      return -1;
    }
  int rc = pp_write_file_in_place (path, buf, len);
  free (buf);
  return rc;
}
