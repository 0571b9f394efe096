/* Source files for ppprof annotate, lcov and html: where they are found
   (pp_open_source), the text by line, and which lines hold code
   (line_counts.h).  */
#include "config.h"

#include "line_counts.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int scan_code (const char *p, int *in_comment);

int
pp_source_read (pp_source *s, const char *path)
{
  memset (s, 0, sizeof *s);
  FILE *f = fopen (path, "rb");
  if (!f)
    return -1;
  size_t cap = 4096, len = 0;
  s->text = malloc (cap + 1);
  size_t got;
  while (s->text && (got = fread (s->text + len, 1, cap - len, f)) > 0)
    {
      len += got;
      if (len == cap)
        {
          cap *= 2;
          char *t = realloc (s->text, cap + 1);
          if (!t)
            free (s->text);
          s->text = t;
        }
    }
  int err = ferror (f);
  fclose (f);
  if (!s->text || err)
    {
      free (s->text);
      s->text = NULL;
      errno = err ? EIO : ENOMEM;
      return -1;
    }
  s->text[len] = 0;
  /* Lines split in place; a last line without '\n' counts.  */
  unsigned n = 0;
  for (size_t i = 0; i < len; i++)
    n += s->text[i] == '\n';
  n += len && s->text[len - 1] != '\n';
  s->lines = calloc (n ? n : 1, sizeof *s->lines);
  if (!s->lines)
    {
      free (s->text);
      s->text = NULL;
      errno = ENOMEM;
      return -1;
    }
  char *p = s->text;
  for (unsigned k = 0; k < n; k++)
    {
      s->lines[k] = p;
      char *nl = strchr (p, '\n');
      if (nl)
        {
          *nl = 0;
          if (nl > p && nl[-1] == '\r')
            nl[-1] = 0;
          p = nl + 1;
        }
      else
        p += strlen (p);
    }
  s->num_lines = n;
  s->code = calloc (n ? n : 1, 1);
  s->name = strdup (path);
  if (!s->code || !s->name)
    {
      pp_source_free (s);
      errno = ENOMEM;
      return -1;
    }
  int in_comment = 0;
  for (unsigned k = 0; k < n; k++)
    s->code[k] = (unsigned char) scan_code (s->lines[k], &in_comment);
  return 0;
}

void
pp_source_free (pp_source *s)
{
  free (s->text);
  free (s->lines);
  free (s->code);
  free (s->name);
  memset (s, 0, sizeof *s);
}

/* Whether the rest of a line, after comments, braces, semicolons and the
   keywords that make no code of their own, holds anything.  IN_COMMENT
   carries a block comment from line to line.  */
static int
scan_code (const char *p, int *in_comment)
{
  int code = 0;
  while (*p)
    {
      if (*in_comment)
        {
          const char *end = strstr (p, "*/");
          if (!end)
            return code;
          *in_comment = 0;
          p = end + 2;
          continue;
        }
      if (p[0] == '/' && p[1] == '*')
        {
          *in_comment = 1;
          p += 2;
          continue;
        }
      if (p[0] == '/' && p[1] == '/')
        return code;
      if (isspace ((unsigned char) *p) || *p == '{' || *p == '}'
          || *p == ';')
        {
          p++;
          continue;
        }
      if (isalpha ((unsigned char) *p) || *p == '_')
        {
          const char *w = p;
          while (isalnum ((unsigned char) *p) || *p == '_')
            p++;
          size_t len = (size_t) (p - w);
          if (!((len == 4 && !strncmp (w, "else", 4))
                || (len == 2 && !strncmp (w, "do", 2))))
            code = 1;
          continue;
        }
      if (*p == '"' || *p == '\'')
        {
          /* A literal: skipped whole, so that a comment opener in it opens no
             comment.  */
          char q = *p++;
          while (*p && *p != q)
            p += (p[0] == '\\' && p[1]) ? 2 : 1;
          if (*p)
            p++;
          code = 1;
          continue;
        }
      code = 1;
      p++;
    }
  return code;
}

int
pp_source_line_has_code (const pp_source *s, unsigned line)
{
  if (!s || line == 0 || line > s->num_lines)
    return 0;
  return s->code[line - 1];
}

/* Where else to look for sources (pp_source_search).  */
static const char *search_root;
static const char *const *search_maps;
static int search_num_maps;

void
pp_source_search (const char *root, const char *const *maps, int num_maps)
{
  search_root = root;
  search_maps = maps;
  search_num_maps = num_maps;
}

