/* ccache with ppgcc.

   ccache decides a cached object is right by hashing the compiler, its
   arguments and the sources.  An object ppgcc builds depends on three
   things ccache cannot see in ppgcc's own arguments:
   - the plugin (ppgcc.so), which the argument only names;
   - the working directory: an instrumented object embeds the absolute
     path of its profile (plugin/emit.cc, ppgcc_ppd_path), and ccache
     hashes the directory only with -g;
   - with -fuse-path-profile, the profile's contents: retraining changes
     the object, not the command.
   So ccache goes after ppgcc, never before it: with PPGCC_CCACHE=ccache,
   ppgcc runs `ccache gcc ...` for each compilation, with the working
   directory in an argument (-fplugin-arg-ppgcc-cache-key) and the plugin
   and every profile the plugin could read in CCACHE_EXTRAFILES, whose
   contents ccache hashes.  The same holds when the gcc ppgcc runs is
   ccache's masquerading link (/usr/lib/ccache/gcc).  ccache in front of
   ppgcc (CC="ccache ppgcc") refuses -fprofile-paths itself ("unsupported
   compiler option") and so stays right; with -fuse-path-profile it would
   serve stale objects, so ppgcc refuses that with one line.  */
#include "config.h"

#include <libiberty/libiberty.h>

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ccache.h"

const char *
ppgcc_ccache_program (void)
{
  const char *c = getenv ("PPGCC_CCACHE");
  return c && *c ? c : NULL;
}

int
ppgcc_cc_is_ccache (const char *cc)
{
  char real[PATH_MAX];
  return realpath (cc, real) && !strcmp (lbasename (real), "ccache");
}

int
ppgcc_under_ccache (void)
{
  /* ccache sets it for the compiler it caches (and only then: for a
     command it refuses it runs the compiler without it).  */
  return getenv ("UNCACHED_ERR_FD") != NULL;
}

/* NAME without its last extension: "dir/t.c" gives "t".  */
static char *
stem (const char *name)
{
  char *s = xstrdup (lbasename (name));
  char *dot = strrchr (s, '.');
  if (dot && dot != s)
    *dot = '\0';
  return s;
}

typedef struct
{
  char *base[64];   /* candidate profile names, "<stem>.ppd" */
  int nbase;
  char *files;      /* the CCACHE_EXTRAFILES value being built */
} candidates;

static void
add_base (candidates *c, char *name)
{
  if (c->nbase < 64)
    c->base[c->nbase++] = concat (name, ".ppd", NULL);
  free (name);
}

static void
add_file (candidates *c, const char *path)
{
  struct stat st;
  if (stat (path, &st) != 0 || !S_ISREG (st.st_mode))
    return;
  if (c->files)
    {
      size_t len = strlen (path);
      for (const char *f = c->files; f; f = strchr (f, ':'), f = f ? f + 1 : f)
        if (!strncmp (f, path, len) && (f[len] == ':' || !f[len]))
          return;
    }
  char *old = c->files;
  c->files = old ? concat (old, ":", path, NULL) : xstrdup (path);
  free (old);
}

/* Whether file name NAME could be the profile of one of C's objects: one
   of its names, or one under -fprofile-dir (the object's path with '#'
   for '/', ending "#<name>").  */
static int
matches (const candidates *c, const char *name)
{
  size_t len = strlen (name);
  for (int i = 0; i < c->nbase; i++)
    {
      size_t bl = strlen (c->base[i]);
      if (!strcmp (name, c->base[i])
          || (len > bl && name[len - bl - 1] == '#'
              && !strcmp (name + len - bl, c->base[i])))
        return 1;
    }
  return 0;
}

/* A context profile: the plugin reads every .ppc in the directory of the
   profile it uses and in the -fuse-path-profile directory
   (plugin/context-profile.cc).  */
static int
is_context_profile (const char *name)
{
  size_t len = strlen (name);
  return len > 4 && !strcmp (name + len - 4, ".ppc");
}

/* The context profiles in DIR (not below it).  */
static void
add_context_profiles (candidates *c, const char *dir)
{
  DIR *d = opendir (dir);
  struct dirent *e;
  while (d && (e = readdir (d)))
    if (is_context_profile (e->d_name))
      {
        char *path = concat (dir, "/", e->d_name, NULL);
        add_file (c, path);
        free (path);
      }
  if (d)
    closedir (d);
}

/* Every file below DIR that could be one of C's profiles: the plugin's
   search for a profile under a -fuse-path-profile directory goes by the
   file name (plugin/profile-use.cc), so this is a superset of what it
   may read, context profiles included.  */
