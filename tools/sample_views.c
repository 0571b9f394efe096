/* The views of a sampled profile (samples.h): `ppprof report` (DCPI's
   dcpiprof: a flat profile by function, then by source line),
   `ppprof annotate` (dcpilist: each source line of the hot functions
   with its samples and share, inlined code under its call site, loops
   summed at their header line; --disasm: the instructions with their
   samples), and the same listing as `ppprof html`'s function pages.  */
#include "samples.h"

#include "html.h"
#include "line_counts.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static double
pct (uint64_t n, uint64_t total)
{
  return total ? 100.0 * (double) n / (double) total : 0;
}

static const char *
base_name (const char *path)
{
  const char *b = path ? strrchr (path, '/') : NULL;
  return b ? b + 1 : path ? path : "?";
}

/* ------------------------------------------------------------ report */

typedef struct
{
  const char *file, *fn;
  unsigned line;
  uint64_t samples;
} line_row;

static int
by_row_samples (const void *a, const void *b)
{
  const line_row *x = a, *y = b;
  if (x->samples != y->samples)
    return x->samples < y->samples ? 1 : -1;
  int c = strcmp (x->file, y->file);
  return c ? c : (x->line > y->line) - (x->line < y->line);
}

static void
header (const pp_samples *s, FILE *out)
{
  const ppc_profile *p = &s->c->prof;
  fprintf (out, "%s: sampled profile, %" PRIu64 " samples (%s), %" PRIu64
           " run%s\n", s->c->name, s->total,
           p->nmetrics ? p->metrics[0].source : "?", p->runs,
           p->runs == 1 ? "" : "s");
}

int
pp_samples_report (pp_context *c, long top, const char *only)
{
  pp_samples s;
  if (pp_samples_load (&s, c) < 0)
    return 2;
  if (top <= 0)
    top = 20;
  header (&s, stdout);
  printf ("\nby function:\n%9s %7s  %s\n", "samples", "share", "function");
  uint64_t no_pc = 0;
  for (size_t i = 0; i < s.nfns; i++)
    {
      no_pc += s.fns[i].no_pc;
      if ((long) i < top && (!only || !strcmp (s.fns[i].name, only)))
        printf ("%9" PRIu64 " %6.2f%%  %s\n", s.fns[i].samples,
                pct (s.fns[i].samples, s.total), s.fns[i].name);
    }
  /* lines: every function's PCs, summed by (file, line) of the
     function's own code */
  line_row *rows = NULL;
  size_t nrows = 0;
  for (size_t i = 0; i < s.nfns; i++)
    {
      pp_sample_fn *f = &s.fns[i];
      if (only && strcmp (f->name, only))
        continue;
      pp_samples_resolve (&s, f);
      for (size_t k = 0; k < f->npcs; k++)
        {
          const pp_sample_pc *pc = &f->pcs[k];
          const char *file = pc->inlined ? pc->inl_file : pc->file;
          unsigned line = pc->inlined ? pc->inl_line : pc->line;
          if (!file || !line)
            continue;
          size_t j = 0;
          for (; j < nrows; j++)
            if (rows[j].file == file && rows[j].line == line
                && rows[j].fn == f->name)
              break;
          if (j == nrows)
            {
              line_row *r = realloc (rows, (nrows + 1) * sizeof *r);
              if (!r)
                break;
              rows = r;
              rows[nrows++] = (line_row){ file, f->name, line, 0 };
            }
          rows[j].samples += pc->samples;
        }
    }
  if (nrows > 1)
    qsort (rows, nrows, sizeof *rows, by_row_samples);
  printf ("\nby source line (inlined code at its own line):\n%9s %7s  %s\n",
          "samples", "share", "line");
  for (size_t j = 0; j < nrows && (long) j < top; j++)
    printf ("%9" PRIu64 " %6.2f%%  %s:%u (%s)\n", rows[j].samples,
            pct (rows[j].samples, s.total), base_name (rows[j].file),
            rows[j].line, rows[j].fn);
  if (nrows == 0)
    printf ("(no line information)\n");
  if (no_pc)
    printf ("note: %" PRIu64 " samples have no PC (the sampler's table was "
            "full: set\n      PPGCC_SAMPLE_LEAVES above its 65536)\n", no_pc);
  free (rows);
  pp_samples_free (&s);
  return 0;
}

/* ------------------------------------------------------------ listing */

/* Sources read once.  */
typedef struct
{
  const char *file;
  pp_source src;
  int ok;
} src_cache;

static const char *
source_line (src_cache *cache, size_t *n, const char *file, unsigned line)
{
  if (!file)
    return "";
  size_t i = 0;
  for (; i < *n; i++)
    if (cache[i].file == file)
      break;
  if (i == *n)
    {
      if (*n == 16)
        return "";
      cache[i].file = file;
      cache[i].ok = pp_source_read (&cache[i].src, file) == 0;
      ++*n;
    }
  if (!cache[i].ok || line == 0 || line > cache[i].src.num_lines)
    return "";
  return cache[i].src.lines[line - 1];
}

