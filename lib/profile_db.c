/* The profile database (PPGCC_PROFILE_DB=DIR): profiles kept in epochs,
   per image, per object, after DCPI's on-disk profile database (Anderson
   et al., "Continuous profiling", §4.3: a profile per image per epoch,
   written continuously, never rewritten once the epoch is over).  The
   layout, doc/profile-db.md:

     DIR/FORMAT                        "ppgcc profile database 1"
     DIR/epochs.lock                   writers shared, `epoch new` exclusive
     DIR/epochs/E/EPOCH                "started <ns since 1970>"
     DIR/epochs/E/CLOSED               "closed <ns>": no run writes to E
     DIR/epochs/E/I/IMAGE              the image's path (I: its build id)
     DIR/epochs/E/I/O/                 one object's profiles:
         s-<ns>-<pid>-<random>.ppd     a run's counts (a segment): written
                                       once (temporary + rename), never
                                       changed
         base-<g>.ppd                  the segments compacted so far
         absorbed-<g>/                 segments a compaction to base-<g>
                                       is taking in (left by a crash)
         lock                          readers shared, compaction exclusive

   Writers take no lock of the object: a run writes a new segment, so
   concurrent runs lose nothing and a run killed mid-write leaves only a
   temporary nobody reads.  Compaction (the runtime's, past
   PDB_MAX_SEGMENTS, or `ppprof db compact`) is crash-safe in three
   steps: move the segments into absorbed-<g+1>/, write base-<g+1>.ppd,
   remove absorbed-<g+1>/ and base-<g>.ppd.  A reader counts the highest
   base, the segments, and an absorbed-<k>/ whose base-<k> is not there
   yet; each run is counted exactly once whenever a compaction stops.

   Linked into the core library; the runtime compiles this file as its
   own object under __pp_ names (runtime/lib_in_runtime.h), where
   PDB_RAW_COUNTS merges segments as written.  */
#ifndef PDB_API
#define PDB_API
#endif

#include "pp/ppd.h"
#include "pp/ppd_derive.h"
#include "pp/profile_db.h"
#include "file_io.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------- helpers */

PDB_API char *
pdb_join (const char *a, const char *b)
{
  size_t n = strlen (a) + strlen (b) + 2;
  char *s = malloc (n);
  if (s)
    snprintf (s, n, "%s/%s", a, b);
  return s;
}

/* mkdir that accepts an existing directory (not a link to one).  */
static int
pdb_mkdir (const char *path)
{
  struct stat st;
  if (mkdir (path, 0755) == 0)
    return 0;
  if (errno == EEXIST && lstat (path, &st) == 0 && S_ISDIR (st.st_mode))
    return 0;
  if (errno == EEXIST)
    errno = ENOTDIR;
  return -1;
}

/* mkdir -p: PATH's missing directories, PATH too.  */
static int
pdb_mkdirs (const char *path)
{
  char *p = strdup (path);
  if (!p)
    return -1;
  for (char *c = p + 1; *c; c++)
    if (*c == '/')
      {
        *c = '\0';
        mkdir (p, 0755);
        *c = '/';
      }
  int rc = pdb_mkdir (p);
  free (p);
  return rc;
}

PDB_API uint64_t
pdb_now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_REALTIME, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* A small file's first line's number after KEY ("started 123"): 0, or
   -1 (missing, unreadable).  */
static int
pdb_read_stamp (const char *dir, const char *file, const char *key,
                uint64_t *out)
{
  char *path = pdb_join (dir, file), *buf;
  size_t len;
  const char *why;
  int rc = path ? pp_read_whole_file_flags (path, O_NOFOLLOW, &buf, &len,
                                            &why)
                : -1;
  free (path);
  if (rc != 0)
    return -1;
  size_t k = strlen (key);
  rc = -1;
  if (len > k && !memcmp (buf, key, k) && buf[k] == ' ')
    {
      uint64_t v = 0;
      size_t i = k + 1;
      for (; i < len && buf[i] >= '0' && buf[i] <= '9'; i++)
        v = v * 10 + (uint64_t) (buf[i] - '0');
      if (i > k + 1)
        {
          *out = v;
          rc = 0;
        }
    }
  free (buf);
  return rc;
}

