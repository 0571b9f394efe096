/* The objects loaded in this process and the profile's list of them, for
   the .ppc dumps of the instrumented runtime (cct_dump.c) and of the
   sampler (sample/dump.c): loaded_objects.h.  */
#define _GNU_SOURCE
#include "loaded_objects.h"
#include "build_id.h"

#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int
push (struct pp_segments *s, struct pp_segment seg)
{
  if (s->n == s->cap)
    {
      size_t cap = s->cap ? 2 * s->cap : 32;
      struct pp_segment *v = realloc (s->v, cap * sizeof *v);
      if (!v)
        return -1;
      s->v = v;
      s->cap = cap;
    }
  s->v[s->n++] = seg;
  return 0;
}

static int
known (const struct pp_segments *s, uintptr_t lo, const char *path)
{
  for (size_t i = 0; i < s->n; i++)
    if (s->v[i].lo == lo && !strcmp (s->v[i].path, path))
      return 1;
  return 0;
}

struct load
{
  struct pp_segments *s;
  int absolute;
};

static int
add_object (struct dl_phdr_info *info, size_t size, void *ctx)
{
  (void) size;
  struct load *l = ctx;
  struct pp_segments *s = l->s;
  char exe[PATH_MAX];
  const char *path = info->dlpi_name;
  if (!path || !*path)
    {
      ssize_t n = readlink ("/proc/self/exe", exe, sizeof exe - 1);
      exe[n > 0 ? n : 0] = '\0';
      path = n > 0 ? exe : "?";
    }
  char abs[PATH_MAX];
  if (l->absolute && path[0] != '/' && realpath (path, abs))
    path = abs;
  const char *slash = strrchr (path, '/');
  const char *base = slash ? slash + 1 : path;
  char id[130];
  pp_build_id_hex (info, id, sizeof id);
  char *block = NULL;
  int owner = 1;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type != PT_LOAD)
        continue;
      uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
      if (known (s, lo, path))
        continue;
      if (!block)
        {
          size_t bl = strlen (base) + 1, pl = strlen (path) + 1;
          block = malloc (bl + pl + strlen (id) + 1);
          if (!block)
            return 1;
          memcpy (block, base, bl);
          memcpy (block + bl, path, pl);
          strcpy (block + bl + pl, id);
        }
      size_t bl = strlen (block) + 1;
      if (push (s, (struct pp_segment){ lo, lo + ph->p_memsz,
                                        info->dlpi_addr, block, block + bl,
                                        block + bl + strlen (block + bl) + 1,
                                        owner })
          < 0)
        {
          if (owner)
            free (block);
          return 1;
        }
      owner = 0;
    }
  return 0;
}

PPRT_HIDDEN void
__pp_segments_load (struct pp_segments *s, int absolute)
{
  struct load l = { s, absolute };
  dl_iterate_phdr (add_object, &l);
}

PPRT_HIDDEN const struct pp_segment *
__pp_segment_of (const struct pp_segments *s, uintptr_t addr)
{
  for (size_t i = 0; i < s->n; i++)
    if (addr >= s->v[i].lo && addr < s->v[i].hi)
      return &s->v[i];
  return NULL;
}

PPRT_HIDDEN void
__pp_segments_free (struct pp_segments *s)
{
  for (size_t i = 0; i < s->n; i++)
    if (s->v[i].owner)
      free (s->v[i].name);
  free (s->v);
  memset (s, 0, sizeof *s);
}

PPRT_HIDDEN int
__pp_list_object (ppc_profile *p, const struct pp_segment *seg)
{
  for (uint32_t i = 0; i < p->nobjects; i++)
    if (!strcmp (p->objects[i].name, seg->name))
      return 0;
  ppc_object *v = realloc (p->objects, (p->nobjects + 1) * sizeof *v);
  if (!v)
    return -1;
  p->objects = v;
  ppc_object o = { strdup (seg->name), strdup (seg->path),
                   strdup (seg->id) };
  if (!o.name || !o.path || !o.build_id)
    {
      free (o.name);
      free (o.path);
      free (o.build_id);
      return -1;
    }
  v[p->nobjects++] = o;
  return 0;
}
