/* What the profile codecs and the profile database share (file_io.h):
   a growing output buffer, the checksums, whole-file reads, locks and
   atomic writes.  Plain C11 and POSIX: the runtime compiles this file as
   its own object (runtime/lib_in_runtime.h), whose PP_FSYNC_ON_REQUEST
   makes syncing a profile the user's choice (pp_sync_wanted).  */
#include "file_io.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The two loops every profile write runs over the whole file, the copy
   and the checksum, are built for speed even where the runtime builds
   this file small (-Os would copy with `rep movsb', a step a byte, and
   leave the checksum's additions unvectorized).  */
#ifdef PPRT_COLD
#pragma GCC push_options
#pragma GCC optimize ("O2")
#endif

/* FNV-1a 64 of N bytes at P (truncation and corruption checks).  Eight
   bytes a step, from one load (little-endian: the bytes in order): the
   byte loop cost six instructions a
   byte, which a context profile's write paid twice over its whole file
   (sqlite3's 3 MB: 42 M instructions).  */
PP_IO_API uint64_t
pp_fnv64 (const void *p, size_t n)
{
  const unsigned char *b = p;
  const uint64_t prime = 1099511628211ull;
  uint64_t h = 14695981039346656037ull;
  size_t i = 0;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  for (; i + 8 <= n; i += 8)
    {
      uint64_t w;
      memcpy (&w, b + i, 8);
#pragma GCC unroll 8
      for (int k = 0; k < 8; k++)
        h = (h ^ (uint8_t) (w >> (8 * k))) * prime;
    }
#endif
  for (; i < n; i++)
    h = (h ^ b[i]) * prime;
  return h;
}

PP_IO_API int
pp_buf_reserve (pp_buf *o, size_t n)
{
  if (o->oom)
    return -1;
  if (o->len + n > o->cap)
    {
      size_t cap = o->cap ? o->cap : 4096;
      while (cap < o->len + n)
        cap *= 2;
      unsigned char *b = realloc (o->buf, cap);
      if (!b)
        {
          o->oom = 1;
          return -1;
        }
      o->buf = b;
      o->cap = cap;
    }
  return 0;
}

PP_IO_API void
pp_buf_put (pp_buf *o, const void *data, size_t n)
{
  if (pp_buf_reserve (o, n) < 0)
    return;
  memcpy (o->buf + o->len, data, n);
  o->len += n;
}

#ifdef PPRT_COLD
#pragma GCC pop_options
#endif

/* The final mix of a 64-bit value (MurmurHash3's fmix64 constants).  */
static uint64_t
pp_mix64 (uint64_t x)
{
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

/* The .ppd checksum from format version 4 on: eight Fletcher sums over
   the little-endian 64-bit words of the bytes zero-padded to a multiple
   of 64 (word I goes to lane I mod 8: A += word, B += A), mixed into the
   length in order: the eight As, then the eight Bs.  pp_sum64's multiply chain cost
   five instructions a word and was still a quarter of a large program's
   exit (zstd, sqlite3), once over the old profile and once over the new;
   this is two vector additions per 16 bytes, in chains that do not wait
   on each other.  A changed word changes its lane's A; words that trade
   places change the B of their lanes; the length is in the mix (and in
   the header).  */
PP_IO_API uint64_t
pp_sum64_lanes (const void *p, size_t n)
{
  /* Lanes 2K and 2K+1 are the halves of vector K.  */
  typedef uint64_t pp_v2 __attribute__ ((vector_size (16)));
  pp_v2 a0 = { 0, 0 }, a1 = a0, a2 = a0, a3 = a0;
  pp_v2 b0 = a0, b1 = a0, b2 = a0, b3 = a0;
  unsigned char last[64];
  for (size_t at = 0; at < n; at += 64)
    {
      const unsigned char *block = (const unsigned char *) p + at;
      if (n - at < 64) /* the last bytes, zero-padded */
        {
          memset (last, 0, sizeof last);
          for (size_t k = 0; k < n - at; k++)
            last[k] = block[k];
          block = last;
        }
      pp_v2 w0, w1, w2, w3;
      memcpy (&w0, block, 16);
      memcpy (&w1, block + 16, 16);
      memcpy (&w2, block + 32, 16);
      memcpy (&w3, block + 48, 16);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define PP_LE2(w) w = (pp_v2){ __builtin_bswap64 (w[0]), __builtin_bswap64 (w[1]) }
      PP_LE2 (w0), PP_LE2 (w1), PP_LE2 (w2), PP_LE2 (w3);
#undef PP_LE2
#endif
      a0 += w0, a1 += w1, a2 += w2, a3 += w3;
      b0 += a0, b1 += a1, b2 += a2, b3 += a3;
    }
  pp_v2 sums[8] = { a0, a1, a2, a3, b0, b1, b2, b3 };
  uint64_t lanes[16];
  memcpy (lanes, sums, sizeof lanes);
  uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t) n;
  for (int l = 0; l < 16; l++)
    h = pp_mix64 (h ^ lanes[l]);
  return h;
}


/* The .ppd checksum of format version 3, now only read: FNV-1a's step
   over 64-bit little-endian words, with a shift to carry high bits down,
   and the length folded in (a word at a time: small, not fast).  */
PP_IO_API uint64_t
pp_sum64 (const void *p, size_t n)
{
  const unsigned char *b = p;
  uint64_t h = 14695981039346656037ull ^ (uint64_t) n;
  for (size_t i = 0; i < n; i += 8)
    {
      uint64_t w = 0;
      for (size_t k = 0; k < 8 && i + k < n; k++)
        w |= (uint64_t) b[i + k] << (8 * k);
      h = (h ^ w) * 1099511628211ull;
      h ^= h >> 29;
    }
  return h;
}


/* PATH opened for reading with OFLAGS added (the runtime adds
   O_NOFOLLOW), a regular file of *SIZE bytes: its descriptor; -1 when
   PATH does not exist (*WHY NULL) or with *WHY a static reason.  Never
   blocks on a FIFO put where a file was expected.  */
static int
pp_open_regular (const char *path, int oflags, uint64_t *size,
                 const char **why)
{
  *why = NULL;
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | oflags);
  if (fd < 0)
    {
      if (errno != ENOENT)
        *why = errno == ELOOP && (oflags & O_NOFOLLOW) ? "a symbolic link"
                                                        : strerror (errno);
      return -1;
    }
  struct stat st;
  if (fstat (fd, &st) < 0)
    *why = strerror (errno);
  else if (!S_ISREG (st.st_mode))
    *why = S_ISDIR (st.st_mode) ? "a directory" : "not a regular file";
  if (*why)
    {
      close (fd);
      return -1;
    }
  *size = (uint64_t) st.st_size;
  return fd;
}

/* N bytes of FD into B, from where FD is: how many it read (fewer at the
   end of the file or on an error).  */
static size_t
pp_read_fully (int fd, char *b, size_t n)
{
  size_t got = 0;
  while (got < n)
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
  return got;
}

/* The first bytes of FD, a file of SIZE bytes: WANT of them (at most
   SIZE), after the HAVE already in HEAD, into a malloc'd *BUF of *LEN.
   0; -1 with *WHY "short read"; PP_READ_OOM when WANT bytes cannot be
   had (a reason of its own: the file may be fine), *LEN then WANT.  */
static int
pp_read_prefix (int fd, const char *head, size_t have, uint64_t want,
                char **buf, size_t *len, const char **why)
{
  char *b = want < SIZE_MAX ? malloc (want ? (size_t) want : 1) : NULL;
  if (!b)
    {
      *why = "out of memory";
      *len = want < SIZE_MAX ? (size_t) want : SIZE_MAX;
      return PP_READ_OOM;
    }
  if (have > want)
    have = (size_t) want;
  if (have)
    memcpy (b, head, have); /* HEAD may be null when HAVE is 0 */
  if (have + pp_read_fully (fd, b + have, (size_t) want - have) != want)
    {
      free (b);
      *why = "short read";
      return -1;
    }
  *buf = b;
  *len = (size_t) want;
  return 0;
}

/* PATH's bytes in a malloc'd *BUF of *LEN, PATH opened with OFLAGS added
   (the runtime adds O_NOFOLLOW).  0; 1 when PATH does not exist; -1 with
   *WHY a static reason, or PP_READ_OOM.  */
PP_IO_API int
pp_read_whole_file_flags (const char *path, int oflags, char **buf,
                          size_t *len, const char **why)
{
  uint64_t size;
  int fd = pp_open_regular (path, oflags, &size, why);
  if (fd < 0)
    return *why ? -1 : 1;
  int rc = pp_read_prefix (fd, NULL, 0, size, buf, len, why);
  close (fd);
  return rc;
}

PP_IO_API int
pp_read_whole_file (const char *path, char **buf, size_t *len,
                    const char **why)
{
  return pp_read_whole_file_flags (path, 0, buf, len, why);
}

/* PATH's bytes as far as its header says the file goes: the first HLEN
   bytes (or all when fewer), and, when SIZE_OF (HEAD, HLEN) says how many
   bytes the file holds (0: it cannot tell), as many as that or as the
   file has, whichever is fewer.  *SIZE gets the file's size: more than
   *LEN when it has bytes after what its header describes, which are not
   read (a 1 GiB sparse file behind a small profile cost its reader 1 GiB
   and 3 s).  SIZE_OF NULL: the whole file.  Returns as
   pp_read_whole_file_flags does.  */
PP_IO_API int
pp_read_bounded_file (const char *path, int oflags, size_t hlen,
                      uint64_t (*size_of) (const unsigned char *, size_t),
                      char **buf, size_t *len, uint64_t *size,
                      const char **why)
{
  int fd = pp_open_regular (path, oflags, size, why);
  if (fd < 0)
    return *why ? -1 : 1;
  char head[64];
  size_t have = 0;
  uint64_t want = *size;
  if (size_of && hlen <= sizeof head)
    {
      have = pp_read_fully (fd, head, hlen);
      uint64_t declared = have == hlen
                              ? size_of ((const unsigned char *) head, hlen)
                              : 0;
      if (declared >= hlen && declared < want)
        want = declared;
    }
  int rc = pp_read_prefix (fd, head, have, want, buf, len, why);
  close (fd);
  return rc;
}

/* For the runtime, which writes PATH next: PATH's bytes, as
   pp_read_bounded_file reads them, when they start with MAGIC[0..MLEN)
   (a profile of ours, maybe damaged): 0; 1 when PATH does not exist; -1
   with *WHY when what is there is not ours (a directory, a symbolic link,
   another file, unreadable): the runtime must neither move nor replace
   it; PP_READ_OOM when memory ran out (what is there is not known).
   Symbolic links are not followed.  */
PP_IO_API int
pp_read_own_file (const char *path, const char *magic, size_t mlen,
                  size_t hlen,
                  uint64_t (*size_of) (const unsigned char *, size_t),
                  char **buf, size_t *len, uint64_t *size, const char **why)
{
  int rc = pp_read_bounded_file (path, O_NOFOLLOW, hlen, size_of, buf, len,
                                 size, why);
  if (rc == 0 && (*len < mlen || memcmp (*buf, magic, mlen) != 0))
    {
      free (*buf);
      *buf = NULL;
      *why = "unknown contents";
      return -1;
    }
  return rc;
}

/* Locks.  A writer of PATH holds a write lock (fcntl: released when the
   process dies, not inherited by a fork's child) on the file PATH.lock,
   and removes that file before it lets go, so that none is left behind
   (only a writer killed while it held the lock leaves one, which the next
   writer takes and removes).  A waiter that then gets the lock holds it
   on a file no longer at that name, while a newcomer may have made a new
   one and locked that: so a lock counts only when, once taken, the name
   still leads to the locked file; else it is taken again.  PATH itself
   is not the lock: it is made by a rename, and a damaged one is moved
   aside.

   pp_unlock is given the descriptor alone: the lock file's name is kept
   in a slot claimed by compare-and-swap (no mutex, which a fork in
   another thread could leave held in the child).  When all are taken the
   lock file stays, as a killed writer's does.  Runtimes older than this
   scheme neither remove the file nor check the name: one of them and a
   newer one writing the same profile at once (an object rebuilt with a
   newer ppgcc while the older binary still runs) are not serialised.  */
#define PP_LOCK_SLOTS 16
static int pp_lock_fd[PP_LOCK_SLOTS]; /* descriptor + 1; 0: free */
static char *pp_lock_name[PP_LOCK_SLOTS];

static int
pp_same_file (const struct stat *a, const struct stat *b)
{
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* The lock file beside PATH ("PATH.lock"), opened and locked for
   writing; never through a symbolic link, never anything but a regular
   file.  The descriptor, or -1 with *WHY.  */
PP_IO_API int
pp_lock_beside (const char *path, const char **why)
{
  size_t n = strlen (path) + 6;
  char *lock_path = malloc (n);
  if (!lock_path)
    {
      *why = "out of memory";
      return -1;
    }
  snprintf (lock_path, n, "%s.lock", path);
  int fd;
  for (;;)
    {
      fd = open (lock_path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK
                                | O_CLOEXEC,
                 0644);
      int open_errno = errno;
      struct stat st, now;
      if (fd < 0)
        {
          *why = open_errno == ELOOP ? "a symbolic link (not followed)"
                                     : strerror (open_errno);
          free (lock_path);
          errno = open_errno; /* ENOENT: the caller may make the directory */
          return -1;
        }
      if (fstat (fd, &st) < 0 || !S_ISREG (st.st_mode))
        {
          *why = "not a regular file";
          close (fd);
          free (lock_path);
          return -1;
        }
      struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
      while (fcntl (fd, F_SETLKW, &fl) < 0 && errno == EINTR)
        ;
      /* Removed by the holder this one waited for, or made anew since.  */
      if (lstat (lock_path, &now) == 0 ? pp_same_file (&st, &now)
                                       : errno != ENOENT)
        break;
      close (fd);
    }
  for (int i = 0; i < PP_LOCK_SLOTS; i++)
    {
      int free_slot = 0;
      if (__atomic_compare_exchange_n (&pp_lock_fd[i], &free_slot, fd + 1, 0,
                                       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        {
          pp_lock_name[i] = lock_path;
          return fd;
        }
    }
  free (lock_path);
  return fd;
}

/* Releases pp_lock_beside's lock, its file removed first.  */
PP_IO_API void
pp_unlock (int fd)
{
  char *name = NULL;
  for (int i = 0; i < PP_LOCK_SLOTS && !name; i++)
    if (__atomic_load_n (&pp_lock_fd[i], __ATOMIC_ACQUIRE) == fd + 1)
      {
        name = pp_lock_name[i];
        pp_lock_name[i] = NULL;
        __atomic_store_n (&pp_lock_fd[i], 0, __ATOMIC_RELEASE);
      }
  struct stat st, now;
  if (name && fstat (fd, &st) == 0 && lstat (name, &now) == 0
      && pp_same_file (&st, &now))
    unlink (name);
  free (name);
  struct flock fl = { .l_type = F_UNLCK, .l_whence = SEEK_SET };
  fcntl (fd, F_SETLK, &fl);
  close (fd);
}

/* 64 bits nobody else can guess: a temporary's name.  getrandom, else
   (old kernels) the clock, the pid and an address mixed.  */
PP_IO_API uint64_t
pp_random64 (void)
{
  uint64_t r;
  if (getrandom (&r, sizeof r, GRND_NONBLOCK) == (ssize_t) sizeof r)
    return r;
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  r = (uint64_t) ts.tv_nsec ^ ((uint64_t) ts.tv_sec << 30)
      ^ ((uint64_t) getpid () << 42) ^ (uint64_t) (uintptr_t) &ts;
  return pp_fnv64 (&r, sizeof r);
}

/* Whether NAME, an entry of PATH's directory, is a temporary of a writer
   of BASE (PATH's last component): *PID its writer.  */
PP_IO_API int
pp_is_temp_of (const char *name, const char *base, long *pid)
{
  size_t blen = strlen (base), ilen = strlen (PP_TMP_INFIX);
  if (strncmp (name, base, blen) != 0
      || strncmp (name + blen, PP_TMP_INFIX, ilen) != 0)
    return 0;
  const char *p = name + blen + ilen, *digits = p;
  long n = 0;
  while (*p >= '0' && *p <= '9' && p - digits < 10)
    n = n * 10 + (*p++ - '0');
  if (p == digits)
    return 0;
  if (*p == '.')
    {
      const char *hex = ++p;
      while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))
        p++;
      if (p - hex != 16)
        return 0;
    }
  *pid = n;
  return *p == '\0';
}

/* Whether a profile is synced to disk before it takes its place (a
   rename, or an overwrite in place), and after that overwrite.  The tools
   always sync.  The runtime, which writes at every instrumented or
   sampled program's exit, syncs only under PPGCC_FSYNC=1, as gcov never
   does: a sync took 2-9 ms a file on the machines here, one per unit's
   .ppd, and was most of what profiling added to a short process
   (pcre2grep: 24 syncs a run).  The rename, or the journal of an
   overwrite, alone keeps every profile whole whenever and however the
   program ends; the sync adds only surviving a crash of the machine
   itself.  */
static int
pp_sync_wanted (void)
{
#ifdef PP_FSYNC_ON_REQUEST
  const char *e = getenv ("PPGCC_FSYNC");
  return e && *e && strcmp (e, "0") != 0;
#else
  return 1;
#endif
}

/* LEN bytes of BUF to FD from offset AT: 0, or -1 with errno.  */
static int
pp_pwrite_all (int fd, const void *buf, size_t len, off_t at)
{
  size_t done = 0;
  while (done < len)
    {
      ssize_t w = pwrite (fd, (const char *) buf + done, len - done,
                          at + (off_t) done);
      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        {
          if (w == 0)
            errno = EIO;
          return -1;
        }
      done += (size_t) w;
    }
  return 0;
}

/* LEN bytes of BUF in a new temporary beside PATH (a name nobody can
   guess: whatever another user put there, a symbolic link to a victim, is
   never followed nor truncated), synced (pp_sync_wanted) and closed: its
   malloc'd name, or NULL with errno set (nothing left behind).  */
static char *
pp_write_temp (const char *path, const void *buf, size_t len)
{
  size_t plen = strlen (path);
  char *tmp = malloc (plen + 40);
  if (!tmp)
    {
      errno = ENOMEM;
      return NULL;
    }
  int fd = -1;
  for (int tries = 0; fd < 0 && tries < 8; tries++)
    {
      snprintf (tmp, plen + 40, "%s" PP_TMP_INFIX "%ld.%016llx", path,
                (long) getpid (), (unsigned long long) pp_random64 ());
      fd = open (tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                 0644);
      if (fd < 0 && errno != EEXIST)
        break;
    }
  int rc = fd < 0 ? -1 : pp_pwrite_all (fd, buf, len, 0);
  if (rc == 0 && pp_sync_wanted () && fsync (fd) < 0)
    rc = -1;
  if (fd >= 0 && close (fd) < 0)
    rc = -1;
  if (rc < 0)
    {
      int e = errno;
      if (fd >= 0)
        unlink (tmp);
      free (tmp);
      errno = e;
      return NULL;
    }
  return tmp;
}

/* Writes LEN bytes of BUF to PATH atomically: a temporary file in the
   same directory, fsync (pp_sync_wanted), rename.  0, or -1 with errno
   set (the temporary removed).  */
PP_IO_API int
pp_write_file_atomic (const char *path, const void *buf, size_t len)
{
  char *tmp = pp_write_temp (path, buf, len);
  if (!tmp)
    return -1;
  int rc = rename (tmp, path);
  if (rc < 0)
    {
      int e = errno;
      unlink (tmp);
      errno = e;
    }
  free (tmp);
  return rc;
}

/* LEN bytes of BUF over the regular file open as FD (SIZE bytes now),
   from its start, cut to LEN, synced (pp_sync_wanted), closed.  */
static int
pp_overwrite_fd (int fd, uint64_t size, const void *buf, size_t len)
{
  int rc = pp_pwrite_all (fd, buf, len, 0);
  if (rc == 0 && size != len && ftruncate (fd, (off_t) len) < 0)
    rc = -1;
  if (rc == 0 && pp_sync_wanted () && fsync (fd) < 0)
    rc = -1;
  int e = errno;
  if (close (fd) < 0 && rc == 0)
    return -1;
  errno = e;
  return rc;
}

/* Rewrites PATH in place, for a writer holding PATH's lock: the file
   keeps its inode (what a build tree's listings see stays as it was, as
   gcov's .gcda do; a rename gave every dump a new one).  Crash safety
   comes from a journal: the whole new content goes first to a temporary
   beside PATH (pp_write_temp), and only once that is complete is PATH
   overwritten and the temporary removed.  A writer killed while it
   overwrites leaves PATH torn, which its header's length and checksum
   show, beside a complete temporary: the next writer under the lock
   (pp_settle_temps) puts that temporary's bytes back in place, and a
   reader meanwhile reads the temporary (pp_read_journal).  When PATH does
   not exist yet it is made as pp_write_file_atomic makes it; when the
   overwrite fails half way (a full disk), the temporary is renamed over
   PATH instead.  0, or -1 with errno set.  */
PP_IO_API int
pp_write_file_in_place (const char *path, const void *buf, size_t len)
{
  int fd = open (path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return errno == ENOENT ? pp_write_file_atomic (path, buf, len) : -1;
  struct stat st;
  if (fstat (fd, &st) < 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      errno = EINVAL;
      return -1;
    }
  char *tmp = pp_write_temp (path, buf, len);
  if (!tmp)
    {
      int e = errno;
      close (fd);
      errno = e;
      return -1;
    }
  int rc = pp_overwrite_fd (fd, (uint64_t) st.st_size, buf, len);
  if (rc == 0)
    unlink (tmp);
  else
    rc = rename (tmp, path); /* else the temporary stays: the only whole copy */
  free (tmp);
  return rc;
}

/* The temporaries beside PATH (of base name BASE in DIR), regular files
   owned by UID, newest first: at most MAX names into NAMES (malloc'd),
   their number returned; *STALE[I] whether name I is stale (its writer
   gone, or older than PP_TMP_MAX_AGE).  The candidates are DIR's entries,
   or LISTED's names (of that directory) when LISTED is not NULL.  */
#define PP_TEMPS_MAX 64
static int
pp_list_temps (DIR *d, const char *base, uid_t uid, char **names,
               int *stale, const struct pp_temp_listing *listed)
{
  int n = 0;
  struct timespec when[PP_TEMPS_MAX];
  time_t now = time (NULL);
  struct dirent *e;
  for (int next = 0; n < PP_TEMPS_MAX; next++)
    {
      const char *entry;
      if (listed)
        {
          if (next >= listed->n)
            break;
          entry = listed->names[next];
        }
      else if ((e = readdir (d)))
        entry = e->d_name;
      else
        break;
      long pid;
      struct stat st;
      if (!pp_is_temp_of (entry, base, &pid)
          || fstatat (dirfd (d), entry, &st, AT_SYMLINK_NOFOLLOW) < 0
          || !S_ISREG (st.st_mode) || st.st_uid != uid)
        continue;
      char *name = strdup (entry);
      if (!name)
        break;
      /* A caller holding PATH's lock writes nothing now.  */
      int gone = pid <= 0 || pid == (long) getpid ()
                 || (kill ((pid_t) pid, 0) < 0 && errno == ESRCH);
      int at = n++;
      while (at > 0
             && (when[at - 1].tv_sec < st.st_mtim.tv_sec
                 || (when[at - 1].tv_sec == st.st_mtim.tv_sec
                     && when[at - 1].tv_nsec < st.st_mtim.tv_nsec)))
        {
          names[at] = names[at - 1];
          stale[at] = stale[at - 1];
          when[at] = when[at - 1];
          at--;
        }
      names[at] = name;
      stale[at] = gone || now - st.st_mtime > PP_TMP_MAX_AGE;
      when[at] = st.st_mtim;
    }
  return n;
}

/* L made the listing of directory DIR (open as D): the names of its
   entries that could be a writer's temporary (they hold PP_TMP_INFIX).
   0, or -1 when memory ran out (L then lists nothing).  */
static int
pp_list_dir_temps (DIR *d, const char *dir, struct pp_temp_listing *l)
{
  pp_temp_listing_free (l);
  if (!(l->dir = strdup (dir)))
    return -1;
  struct dirent *e;
  while ((e = readdir (d)))
    {
      if (!strstr (e->d_name, PP_TMP_INFIX))
        continue;
      char **more = realloc (l->names, (l->n + 1) * sizeof *more);
      char *name = more ? strdup (e->d_name) : NULL;
      if (more)
        l->names = more;
      if (!name)
        {
          pp_temp_listing_free (l);
          return -1;
        }
      l->names[l->n++] = name;
    }
  return 0;
}

PP_IO_API void
pp_temp_listing_free (struct pp_temp_listing *l)
{
  for (int i = 0; i < l->n; i++)
    free (l->names[i]);
  free (l->names);
  free (l->dir);
  memset (l, 0, sizeof *l);
}

/* PATH split into its directory (malloc'd, "." when none) and base.  */
static char *
pp_dir_of (const char *path, const char **base)
{
  const char *slash = strrchr (path, '/');
  *base = slash ? slash + 1 : path;
  return slash ? strndup (path, slash == path ? 1 : (size_t) (slash - path))
               : strdup (".");
}

/* Whether the file at PATH is whole: read as its header bounds it (HLEN,
   SIZE_OF: pp_read_bounded_file), no bytes after that, and WHOLE says so
   of its bytes.  1, 0 (damaged), -1 (not there, not a regular file, not
   readable: nothing to mend).  */
static int
pp_is_whole (const char *path, size_t hlen,
             uint64_t (*size_of) (const unsigned char *, size_t),
             int (*whole) (const char *, size_t))
{
  char *buf;
  size_t len;
  uint64_t size;
  const char *why;
  int rc = pp_read_bounded_file (path, O_NOFOLLOW, hlen, size_of, &buf,
                                 &len, &size, &why);
  if (rc != 0)
    return -1;
  int ok = size == len && whole (buf, len);
  free (buf);
  return ok;
}

/* Reads the newest of the temporaries NAMES[0..N) in directory DIR that
   WHOLE accepts: its index, bytes *BUF (*LEN); -1 when none does.  */
static int
pp_newest_whole (const char *dir, char **names, int n, size_t hlen,
                 uint64_t (*size_of) (const unsigned char *, size_t),
                 int (*whole) (const char *, size_t), char **buf,
                 size_t *len)
{
  for (int i = 0; i < n; i++)
    {
      char *name = malloc (strlen (dir) + strlen (names[i]) + 2);
      if (!name)
        return -1;
      sprintf (name, "%s/%s", dir, names[i]);
      uint64_t size;
      const char *why;
      int rc = pp_read_bounded_file (name, O_NOFOLLOW, hlen, size_of, buf,
                                     len, &size, &why);
      free (name);
      if (rc == 0 && size == *len && whole (*buf, *len))
        return i;
      if (rc == 0)
        free (*buf);
    }
  return -1;
}

/* Under PATH's lock, before reading it: what killed writers left beside
   it settled.  When PATH is torn (WHOLE, with HLEN and SIZE_OF as
   pp_read_bounded_file takes them, says it is not whole) and a temporary
   of a writer is whole, the newest such is put in PATH's place
   (pp_write_file_in_place's journal, or a writer's that died before its
   rename); then temporaries whose writer no longer runs or that are older
   than PP_TMP_MAX_AGE are removed (pp_remove_stale_temps).  Only names of
   the pattern above, regular files of this user.  WHOLE NULL: no
   mending.  */
PP_IO_API void
pp_settle_temps (const char *path, size_t hlen,
                 uint64_t (*size_of) (const unsigned char *, size_t),
                 int (*whole) (const char *, size_t))
{
  pp_settle_temps_listed (path, hlen, size_of, whole, NULL);
}

/* pp_settle_temps, the candidates taken from LISTING when it lists PATH's
   directory, else read from the directory into it (LISTING NULL: read,
   not kept).  */
PP_IO_API void
pp_settle_temps_listed (const char *path, size_t hlen,
                        uint64_t (*size_of) (const unsigned char *, size_t),
                        int (*whole) (const char *, size_t),
                        struct pp_temp_listing *listing)
{
  const char *base;
  char *dir = pp_dir_of (path, &base);
  DIR *d = dir ? opendir (dir) : NULL;
  if (!d)
    {
      free (dir);
      return;
    }
  if (listing && (!listing->dir || strcmp (listing->dir, dir) != 0)
      && pp_list_dir_temps (d, dir, listing) < 0)
    listing = NULL;
  char *names[PP_TEMPS_MAX];
  int stale[PP_TEMPS_MAX];
  if (!listing)
    rewinddir (d);
  int n = pp_list_temps (d, base, geteuid (), names, stale, listing);
  /* A complete temporary is newer than PATH only when PATH is torn: a
     writer overwrites PATH only once its journal is whole.  With PATH
     whole, it is a journal whose writer died before overwriting (that
     run's counts, given up as a run killed before its dump), or an older
     one kept while its pid ran again: never put in place.  */
  int mended = -1;
  if (n && whole && pp_is_whole (path, hlen, size_of, whole) == 0)
    {
      char *buf;
      size_t len;
      mended = pp_newest_whole (dir, names, n, hlen, size_of, whole, &buf,
                                &len);
      if (mended >= 0)
        {
          int fd = open (path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK
                                   | O_CLOEXEC);
          struct stat st;
          int ok = fd >= 0 && fstat (fd, &st) == 0 && S_ISREG (st.st_mode);
          if (!ok && fd >= 0)
            close (fd);
          if (!ok || pp_overwrite_fd (fd, (uint64_t) st.st_size, buf, len)
                         < 0)
            mended = -1; /* the temporary stays: the next writer tries */
          free (buf);
        }
    }
  for (int i = 0; i < n; i++)
    {
      if (i == mended || stale[i])
        unlinkat (dirfd (d), names[i], 0);
      free (names[i]);
    }
  closedir (d);
  free (dir);
}

/* Removes what killed writers left beside PATH (pp_settle_temps without
   the mending; at most PP_TEMPS_MAX a call, the rest the next time).  */
PP_IO_API void
pp_remove_stale_temps (const char *path)
{
  pp_settle_temps (path, 0, NULL, NULL);
}

/* For a reader of PATH, found torn (a writer overwriting it in place, or
   one killed doing so): the newest temporary beside it that WHOLE
   accepts, as pp_settle_temps would put it in place, into *BUF (*LEN).
   0, or -1 when there is none.  */
PP_IO_API int
pp_read_journal (const char *path, size_t hlen,
                 uint64_t (*size_of) (const unsigned char *, size_t),
                 int (*whole) (const char *, size_t), char **buf,
                 size_t *len)
{
  const char *base;
  char *dir = pp_dir_of (path, &base);
  DIR *d = dir ? opendir (dir) : NULL;
  if (!d)
    {
      free (dir);
      return -1;
    }
  struct stat st;
  uid_t uid = stat (path, &st) == 0 ? st.st_uid : geteuid ();
  char *names[PP_TEMPS_MAX];
  int stale[PP_TEMPS_MAX];
  int n = pp_list_temps (d, base, uid, names, stale, NULL);
  int got = pp_newest_whole (dir, names, n, hlen, size_of, whole, buf,
                             len);
  for (int i = 0; i < n; i++)
    free (names[i]);
  closedir (d);
  free (dir);
  return got >= 0 ? 0 : -1;
}