static void
put_text (FILE *out, int html, const char *s)
{
  if (!html)
    {
      fputs (s, out);
      return;
    }
  /* escaped line by line: the newlines are the <pre>'s own */
  for (const char *nl; (nl = strchr (s, '\n')); s = nl + 1)
    {
      char *line = strndup (s, (size_t) (nl - s));
      if (line)
        pp_html_text (out, line);
      free (line);
      fputc ('\n', out);
    }
  pp_html_text (out, s);
}

/* One row: samples and share (blank when none), the loop column, the
   line number, the text indented by INDENT.  */
static void
row (FILE *out, int html, uint64_t n, uint64_t total, const char *loop,
     unsigned line, int indent, const char *text)
{
  char num[32] = "", share[16] = "", lno[16] = "";
  if (n)
    {
      snprintf (num, sizeof num, "%" PRIu64, n);
      snprintf (share, sizeof share, "%.1f%%", pct (n, total));
    }
  if (line)
    snprintf (lno, sizeof lno, "%u", line);
  char buf[96];
  snprintf (buf, sizeof buf, "%9s %6s %-16s %5s  %*s", num, share,
            loop ? loop : "", lno, indent, "");
  put_text (out, html, buf);
  put_text (out, html, text);
  put_text (out, html, "\n");
}

/* The inlined code at call-site LINE of F: its PCs grouped by chain and
   file, each group's lines with samples.  */
static void
inlined_under (FILE *out, int html, const pp_sample_fn *f, unsigned line,
               src_cache *cache, size_t *ncache)
{
  char *done = calloc (f->npcs + 1, 1);
  if (!done)
    return;
  for (size_t k = 0; k < f->npcs; k++)
    {
      const pp_sample_pc *g = &f->pcs[k];
      if (done[k] || !g->inlined || g->line != line || g->file != f->file)
        continue;
      /* this chain's lines, and its total */
      uint64_t total = 0;
      unsigned lo = UINT32_MAX, hi = 0;
      for (size_t j = k; j < f->npcs; j++)
        {
          const pp_sample_pc *p = &f->pcs[j];
          if (p->inlined && p->line == line && p->file == f->file
              && !strcmp (p->inlined, g->inlined) && p->inl_file == g->inl_file)
            {
              total += p->samples;
              if (p->inl_line < lo)
                lo = p->inl_line;
              if (p->inl_line > hi)
                hi = p->inl_line;
            }
        }
      char head[512];
      snprintf (head, sizeof head, "inlined %s (%s:%u-%u): %" PRIu64
                " samples, %.1f%%", g->inlined, base_name (g->inl_file), lo,
                hi, total, pct (total, f->samples));
      row (out, html, 0, 0, NULL, 0, 4, head);
      for (unsigned l = lo; l <= hi && hi; l++)
        {
          uint64_t n = 0;
          for (size_t j = k; j < f->npcs; j++)
            {
              const pp_sample_pc *p = &f->pcs[j];
              if (p->inlined && p->line == line && p->file == f->file
                  && !strcmp (p->inlined, g->inlined)
                  && p->inl_file == g->inl_file)
                {
                  done[j] = 1;
                  if (p->inl_line == l)
                    n += p->samples;
                }
            }
          row (out, html, n, f->samples, NULL, l, 6,
               source_line (cache, ncache, g->inl_file, l));
        }
    }
  free (done);
}

/* F's source listing: its own file's lines from the first to the last
   sampled or looping one, each with its samples (its own code's;
   inlined code is under it) and, at a loop's header, the loop's.  */
