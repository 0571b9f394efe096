/* Call sites of a context profile as source lines: a site is the return
   address "<object>+0x<offset>" (include/pp/ppc.h); the profile lists
   each object's path and build id, and addr2line (binutils, there with
   gcc) reads the object's DWARF line table for the call, the byte
   before the return address.  An object that is gone, was rebuilt
   (another build id) or has no line information leaves its sites as
   they are.  */
#include "context.h"

#include "pp/rt_abi.h"

#include "elf_section.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

char *
pp_file_build_id (const char *path)
{
  if (access (path, R_OK) != 0)
    return NULL;
  size_t len = 0;
  unsigned char *note = pp_elf_read_section (path, ".note.gnu.build-id",
                                             &len);
  char *hex = calloc (1, 2 * len + 1);
  if (note && hex && len >= 12)
    {
      uint32_t namesz, descsz, type;
      memcpy (&namesz, note, 4);
      memcpy (&descsz, note + 4, 4);
      memcpy (&type, note + 8, 4);
      size_t off = 12 + ((namesz + 3u) & ~3u);
      if (type == NT_GNU_BUILD_ID && off <= len && descsz <= len - off)
        for (uint32_t k = 0; k < descsz; k++)
          sprintf (hex + 2 * k, "%02x", note[off + k]);
    }
  free (note);
  return hex;
}

/* Splits SITE "NAME+0xOFF": the length of NAME and OFF; 0 when it is not
   such a key ("", "inlined").  */
static size_t
split_site (const char *site, uint64_t *off)
{
  const char *plus = strrchr (site, '+');
  if (!plus || plus == site || strncmp (plus, "+0x", 3) != 0 || !plus[3])
    return 0;
  char *end;
  errno = 0;
  unsigned long long v = strtoull (plus + 3, &end, 16);
  if (*end || errno || v == 0)
    return 0;
  *off = v;
  return (size_t) (plus - site);
}

/* Runs addr2line on OBJECT for the N addresses ADDR, one output line
   each, into OUT[i] (malloc'd "file:line", or left NULL when unknown);
   with FN_NAMES, the name of the function each address is in instead
   (addr2line -f, demangled; from the symbol table, or the dynamic one
   of a stripped object).  */
