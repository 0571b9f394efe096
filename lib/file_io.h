/* What the profile codecs (ppd_*.c, ppc_*.c) and the profile database
   share: a growing output buffer, the checksums, whole-file reads, the
   lock beside a profile and atomic writes (lib/file_io.c).  Linked into
   libppcore as is; the runtime compiles file_io.c as its own object under
   __pp_ names with hidden visibility (runtime/lib_in_runtime.h).  */
#ifndef PP_FILE_IO_H
#define PP_FILE_IO_H

#include <stddef.h>
#include <stdint.h>

#ifndef PP_IO_API
#define PP_IO_API
#endif

/* An encoder's output: bytes appended, grown by doubling; OOM set (and
   the rest ignored) when memory runs out.  */
typedef struct
{
  unsigned char *buf;
  size_t len, cap;
  int oom;
} pp_buf;

PP_IO_API void pp_buf_put (pp_buf *o, const void *data, size_t n);
/* Room for N more bytes after LEN: 0, or -1 (and OOM set).  */
PP_IO_API int pp_buf_reserve (pp_buf *o, size_t n);

/* FNV-1a 64 of N bytes at P (the .ppc's checksum, .ppd versions 1-2).  */
PP_IO_API uint64_t pp_fnv64 (const void *p, size_t n);
/* The .ppd checksum of format version 3, a word at a time.  */
PP_IO_API uint64_t pp_sum64 (const void *p, size_t n);
/* The .ppd checksum from format version 4 on: eight lanes of sums.  */
PP_IO_API uint64_t pp_sum64_lanes (const void *p, size_t n);

/* PATH's bytes in a malloc'd *BUF of *LEN: 0; 1 when PATH does not exist;
   -1 with *WHY a static reason; PP_READ_OOM (*WHY "out of memory", *LEN
   the bytes it meant to read) when they do not fit in memory.  _flags adds OFLAGS to open's.  */
#define PP_READ_OOM (-2)
PP_IO_API int pp_read_whole_file_flags (const char *path, int oflags,
                                        char **buf, size_t *len,
                                        const char **why);
PP_IO_API int pp_read_whole_file (const char *path, char **buf, size_t *len,
                                  const char **why);
/* The same, bounded by the file's header: SIZE_OF (its first HLEN bytes,
   HLEN) is the size the header gives the file (0: none), and no more is
   read; *SIZE gets the file's size (see file_io.c).  */
PP_IO_API int pp_read_bounded_file (const char *path, int oflags, size_t hlen,
                                    uint64_t (*size_of) (const unsigned char *,
                                                         size_t),
                                    char **buf, size_t *len, uint64_t *size,
                                    const char **why);
/* The runtime's read of the file it writes next (see file_io.c).  */
PP_IO_API int pp_read_own_file (const char *path, const char *magic,
                                size_t mlen, size_t hlen,
                                uint64_t (*size_of) (const unsigned char *,
                                                     size_t),
                                char **buf, size_t *len, uint64_t *size,
                                const char **why);

/* The lock file beside PATH ("PATH.lock"), locked for writing: its
   descriptor, or -1 with *WHY; pp_unlock removes the file and releases
   the lock (file_io.c says how that stays safe).  */
PP_IO_API int pp_lock_beside (const char *path, const char **why);
PP_IO_API void pp_unlock (int fd);

/* A writer's temporary beside PATH: "PATH.tmp.<pid>.<16 hex digits>"
   (earlier runtimes wrote "PATH.tmp.<pid>").  */
#define PP_TMP_INFIX ".tmp."
/* Seconds after which a temporary is stale even if a process of its pid
   runs (pids are reused); a write takes milliseconds.  */
#define PP_TMP_MAX_AGE 3600

PP_IO_API uint64_t pp_random64 (void);
PP_IO_API int pp_is_temp_of (const char *name, const char *base, long *pid);
PP_IO_API void pp_remove_stale_temps (const char *path);
/* Under PATH's lock: a torn PATH mended from a whole temporary beside it
   (WHOLE judges bytes read as pp_read_bounded_file reads them with HLEN
   and SIZE_OF), then stale temporaries removed (file_io.c).  */
PP_IO_API void pp_settle_temps (const char *path, size_t hlen,
                                uint64_t (*size_of) (const unsigned char *,
                                                     size_t),
                                int (*whole) (const char *, size_t));
/* The names in one directory that could be writers' temporaries, read
   once for many profiles written there: the runtime's exit writes every
   unit's profile, and read the directory once a unit (xz: 63 units in a
   directory of 241 entries, 2 M instructions a process).  A temporary
   made after the listing is missed: the caller settles again, unlisted,
   when the profile it then reads is damaged (runtime/pprt.c).  */
struct pp_temp_listing
{
  char *dir;    /* the directory listed, NULL before the first */
  char **names; /* its entries holding PP_TMP_INFIX */
  int n;
};
PP_IO_API void pp_settle_temps_listed (const char *path, size_t hlen,
                                       uint64_t (*size_of) (
                                           const unsigned char *, size_t),
                                       int (*whole) (const char *, size_t),
                                       struct pp_temp_listing *listing);
PP_IO_API void pp_temp_listing_free (struct pp_temp_listing *l);
/* For a reader that found PATH torn: the newest whole temporary beside
   it in a malloc'd *BUF (*LEN): 0, or -1 when there is none.  */
PP_IO_API int pp_read_journal (const char *path, size_t hlen,
                               uint64_t (*size_of) (const unsigned char *,
                                                    size_t),
                               int (*whole) (const char *, size_t),
                               char **buf, size_t *len);

/* LEN bytes of BUF to PATH atomically (temporary, maybe fsync, rename):
   0, or -1 with errno set.  */
PP_IO_API int pp_write_file_atomic (const char *path, const void *buf,
                                    size_t len);
/* LEN bytes of BUF over PATH in place, its inode kept, for a writer
   holding PATH's lock; crash safe through a journal (file_io.c).  0, or
   -1 with errno set.  */
PP_IO_API int pp_write_file_in_place (const char *path, const void *buf,
                                      size_t len);

#endif