static void
listing (FILE *out, int html, pp_samples *s, pp_sample_fn *f)
{
  src_cache cache[16];
  size_t ncache = 0;
  unsigned lo = UINT32_MAX, hi = 0;
  for (size_t k = 0; k < f->npcs; k++)
    if (f->pcs[k].file == f->file && f->pcs[k].line)
      {
        if (f->pcs[k].line < lo)
          lo = f->pcs[k].line;
        if (f->pcs[k].line > hi)
          hi = f->pcs[k].line;
      }
  for (size_t k = 0; k < f->nloops; k++)
    if (f->loops[k].file == f->file && f->loops[k].line)
      {
        if (f->loops[k].line < lo)
          lo = f->loops[k].line;
        if (f->loops[k].line > hi)
          hi = f->loops[k].line;
      }
  if (!hi)
    {
      put_text (out, html, "  (no line information for its samples)\n");
      return;
    }
  (void) s;
  char head[128];
  snprintf (head, sizeof head, "%9s %6s %-16s %5s  %s\n", "samples", "share",
            "loop", "line", base_name (f->file));
  put_text (out, html, head);
  for (unsigned l = lo; l <= hi; l++)
    {
      uint64_t n = 0;
      int inl = 0;
      for (size_t k = 0; k < f->npcs; k++)
        if (f->pcs[k].file == f->file && f->pcs[k].line == l)
          {
            if (f->pcs[k].inlined)
              inl = 1;
            else
              n += f->pcs[k].samples;
          }
      /* the outermost loop headed here */
      char loop[32] = "";
      for (size_t k = 0; k < f->nloops; k++)
        if (f->loops[k].file == f->file && f->loops[k].line == l)
          {
            snprintf (loop, sizeof loop, "loop %.1f%%",
                      pct (f->loops[k].samples, f->samples));
            break;
          }
      row (out, html, n, f->samples, loop, l, 0,
           source_line (cache, &ncache, f->file, l));
      if (inl)
        inlined_under (out, html, f, l, cache, &ncache);
    }
  for (size_t i = 0; i < ncache; i++)
    if (cache[i].ok)
      pp_source_free (&cache[i].src);
}

/* F's instructions (objdump), each with its samples.  */
static void
disassembly (FILE *out, int html, const pp_sample_fn *f)
{
  char *text = pp_samples_disassemble (f);
  if (!text)
    {
      put_text (out, html, "  (no disassembly: objdump failed or the "
                           "function's extent is unknown)\n");
      return;
    }
  size_t k = 0;
  for (char *l = text; l && *l;)
    {
      char *nl = strchr (l, '\n');
      if (nl)
        *nl = '\0';
      char *end;
      const char *p = l;
      while (*p == ' ')
        p++;
      uint64_t a = strtoull (p, &end, 16);
      if (end != p && *end == ':' && end[1] == '\t')
        {
          while (k < f->npcs && f->pcs[k].addr < a)
            k++;
          uint64_t n = k < f->npcs && f->pcs[k].addr == a ? f->pcs[k].samples
                                                         : 0;
          char buf[48] = "";
          if (n)
            snprintf (buf, sizeof buf, "%9" PRIu64 " %5.1f%%  ", n,
                      pct (n, f->samples));
          else
            snprintf (buf, sizeof buf, "%9s %6s  ", "", "");
          put_text (out, html, buf);
          put_text (out, html, l);
          put_text (out, html, "\n");
        }
      l = nl ? nl + 1 : NULL;
    }
  free (text);
}

static void
function_view (FILE *out, int html, pp_samples *s, pp_sample_fn *f,
               int disasm)
{
  pp_samples_resolve (s, f);
  char head[1024];
  snprintf (head, sizeof head, "%s (%s): %" PRIu64 " samples, %.1f%% of "
            "the profile\n", f->name, f->file ? f->file : "no source known",
            f->samples, pct (f->samples, s->total));
  put_text (out, html, head);
  for (size_t k = 0; k < f->nloops; k++)
    if (f->loops[k].line)
      {
        snprintf (head, sizeof head, "  loop at %s:%u: %" PRIu64 " samples, "
                  "%.1f%% of %s\n", base_name (f->loops[k].file),
                  f->loops[k].line, f->loops[k].samples,
                  pct (f->loops[k].samples, f->samples), f->name);
        put_text (out, html, head);
      }
  if (f->no_pc)
    {
      snprintf (head, sizeof head, "  %" PRIu64 " samples without their PC "
                "(the sampler's table was full: set PPGCC_SAMPLE_LEAVES "
                "above its 65536)\n",
                f->no_pc);
      put_text (out, html, head);
    }
  if (disasm)
    disassembly (out, html, f);
  else
    listing (out, html, s, f);
  put_text (out, html, "\n");
}

int
pp_samples_annotate (pp_context *c, const char *only, int disasm, FILE *out,
                     int html)
{
  pp_samples s;
  if (pp_samples_load (&s, c) < 0)
    return 2;
  int rc = 0;
  if (!html)
    header (&s, out);
  if (only)
    {
      pp_sample_fn *f = pp_samples_find (&s, only);
      if (!f)
        {
          fprintf (stderr, "ppprof: %s: no samples in a function named %s\n",
                   c->name, only);
          rc = 2;
        }
      else
        function_view (out, html, &s, f, disasm);
    }
  else if (disasm)
    {
      /* the hottest function with code of its own */
      size_t i = 0;
      while (i < s.nfns && !s.fns[i].object)
        i++;
      if (i < s.nfns)
        function_view (out, html, &s, &s.fns[i], 1);
    }
  else
    /* the functions with 1% of the samples or more */
    for (size_t i = 0; i < s.nfns; i++)
      if (s.fns[i].object && pct (s.fns[i].samples, s.total) >= 1.0)
        function_view (out, html, &s, &s.fns[i], 0);
  pp_samples_free (&s);
  return rc;
}

