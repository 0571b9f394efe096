/* The .ppd codec, reading (format in include/pp/ppd.h): an image's
   header and checksum checked, its contents decoded (every count bounded
   by the bytes left), and a file read as far as its header says.
   Linked into the core library as is; the runtime compiles this file as
   its own object, under __pp_ names with hidden visibility
   (runtime/lib_in_runtime.h), where PP_KEEP_PACKED_META keeps metadata
   packed.  */
#include "ppd_internal.h"
#include "file_io.h"
#ifndef PP_KEEP_PACKED_META
#include "pp/meta_pack.h"
#endif

#include <stdlib.h>
#include <string.h>

PPD_INTERNAL uint64_t
ppd_get (ppd_in *in, int bytes)
{
  if (in->bad || in->end - in->p < bytes)
    {
      in->bad = 1;
      return 0;
    }
  uint64_t v = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  /* A load, not a byte loop: the exit reads every field of the old
     profile.  */
  if (bytes == 8)
    memcpy (&v, in->p, 8);
  else if (bytes == 4)
    {
      uint32_t w;
      memcpy (&w, in->p, 4);
      v = w;
    }
  else
#endif
    for (int i = 0; i < bytes; i++)
      v |= (uint64_t) in->p[i] << (8 * i);
  in->p += bytes;
  return v;
}

static char *
ppd_get_str (ppd_in *in, uint32_t *len_out)
{
  uint32_t n = (uint32_t) ppd_get (in, 4);
  if (in->bad || (size_t) (in->end - in->p) < n)
    {
      in->bad = 1;
      return NULL;
    }
  char *s = malloc ((size_t) n + 1);
  if (!s)
    {
      in->bad = in->oom = 1;
      return NULL;
    }
  memcpy (s, in->p, n);
  s[n] = '\0';
  in->p += n;
  if (len_out)
    *len_out = n;
  return s;
}

PPD_API void
ppd_free (ppd_profile *p)
{
  for (uint32_t f = 0; f < p->nfns; f++)
    {
      free (p->fns[f].name);
      free (p->fns[f].meta);
      free (p->fns[f].pairs);
      free (p->fns[f].trained);
      free (p->fns[f].values);
    }
  free (p->fns);
  free (p->source);
  ppd_free_progs (p->progs, p->nprogs);
  memset (p, 0, sizeof *p);
}

PPD_INTERNAL void
ppd_free_progs (ppd_prog *progs, uint32_t n)
{
  for (uint32_t i = 0; i < n; i++)
    free (progs[i].name);
  free (progs);
}

PPD_INTERNAL void
ppd_get_progs (ppd_in *in, ppd_prog **progs, uint32_t *n)
{
  *progs = NULL;
  *n = 0;
  uint32_t m = (uint32_t) ppd_get (in, 4);
  /* Each at least 12 bytes; more than PPD_MAX_PROGS + 1 is not ours.  */
  if (in->bad || m > PPD_MAX_PROGS + 1 || m > (size_t) (in->end - in->p) / 12)
    {
      in->bad = 1;
      return;
    }
  if (!m)
    return;
  *progs = calloc (m, sizeof **progs);
  if (!*progs)
    {
      in->bad = in->oom = 1;
      return;
    }
  for (uint32_t i = 0; i < m && !in->bad; i++)
    {
      ppd_prog *g = &(*progs)[i];
      *n = i + 1;
      g->name = ppd_get_str (in, NULL);
      g->runs = ppd_get (in, 8);
      if (!in->bad && i && strcmp (g[-1].name, g->name) >= 0)
        in->bad = 1;
    }
  /* More than PPD_MAX_PROGS only with the others' entry, "", first.  */
  if (!in->bad && m > PPD_MAX_PROGS && (*progs)[0].name[0])
    in->bad = 1;
}

/* The header of a whole file image and its checksum: its version, or 0
   with *WHY set.  */
PPD_API uint32_t
ppd_check (const unsigned char *buf, size_t len, const char **why)
{
  if (len < 4 || memcmp (buf, PPD_MAGIC, 4) != 0)
    {
      *why = "not a ppgcc profile (bad magic number)";
      return 0;
    }
  ppd_in in = { buf + 4, buf + len, 0, 0 };
  uint32_t version = (uint32_t) ppd_get (&in, 4);
  uint64_t payload = ppd_get (&in, 8), sum = ppd_get (&in, 8);
  if (in.bad)
    {
      *why = "truncated header";
      return 0;
    }
  if (version < 1 || version > PPD_VERSION)
    {
      *why = "profile format version not supported by this ppgcc";
      return 0;
    }
  if (payload != len - PPD_HEADER_SIZE)
    {
      *why = payload > len - PPD_HEADER_SIZE ? "truncated"
                                              : "trailing bytes after the profile";
      return 0;
    }
  /* Versions 1 and 2 were checksummed byte by byte (FNV-1a 64), version
     3 by a multiply a word (pp_sum64).  */
  const unsigned char *at = buf + PPD_HEADER_SIZE;
  uint64_t have = version >= 4   ? pp_sum64_lanes (at, payload)
                  : version == 3 ? pp_sum64 (at, payload)
                                 : pp_fnv64 (at, payload);
  if (have != sum)
    {
      *why = "checksum mismatch (corrupted)";
      return 0;
    }
  return version;
}

