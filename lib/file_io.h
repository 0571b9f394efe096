/* What the profile codecs (ppd_codec.c, ppc_*.c) and the profile database
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

/* FNV-1a 64 of N bytes at P (the .ppc's checksum, .ppd versions 1-2).  */
PP_IO_API uint64_t pp_fnv64 (const void *p, size_t n);
/* The .ppd checksum from format version 3 on, a word at a time.  */
PP_IO_API uint64_t pp_sum64 (const void *p, size_t n);

/* PATH's bytes in a malloc'd *BUF of *LEN: 0; 1 when PATH does not exist;
   -1 with *WHY a static reason.  _flags adds OFLAGS to open's.  */
PP_IO_API int pp_read_whole_file_flags (const char *path, int oflags,
                                        char **buf, size_t *len,
                                        const char **why);
PP_IO_API int pp_read_whole_file (const char *path, char **buf, size_t *len,
                                  const char **why);
/* The runtime's read of the file it writes next (see file_io.c).  */
PP_IO_API int pp_read_own_file (const char *path, const char *magic,
                                size_t mlen, char **buf, size_t *len,
                                const char **why);

/* The lock file beside PATH ("PATH.lock"), locked for writing: its
   descriptor, or -1 with *WHY; pp_unlock releases it.  */
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
/* Removes what killed writers left beside PATH: temporaries of PATH
   (only names of the pattern above), regular files of this user, whose
   writer no longer runs or that are older than PP_TMP_MAX_AGE.  Call it
   holding PATH's lock: live writers of PATH hold it while their temporary
   exists.  */
PP_IO_API void pp_remove_stale_temps (const char *path);

/* The same in two steps, for a writer of many profiles in one directory
   (the runtime's dump: zstd writes 42 there, and reading the directory
   for each was a tenth of its exit): the names of a directory that hold
   PP_TMP_INFIX, listed once, then each profile's own stale temporaries
   among them, removed under its lock.  A temporary left after the
   listing waits for a later write.  */
typedef struct
{
  char *dir;    /* with its final slash, or "." */
  char **names;
  size_t n;
} pp_temp_list;
PP_IO_API void pp_list_temps (const char *path, pp_temp_list *l);
PP_IO_API int pp_temp_list_of (const pp_temp_list *l, const char *path);
PP_IO_API void pp_remove_stale_temps_among (const char *path,
                                            const pp_temp_list *l);
PP_IO_API void pp_temp_list_free (pp_temp_list *l);

/* LEN bytes of BUF to PATH atomically (temporary, maybe fsync, rename):
   0, or -1 with errno set.  */
PP_IO_API int pp_write_file_atomic (const char *path, const void *buf,
                                    size_t len);

#endif