static void
add_matching_below (candidates *c, const char *dir, int depth)
{
  DIR *d = depth < 32 ? opendir (dir) : NULL;
  if (!d)
    return;
  struct dirent *e;
  while ((e = readdir (d)))
    {
      if (!strcmp (e->d_name, ".") || !strcmp (e->d_name, ".."))
        continue;
      char *path = concat (dir, "/", e->d_name, NULL);
      struct stat st;
      if (lstat (path, &st) == 0)
        {
          if (S_ISDIR (st.st_mode))
            add_matching_below (c, path, depth + 1);
          else if (S_ISREG (st.st_mode)
                   && (matches (c, e->d_name)
                       || is_context_profile (e->d_name)))
            add_file (c, path);
        }
      free (path);
    }
  closedir (d);
}

static int
is_source (const char *a)
{
  const char *dot = strrchr (lbasename (a), '.');
  if (!dot)
    return 0;
  static const char *const kinds[] = { ".o", ".a", ".so", ".lo", ".la", NULL };
  for (const char *const *k = kinds; *k; k++)
    if (!strcmp (dot, *k))
      return 0;
  return 1;
}

/* The profiles a -fuse-path-profile compile of CL may read, by name: the
   object's own (GCC's aux name: the -o stem, the source stem, or
   "<output>-<source>" for a compile-and-link) in the working directory,
   beside the output, under -fprofile-dir and under the
   -fuse-path-profile directory; or that file.  */
static void
add_profiles (candidates *c, const ppgcc_cmdline *cl)
{
  const char *out = NULL, *profile_dir = NULL;
  for (int i = 0; i < cl->npass; i++)
    {
      const char *a = cl->pass[i];
      if (!strcmp (a, "-o") && i + 1 < cl->npass)
        out = cl->pass[++i];
      else if (!strncmp (a, "-fprofile-dir=", 14))
        profile_dir = a + 14;
    }
  if (out)
    add_base (c, stem (out));
  for (int i = 0; i < cl->npass; i++)
    {
      const char *a = cl->pass[i];
      if (!strcmp (a, "-o") || !strcmp (a, "-x"))
        {
          i++;
          continue;
        }
      if (a[0] == '-' || !is_source (a))
        continue;
      add_base (c, stem (a));
      if (out)
        {
          char *o = stem (out), *s = stem (a);
          add_base (c, concat (o, "-", s, NULL));
          free (o);
          free (s);
        }
    }
  struct stat st;
  if (cl->use_path && *cl->use_path && stat (cl->use_path, &st) == 0
      && !S_ISDIR (st.st_mode))
    {
      add_file (c, cl->use_path);
      /* The context profiles beside that file.  */
      char *dir = xstrdup (cl->use_path);
      char *slash = strrchr (dir, '/');
      if (slash)
        *slash = '\0';
      add_context_profiles (c, slash ? dir : ".");
      free (dir);
      return;
    }
  if (cl->use_path && *cl->use_path)
    add_matching_below (c, cl->use_path, 0);
  if (profile_dir)
    add_matching_below (c, profile_dir, 0);
  char *out_dir = out ? xstrdup (out) : xstrdup (".");
  char *slash = strrchr (out_dir, '/');
  if (slash)
    *slash = '\0';
  else
    strcpy (out_dir, ".");
  add_context_profiles (c, out_dir);
  for (int i = 0; i < c->nbase; i++)
    {
      char *here = concat (out_dir, "/", c->base[i], NULL);
      add_file (c, here);
      free (here);
      if (strcmp (out_dir, "."))
        add_file (c, c->base[i]);
    }
  free (out_dir);
}

void
ppgcc_ccache_prepare (ppgcc_cmdline *cl, const char *plugin)
{
  char cwd[PATH_MAX];
  if (!getcwd (cwd, sizeof cwd))
    strcpy (cwd, ".");
  cl->cache_key = concat ("-fplugin-arg-ppgcc-cache-key=", cwd, NULL);
  candidates c = { { NULL }, 0, NULL };
  add_file (&c, plugin);
  if (cl->use_profile)
    add_profiles (&c, cl);
  const char *user = getenv ("CCACHE_EXTRAFILES");
  char *value = user && *user ? concat (user, ":", c.files, NULL)
                              : xstrdup (c.files ? c.files : "");
  setenv ("CCACHE_EXTRAFILES", value, 1);
  free (value);
  free (c.files);
  for (int i = 0; i < c.nbase; i++)
    free (c.base[i]);
}
