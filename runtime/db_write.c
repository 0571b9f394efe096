/* Writing profiles into a profile database (PPGCC_PROFILE_DB=DIR,
   lib/profile_db.c): each unit's counts since the last dump become a new
   segment of its object in the current epoch, under its image's GNU build
   id, instead of being merged into <object>.ppd.  Called by pprt.c's
   __pp_dump under its dump lock.  */
#define _GNU_SOURCE
/* Cold code, in every instrumented program: small rather than fast.  */
#pragma GCC optimize ("Os")
#include "lib_in_runtime.h"
#include "pp/ppd.h"
#include "pp/profile_db.h"
#include "file_io.h"

#include <errno.h>

#include "pp/rt_abi.h"

#include <elf.h>
#include <limits.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#define PPRT_HIDDEN __attribute__ ((visibility ("hidden")))

#include "build_id.h"
#include "db_write.h"

struct image_query
{
  uintptr_t addr;
  char id[130];
  char path[PATH_MAX];
  int found;
};

static int
find_image (struct dl_phdr_info *info, size_t size, void *ctx)
{
  struct image_query *q = ctx;
  (void) size;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
      if (ph->p_type != PT_LOAD || q->addr < lo || q->addr >= lo + ph->p_memsz)
        continue;
      pp_build_id_hex (info, q->id, sizeof q->id);
      const char *name = info->dlpi_name;
      if (name && *name)
        snprintf (q->path, sizeof q->path, "%s", name);
      else
        {
          ssize_t n = readlink ("/proc/self/exe", q->path, sizeof q->path - 1);
          q->path[n > 0 ? n : 0] = '\0';
        }
      q->found = 1;
      return 1;
    }
  return 0;
}

/* dl_iterate_phdr's first object: the executable.  */
static int
first_image (struct dl_phdr_info *info, size_t size, void *ctx)
{
  struct image_query *q = ctx;
  const ElfW (Phdr) *ph = info->dlpi_phdr;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (ph[i].p_type == PT_LOAD)
      {
        q->addr = info->dlpi_addr + ph[i].p_vaddr;
        return find_image (info, size, ctx);
      }
  return 0;
}

static uint32_t
fnv32 (const char *s)
{
  uint32_t h = 2166136261u;
  for (; *s; s++)
    h = (h ^ (unsigned char) *s) * 16777619u;
  return h;
}

static void __pp_db_end (struct __pp_db_session *s);

static int
__pp_db_begin (struct __pp_db_session *s)
{
  memset (s, 0, sizeof *s);
  s->lock_fd = -1;
  s->db = getenv ("PPGCC_PROFILE_DB");
  if (!s->db || !*s->db)
    return 1;
  const char *why = NULL;
  char *epoch = NULL;
  if (pdb_open_root (s->db, 1, &why) < 0)
    goto fail;
  s->lock_fd = pdb_lock_epochs (s->db, 0);
  if (s->lock_fd < 0)
    {
      why = strerror (errno);
      goto fail;
    }
  if (pdb_current_epoch (s->db, s->lock_fd, &epoch, &why) < 0)
    goto fail;
  s->epoch_dir = pdb_epoch_dir (s->db, epoch);
  free (epoch);
  if (s->epoch_dir)
    return 0;
  why = "out of memory";
fail:
  fprintf (stderr, "ppgcc profile: PPGCC_PROFILE_DB=%s: %s; counts not "
           "written\n", s->db, why);
  __pp_db_end (s);
  return -1;
}

static void
__pp_db_end (struct __pp_db_session *s)
{
  pdb_unlock (s->lock_fd);
  s->lock_fd = -1;
  free (s->epoch_dir);
  s->epoch_dir = NULL;
}

/* The image's directory name: its build id; without one (linked with
   --build-id=none), a hash of its path stands for it.  */
static void
image_key (const struct image_query *q, char *out, size_t n)
{
  if (q->id[0])
    snprintf (out, n, "%s", q->id);
  else
    snprintf (out, n, "path-%08x", fnv32 (q->path));
}