PPD_API int
ppd_decode (const unsigned char *buf, size_t len, ppd_profile *out,
            const char **why)
{
  memset (out, 0, sizeof *out);
  uint32_t version = ppd_check (buf, len, why);
  if (!version)
    return -1;
  ppd_in in = { buf + PPD_HEADER_SIZE, buf + len, 0, 0 };
  out->runs = ppd_get (&in, 8);
  if (version >= 2)
    out->sum_max = ppd_get (&in, 8);
  out->source = ppd_get_str (&in, NULL);
  uint32_t nfns = (uint32_t) ppd_get (&in, 4);
  if (!in.bad && nfns > (size_t) (in.end - in.p) / 40)
    in.bad = 1;
  if (!in.bad && nfns)
    {
      out->fns = calloc (nfns, sizeof *out->fns);
      if (!out->fns)
        in.bad = in.oom = 1;
    }
  for (uint32_t f = 0; f < nfns && !in.bad; f++)
    {
      ppd_fn *fn = &out->fns[f];
      out->nfns = f + 1;
      fn->name = ppd_get_str (&in, NULL);
      fn->checksum = (uint32_t) ppd_get (&in, 4);
      fn->flags = (uint32_t) ppd_get (&in, 4);
      fn->num_paths = ppd_get (&in, 8);
      fn->dropped = ppd_get (&in, 8);
      fn->meta = ppd_get_str (&in, &fn->meta_len);
#ifndef PP_KEEP_PACKED_META
      if (fn->meta && pp_meta_unpack_field (&fn->meta, &fn->meta_len) < 0)
        in.bad = 1;
#endif
      fn->npairs = ppd_get (&in, 8);
      if (in.bad || fn->npairs > (size_t) (in.end - in.p) / 16)
        {
          in.bad = 1;
          break;
        }
      fn->pairs = calloc (fn->npairs ? fn->npairs : 1, sizeof *fn->pairs);
      if (!fn->pairs)
        {
          in.bad = in.oom = 1;
          break;
        }
      for (uint64_t k = 0; k < fn->npairs; k++)
        {
          fn->pairs[k].id = ppd_get (&in, 8);
          fn->pairs[k].count = ppd_get (&in, 8);
          if (k && fn->pairs[k].id <= fn->pairs[k - 1].id)
            in.bad = 1;
        }
      if (version < 2)
        continue;
      fn->ntrained = ppd_get (&in, 8);
      if (in.bad || fn->ntrained > (size_t) (in.end - in.p) / 8)
        {
          in.bad = 1;
          break;
        }
      fn->trained = calloc (fn->ntrained ? fn->ntrained : 1,
                            sizeof *fn->trained);
      if (!fn->trained)
        {
          in.bad = in.oom = 1;
          break;
        }
      for (uint64_t k = 0; k < fn->ntrained; k++)
        {
          fn->trained[k] = ppd_get (&in, 8);
          if (k && fn->trained[k] <= fn->trained[k - 1])
            in.bad = 1;
        }
      if (version < 6)
        continue;
      fn->nvalues = ppd_get (&in, 8);
      if (in.bad || fn->nvalues > (size_t) (in.end - in.p) / 8
          || fn->nvalues % PPD_VALUE_WORDS)
        {
          in.bad = 1;
          break;
        }
      if (!fn->nvalues)
        continue;
      fn->values = malloc (fn->nvalues * sizeof *fn->values);
      if (!fn->values)
        {
          in.bad = in.oom = 1;
          break;
        }
      for (uint64_t k = 0; k < fn->nvalues; k++)
        fn->values[k] = ppd_get (&in, 8);
    }
  if (version >= 5 && !in.bad)
    ppd_get_progs (&in, &out->progs, &out->nprogs);
  if (in.bad || in.p != in.end)
    {
      ppd_free (out);
      *why = in.oom ? "out of memory" : "malformed contents";
      return in.oom ? PPD_OOM : -1;
    }
  return 0;
}

PPD_API uint64_t
ppd_file_size (const unsigned char *head, size_t n)
{
  if (n < PPD_HEADER_SIZE || memcmp (head, PPD_MAGIC, 4) != 0)
    return 0;
  ppd_in in = { head + 8, head + 16, 0, 0 };
  uint64_t payload = ppd_get (&in, 8);
  return payload > UINT64_MAX - PPD_HEADER_SIZE ? 0
                                                : PPD_HEADER_SIZE + payload;
}

PPD_INTERNAL int
ppd_whole (const char *buf, size_t len)
{
  const char *why;
  return ppd_check ((const unsigned char *) buf, len, &why) != 0;
}

PPD_API int
ppd_read_file (const char *path, ppd_profile *out, const char **why)
{
  memset (out, 0, sizeof *out);
  /* A second read when the first found the file torn and no whole
     temporary beside it: its writer (pp_write_file_in_place) may have
     finished and removed its journal in between.  */
  for (int attempt = 0;; attempt++)
    {
      char *buf;
      size_t len;
      uint64_t size;
      int rc = pp_read_bounded_file (path, 0, PPD_HEADER_SIZE, ppd_file_size,
                                     &buf, &len, &size, why);
      if (rc != 0)
        return rc < 0 ? -1 : rc;
      if (size > len)
        /* Only the bytes the header gives were read: the rest is not the
           profile's (ppd_check says the same of a whole image).  */
        *why = "trailing bytes after the profile";
      else
        rc = ppd_decode ((const unsigned char *) buf, len, out, why);
      free (buf);
      if (size == len && rc != -1)
        return rc < 0 ? -1 : rc; /* out of memory too: *WHY says so */
      /* Torn: a writer overwriting it in place now, or killed doing so,
         whose whole journal is beside it.  */
      if (pp_read_journal (path, PPD_HEADER_SIZE, ppd_file_size, ppd_whole,
                           &buf, &len) == 0)
        {
          rc = ppd_decode ((const unsigned char *) buf, len, out, why);
          free (buf);
          return rc < 0 ? -1 : rc;
        }
      if (attempt == 1)
        return -1;
    }
}
