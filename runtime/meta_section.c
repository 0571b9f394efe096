/* The functions' CFG metadata, read back from the file a unit was loaded
   from.

   The plugin puts a unit's metadata in a record of the non-allocated
   section .pp_meta (include/pp/rt_abi.h), as debug information is kept:
   linked into the executable or shared object, never mapped.  It was most
   of an instrumented binary's size.  When the runtime writes a
   profile it finds the object that holds the unit (dl_iterate_phdr), reads
   that file's .pp_meta section once (cached for the process: a program
   that dumps often reads it once), and finds the unit's record by its key.

   The main program is read through /proc/self/exe, which names the file
   that was executed even once it is replaced or deleted; a shared object
   by the name the loader opened it under, or, when that name is relative
   (dlopen ("./lib.so"), then chdir), by the path of the file mapped at
   its address (object_path.c).  A rebuilt shared object whose
   record no longer matches is read again once.  When the loaded file
   has no record of the unit (deleted: Tcl loads an extension from a
   virtual file system through a temporary copy it removes at once), the
   unit's own object file, the profile's path with .o for .ppd, holds the
   same record (found by the same key, so never another build's).  A
   stripped or vanished one gets one line per unit and profiles without
   metadata (the counts are kept; ppprof names what is missing).  */
#define _GNU_SOURCE
/* Cold: read once per dump.  */
#pragma GCC optimize ("Os")
/* Functions called once stay calls here: 160 bytes less.  */
#pragma GCC optimize ("no-inline-functions-called-once")
#include "lib_in_runtime.h"
#include "pp/rt_abi.h"
#include "elf_section.h"
#include "object_path.h"

#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#define PPRT_HIDDEN __attribute__ ((visibility ("hidden")))

PPRT_HIDDEN const char *__pp_fn_meta (struct __pp_unit *u,
                                      const struct __pp_fn_desc *d);
PPRT_HIDDEN const char *__pp_unit_bytes (struct __pp_unit *u,
                                         uint64_t offset, uint64_t len);

/* One object file's .pp_meta section, as read.  */
struct meta_file
{
  char *path;
  unsigned char *sect; /* NULL: the file has none, or it is unreadable */
  size_t len;
  struct meta_file *next;
};

static struct meta_file *files;
static pthread_mutex_t meta_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t
le (const unsigned char *p, int bytes)
{
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

/* The data of the record keyed KEY of SIZE data bytes in F, or NULL.  */
static const char *
find_record (const struct meta_file *f, uint64_t key, uint32_t size)
{
  const unsigned char *p = f->sect, *end = p ? p + f->len : p;
  while (p && end - p >= (ptrdiff_t) PP_META_HEADER
         && memcmp (p, PP_META_MAGIC, 4) == 0)
    {
      uint64_t n = le (p + 4, 4);
      if (n < PP_META_HEADER || n > (uint64_t) (end - p))
        break;
      if (le (p + 8, 8) == key && n - PP_META_HEADER == size)
        return (const char *) p + PP_META_HEADER;
      p += n;
    }
  return NULL;
}

static struct meta_file *
load_file (const char *path)
{
  struct meta_file *f = calloc (1, sizeof *f);
  if (!f || !(f->path = strdup (path)))
    {
      free (f);
      return NULL;
    }
  f->sect = pp_elf_read_section (path, PP_META_SECTION, &f->len);
  f->next = files;
  files = f;
  return f;
}

struct find_object
{
  const void *addr;
  char *path; /* malloc'd: the object's file */
};

static int
object_of (struct dl_phdr_info *info, size_t size, void *ctx)
{
  struct find_object *o = ctx;
  (void) size;
  uintptr_t a = (uintptr_t) o->addr;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
      if (ph->p_type != PT_LOAD || a < lo || a - lo >= ph->p_memsz)
        continue;
      const char *name = info->dlpi_name;
      if (!name || !*name)
        {
          /* The main program.  */
          name = "/proc/self/exe";
          if (access (name, R_OK) != 0)
            {
              const char *execfn = (const char *) getauxval (AT_EXECFN);
              name = execfn ? execfn : "";
            }
        }
      /* Opened under a relative name, which the working directory may
         no longer resolve to it (a chdir since): the file mapped at its
         first loaded segment, which holds the file's first page.  */
      if (name[0] != '/')
        for (int j = 0; j < info->dlpi_phnum && !o->path; j++)
          if (info->dlpi_phdr[j].p_type == PT_LOAD)
            {
              o->path = __pp_mapped_file (info->dlpi_addr
                                          + info->dlpi_phdr[j].p_vaddr);
              break;
            }
      if (!o->path)
        o->path = strdup (name);
      return 1;
    }
  return 0;
}

static const char *
unit_record (struct __pp_unit *u)
{
  struct find_object o = { u, NULL };
  dl_iterate_phdr (object_of, &o);
  if (!o.path)
    return NULL;
  const char *rec = NULL;
  struct meta_file *f = files;
  while (f && strcmp (f->path, o.path) != 0)
    f = f->next;
  if (f)
    rec = find_record (f, u->meta_key, u->meta_size);
  /* Not cached, or cached from a file that has been rebuilt since.  */
  if (!rec && (f = load_file (o.path)))
    rec = find_record (f, u->meta_key, u->meta_size);
  /* The loaded file gone or without it: the unit's object file.  */
  size_t plen = strlen (u->ppd_path);
  char *obj = NULL;
  if (!rec && plen > 4 && strcmp (u->ppd_path + plen - 4, ".ppd") == 0
      && (obj = malloc (plen - 1)))
    {
      memcpy (obj, u->ppd_path, plen - 4);
      memcpy (obj + plen - 4, ".o", 3);
      for (f = files; f && strcmp (f->path, obj) != 0; f = f->next)
        ;
      if (f || (f = load_file (obj)))
        rec = find_record (f, u->meta_key, u->meta_size);
      free (obj);
    }
  char exe[PATH_MAX];
  const char *file = o.path;
  ssize_t n;
  if (!rec && strcmp (file, "/proc/self/exe") == 0
      && (n = readlink (file, exe, sizeof exe - 1)) > 0)
    {
      exe[n] = '\0';
      file = exe;
    }
  if (!rec)
    fprintf (stderr,
             "ppgcc profile: %s: the path metadata of %s is not in %s "
             "(stripped with -R " PP_META_SECTION "? or replaced?); its "
             "counts are written without it\n",
             u->ppd_path, u->source, file);
  free (o.path);
  return rec;
}

/* LEN bytes at OFFSET in U's .pp_meta record, or NULL when the record
   cannot be found (said once per unit).  */
const char *
__pp_unit_bytes (struct __pp_unit *u, uint64_t offset, uint64_t len)
{
  pthread_mutex_lock (&meta_lock);
  if (u->meta_state == PP_META_UNREAD)
    {
      u->rt_meta = u->meta_size ? unit_record (u) : NULL;
      u->meta_state = u->rt_meta ? PP_META_READ : PP_META_MISSING;
    }
  pthread_mutex_unlock (&meta_lock);
  if (!u->rt_meta || offset > u->meta_size || len > u->meta_size - offset)
    return NULL;
  return u->rt_meta + offset;
}

/* D's packed metadata (d->meta_len bytes), or NULL.  */
const char *
__pp_fn_meta (struct __pp_unit *u, const struct __pp_fn_desc *d)
{
  if (d->meta_len == 0)
    return "";
  return __pp_unit_bytes (u, d->meta_offset, d->meta_len);
}
