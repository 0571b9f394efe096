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