PDB_API int
pdb_write_stamp (const char *dir, const char *file, const char *key,
                 uint64_t v)
{
  char line[64];
  int n = snprintf (line, sizeof line, "%s %llu\n", key,
                    (unsigned long long) v);
  char *path = pdb_join (dir, file);
  int rc = path ? pp_write_file_atomic (path, line, (size_t) n) : -1;
  free (path);
  return rc;
}

/* An epoch's or a database's name part: [A-Za-z0-9._-], not "." or "..",
   at most 64 characters.  */
PDB_API int
pdb_valid_name (const char *s)
{
  size_t n = strlen (s);
  if (n == 0 || n > 64 || !strcmp (s, ".") || !strcmp (s, ".."))
    return 0;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')
          || (*s >= '0' && *s <= '9') || *s == '.' || *s == '_'
          || *s == '-'))
      return 0;
  return 1;
}

/* The test suite's crash points (PPGCC_DB_TEST_CRASH=POINT,
   testsuite/ppgcc.db/crash.exp): whether to stop at POINT; the compaction
   kills itself there as a crash or kill -9 would.  */
PDB_API int
pdb_test_crash_point (const char *point)
{
  const char *s = getenv ("PPGCC_DB_TEST_CRASH");
  return s && !strcmp (s, point);
}

/* ------------------------------------------------------------ the root */

/* Whether DIR is not there, or is an empty directory, or holds only what
   another run making the database at the same moment put there: a
   database may be made there (never in a directory of other files, $HOME
   say).  */
static int
pdb_empty_or_missing (const char *dir)
{
  DIR *d = opendir (dir);
  if (!d)
    return errno == ENOENT;
  struct dirent *e;
  int empty = 1;
  while (empty && (e = readdir (d)))
    if (strcmp (e->d_name, ".") && strcmp (e->d_name, "..")
        && strcmp (e->d_name, "epochs") && strcmp (e->d_name, "epochs.lock")
        && strcmp (e->d_name, "FORMAT")
        && strncmp (e->d_name, "FORMAT" PP_TMP_INFIX,
                    sizeof "FORMAT" PP_TMP_INFIX - 1))
      empty = 0;
  closedir (d);
  return empty;
}

#define PDB_FORMAT_LINE "ppgcc profile database 1\n"

PDB_API int
pdb_open_root (const char *db, int create, const char **why)
{
  char *format = pdb_join (db, "FORMAT"), *epochs = pdb_join (db, "epochs");
  char *buf = NULL;
  size_t len;
  int rc = -1;
  *why = "out of memory";
  if (!format || !epochs)
    goto out;
  int have = pp_read_whole_file_flags (format, O_NOFOLLOW, &buf, &len, why);
  if (have == 0)
    {
      if (len < sizeof PDB_FORMAT_LINE - 1
          || memcmp (buf, PDB_FORMAT_LINE, sizeof PDB_FORMAT_LINE - 1))
        *why = "FORMAT is not \"" "ppgcc profile database 1" "\"";
      else
        rc = 0;
    }
  else if (have > 0 && !create)
    *why = "not a profile database (no FORMAT file)";
  else if (have > 0 && !pdb_empty_or_missing (db))
    *why = "not a profile database (no FORMAT file) and not empty; not "
           "made one";
  else if (have > 0)
    {
      if (pdb_mkdirs (db) < 0 || pdb_mkdir (epochs) < 0
          || pp_write_file_atomic (format, PDB_FORMAT_LINE,
                                   sizeof PDB_FORMAT_LINE - 1) < 0)
        *why = strerror (errno);
      else
        rc = 0;
    }
  if (rc == 0 && pdb_mkdir (epochs) < 0)
    {
      *why = strerror (errno);
      rc = -1;
    }
out:
  free (buf);
  free (format);
  free (epochs);
  return rc;
}

/* DB's epochs lock, taken shared (writers) or exclusive (epoch changes).
   The descriptor, or -1 with errno.  */