static void
run_addr2line (const char *object, const uint64_t *addr, size_t n,
               char **out, int fn_names)
{
  char **argv = calloc (n + 8, sizeof *argv);
  char (*num)[24] = calloc (n ? n : 1, sizeof *num);
  int fd[2] = { -1, -1 };
  posix_spawn_file_actions_t fa;
  int have_fa = 0;
  pid_t pid = -1;
  FILE *f = NULL;
  if (!argv || !num || pipe (fd) < 0)
    goto done;
  size_t a = 0;
  argv[a++] = (char *) "addr2line";
  argv[a++] = (char *) "-s";
  if (fn_names)
    {
      argv[a++] = (char *) "-f";
      argv[a++] = (char *) "-C";
    }
  argv[a++] = (char *) "-e";
  argv[a++] = (char *) object;
  for (size_t i = 0; i < n; i++)
    {
      snprintf (num[i], sizeof num[i], "0x%" PRIx64, addr[i]);
      argv[a++] = num[i];
    }
  argv[a] = NULL;
  if (posix_spawn_file_actions_init (&fa) != 0)
    goto done;
  have_fa = 1;
  posix_spawn_file_actions_adddup2 (&fa, fd[1], 1);
  posix_spawn_file_actions_addopen (&fa, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclose (&fa, fd[0]);
  posix_spawn_file_actions_addclose (&fa, fd[1]);
  if (posix_spawnp (&pid, "addr2line", &fa, NULL, argv, environ) != 0)
    pid = -1;
  close (fd[1]);
  fd[1] = -1;
  if (pid < 0 || !(f = fdopen (fd[0], "r")))
    goto done;
  fd[0] = -1;
  char line[4096];
  for (size_t i = 0; i < n && fgets (line, sizeof line, f); i++)
    {
      line[strcspn (line, "\n")] = '\0';
      if (fn_names)
        {
          /* the function's name, then its file:line (skipped) */
          char where[4096];
          if (!fgets (where, sizeof where, f))
            break;
          if (*line && strcmp (line, "??") != 0)
            out[i] = strdup (line);
          continue;
        }
      char *sp = strstr (line, " (discriminator");
      if (sp)
        *sp = '\0';
      char *colon = strrchr (line, ':');
      /* "??:0", "??:?", "t.c:?": nothing known */
      if (!colon || colon == line || !strncmp (line, "??", 2)
          || colon[1] < '1' || colon[1] > '9')
        continue;
      out[i] = strdup (line);
    }
done:
  if (f)
    fclose (f);
  if (fd[0] >= 0)
    close (fd[0]);
  if (fd[1] >= 0)
    close (fd[1]);
  if (pid > 0)
    while (waitpid (pid, NULL, 0) < 0 && errno == EINTR)
      ;
  if (have_fa)
    posix_spawn_file_actions_destroy (&fa);
  free (argv);
  free (num);
}

enum { CHUNK = 4096 };  /* addresses per addr2line run */

void
pp_context_resolve_sites (pp_context *c)
{
  const ppc_profile *p = &c->prof;
  if (c->site_source)
    return;
  c->site_source = calloc (p->nnodes ? p->nnodes : 1, sizeof *c->site_source);
  if (!c->site_source)
    return;
  uint32_t *node = malloc ((p->nnodes + 1) * sizeof *node);
  uint64_t *addr = malloc ((p->nnodes + 1) * sizeof *addr);
  char **text = calloc (p->nnodes + 1, sizeof *text);
  for (uint32_t o = 0; node && addr && text && o < p->nobjects; o++)
    {
      const ppc_object *ob = &p->objects[o];
      size_t n = 0, len = strlen (ob->name);
      for (uint32_t i = 1; i < p->nnodes; i++)
        {
          uint64_t off = 0;
          const char *site = p->nodes[i].site ? p->nodes[i].site : "";
          if (split_site (site, &off) == len
              && !strncmp (site, ob->name, len))
            {
              node[n] = i;
              addr[n++] = off - 1; /* in the call, before its return */
            }
        }
      if (n == 0)
        continue;
      char *id = pp_file_build_id (ob->path);
      int same = id && (!*ob->build_id || !strcmp (id, ob->build_id));
      free (id);
      if (!same)
        continue;
      for (size_t k = 0; k < n; k += CHUNK)
        {
          size_t m = n - k < CHUNK ? n - k : CHUNK;
          run_addr2line (ob->path, addr + k, m, text + k, 0);
          for (size_t j = 0; j < m; j++)
            {
              c->site_source[node[k + j]] = text[k + j];
              text[k + j] = NULL;
            }
        }
    }
  free (node);
  free (addr);
  free (text);
}

const char *
pp_context_site (pp_context *c, uint32_t n)
{
  pp_context_resolve_sites (c);
  if (c->site_source && c->site_source[n])
    return c->site_source[n];
  return c->prof.nodes[n].site ? c->prof.nodes[n].site : "";
}

const char *
pp_context_site_source (pp_context *c, uint32_t n)
{
  pp_context_resolve_sites (c);
  return c->site_source ? c->site_source[n] : NULL;
}

/* The object of the key "NAME+0xOFF" with OFF in *OFF, when the
   profile lists it and the file at its path is the one that ran; else
   NULL.  */
static const ppc_object *
key_object (const ppc_profile *p, const char *key, uint64_t *off)
{
  size_t len = split_site (key, off);
  if (!len)
    return NULL;
  for (uint32_t o = 0; o < p->nobjects; o++)
    if (strlen (p->objects[o].name) == len
        && !strncmp (p->objects[o].name, key, len))
      return &p->objects[o];
  return NULL;
}

void
pp_context_name_functions (pp_context *c)
{
  ppc_profile *p = &c->prof;
  c->fn_key = calloc (p->nfns + 1, sizeof *c->fn_key);
  for (uint32_t i = 0; c->fn_key && i < p->nfns; i++)
    if (p->fns[i].flags & PP_FN_SAMPLED)
      c->fn_key[i] = strdup (p->fns[i].name);
  uint32_t *fn = malloc ((p->nfns + 1) * sizeof *fn);
  uint64_t *addr = malloc ((p->nfns + 1) * sizeof *addr);
  char **name = calloc (p->nfns + 1, sizeof *name);
  for (uint32_t o = 0; fn && addr && name && o < p->nobjects; o++)
    {
      const ppc_object *ob = &p->objects[o];
      size_t n = 0;
      for (uint32_t i = 0; i < p->nfns; i++)
        {
          uint64_t off;
          if ((p->fns[i].flags & PP_FN_SAMPLED)
              && key_object (p, p->fns[i].name, &off) == ob)
            {
              fn[n] = i;
              addr[n++] = off; /* the entry itself */
            }
        }
      if (n == 0)
        continue;
      char *id = pp_file_build_id (ob->path);
      int same = id && (!*ob->build_id || !strcmp (id, ob->build_id));
      free (id);
      if (!same)
        continue;
      for (size_t k = 0; k < n; k += CHUNK)
        {
          size_t m = n - k < CHUNK ? n - k : CHUNK;
          run_addr2line (ob->path, addr + k, m, name + k, 1);
          for (size_t j = 0; j < m; j++)
            if (name[k + j])
              {
                free (p->fns[fn[k + j]].name);
                p->fns[fn[k + j]].name = name[k + j];
                name[k + j] = NULL;
              }
        }
    }
  free (fn);
  free (addr);
  free (name);
}
