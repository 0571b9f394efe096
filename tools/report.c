/* ppprof report: the hot paths, by source line (text or --json); and the
   printing of paths shared by the other commands.  */
#include "config.h"

#include "commands.h"
#include "demangle.h"

#include "pp/rt_abi.h"
#include "pp/sat.h"

#include <inttypes.h>
#include "json_out.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One condition and the way taken: 12:T, 12:9:F (the column when
   another condition is on line 12), 30:=3 (a switch's case 3), 30:->41
   (a case with too many labels to list: the line it goes to).  */
static void
print_branch (FILE *out, const pp_report_branch *b)
{
  fprintf (out, "%u:", b->line);
  if (b->show_column && b->column)
    fprintf (out, "%u:", b->column);
  if (b->kind == PP_BRANCH_TRUE)
    fputc ('T', out);
  else if (b->kind == PP_BRANCH_FALSE)
    fputc ('F', out);
  else if (b->case_text)
    fprintf (out, "=%s", b->case_text);
  else if (b->target_line)
    fprintf (out, "->%u", b->target_line);
  else
    fputc ('?', out);
}

/* Whether A and B print the same text.  */
static int
same_branch_text (const pp_report_branch *a, const pp_report_branch *b)
{
  if (a->line != b->line || a->kind != b->kind
      || (a->show_column && a->column) != (b->show_column && b->column)
      || (a->show_column && a->column && a->column != b->column))
    return 0;
  if (a->kind != PP_BRANCH_CASE)
    return 1;
  if (!a->case_text || !b->case_text)
    return !a->case_text && !b->case_text && a->target_line == b->target_line;
  return !strcmp (a->case_text, b->case_text);
}

/* " [2:T 3:F]", nothing when there is no condition.  A key the same as
   the one before it is left out: the conditions of a macro all have the
   line and column of its use (`if ((x) < 0 || (x) > 100)` in a macro
   printed [5:F 5:F]).  Equal keys apart stay (12:T 14:F 12:T), and so do
   12:T 12:F: two conditions, or one tested by two blocks (a loop's test
   copied before the loop by the compiler).  --json keeps every
   condition.  */
static void
print_branches (FILE *out, const pp_report_branch *b, int n)
{
  for (int i = 0; i < n; i++)
    {
      if (i && same_branch_text (&b[i - 1], &b[i]))
        continue;
      fputs (i ? " " : " [", out);
      print_branch (out, &b[i]);
    }
  if (n)
    fputc (']', out);
}

/* SPANS (N first-last pairs, in path order) merged where one goes on
   from the line the other ends at or the next, as ranges: (3,4) (6,9)
   (9,10) (13,13) -> {3,4} {6,10} {13,13}; (28,29) (28,31) stay apart
   (the path comes back to line 28).  Calls EMIT (the range, CTX) for each; returns
   how many.  A block's lines between its first and last are its own, so
   they are on the path ("4-5 7 10" read as if 8 and 9 were
   not).  */
static int
merge_spans (const unsigned *spans, int n,
             void (*emit) (void *ctx, int i, unsigned a, unsigned b),
             void *ctx)
{
  int count = 0;
  unsigned a = 0, b = 0;
  for (int k = 0; k < n; k++)
    {
      unsigned first = spans[2 * k], last = spans[2 * k + 1];
      if (last < first) /* out of source order: its two lines alone */
        {
          if (a)
            emit (ctx, count++, a, b);
          emit (ctx, count++, first, first);
          a = b = last;
          continue;
        }
      if (a && first >= b && first <= b + 1)
        {
          if (last > b)
            b = last;
          continue;
        }
      if (a)
        emit (ctx, count++, a, b);
      a = first;
      b = last;
    }
  if (a)
    emit (ctx, count++, a, b);
  return count;
}

static void
emit_text_range (void *ctx, int i, unsigned a, unsigned b)
{
  if (a == b)
    fprintf (ctx, "%s%u", i ? " " : "", a);
  else
    fprintf (ctx, "%s%u-%u", i ? " " : "", a, b);
}

void
print_lines (FILE *out, const pp_report_path *p)
{
  merge_spans (p->spans, p->num_spans, emit_text_range, out);
}

/* Whether P is printed by segment: it leaves the record's own code (an
   interprocedural path in a callee, or through one).  */
static int
by_segment (const pp_report_path *p)
{
  return p->num_segments > 1
         || (p->num_segments == 1 && p->segments[0].callee);
}

/* Each segment's function and lines: foo 3-4 > bar 10-11 13 > foo 5-6.  */
static void
print_segments (FILE *out, const pp_report_path *p)
{
  for (int s = 0; s < p->num_segments; s++)
    {
      const pp_report_segment *g = &p->segments[s];
      char *dm;
      fprintf (out, "%s%s%s", s ? " > " : "",
               pp_shown_name (g->function, &dm), g->num_spans ? " " : "");
      free (dm);
      merge_spans (g->spans, g->num_spans, emit_text_range, out);
      print_branches (out, g->branches, g->num_branches);
    }
}

/* The path as in report lines: its source lines (by segment for one
   through a callee) between the (cont) and (break) markers.  */
void
print_path (FILE *out, const pp_report_path *p)
{
  if (p->starts_at_back_edge)
    fprintf (out, "(cont) ");
  if (by_segment (p))
    print_segments (out, p);
  else
    {
      if (p->num_lines == 0)
        fprintf (out, "[no source line: compiler-made block, e.g. a "
                 "computed-goto dispatch]");
      else
        print_lines (out, p);
      print_branches (out, p->branches, p->num_branches);
    }
  if (p->ends_at_back_edge)
    fprintf (out, " (break)");
}

static void
emit_json_range (void *ctx, int i, unsigned a, unsigned b)
{
  fprintf (ctx, "%s[%u, %u]", i ? ", " : "", a, b);
}

/* Each line of range A-B, for "lines" (CTX a counter of lines printed). */
struct json_lines
{
  FILE *out;
  int n;
};

static void
emit_json_lines (void *ctx, int i, unsigned a, unsigned b)
{
  struct json_lines *j = ctx;
  (void) i;
  for (unsigned l = a; l <= b; l++)
    fprintf (j->out, "%s%u", j->n++ ? ", " : "", l);
}

/* "lines": every line on the path, in path order (a line again when the
   path comes back to it); "line_ranges": the same lines as [first, last]
   ranges, as the text shows them.  "lines" used to be each block's first
   and last line only: a path through a block of lines 3-8 listed 3, 8,
   and JSON readers took the lines between for lines the path missed.  */
static void
print_json_line_list (FILE *out, const unsigned *spans, int nspans)
{
  struct json_lines j = { out, 0 };
  fprintf (out, "\"lines\": [");
  merge_spans (spans, nspans, emit_json_lines, &j);
  fprintf (out, "], \"line_ranges\": [");
  merge_spans (spans, nspans, emit_json_range, out);
  fprintf (out, "]");
}

/* "branches": [{"line": L, "column": C, "taken": "T"}, ...]: "T", "F",
   or "case" with "case": the labels, or "target_line" when too many;
   column 0 when unknown.  */
static void
print_json_branches (FILE *out, const pp_report_branch *b, int n)
{
  fprintf (out, "\"branches\": [");
  for (int i = 0; i < n; i++)
    {
      fprintf (out, "%s{\"line\": %u, \"column\": %u, \"taken\": ",
               i ? ", " : "", b[i].line, b[i].column);
      if (b[i].kind == PP_BRANCH_CASE)
        {
          fprintf (out, "\"case\", ");
          if (b[i].case_text)
            {
              fprintf (out, "\"case\": ");
              pp_json_string (out, b[i].case_text);
            }
          else
            fprintf (out, "\"target_line\": %u", b[i].target_line);
        }
      else
        fprintf (out, "\"%c\"", b[i].kind == PP_BRANCH_TRUE ? 'T' : 'F');
      fprintf (out, "}");
    }
  fprintf (out, "]");
}

/* "segments": [{"function": F, "lines": [...], "branches": [...]}, ...].  */
static void
print_json_segments (FILE *out, const pp_report_path *p)
{
  fprintf (out, "\"segments\": [");
  for (int s = 0; s < p->num_segments; s++)
    {
      fprintf (out, "%s{\"function\": ", s ? ", " : "");
      pp_json_string (out, p->segments[s].function);
      fprintf (out, ", ");
      print_json_line_list (out, p->segments[s].spans,
                            p->segments[s].num_spans);
      fprintf (out, ", ");
      print_json_branches (out, p->segments[s].branches,
                           p->segments[s].num_branches);
      fprintf (out, "}");
    }
  fprintf (out, "]");
}

void
print_json_lines (FILE *out, const pp_report_path *p)
{
  print_json_line_list (out, p->spans, p->num_spans);
  fprintf (out, ", ");
  print_json_branches (out, p->branches, p->num_branches);
  if (p->interprocedural)
    {
      fprintf (out, ", ");
      print_json_segments (out, p);
    }
}

/* Whether function NAME is in SET: --function of a name that is not is
   bad input.  */
int
known_function (const pp_profile_set *set, const char *name)
{
  for (int i = 0; i < set->num_fns; i++)
    if (pp_same_function (set->fns[i].name, name))
      return 1;
  fprintf (stderr, "ppprof: function '%s' is not in the profile\n", name);
  return 0;
}

typedef struct
{
  const pp_report_fn *fn;
  const pp_report_path *path;
} ranked;

/* The notes printed so far, to print each text once.  */
typedef struct
{
  char **text;
  int n;
} note_list;

/* Prints the note FMT... unless the same text was printed already.  */
static void
note_once (note_list *l, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  int len = vsnprintf (NULL, 0, fmt, ap);
  va_end (ap);
  char *t = len < 0 ? NULL : malloc ((size_t) len + 1);
  if (!t)
    return;
  va_start (ap, fmt);
  vsnprintf (t, (size_t) len + 1, fmt, ap);
  va_end (ap);
  for (int i = 0; i < l->n; i++)
    if (!strcmp (l->text[i], t))
      {
        free (t);
        return;
      }
  fputs (t, stdout);
  char **grown = realloc (l->text, (l->n + 1) * sizeof *grown);
  if (!grown)
    {
      free (t);
      return;
    }
  l->text = grown;
  l->text[l->n++] = t;
}

static int
by_count_desc (const void *a, const void *b)
{
  const ranked *x = a, *y = b;
  if (x->path->count != y->path->count)
    return x->path->count < y->path->count ? 1 : -1;
  int c = strcmp (x->fn->name, y->fn->name);
  return c ? c : (x->path->id < y->path->id ? -1 : 1);
}

int
ppprof_report (pp_profile_set *set, long top, const char *only, int json)
{
  if (json)
    {
      printf ("{\"functions\": [");
      int first_fn = 1;
      for (int i = 0; i < set->num_fns; i++)
        {
          const pp_report_fn *fn = &set->fns[i];
          if (only && strcmp (fn->name, only) != 0)
            continue;
          printf ("%s\n  {\"name\": ", first_fn ? "" : ",");
          first_fn = 0;
          pp_json_string (stdout, fn->name);
          printf (", \"file\": ");
          pp_json_string (stdout, fn->file);
          printf (", \"num_paths\": %" PRIu64 ", \"truncated\": %s, "
                  "\"dropped\": %" PRIu64 ", \"trained\": %s, \"paths\": [",
                  fn->num_paths, (fn->flags & 2u) ? "true" : "false",
                  fn->dropped,
                  (fn->flags & PP_FN_TRAINED) ? "true" : "false");
          for (int k = 0; k < fn->num_paths_run; k++)
            {
              const pp_report_path *p = &fn->paths[k];
              printf ("%s\n    {\"id\": %" PRIu64 ", \"count\": %" PRIu64
                      ", ",
                      k ? "," : "", p->id, p->count);
              print_json_lines (stdout, p);
              printf (", \"starts_at_entry\": %s, \"ends_at_exit\": %s%s}",
                      p->starts_at_back_edge ? "false" : "true",
                      p->ends_at_back_edge ? "false" : "true",
                      p->untested ? ", \"untested\": true" : "");
            }
          printf ("]}");
        }
      /* A saturated total is a lower bound: said so (only then, so that
         other outputs stay as they were).  */
      printf ("\n], \"total\": %" PRIu64 "%s}\n", set->total,
              set->total == UINT64_MAX ? ", \"saturated\": true" : "");
      return 0;
    }

  int n = 0;
  for (int i = 0; i < set->num_fns; i++)
    n += set->fns[i].num_paths_run;
  ranked *all = calloc (n ? n : 1, sizeof *all);
  n = 0;
  uint64_t total = 0;
  for (int i = 0; i < set->num_fns; i++)
    {
      if (only && strcmp (set->fns[i].name, only) != 0)
        continue;
      for (int k = 0; k < set->fns[i].num_paths_run; k++)
        {
          all[n].fn = &set->fns[i];
          all[n++].path = &set->fns[i].paths[k];
          total = pp_add_sat (total, set->fns[i].paths[k].count);
        }
    }
  if (only && n == 0)
    {
      int known = 0;
      for (int i = 0; i < set->num_fns; i++)
        known |= !strcmp (set->fns[i].name, only);
      if (!known)
        {
          fprintf (stderr, "ppprof: function '%s' is not in the profile\n",
                   only);
          free (all);
          return 2;
        }
    }
  qsort (all, n, sizeof *all, by_count_desc);
  /* Counts saturate at 2^64-1 (include/pp/ppd.h): a total that reached it
     is a lower bound, and a share of it would be made up: "saturated" in
     the share column instead.  */
  int saturated = total == UINT64_MAX;
  int share_width = saturated ? 9 : 7;
  /* --function F: the summary is F's (several: statics of one name in
     different files), not the whole profile's.  */
  int named = 0;
  for (int i = 0; only && i < set->num_fns; i++)
    named += !strcmp (set->fns[i].name, only);
  /* The functions that ran: a profile lists every instrumented function
     of its objects ("96 paths run in 200 functions" when 18 ran).  */
  int ran = 0;
  for (int i = 0; i < set->num_fns; i++)
    ran += set->fns[i].num_paths_run > 0;
  if (!only && ran == set->num_fns)
    printf ("%d paths run in %d functions, ", n, ran);
  else if (!only)
    printf ("%d paths run in %d of %d functions, ", n, ran, set->num_fns);
  else
    {
      char *dm;
      const char *shown_only = pp_shown_name (only, &dm);
      if (named == 1)
        printf ("%d paths run in function %s, ", n, shown_only);
      else
        printf ("%d paths run in %d functions named %s, ", n, named,
                shown_only);
      free (dm);
    }
  printf ("%s%" PRIu64 " path executions%s\n\n",
          saturated ? "at least " : "", total,
          saturated ? " (counts saturated at 2^64-1)" : "");
  /* The function column as wide as the longest name shown (at least 24,
     at most 60: a longer name shifts its own row only).  */
  int shown = top > 0 && top < n ? (int) top : n;
  int name_width = 24, marks = 0;
  /* C++ names demangled, as the HTML report and gcov -m show them.  */
  char **names = calloc ((size_t) shown + 1, sizeof *names);
  for (int i = 0; names && i < shown; i++)
    names[i] = pp_demangle (all[i].fn->name);
#define SHOWN_NAME(i) (names && names[i] ? names[i] : all[i].fn->name)
  for (int i = 0; i < shown; i++)
    {
      int len = (int) strlen (SHOWN_NAME (i));
      if (len > name_width)
        name_width = len < 60 ? len : 60;
      marks |= all[i].path->starts_at_back_edge
               || all[i].path->ends_at_back_edge;
    }
  printf ("%12s %*s  %-*s %s\n", "count", share_width, "share", name_width,
          "function", "path (source lines [branches taken])");
  for (int i = 0; i < shown; i++)
    {
      const pp_report_path *p = all[i].path;
      if (saturated)
        printf ("%12" PRIu64 " %9s", p->count, "saturated");
      else
        printf ("%12" PRIu64 " %6.2f%%", p->count,
                total ? 100.0 * (double) p->count / (double) total : 0.0);
      printf ("  %-*s %s: ", name_width, SHOWN_NAME (i), all[i].fn->file);
      print_path (stdout, p);
      printf ("\n");
    }
  if (marks)
    printf ("(cont): the path starts after a back edge or a restart; "
            "(break): it ends at one,\nor in a noreturn call.\n");
  for (int i = 0; names && i < shown; i++)
    free (names[i]);
  free (names);
#undef SHOWN_NAME
  /* Notes: that a function's paths are cut, for the functions with a row
     in the table; executions not recorded, for every function the report
     is about (with --function F only F).  Each text once: two builds of
     one function (two programs, two -O levels) are two entries of SET.  */
  note_list notes = { 0 };
  for (int i = 0; i < shown; i++)
    {
      const pp_report_fn *fn = all[i].fn;
      uint64_t limit = fn->spec && fn->spec->num_fns
                           ? fn->spec->fns[0].max_paths : 0;
      char *dm = pp_demangle (fn->name);
      if ((fn->flags & 2u) && limit)
        note_once (&notes, "note: %s has more than %" PRIu64 " paths "
                   "(-fprofile-paths-max); its paths are cut (truncated) "
                   "at some edges\n", dm ? dm : fn->name, limit);
      else if (fn->flags & 2u)
        note_once (&notes, "note: %s has more than 2^64 paths; its paths "
                   "are cut (truncated) at some edges\n",
                   dm ? dm : fn->name);
      free (dm);
    }
  for (int i = 0; i < set->num_fns; i++)
    {
      if ((only && strcmp (set->fns[i].name, only) != 0)
          || !set->fns[i].dropped)
        continue;
      char *dm = pp_demangle (set->fns[i].name);
      note_once (&notes, "note: %s: %" PRIu64 " path executions could not "
                 "be recorded (runtime out of memory, or evicted from the "
                 "Hot Path Table)\n", dm ? dm : set->fns[i].name,
                 set->fns[i].dropped);
      free (dm);
    }
  /* Runs that differ between the profiles of one program's objects, for
     the programs of the functions with a row.  */
  unsigned char *wanted = calloc ((size_t) set->num_profiles + 1, 1);
  for (int i = 0; wanted && i < shown; i++)
    for (int k = 0; k < set->num_profiles; k++)
      if (all[i].fn->profile
          && !strcmp (all[i].fn->profile, set->profile_names[k]))
        wanted[k] = 1;
  if (wanted)
    pp_note_mixed_runs (set, wanted);
  free (wanted);
  for (int i = 0; i < notes.n; i++)
    free (notes.text[i]);
  free (notes.text);
  free (all);
  return 0;
}