PDB_API int
pdb_lock_epochs (const char *db, int exclusive)
{
  char *path = pdb_join (db, "epochs.lock");
  if (!path)
    return -1;
  int fd = open (path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0)
    fd = open (path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  free (path);
  if (fd < 0)
    return -1;
  while (flock (fd, exclusive ? LOCK_EX : LOCK_SH) < 0)
    if (errno != EINTR)
      {
        close (fd);
        return -1;
      }
  return fd;
}

PDB_API void
pdb_unlock (int fd)
{
  if (fd >= 0)
    close (fd); /* releases the flock */
}

/* ------------------------------------------------------------- epochs */

/* DB's epochs directory and epoch E in it, malloc'd.  */
PDB_API char *
pdb_epoch_dir (const char *db, const char *epoch)
{
  char *epochs = pdb_join (db, "epochs");
  char *dir = epochs ? pdb_join (epochs, epoch) : NULL;
  free (epochs);
  return dir;
}

/* Epoch E's start, and whether it is closed.  0, or -1 when E is not an
   epoch (no EPOCH file).  */
PDB_API int
pdb_epoch_info (const char *db, const char *epoch, uint64_t *started,
                uint64_t *closed)
{
  char *dir = pdb_epoch_dir (db, epoch);
  int rc = dir ? pdb_read_stamp (dir, "EPOCH", "started", started) : -1;
  *closed = 0;
  if (rc == 0)
    pdb_read_stamp (dir, "CLOSED", "closed", closed);
  free (dir);
  return rc;
}

/* Whether epoch A (started SA) comes before B (SB): by start, then name. */
PDB_API int
pdb_epoch_before (uint64_t sa, const char *a, uint64_t sb, const char *b)
{
  return sa != sb ? sa < sb : strcmp (a, b) < 0;
}

/* The newest open epoch's name (malloc'd) in *NAME and its start, or
   *NAME NULL when every epoch is closed or there is none; the newest
   epoch of all in *LATEST (0: none).  0, or -1 (unreadable).  */
PDB_API int
pdb_newest_open (const char *db, char **name, uint64_t *latest)
{
  char *epochs = pdb_join (db, "epochs");
  DIR *d = epochs ? opendir (epochs) : NULL;
  free (epochs);
  *name = NULL;
  *latest = 0;
  if (!d)
    return -1;
  uint64_t best = 0;
  struct dirent *e;
  while ((e = readdir (d)))
    {
      uint64_t started, closed;
      if (!pdb_valid_name (e->d_name)
          || pdb_epoch_info (db, e->d_name, &started, &closed) < 0)
        continue;
      if (started > *latest)
        *latest = started;
      if (closed)
        continue;
      if (!*name || pdb_epoch_before (best, *name, started, e->d_name))
        {
          char *copy = strdup (e->d_name);
          if (!copy)
            continue;
          free (*name);
          *name = copy;
          best = started;
        }
    }
  closedir (d);
  return 0;
}

/* A default epoch name: the UTC time, 20261124T043000Z.  */
PDB_API void
pdb_default_epoch_name (char *out, size_t n, uint64_t ns)
{
  time_t t = (time_t) (ns / 1000000000u);
  struct tm tm;
  gmtime_r (&t, &tm);
  strftime (out, n, "%Y%m%dT%H%M%SZ", &tm);
}

/* Starts epoch NAME after every epoch there is and closes the open ones;
   under the exclusive epochs lock.  0, or -1 with *WHY.  */
PDB_API int
pdb_start_epoch (const char *db, const char *name, const char **why)
{
  char *open_name;
  uint64_t latest;
  if (pdb_newest_open (db, &open_name, &latest) < 0)
    {
      *why = strerror (errno);
      return -1;
    }
  uint64_t now = pdb_now_ns ();
  if (now <= latest)
    now = latest + 1; /* after the newest, whatever the clock says */
  char *dir = pdb_epoch_dir (db, name);
  int rc = -1;
  *why = "out of memory";
  if (dir && mkdir (dir, 0755) < 0)
    *why = errno == EEXIST ? "an epoch of that name exists" : strerror (errno);
  else if (dir && pdb_write_stamp (dir, "EPOCH", "started", now) < 0)
    *why = strerror (errno);
  else if (dir)
    rc = 0;
  free (dir);
  /* Close every other open epoch (one, unless writers raced to make the
     first).  */
  while (rc == 0 && open_name)
    {
      char *odir = pdb_epoch_dir (db, open_name);
      if (odir)
        pdb_write_stamp (odir, "CLOSED", "closed", now);
      free (odir);
      free (open_name);
      if (pdb_newest_open (db, &open_name, &latest) < 0)
        break;
      if (open_name && !strcmp (open_name, name))
        {
          free (open_name);
          open_name = NULL;
        }
    }
  free (open_name);
  return rc;
}

/* The epoch runs write to now: the newest open one; when there is none,
   a new one named by the time.  Holding the shared epochs lock FD, which
   it may trade for the exclusive one and back.  *NAME malloc'd.  0 or
   -1 with *WHY.  */
PDB_API int
pdb_current_epoch (const char *db, int fd, char **name, const char **why)
{
  uint64_t latest;
  if (pdb_newest_open (db, name, &latest) < 0)
    {
      *why = strerror (errno);
      return -1;
    }
  if (*name)
    return 0;
  flock (fd, LOCK_EX);
  int rc = pdb_newest_open (db, name, &latest);
  if (rc == 0 && !*name)
    {
      char stamp[32];
      pdb_default_epoch_name (stamp, sizeof stamp, pdb_now_ns ());
      rc = pdb_start_epoch (db, stamp, why);
      if (rc == 0)
        *name = strdup (stamp);
      if (rc == 0 && !*name)
        {
          *why = "out of memory";
          rc = -1;
        }
    }
  else if (rc < 0)
    *why = strerror (errno);
  flock (fd, LOCK_SH);
  return rc;
}

/* ------------------------------------------------------------ objects */

/* The object directory of object KEY of image IMAGE in epoch E's
   directory EDIR (KEY NULL: the image's directory), made if need be;
   IMAGE_PATH recorded once.  malloc'd, or NULL with errno.  */
PDB_API char *
pdb_object_dir (const char *edir, const char *image, const char *image_path,
                const char *key)
{
  char *idir = pdb_join (edir, image);
  char *odir = idir ? (key ? pdb_join (idir, key) : strdup (idir)) : NULL;
  if (!odir || pdb_mkdir (idir) < 0 || pdb_mkdir (odir) < 0)
    {
      free (idir);
      free (odir);
      return NULL;
    }
  char *ipath = pdb_join (idir, "IMAGE");
  struct stat st;
  if (ipath && image_path && lstat (ipath, &st) < 0)
    {
      size_t n = strlen (image_path);
      char *line = malloc (n + 2);
      if (line)
        {
          memcpy (line, image_path, n);
          line[n] = '\n';
          pp_write_file_atomic (ipath, line, n + 1);
        }
      free (line);
    }
  free (ipath);
  free (idir);
  return odir;
}

/* Whether NAME is a segment: s-...ppd, not a temporary.  */
static int
pdb_is_segment (const char *name)
{
  size_t n = strlen (name);
  return n > 6 && !strncmp (name, "s-", 2) && !strcmp (name + n - 4, ".ppd")
         && !strstr (name, PP_TMP_INFIX);
}

/* base-<g>.ppd or absorbed-<g>: G.  */
static int
pdb_generation (const char *name, const char *prefix, const char *suffix,
                uint64_t *g)
{
  size_t p = strlen (prefix), s = strlen (suffix), n = strlen (name);
  if (n <= p + s || strncmp (name, prefix, p)
      || strcmp (name + n - s, suffix))
    return 0;
  uint64_t v = 0;
  for (size_t i = p; i < n - s; i++)
    {
      if (name[i] < '0' || name[i] > '9' || i - p > 18)
        return 0;
      v = v * 10 + (uint64_t) (name[i] - '0');
    }
  *g = v;
  return 1;
}

/* Writes P as a new segment of object directory ODIR.  0 or -1, errno. */
PDB_API int
pdb_write_segment (const char *odir, const ppd_profile *p)
{
  char name[96];
  snprintf (name, sizeof name, "s-%llu-%ld-%08llx.ppd",
            (unsigned long long) pdb_now_ns (), (long) getpid (),
            (unsigned long long) (pp_random64 () & 0xffffffffu));
  char *path = pdb_join (odir, name);
  int rc = path ? ppd_write_file (path, p) : -1;
  free (path);
  return rc;
}

/* What a directory of ODIR holds, for readers and compaction.  */
typedef struct
{
  char **segments;       /* names, in ODIR */
  size_t nsegments;
  uint64_t base;         /* highest base-<g> (0: none) */
  int have_base;
  uint64_t *absorbed;    /* absorbed-<k> directories */
  size_t nabsorbed;
} pdb_listing;

static void
pdb_listing_free (pdb_listing *l)
{
  for (size_t i = 0; i < l->nsegments; i++)
    free (l->segments[i]);
  free (l->segments);
  free (l->absorbed);
  memset (l, 0, sizeof *l);
}

static int
pdb_list (const char *dir, pdb_listing *l, int with_absorbed)
{
  memset (l, 0, sizeof *l);
  DIR *d = opendir (dir);
  if (!d)
    return -1;
  struct dirent *e;
  int rc = 0;
  while (rc == 0 && (e = readdir (d)))
    {
      uint64_t g;
      if (pdb_is_segment (e->d_name))
        {
          char **more = realloc (l->segments,
                                 (l->nsegments + 1) * sizeof *more);
          char *copy = strdup (e->d_name);
          if (more)
            l->segments = more;
          if (!more || !copy)
            {
              free (copy);
              rc = -1;
              break;
            }
          l->segments[l->nsegments++] = copy;
        }
      else if (pdb_generation (e->d_name, "base-", ".ppd", &g))
        {
          if (!l->have_base || g > l->base)
            l->base = g;
          l->have_base = 1;
        }
      else if (with_absorbed
               && pdb_generation (e->d_name, "absorbed-", "", &g))
        {
          uint64_t *more = realloc (l->absorbed,
                                    (l->nabsorbed + 1) * sizeof *more);
          if (!more)
            {
              rc = -1;
              break;
            }
          l->absorbed = more;
          l->absorbed[l->nabsorbed++] = g;
        }
    }
  closedir (d);
  if (rc < 0)
    pdb_listing_free (l);
  return rc;
}

/* Adds the profile at DIR/NAME to *INTO (the first one read is taken as
   it is: *HAVE 0).  0, or -1 with *WHY (damaged: the reader says where).  */
static int
pdb_add_file (const char *dir, const char *name, ppd_profile *into,
              int *have, const char **why)
{
  char *path = pdb_join (dir, name);
  ppd_profile p;
  if (!path)
    {
      *why = "out of memory";
      return -1;
    }
  int rc = ppd_read_file (path, &p, why);
  free (path);
  if (rc > 0)
    return 0; /* compacted away meanwhile */
  if (rc < 0)
    return -1;
#ifndef PDB_RAW_COUNTS
  static char derive_err[512];
  if (ppd_derive_counts (&p, derive_err, sizeof derive_err) < 0)
    {
      ppd_free (&p);
      *why = derive_err;
      return -1;
    }
#endif
  if (!*have)
    {
      *into = p;
      *have = 1;
      return 0;
    }
  rc = ppd_merge (into, &p, NULL, NULL);
  ppd_free (&p);
  if (rc < 0)
    *why = "out of memory";
  return rc;
}

static int
pdb_add_dir (const char *dir, ppd_profile *into, int *have,
             char **bad, const char **why)
{
  pdb_listing l;
  if (pdb_list (dir, &l, 0) < 0)
    return 0; /* gone: taken in meanwhile */
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < l.nsegments; i++)
    if ((rc = pdb_add_file (dir, l.segments[i], into, have, why)) < 0)
      *bad = pdb_join (dir, l.segments[i]);
  pdb_listing_free (&l);
  return rc;
}