/* The test suite's killed writer (PPGCC_DB_TEST_CRASH=segment): half a
   segment in a temporary, as kill -9 in the middle of a write leaves it,
   then SIGKILL.  */
static void
crash_mid_segment (const char *odir, const ppd_profile *p)
{
  unsigned char *buf;
  size_t len;
  char tmp[PATH_MAX];
  snprintf (tmp, sizeof tmp, "%s/s-crash.ppd" PP_TMP_INFIX "%ld."
            "0123456789abcdef", odir, (long) getpid ());
  if (ppd_encode (p, &buf, &len) == 0)
    {
      int fd = open (tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
      if (fd >= 0)
        {
          ssize_t w = write (fd, buf, len / 2);
          (void) w;
        }
    }
  raise (SIGKILL);
}

static char *
__pp_db_context_path (struct __pp_db_session *s)
{
  /* The executable: its first loaded object (dl_iterate_phdr's first).  */
  struct image_query q = { .addr = 0 };
  dl_iterate_phdr (first_image, &q);
  char image[140];
  image_key (&q, image, sizeof image);
  const char *slash = strrchr (q.path, '/');
  char name[160];
  snprintf (name, sizeof name, "%.150s.ppc", slash ? slash + 1 : q.path);
  char *odir = pdb_object_dir (s->epoch_dir, image, q.path, NULL);
  char *path = odir ? pdb_join (odir, name) : NULL;
  if (!path)
    fprintf (stderr, "ppgcc profile: %s/%s: %s; context profile not "
             "written\n", s->epoch_dir, image, strerror (errno));
  free (odir);
  return path;
}

static int
__pp_db_write_unit (struct __pp_db_session *s, const struct __pp_unit *u,
                    const ppd_profile *snap)
{
  struct image_query q = { .addr = (uintptr_t) u };
  dl_iterate_phdr (find_image, &q);
  char image[140];
  image_key (&q, image, sizeof image);
  /* The object: its profile's name without .ppd, and a hash of the whole
     path, for objects of one name in different directories.  */
  const char *slash = strrchr (u->ppd_path, '/');
  const char *base = slash ? slash + 1 : u->ppd_path;
  size_t blen = strlen (base);
  if (blen > 4 && !strcmp (base + blen - 4, ".ppd"))
    blen -= 4;
  if (blen > 100)
    blen = 100;
  char key[128];
  snprintf (key, sizeof key, "%.*s-%08x", (int) blen, base,
            fnv32 (u->ppd_path));
  for (char *k = key; *k; k++)
    if (*k == '/' || (k == key && *k == '.'))
      *k = '_';
  char *odir = pdb_object_dir (s->epoch_dir, image, q.found ? q.path : NULL,
                               key);
  if (!odir)
    {
      fprintf (stderr, "ppgcc profile: %s/%s/%s: %s; counts not written\n",
               s->epoch_dir, image, key, strerror (errno));
      return -1;
    }
  if (pdb_test_crash_point ("segment"))
    crash_mid_segment (odir, snap);
  int rc = pdb_write_segment (odir, snap);
  if (rc < 0)
    fprintf (stderr, "ppgcc profile: %s: cannot write a segment: %s; "
             "counts not written\n", odir, strerror (errno));
  else if (pdb_count_segments (odir) >= PDB_MAX_SEGMENTS)
    {
      const char *why;
      if (pdb_compact_object (odir, 0, &why) < 0)
        fprintf (stderr, "ppgcc profile: %s: cannot compact: %s; the "
                 "segments stay\n", odir, why);
    }
  free (odir);
  return rc;
}

/* What pprt.c calls, when this file is linked (db_write.h).  The driver
   names __pp_db_writer_linked (-u), which only this file defines: the
   pointer's weak definition in pprt.c would not pull it out of the
   archive.  This definition of the pointer overrides that one.  */
PPRT_HIDDEN const struct __pp_db_writer __pp_db_writer_linked = {
  __pp_db_begin, __pp_db_end, __pp_db_write_unit, __pp_db_context_path
};
const struct __pp_db_writer *__pp_db_writer = &__pp_db_writer_linked;
