/* ppprof annotate: the profiled source, each line with its execution
   count as gcov prints it ("-": no code, "#####": code that never ran),
   counts derived from the paths (line_counts.c).  Each function starts
   with a line FILE:LINE: function NAME ..., which an editor's compile
   mode follows; --path ID marks the lines of one of its paths with '>'.  */
#include "config.h"

#include "commands.h"
#include "demangle.h"
#include "line_counts.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A function's counts with the source they were taken against.  */
typedef struct
{
  const pp_report_fn *fn;
  pp_line_counts lc;
} counted;

static int
by_first_line (const void *a, const void *b)
{
  const counted *x = a, *y = b;
  if (x->lc.first != y->lc.first)
    return x->lc.first < y->lc.first ? -1 : 1;
  return strcmp (x->fn->name, y->fn->name);
}

static void
print_count (int marks, int on, int has, uint64_t count, unsigned line,
             const char *text)
{
  char buf[24];
  if (!has)
    strcpy (buf, "-");
  else if (count == 0)
    strcpy (buf, "#####");
  else
    snprintf (buf, sizeof buf, "%" PRIu64, count);
  if (marks)
    printf ("%c", on ? '>' : ' ');
  printf ("%9s:%5u:%s\n", buf, line, text);
}

static void
print_header (const counted *c, const char *path_note)
{
  const pp_report_fn *fn = c->fn;
  char *dm;
  printf ("%s:%u: function %s: %" PRIu64 " call%s, %d of %" PRIu64
          " paths run%s\n", fn->file,
          c->lc.decl_line ? c->lc.decl_line : c->lc.first,
          pp_shown_name (fn->name, &dm),
          c->lc.calls, c->lc.calls == 1 ? "" : "s", fn->num_paths_run,
          fn->num_paths, path_note ? path_note : "");
  free (dm);
}

/* The source of the functions C (N of them, all of one file, sorted by
   first line) with their counts: the whole file, or (ONE) only the
   functions' lines.  ON marks the path's lines of C[0] (NULL: none).  */
static void
print_file (const pp_source *src, const counted *c, int n, int one,
            const unsigned char *on, const char *path_note)
{
  unsigned from = 1, to = src->num_lines;
  for (int k = 0; k < n; k++)
    {
      const pp_line_counts *lc = &c[k].lc;
      if (one)
        {
          from = lc->first;
          to = lc->last;
          /* The closing brace, which holds no code at -O0 either.  */
          if (to < src->num_lines && !pp_source_line_has_code (src, to + 1)
              && strchr (src->lines[to], '}'))
            to++;
        }
      if (!one && k > 0)
        continue;
      for (unsigned line = from; line <= to && line <= src->num_lines; line++)
        {
          uint64_t count = 0;
          int has = 0, mark = 0;
          for (int j = 0; j < n; j++)
            {
              const pp_line_counts *l = &c[j].lc;
              if (l->first && line == l->first && (one ? j == k : 1))
                print_header (&c[j], j == 0 ? path_note : NULL);
              if (!l->first || line < l->first || line > l->last
                  || !l->has[line - l->first])
                continue;
              has = 1;
              count += l->count[line - l->first];
              if (j == 0 && on && on[line - l->first])
                mark = 1;
            }
          print_count (on != NULL, mark, has, count, line,
                       src->lines[line - 1]);
        }
    }
}

int
ppprof_annotate (pp_profile_set *set, const char *only, const char *path)
{
  pp_pathid id = 0;
  if (path)
    {
      char *end;
      errno = 0;
      id = strtoull (path, &end, 10);
      if (!*path || *end || errno || path[0] == '-')
        {
          fprintf (stderr, "ppprof: --path %s: not a path id\n", path);
          return 1;
        }
    }
  if (only && !known_function (set, only))
    return 2;
  counted *c = calloc (set->num_fns ? set->num_fns : 1, sizeof *c);
  char *done = calloc (set->num_fns ? set->num_fns : 1, 1);
  int rc = 0, printed = 0;
  if (!c || !done)
    {
      fprintf (stderr, "ppprof: out of memory\n");
      free (c);
      free (done);
      return 2;
    }
  /* File by file, in the order the profiles name them.  */
  for (int i = 0; i < set->num_fns && rc != 2; i++)
    {
      if (done[i] || (only && strcmp (set->fns[i].name, only) != 0))
        continue;
      pp_source src;
      if (pp_open_source (&src, &set->fns[i]) < 0)
        {
          rc = 2;
          break;
        }
      int n = 0;
      for (int j = i; j < set->num_fns; j++)
        {
          const pp_report_fn *fn = &set->fns[j];
          if (done[j] || strcmp (fn->file, set->fns[i].file) != 0
              || (only && strcmp (fn->name, only) != 0))
            continue;
          done[j] = 1;
          c[n].fn = fn;
          if (pp_line_counts_of (fn, &src, &c[n].lc) < 0)
            {
              pp_line_counts_free (&c[n].lc);
              rc = 2;
              break;
            }
          if (c[n].lc.first)
            n++;
          else /* no line of its own file known: nothing to show */
            pp_line_counts_free (&c[n].lc);
        }
      qsort (c, n, sizeof *c, by_first_line);
      unsigned char *on = NULL;
      char note[96] = "";
      if (rc == 0 && path && n)
        {
          const pp_line_counts *lc = &c[0].lc;
          on = calloc (lc->last - lc->first + 1, 1);
          if (!on || pp_line_counts_path (c[0].fn, lc, id, on) < 0)
            {
              fprintf (stderr, "ppprof: --path %s: function '%s' has "
                       "paths 0 to %" PRIu64 "\n", path, c[0].fn->name,
                       c[0].fn->num_paths - 1);
              rc = 2;
            }
          uint64_t count = 0;
          for (int k = 0; k < c[0].fn->num_paths_run; k++)
            if (c[0].fn->paths[k].id == id)
              count = c[0].fn->paths[k].count;
          snprintf (note, sizeof note, "; '>': path %" PRIu64 ", run %"
                    PRIu64 " time%s", id, count, count == 1 ? "" : "s");
        }
      if (rc == 0 && n)
        {
          print_file (&src, c, n, only != NULL, on, path ? note : NULL);
          printed++;
        }
      free (on);
      for (int k = 0; k < n; k++)
        pp_line_counts_free (&c[k].lc);
      memset (c, 0, set->num_fns * sizeof *c);
      pp_source_free (&src);
    }
  free (c);
  free (done);
  if (rc == 0 && !printed)
    {
      fprintf (stderr, "ppprof: no profiled function with source lines%s\n",
               set->num_fns ? "" : " (no .ppd profile found)");
      rc = 2;
    }
  return rc;
}