/* The lock of object directory ODIR: flock'd shared or exclusive; NB:
   without waiting.  The descriptor, or -1.  */
static int
pdb_lock_object (const char *odir, int how)
{
  char *path = pdb_join (odir, "lock");
  if (!path)
    return -1;
  int fd = open (path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0 && !(how & LOCK_EX))
    fd = open (path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  free (path);
  if (fd < 0)
    return (how & LOCK_EX) ? -1 : -2; /* a reader may go on unlocked */
  while (flock (fd, how) < 0)
    if (errno != EINTR)
      {
        close (fd);
        return -1;
      }
  return fd;
}

/* Everything object directory ODIR holds, merged, in *OUT (runs 0 and no
   function when it holds nothing).  0, or -1 with *WHY and, when a file
   is damaged, its path in *BAD (malloc'd).  The caller holds ODIR's lock
   (shared suffices), unless HOLD_LOCK says to take it here.  */
/* What listing L of ODIR holds, merged, in *OUT (runs 0 and no function
   when it holds nothing).  0, or -1 with *WHY and, when a file is damaged,
   its path in *BAD (malloc'd).  */
static int
pdb_load_listed (const char *odir, const pdb_listing *l, ppd_profile *out,
                 char **bad, const char **why)
{
  int have = 0, rc = 0;
  memset (out, 0, sizeof *out); /* what is returned when nothing is read */
  if (l->have_base)
    {
      char name[48];
      snprintf (name, sizeof name, "base-%llu.ppd",
                (unsigned long long) l->base);
      if ((rc = pdb_add_file (odir, name, out, &have, why)) < 0)
        *bad = pdb_join (odir, name);
    }
  for (size_t i = 0; rc == 0 && i < l->nsegments; i++)
    if ((rc = pdb_add_file (odir, l->segments[i], out, &have, why)) < 0)
      *bad = pdb_join (odir, l->segments[i]);
  /* A compaction that stopped before writing its base: its segments are
     still to count.  */
  for (size_t i = 0; rc == 0 && i < l->nabsorbed; i++)
    if (!l->have_base || l->absorbed[i] > l->base)
      {
        char name[48];
        snprintf (name, sizeof name, "absorbed-%llu",
                  (unsigned long long) l->absorbed[i]);
        char *dir = pdb_join (odir, name);
        rc = dir ? pdb_add_dir (dir, out, &have, bad, why) : -1;
        free (dir);
      }
  if (rc < 0)
    {
      if (have)
        ppd_free (out);
      memset (out, 0, sizeof *out);
      return -1;
    }
  if (!have)
    out->source = strdup ("");
  return 0;
}

/* Everything object directory ODIR holds, merged, in *OUT, as
   pdb_load_listed; under ODIR's lock, shared, taken here when TAKE_LOCK
   (else the caller holds it).  */
PDB_API int
pdb_load_object (const char *odir, ppd_profile *out, int take_lock,
                 char **bad, const char **why)
{
  memset (out, 0, sizeof *out);
  *bad = NULL;
  int fd = take_lock ? pdb_lock_object (odir, LOCK_SH) : -2;
  if (fd == -1)
    {
      *why = strerror (errno);
      return -1;
    }
  pdb_listing l;
  int rc = -1;
  if (pdb_list (odir, &l, 1) < 0)
    *why = strerror (errno);
  else
    {
      rc = pdb_load_listed (odir, &l, out, bad, why);
      pdb_listing_free (&l);
    }
  pdb_unlock (fd);
  return rc;
}

static int
pdb_cmp_fn (const void *a, const void *b)
{
  const ppd_fn *x = a, *y = b;
  int c = strcmp (x->name, y->name);
  if (c)
    return c;
  if (x->checksum != y->checksum)
    return x->checksum < y->checksum ? -1 : 1;
  return (x->flags > y->flags) - (x->flags < y->flags);
}

/* P's functions in one order whatever order the runs came in: merged
   databases are the same files whichever way they were merged.  */
PDB_API void
pdb_canonical (ppd_profile *p)
{
  if (p->nfns > 1)
    qsort (p->fns, p->nfns, sizeof *p->fns, pdb_cmp_fn);
}

/* Removes DIR/NAME, a directory of segments (absorbed-<k>).  */
static void
pdb_remove_dir (const char *odir, const char *name)
{
  char *dir = pdb_join (odir, name);
  DIR *d = dir ? opendir (dir) : NULL;
  if (d)
    {
      struct dirent *e;
      while ((e = readdir (d)))
        if (strcmp (e->d_name, ".") && strcmp (e->d_name, ".."))
          unlinkat (dirfd (d), e->d_name, 0);
      closedir (d);
      rmdir (dir);
    }
  free (dir);
}

/* Temporaries of writers that died (name "<x>.tmp.<pid>.<hex>"): their
   pid is gone, or they are older than PP_TMP_MAX_AGE.  */
static void
pdb_remove_dead_temps (const char *odir)
{
  DIR *d = opendir (odir);
  if (!d)
    return;
  time_t now = time (NULL);
  struct dirent *e;
  while ((e = readdir (d)))
    {
      const char *t = strstr (e->d_name, PP_TMP_INFIX);
      struct stat st;
      if (!t || fstatat (dirfd (d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0
          || !S_ISREG (st.st_mode))
        continue;
      long pid = strtol (t + strlen (PP_TMP_INFIX), NULL, 10);
      if (pid <= 0 || (kill ((pid_t) pid, 0) < 0 && errno == ESRCH)
          || now - st.st_mtime > PP_TMP_MAX_AGE)
        unlinkat (dirfd (d), e->d_name, 0);
    }
  closedir (d);
}

/* Removes the bases of ODIR older than generation G.  */
static void
pdb_remove_bases_below (const char *odir, uint64_t g)
{
  DIR *d = opendir (odir);
  if (!d)
    return;
  struct dirent *e;
  uint64_t k;
  while ((e = readdir (d)))
    if (pdb_generation (e->d_name, "base-", ".ppd", &k) && k < g)
      unlinkat (dirfd (d), e->d_name, 0);
  closedir (d);
}

/* Compacts object directory ODIR: every segment into one new base (the
   steps at the top of this file).  WAIT 0: gives up (returns 1) when
   someone holds ODIR's lock.  0, 1, or -1 with *WHY.  */
PDB_API int
pdb_compact_object (const char *odir, int wait, const char **why)
{
  int fd = pdb_lock_object (odir, LOCK_EX | (wait ? 0 : LOCK_NB));
  if (fd < 0)
    {
      if (errno == EWOULDBLOCK)
        return 1;
      *why = strerror (errno);
      return -1;
    }
  pdb_remove_dead_temps (odir);
  /* Finish what a stopped compaction left, then take in the segments:
     the merged whole goes to a new generation.  One listing for both the
     counts and the moves: a segment written meanwhile is in neither.  */
  ppd_profile all;
  char *bad = NULL;
  pdb_listing l;
  int rc = pdb_list (odir, &l, 1);
  if (rc < 0)
    *why = strerror (errno);
  else if ((rc = pdb_load_listed (odir, &l, &all, &bad, why)) < 0)
    pdb_listing_free (&l);
  free (bad);
  if (rc < 0)
    {
      pdb_unlock (fd);
      return -1;
    }
  if (l.nsegments == 0 && l.nabsorbed == 0)
    {
      /* Nothing to take in (a run killed before its first segment leaves
         an object directory of nothing, or of only its lock): a new base
         would hold what the old one does, or nothing.  */
      pdb_listing_free (&l);
      ppd_free (&all);
      pdb_unlock (fd);
      return 0;
    }
  uint64_t g = l.have_base ? l.base + 1 : 1;
  for (size_t i = 0; i < l.nabsorbed; i++)
    if (l.absorbed[i] >= g)
      g = l.absorbed[i] + 1;
  char aname[48], bname[48];
  snprintf (aname, sizeof aname, "absorbed-%llu", (unsigned long long) g);
  snprintf (bname, sizeof bname, "base-%llu.ppd", (unsigned long long) g);
  char *adir = pdb_join (odir, aname), *bpath = pdb_join (odir, bname);
  rc = -1;
  *why = "out of memory";
  if (adir && bpath && pdb_mkdir (adir) == 0)
    {
      /* 1: the segments go aside, with their counts in ALL already; a
         segment written since pdb_list stays for the next time.  Earlier
         absorbed directories (a crash) are in ALL too and go with them. */
      rc = 0;
      for (size_t i = 0; rc == 0 && i < l.nsegments; i++)
        {
          char *from = pdb_join (odir, l.segments[i]);
          char *to = pdb_join (adir, l.segments[i]);
          if (!from || !to || rename (from, to) < 0)
            rc = -1;
          free (from);
          free (to);
        }
      if (pdb_test_crash_point ("absorb"))
        raise (SIGKILL);
      pdb_canonical (&all);
      /* 2: the new base; from here on it counts and the aside does not */
      if (rc == 0 && ppd_write_file (bpath, &all) < 0)
        rc = -1;
      if (rc < 0)
        *why = strerror (errno);
      /* (a failed rename above: what moved is counted through absorbed
         until the next compaction) */
      if (rc == 0 && pdb_test_crash_point ("base"))
        raise (SIGKILL);
      if (rc == 0)
        {
          /* 3: what the base holds goes */
          pdb_remove_dir (odir, aname);
          for (size_t i = 0; i < l.nabsorbed; i++)
            {
              char name[48];
              snprintf (name, sizeof name, "absorbed-%llu",
                        (unsigned long long) l.absorbed[i]);
              pdb_remove_dir (odir, name);
            }
          pdb_remove_bases_below (odir, g);
        }
    }
  else if (adir && bpath)
    *why = strerror (errno);
  free (adir);
  free (bpath);
  pdb_listing_free (&l);
  ppd_free (&all);
  pdb_unlock (fd);
  return rc;
}

/* How many segments ODIR holds (for the runtime's compaction).  */
PDB_API size_t
pdb_count_segments (const char *odir)
{
  pdb_listing l;
  if (pdb_list (odir, &l, 0) < 0)
    return 0;
  size_t n = l.nsegments;
  pdb_listing_free (&l);
  return n;
}