/* Reads DIR (its first DLEN bytes; "" is the root) "/" REST.  */
static int
read_joined (pp_source *src, const char *dir, size_t dlen, const char *rest)
{
  char *path = malloc (dlen + strlen (rest) + 2);
  if (!path)
    return -1;
  sprintf (path, "%.*s/%s", (int) dlen, dir, rest);
  int rc = pp_source_read (src, path);
  free (path);
  return rc;
}

/* FILE through the --path-map OLD=NEW options whose OLD is a prefix of
   it ending at a '/' of FILE or at its end: each in the order given.  */
static int
read_mapped (pp_source *src, const char *file)
{
  for (int i = 0; i < search_num_maps; i++)
    {
      const char *map = search_maps[i], *eq = strchr (map, '=');
      size_t olen = (size_t) (eq - map);
      if (strncmp (file, map, olen) != 0
          || (file[olen] != '/' && file[olen] != 0 && map[olen - 1] != '/'))
        continue;
      char *path = malloc (strlen (eq + 1) + strlen (file + olen) + 1);
      if (!path)
        return -1;
      sprintf (path, "%s%s", eq + 1, file + olen);
      int rc = pp_source_read (src, path);
      free (path);
      if (rc == 0)
        return 0;
    }
  return -1;
}

/* --source-root ROOT: ROOT/FILE, then ROOT with FILE's leading
   directories taken off one at a time (ROOT/b/c.c, ROOT/c.c for a/b/c.c
   or /a/b/c.c): the longest part of the name found under ROOT.  */
static int
read_under_root (pp_source *src, const char *file)
{
  const char *rest = file;
  while (rest)
    {
      while (*rest == '/')
        rest++;
      if (!*rest)
        break;
      if (read_joined (src, search_root, strlen (search_root), rest) == 0)
        return 0;
      rest = strchr (rest, '/');
    }
  return -1;
}

/* A relative FILE under the directory of PROFILE or one of its parents
   (a profile written in a build's subdirectory, or copied next to the
   tree); else under that directory, or a parent, with its leading
   directories taken off one at a time: a profile under PPGCC_PREFIX=P is
   P/<the object's absolute path>.ppd, so the object's directory, where a
   relative source name was given to the compiler (or its parent, for
   libtool's .libs), is what follows P.  */
static int
read_near_profile (pp_source *src, const char *file, const char *profile)
{
  const char *slash = strrchr (profile, '/');
  char *dir = slash ? strndup (profile, (size_t) (slash - profile))
                    : strdup (".");
  char *abs = dir ? realpath (*dir ? dir : "/", NULL) : NULL;
  free (dir);
  if (!abs)
    return -1;
  int rc = -1;
  size_t len = strlen (abs);
  if (len == 1) /* "/" */
    len = 0;
  for (;;)
    {
      if (read_joined (src, abs, len, file) == 0)
        {
          rc = 0;
          break;
        }
      if (len == 0)
        break;
      while (len > 0 && abs[len - 1] != '/')
        len--;
      if (len > 0)
        len--; /* the '/' before the last component */
    }
  /* /P/a/b: /a/b and its parent /a, then /b (not the root itself:
     tried above); a parent for libtool's .libs/x.ppd of lib/x.c.  */
  for (const char *tail = strchr (abs + 1, '/'); rc != 0 && tail;
       tail = strchr (tail + 1, '/'))
    for (size_t n = strlen (tail); rc != 0 && n > 0;)
      {
        if (read_joined (src, tail, n, file) == 0)
          rc = 0;
        while (n > 0 && tail[n - 1] != '/')
          n--;
        if (n > 0)
          n--;
      }
  free (abs);
  return rc;
}

/* Reading the source a function was compiled from: through --path-map,
   under --source-root, by the name the compiler was given, else (a
   relative name) under the profile's directory or its parents.  */
int
pp_open_source (pp_source *src, const pp_report_fn *fn)
{
  if (read_mapped (src, fn->file) == 0)
    return 0;
  if (search_root && read_under_root (src, fn->file) == 0)
    return 0;
  if (pp_source_read (src, fn->file) == 0)
    return 0;
  int err = errno;
  /* A relative name is the compiler's working directory's: that of the
     object, and so of its profile, in most builds.  */
  if (fn->file[0] != '/' && read_near_profile (src, fn->file, fn->profile) == 0)
    return 0;
  fprintf (stderr, "ppprof: %s: cannot read the source of '%s': %s\n",
           fn->file, fn->name, strerror (err));
  return -1;
}
