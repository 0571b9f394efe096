/* Source files for ppprof annotate and lcov: the text by line, and which
   lines hold code (line_counts.h).  */
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

/* Reading the source a function was compiled from.  */
int
pp_open_source (pp_source *src, const pp_report_fn *fn)
{
  if (pp_source_read (src, fn->file) == 0)
    return 0;
  int err = errno;
  /* A relative name is the compiler's working directory's: that of the
     object, and so of its profile, in most builds.  */
  const char *slash = strrchr (fn->profile, '/');
  if (fn->file[0] != '/' && slash)
    {
      size_t dlen = (size_t) (slash - fn->profile);
      char *path = malloc (dlen + strlen (fn->file) + 2);
      if (path)
        {
          sprintf (path, "%.*s/%s", (int) dlen, fn->profile, fn->file);
          int rc = pp_source_read (src, path);
          free (path);
          if (rc == 0)
            return 0;
        }
    }
  fprintf (stderr, "ppprof: %s: cannot read the source of '%s': %s\n",
           fn->file, fn->name, strerror (err));
  return -1;
}
