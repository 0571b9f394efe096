/* What the profile codecs (ppd_codec.c, ppc_codec.c) share: a growing
   output buffer, the FNV-1a 64 checksum, whole-file reads and atomic
   writes.  Included by each codec, static: the
   runtime compiles the codecs into itself and must export nothing but
   __pp_ symbols.  The guard lets both codecs share one translation unit.  */
#ifndef PP_FILE_IO_C
#define PP_FILE_IO_C

#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* An encoder's output: bytes appended, grown by doubling; OOM set (and
   the rest ignored) when memory runs out.  */
typedef struct
{
  unsigned char *buf;
  size_t len, cap;
  int oom;
} pp_buf;

static __attribute__ ((unused)) void
pp_buf_put (pp_buf *o, const void *data, size_t n)
{
  if (o->oom)
    return;
  if (o->len + n > o->cap)
    {
      size_t cap = o->cap ? o->cap : 4096;
      while (cap < o->len + n)
        cap *= 2;
      unsigned char *b = realloc (o->buf, cap);
      if (!b)
        {
          o->oom = 1;
          return;
        }
      o->buf = b;
      o->cap = cap;
    }
  memcpy (o->buf + o->len, data, n);
  o->len += n;
}

/* FNV-1a 64 of N bytes at P (truncation and corruption checks).  */
static __attribute__ ((unused)) uint64_t
pp_fnv64 (const void *p, size_t n)
{
  const unsigned char *b = p;
  uint64_t h = 14695981039346656037ull;
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

/* The .ppd checksum from format version 3 on: FNV-1a's step over 64-bit
   little-endian words instead of bytes, with a shift to carry high bits
   down, and the length folded in.  FNV-1a 64 took a multiply per byte:
   half of a large program's exit (zstd: 16 M of 35 M instructions, once
   to check the old profile and once for the new one).  This takes one per
   8 bytes and still catches any truncation or changed byte.  */
static __attribute__ ((unused)) uint64_t
pp_sum64 (const void *p, size_t n)
{
  const unsigned char *b = p;
  uint64_t h = 14695981039346656037ull ^ (uint64_t) n;
  for (;; b += 8)
    {
      size_t take = n < 8 ? n : 8;
      if (take == 0)
        break;
      uint64_t w = 0;
      if (take == 8)
        {
          memcpy (&w, b, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
          w = __builtin_bswap64 (w);
#endif
        }
      else
        for (size_t i = 0; i < take; i++)
          w |= (uint64_t) b[i] << (8 * i);
      h = (h ^ w) * 1099511628211ull;
      h ^= h >> 29;
      n -= take;
    }
  return h;
}

#ifndef PP_KEEP_PACKED_META
#include "pp/meta_pack.h"
/* A decoded metadata field *META (*LEN bytes, malloc'd) replaced by its
   text when it is packed (include/pp/meta_pack.h).  0, or -1 when it is
   damaged or memory ran out.  The runtime keeps fields packed.  */
static __attribute__ ((unused)) int
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
#endif

/* PATH's bytes in a malloc'd *BUF of *LEN.  0; 1 when PATH does not
   exist; -1 with *WHY a static reason.  */
static __attribute__ ((unused)) int
pp_read_whole_file (const char *path, char **buf, size_t *len,
                    const char **why)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      if (errno == ENOENT)
        return 1;
      *why = strerror (errno);
      return -1;
    }
  struct stat st;
  if (fstat (fd, &st) < 0)
    {
      *why = strerror (errno);
      close (fd);
      return -1;
    }
  if (!S_ISREG (st.st_mode))
    {
      *why = "not a regular file";
      close (fd);
      return -1;
    }
  size_t n = (size_t) st.st_size;
  char *b = malloc (n ? n : 1);
  size_t got = 0;
  while (b && got < n)
    {
      ssize_t r = read (fd, b + got, n - got);
      if (r <= 0)
        {
          if (r < 0 && errno == EINTR)
            continue;
          break;
        }
      got += (size_t) r;
    }
  close (fd);
  if (!b || got != n)
    {
      free (b);
      *why = b ? "short read" : "out of memory";
      return -1;
    }
  *buf = b;
  *len = n;
  return 0;
}

/* Writes LEN bytes of BUF to PATH atomically: a temporary file in the
   same directory, fsync, rename.  0, or -1 with errno set (the temporary
   removed).  */
static __attribute__ ((unused)) int
pp_write_file_atomic (const char *path, const void *buf, size_t len)
{
  size_t plen = strlen (path);
  char *tmp = malloc (plen + 32);
  if (!tmp)
    {
      errno = ENOMEM;
      return -1;
    }
  snprintf (tmp, plen + 32, "%s.tmp.%ld", path, (long) getpid ());
  int fd = open (tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int rc = fd < 0 ? -1 : 0;
  size_t done = 0;
  while (rc == 0 && done < len)
    {
      ssize_t w = write (fd, (const char *) buf + done, len - done);
      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        rc = -1;
      else
        done += (size_t) w;
    }
  if (rc == 0 && fsync (fd) < 0)
    rc = -1;
  if (fd >= 0 && close (fd) < 0)
    rc = -1;
  if (rc == 0 && rename (tmp, path) < 0)
    rc = -1;
  if (rc < 0 && fd >= 0)
    {
      int e = errno;
      unlink (tmp);
      errno = e;
    }
  free (tmp);
  return rc;
}

#endif