/* ------------------------------------------------------------ html */

int
pp_samples_html (pp_context *c, const char *dir, FILE *index)
{
  pp_samples s;
  if (pp_samples_load (&s, c) < 0)
    return -1;
  size_t len = strlen (dir) + 64;
  char *path = malloc (len);
  int rc = path ? 0 : -1;
  if (path)
    {
      snprintf (path, len, "%s/fn", dir);
      mkdir (path, 0777);
    }
  fprintf (index, "<h2>Sampled functions</h2>\n<table>\n<tr><th>samples"
           "</th><th>share</th><th>function</th></tr>\n");
  for (size_t i = 0; rc == 0 && i < s.nfns; i++)
    {
      pp_sample_fn *f = &s.fns[i];
      if (!f->object || pct (f->samples, s.total) < 1.0)
        continue;
      snprintf (path, len, "%s/fn/sampled-%zu.html", dir, i);
      FILE *out = fopen (path, "w");
      if (!out)
        {
          fprintf (stderr, "ppprof: %s: %s\n", path, strerror (errno));
          rc = -1;
          break;
        }
      pp_html_begin (out, f->name);
      fputs ("<h1>", out);
      pp_html_text (out, f->name);
      fputs ("</h1>\n<p><a href=\"../index.html\">index</a></p>\n<h2>"
             "Source</h2>\n<pre class=\"samples\">", out);
      function_view (out, 1, &s, f, 0);
      fputs ("</pre>\n<h2>Instructions</h2>\n<pre class=\"samples\">", out);
      disassembly (out, 1, f);
      fputs ("</pre>\n</body>\n</html>\n", out);
      int err = ferror (out);
      if (fclose (out) != 0 || err)
        {
          fprintf (stderr, "ppprof: %s: write error\n", path);
          rc = -1;
        }
      fprintf (index, "<tr><td>%" PRIu64 "</td><td>", f->samples);
      pp_html_share (index, f->samples, s.total);
      fprintf (index, "</td><td><a href=\"fn/sampled-%zu.html\">", i);
      pp_html_text (index, f->name);
      fputs ("</a></td></tr>\n", index);
    }
  fputs ("</table>\n", index);
  free (path);
  pp_samples_free (&s);
  return rc;
}

/* ------------------------------------------------------------ lines */

static int
by_location (const void *a, const void *b)
{
  const pp_sample_block_line *x = a, *y = b;
  int c = strcmp (x->file, y->file);
  if (c)
    return c;
  if (x->line != y->line)
    return (x->line > y->line) - (x->line < y->line);
  return (x->disc > y->disc) - (x->disc < y->disc);
}

int
pp_samples_lines (pp_context *c, const char *out_path)
{
  pp_samples s;
  if (pp_samples_load (&s, c) < 0)
    return 2;
  pp_sample_block_line *t = NULL;
  size_t n = 0, cap = 0;
  int rc = 0;
  for (size_t i = 0; i < s.nfns && rc == 0; i++)
    {
      pp_samples_resolve (&s, &s.fns[i]);
      if (pp_samples_block_lines (&s, &s.fns[i], &t, &n, &cap) < 0)
        {
          fprintf (stderr, "ppprof: out of memory\n");
          rc = 2;
        }
    }
  /* one location in several functions (an inlined function's copies,
     its out-of-line body): their executions add up */
  size_t m = 0;
  if (n > 1)
    qsort (t, n, sizeof *t, by_location);
  for (size_t j = 0; j < n; j++)
    if (m && !by_location (&t[m - 1], &t[j]))
      t[m - 1].rate += t[j].rate;
    else
      t[m++] = t[j];
  FILE *out = rc ? NULL : out_path ? fopen (out_path, "w") : stdout;
  if (!rc && !out)
    {
      fprintf (stderr, "ppprof: %s: %s\n", out_path, strerror (errno));
      rc = 2;
    }
  if (out)
    {
      fprintf (out, "ppgcc-sample-lines 2\ntotal %" PRIu64 "\n", s.total);
      for (size_t j = 0; j < m; j++)
        fprintf (out, "line %u %u %" PRIu64 " %s\n", t[j].line, t[j].disc,
                 t[j].rate, t[j].file);
      if (out != stdout && fclose (out) != 0)
        {
          fprintf (stderr, "ppprof: %s: %s\n", out_path, strerror (errno));
          rc = 2;
        }
      else if (out != stdout)
        {
          size_t hot = 0;
          for (size_t j = 0; j < m; j++)
            hot += t[j].rate > 0;
          printf ("%s: %zu source locations, %zu with samples, of %" PRIu64
                  " samples\n", out_path, m, hot, s.total);
        }
    }
  free (t);
  pp_samples_free (&s);
  return rc;
}
