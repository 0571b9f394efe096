/* ppprof html -o DIR: a static HTML report, self-contained (inline style
   and scripts, no server, nothing fetched).  DIR/index.html lists the
   source files and the functions by their share of the path executions;
   DIR/fn/NAME.html is one function's page (html_fn.c).

   A page per function, not per source file: an amalgamation such as
   sqlite3.c is one file of 250,000 lines and thousands of functions, too
   big for one page, while a function's page stays small whatever the
   build.  */
#include "config.h"

#include "commands.h"
#include "html.h"
#include "samples.h"

#include "pp/rt_abi.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* Makes DIR and its missing parents.  0, or -1 after one line.  */
static int
make_dir (const char *dir)
{
  char *p = strdup (dir);
  if (!p)
    {
      fprintf (stderr, "ppprof: out of memory\n");
      return -1;
    }
  for (char *s = p + 1;; s++)
    if (*s == '/' || *s == 0)
      {
        char c = *s;
        *s = 0;
        if (mkdir (p, 0777) < 0 && errno != EEXIST)
          {
            fprintf (stderr, "ppprof: %s: cannot make the report directory:"
                     " %s\n", p, strerror (errno));
            free (p);
            return -1;
          }
        *s = c;
        if (!c)
          break;
      }
  free (p);
  struct stat st;
  if (stat (dir, &st) < 0 || !S_ISDIR (st.st_mode))
    {
      fprintf (stderr, "ppprof: %s: not a directory\n", dir);
      return -1;
    }
  if (access (dir, W_OK | X_OK) < 0)
    {
      fprintf (stderr, "ppprof: %s: cannot write the report: %s\n", dir,
               strerror (errno));
      return -1;
    }
  return 0;
}

/* What the report knows of each function and file.  */
typedef struct
{
  char *page;      /* its page's name in DIR/fn, ".html" left out */
  int file;        /* index into the files */
  int shown;       /* has a page (--function: only one) */
  uint64_t calls;
} fn_info;

typedef struct
{
  const char *name;
  uint64_t total;
  int fns, fns_run, paths_run;
} file_info;

typedef struct
{
  const pp_profile_set *set;
  fn_info *fns;
  file_info *files;
  int num_files;
} report;

/* NAME as a file name: letters, digits and '_' kept, anything else '_'
   (C++ names hold ':', '<', ' '), at most 80 bytes.  */
static char *
safe_name (const char *name)
{
  size_t n = strlen (name);
  if (n > 80)
    n = 80;
  char *s = malloc (n + 24);
  if (!s)
    return NULL;
  for (size_t k = 0; k < n; k++)
    {
      char c = name[k];
      s[k] = ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9') || c == '_') ? c : '_';
    }
  s[n] = 0;
  if (!n)
    strcpy (s, "_");
  return s;
}

static const report *sort_report; /* qsort has no context argument */

static int
by_page (const void *a, const void *b)
{
  int x = *(const int *) a, y = *(const int *) b;
  /* Case-blind: a case-insensitive file system would merge Foo and foo.  */
  int c = strcasecmp (sort_report->fns[x].page, sort_report->fns[y].page);
  return c ? c : (x < y ? -1 : 1);
}

/* Every function's page name: its safe name, or, when that is not
   unique, the safe name and its index (statics of one name in several
   files; names that differ only where safe_name put '_' or in case).  */
static int
page_names (report *r, int *scratch)
{
  int n = r->set->num_fns;
  for (int i = 0; i < n; i++)
    if (!(r->fns[i].page = safe_name (r->set->fns[i].name)))
      return -1;
  for (int i = 0; i < n; i++)
    scratch[i] = i;
  sort_report = r;
  qsort (scratch, n, sizeof *scratch, by_page);
  for (int k = 0; k < n;)
    {
      int j = k + 1;
      while (j < n && !strcasecmp (r->fns[scratch[k]].page,
                                   r->fns[scratch[j]].page))
        j++;
      if (j > k + 1)
        for (int m = k; m < j; m++)
          sprintf (r->fns[scratch[m]].page + strlen (r->fns[scratch[m]].page),
                   "-%d", scratch[m]);
      k = j;
    }
  return 0;
}

static int
by_total (const pp_profile_set *set, int x, int y)
{
  const pp_report_fn *a = &set->fns[x], *b = &set->fns[y];
  if (a->total != b->total)
    return a->total < b->total ? 1 : -1;
  int c = strcmp (a->name, b->name);
  return c ? c : (x < y ? -1 : 1);
}

static int
by_fn_total (const void *a, const void *b)
{
  return by_total (sort_report->set, *(const int *) a, *(const int *) b);
}

static int
by_file_total (const void *a, const void *b)
{
  const file_info *x = &sort_report->files[*(const int *) a];
  const file_info *y = &sort_report->files[*(const int *) b];
  if (x->total != y->total)
    return x->total < y->total ? 1 : -1;
  return strcmp (x->name, y->name);
}

/* A number cell sorted by its value.  */
static void
count_cell (FILE *out, uint64_t v)
{
  fprintf (out, "<td class=\"n\">%" PRIu64 "</td>", v);
}

/* A share cell with a bar; data-v keeps the sort numeric.  */
static void
share_cell (FILE *out, uint64_t count, uint64_t total)
{
  double s = total && total != UINT64_MAX
                 ? 100.0 * (double) count / (double) total : 0;
  fprintf (out, "<td class=\"n\" data-v=\"%g\">", s);
  pp_html_share (out, count, total);
  fprintf (out, "<span class=\"barbox\"><span class=\"bar\" "
           "style=\"width:%dpx\"></span></span></td>", (int) (s + 0.5));
}

static void
write_index (FILE *out, const report *r, int *scratch, int pages,
             int unreadable, const pp_context *cct)
{
  const pp_profile_set *set = r->set;
  int run = 0, paths = 0, trained = 0, untested_fns = 0;
  uint64_t untested = 0;
  for (int i = 0; i < set->num_fns; i++)
    {
      run += set->fns[i].total > 0;
      paths += set->fns[i].num_paths_run;
      if (set->fns[i].flags & PP_FN_TRAINED)
        trained++;
      untested += set->fns[i].num_untested;
      untested_fns += set->fns[i].num_untested > 0;
    }
  pp_html_begin (out, "Path profile");
  fprintf (out, "<h1>Path profile</h1>\n<p>%d profile%s &middot; %s%"
           PRIu64 " path executions &middot; %d functions, %d of them run "
           "&middot; %d paths run</p>\n", set->num_profiles,
           set->num_profiles == 1 ? "" : "s",
           set->total == UINT64_MAX ? "at least " : "", set->total,
           set->num_fns, run, paths);
  if (trained)
    fprintf (out, "<p>Residual profile: <span class=\"untested\">%" PRIu64
             " untested path%s</span> in %d functions (%d trained "
             "functions).</p>\n", untested, untested == 1 ? "" : "s",
             untested_fns, trained);
  if (cct)
    fprintf (out, "<p>Context profile: <a href=\"cct.html\">the calling "
             "context tree</a> as an icicle graph (%" PRIu32 " contexts)."
             "</p>\n", cct->prof.nnodes ? cct->prof.nnodes - 1 : 0);
  if (unreadable)
    fprintf (out, "<p class=\"note\">The source of %d file%s was not "
             "readable: %s pages have no annotated source.</p>\n",
             unreadable, unreadable == 1 ? "" : "s",
             unreadable == 1 ? "its" : "their");

  fprintf (out, "<h2>Files</h2>\n<table class=\"sort\" id=\"files\"><thead>"
           "<tr><th>file</th><th class=\"n\">count</th><th class=\"n\">"
           "share</th><th class=\"n\">functions run</th><th class=\"n\">"
           "paths run</th></tr></thead><tbody>\n");
  for (int k = 0; k < r->num_files; k++)
    scratch[k] = k;
  qsort (scratch, r->num_files, sizeof *scratch, by_file_total);
  for (int k = 0; k < r->num_files; k++)
    {
      const file_info *f = &r->files[scratch[k]];
      fprintf (out, "<tr><td><a href=\"#file=%d\">", scratch[k]);
      pp_html_text (out, f->name);
      fprintf (out, "</a></td>");
      count_cell (out, f->total);
      share_cell (out, f->total, set->total);
      fprintf (out, "<td class=\"n\" data-v=\"%d\">%d of %d</td>",
               f->fns_run, f->fns_run, f->fns);
      count_cell (out, (uint64_t) f->paths_run);
      fprintf (out, "</tr>\n");
    }
  fprintf (out, "</tbody></table>\n");

  fprintf (out, "<h2>Functions</h2>\n<p><input id=\"q\" type=\"search\" "
           "placeholder=\"filter by name\" aria-label=\"filter by name\"> "
           "<span id=\"shown\" class=\"note\" hidden><span></span>"
           "<a href=\"#\">show all</a></span></p>\n"
           "<table class=\"sort\" id=\"fns\"><thead><tr><th>function</th>"
           "<th>file</th><th class=\"n\">count</th><th class=\"n\">share"
           "</th><th class=\"n\">paths run</th><th class=\"n\">calls</th>%s"
           "</tr></thead><tbody>\n",
           trained ? "<th class=\"n\">untested</th>" : "");
  int n = 0;
  for (int i = 0; i < set->num_fns; i++)
    if (r->fns[i].shown)
      scratch[n++] = i;
  qsort (scratch, n, sizeof *scratch, by_fn_total);
  for (int k = 0; k < n; k++)
    {
      int i = scratch[k];
      const pp_report_fn *fn = &set->fns[i];
      fprintf (out, "<tr data-file=\"%d\" data-name=\"", r->fns[i].file);
      pp_html_name (out, fn->name);
      fprintf (out, "\"><td><a href=\"fn/%s.html\">", r->fns[i].page);
      pp_html_name (out, fn->name);
      fprintf (out, "</a></td><td>");
      pp_html_text (out, fn->file);
      fprintf (out, "</td>");
      count_cell (out, fn->total);
      share_cell (out, fn->total, set->total);
      fprintf (out, "<td class=\"n\" data-v=\"%d\">%d of %" PRIu64 "</td>",
               fn->num_paths_run, fn->num_paths_run, fn->num_paths);
      count_cell (out, r->fns[i].calls);
      if (trained)
        count_cell (out, (uint64_t) fn->num_untested);
      fprintf (out, "</tr>\n");
    }
  fprintf (out, "</tbody></table>\n<p class=\"note\">%d function pages. "
           "Written by ppprof (ppgcc %s).</p>\n<script>\n%s</script>\n"
           "</body>\n</html>\n", pages, PACKAGE_VERSION, pp_html_index_js);
}

/* Writes DIR/NAME (NAME: "index.html" or "fn/X.html") with WRITE.  0,
   or -1 after one line.  */
static FILE *
open_page (const char *dir, const char *name, char **path)
{
  *path = malloc (strlen (dir) + strlen (name) + 2);
  if (!*path)
    {
      fprintf (stderr, "ppprof: out of memory\n");
      return NULL;
    }
  sprintf (*path, "%s/%s", dir, name);
  FILE *f = fopen (*path, "w");
  if (!f)
    fprintf (stderr, "ppprof: %s: %s\n", *path, strerror (errno));
  return f;
}

static int
close_page (FILE *f, const char *path)
{
  int err = ferror (f);
  if (fclose (f) != 0 || err)
    {
      fprintf (stderr, "ppprof: %s: %s\n", path,
               err ? "write error" : strerror (errno));
      return -1;
    }
  return 0;
}

/* The files of R->set's functions, in the order they first appear.  */
static int
collect_files (report *r)
{
  const pp_profile_set *set = r->set;
  for (int i = 0; i < set->num_fns; i++)
    {
      const pp_report_fn *fn = &set->fns[i];
      int f = 0;
      /* Functions of one file are mostly adjacent: look back first.  */
      if (i && !strcmp (set->fns[i - 1].file, fn->file))
        f = r->fns[i - 1].file;
      else
        {
          while (f < r->num_files && strcmp (r->files[f].name, fn->file))
            f++;
          if (f == r->num_files)
            r->files[r->num_files++].name = fn->file;
        }
      r->fns[i].file = f;
      if (!r->fns[i].shown)
        continue;
      file_info *fi = &r->files[f];
      fi->total = fi->total + fn->total < fi->total ? UINT64_MAX
                                                    : fi->total + fn->total;
      fi->fns++;
      fi->fns_run += fn->total > 0;
      fi->paths_run += fn->num_paths_run;
    }
  return 0;
}

/* Per function of CCT's profile, its page in R (fn/X.html), or NULL:
   the report's function of the same name, of the same source file when
   there are several.  A malloc'd array of malloc'd strings; NULL when
   out of memory.  */
static int
by_fn_name (const void *a, const void *b)
{
  const pp_report_fn *fns = sort_report->set->fns;
  return strcmp (fns[*(const int *) a].name, fns[*(const int *) b].name);
}

static char **
cct_fn_pages (const report *r, const pp_context *cct, int *scratch)
{
  const ppc_profile *prof = &cct->prof;
  char **pages = calloc (prof->nfns + 1, sizeof *pages);
  if (!pages)
    return NULL;
  const pp_profile_set *set = r->set;
  int n = 0;
  for (int i = 0; i < set->num_fns; i++)
    if (r->fns[i].shown)
      scratch[n++] = i;
  sort_report = r;
  qsort (scratch, n, sizeof *scratch, by_fn_name);
  for (uint32_t f = 0; f < prof->nfns; f++)
    {
      const char *name = prof->fns[f].name;
      int lo = 0, hi = n;
      while (lo < hi)
        {
          int mid = (lo + hi) / 2;
          if (strcmp (set->fns[scratch[mid]].name, name) < 0)
            lo = mid + 1;
          else
            hi = mid;
        }
      int best = -1;
      for (int k = lo; k < n && !strcmp (set->fns[scratch[k]].name, name);
           k++)
        if (best < 0
            || (prof->fns[f].source
                && !strcmp (set->fns[scratch[k]].file, prof->fns[f].source)))
          best = scratch[k];
      if (best < 0)
        continue;
      pages[f] = malloc (strlen (r->fns[best].page) + 9);
      if (!pages[f])
        continue; /* no link, no harm */
      sprintf (pages[f], "fn/%s.html", r->fns[best].page);
    }
  return pages;
}

/* DIR/cct.html; a line on stdout when written.  0, or 2.  */
static int
write_cct (const char *dir, const pp_context *cct, const pp_html_options *o,
           const char *const *fn_pages, int have_index)
{
  char *path;
  FILE *f = open_page (dir, "cct.html", &path);
  if (!f)
    {
      free (path);
      return 2;
    }
  pp_html_cct_stats st;
  int rc = pp_html_cct_page (f, cct, o->cct_metric, o->min_percent,
                             fn_pages, have_index, &st) < 0 ? 2 : 0;
  if (close_page (f, path) < 0)
    rc = 2;
  if (rc == 0)
    {
      printf ("%s/cct.html: %" PRIu32 " contexts, %" PRIu32 " drawn",
              dir, st.contexts, st.drawn);
      if (st.merged)
        printf (", %" PRIu32 " merged into %" PRIu32 " node%s", st.merged,
                st.merged_nodes, st.merged_nodes == 1 ? "" : "s");
      printf ("\n");
    }
  free (path);
  return rc;
}

/* The report of SET (function pages, index) into DIR, and of CCT (NULL:
   none) into DIR/cct.html.  */
static int
write_report (pp_profile_set *set, const pp_context *cct,
              const pp_html_options *o)
{
  const char *only = o->only, *dir = o->dir;
  long top = o->top;
  if (only && !known_function (set, only))
    return 2;
  if (make_dir (dir) < 0)
    return 2;
  char *fndir = malloc (strlen (dir) + 4);
  int n = set->num_fns;
  report r = { set, calloc (n + 1, sizeof *r.fns),
               calloc (n + 1, sizeof *r.files), 0 };
  int *scratch = calloc (n + 1, sizeof *scratch);
  int *order = calloc (n + 1, sizeof *order);
  int rc = 2, pages = 0, unreadable = 0;
  pp_html_cfg *cfg = NULL;
  if (!fndir || !r.fns || !r.files || !scratch || !order)
    {
      fprintf (stderr, "ppprof: out of memory\n");
      goto out;
    }
  sprintf (fndir, "%s/fn", dir);
  if (make_dir (fndir) < 0)
    goto out;
  if (page_names (&r, scratch) < 0)
    {
      fprintf (stderr, "ppprof: out of memory\n");
      goto out;
    }
  for (int i = 0; i < n; i++)
    r.fns[i].shown = !only || pp_same_function (set->fns[i].name, only);
  collect_files (&r);
  /* File by file (each source read once), in the order the profiles name
     them; the CFG drawings come in the same order.  */
  int num = 0;
  for (int f = 0; f < r.num_files; f++)
    for (int i = 0; i < n; i++)
      if (r.fns[i].file == f && r.fns[i].shown)
        order[num++] = i;
  cfg = pp_html_cfg_draw (set, order, num, dir);
  rc = 0;
  for (int k = 0; k < num && rc == 0;)
    {
      int f = r.fns[order[k]].file;
      pp_source src;
      /* Not readable (a build's generated or moved file): its pages are
         made without source, the message printed once.  */
      int have = pp_open_source (&src, &set->fns[order[k]]) == 0;
      unreadable += !have;
      for (; k < num && r.fns[order[k]].file == f && rc == 0; k++)
        {
          int i = order[k];
          char name[128], *path;
          snprintf (name, sizeof name, "fn/%s.html", r.fns[i].page);
          FILE *page = open_page (dir, name, &path);
          if (!page
              || pp_html_fn_page (page, set, i, have ? &src : NULL, top, cfg,
                                  &r.fns[i].calls) < 0)
            rc = 2;
          if (page && close_page (page, path) < 0)
            rc = 2;
          free (path);
          pages++;
        }
      if (have)
        pp_source_free (&src);
    }
  if (rc == 0)
    {
      char *path;
      FILE *index = open_page (dir, "index.html", &path);
      if (index)
        write_index (index, &r, scratch, pages, unreadable, cct);
      if (!index || close_page (index, path) < 0)
        rc = 2;
      else
        printf ("%s/index.html: %d function page%s\n", dir, pages,
                pages == 1 ? "" : "s");
      free (path);
    }
  if (rc == 0 && cct)
    {
      char **fn_pages = cct_fn_pages (&r, cct, scratch);
      rc = write_cct (dir, cct, o, (const char *const *) fn_pages, 1);
      for (uint32_t f = 0; fn_pages && f < cct->prof.nfns; f++)
        free (fn_pages[f]);
      free (fn_pages);
    }
out:
  pp_html_cfg_free (cfg);
  for (int i = 0; r.fns && i < n; i++)
    free (r.fns[i].page);
  free (r.fns);
  free (r.files);
  free (scratch);
  free (order);
  free (fndir);
  return rc;
}

/* A context profile alone: an index that leads to it.  */
static int
write_cct_only (const pp_context *cct, const pp_html_options *o)
{
  if (make_dir (o->dir) < 0)
    return 2;
  char *path;
  FILE *f = open_page (o->dir, "index.html", &path);
  if (!f)
    {
      free (path);
      return 2;
    }
  int sampled = pp_context_sampled (cct);
  pp_html_begin (f, sampled ? "Sampled profile" : "Context profile");
  fprintf (f, "<h1>%s</h1>\n<p><code>",
           sampled ? "Sampled profile" : "Context profile");
  pp_html_text (f, cct->name);
  fprintf (f, "</code>: <a href=\"cct.html\">the calling context tree</a> "
           "as an icicle graph (%" PRIu32 " contexts).</p>\n",
           cct->prof.nnodes ? cct->prof.nnodes - 1 : 0);
  int rc = 0;
  /* a sampled profile's functions: their samples by source line */
  if (sampled)
    rc = pp_samples_html ((pp_context *) cct, o->dir, f) < 0 ? 2 : 0;
  else
    fprintf (f, "<p class=\"note\">No path profiles (.ppd) were given: no "
             "function pages.</p>\n");
  fprintf (f, "</body>\n</html>\n");
  if (close_page (f, path) < 0)
    rc = 2;
  free (path);
  return rc ? rc : write_cct (o->dir, cct, o, NULL, 1);
}

static int
count_found (void *ctx, const char *path)
{
  (void) path;
  ++*(int *) ctx;
  return 0;
}

int
ppprof_html (char **files, int nfiles, pp_html_options *o)
{
  /* Files by their kind, directories searched for both.  */
  char *here = ".";
  char **ppd = calloc (nfiles + 1, sizeof *ppd);
  char **ppc = calloc (nfiles + 1, sizeof *ppc);
  int nppd = 0, nppc = 0, found_ppd = 0, found_ppc = 0, rc = 2;
  int have_set = 0, have_cct = 0;
  pp_profile_set set;
  pp_context cct;
  memset (&set, 0, sizeof set);
  if (!ppd || !ppc)
    {
      fprintf (stderr, "ppprof: out of memory\n");
      goto out;
    }
  if (nfiles == 0)
    {
      ppd[nppd++] = here;
      ppc[nppc++] = here;
    }
  for (int i = 0; i < nfiles; i++)
    {
      struct stat st;
      if (stat (files[i], &st) == 0 && S_ISDIR (st.st_mode))
        {
          ppd[nppd++] = files[i];
          ppc[nppc++] = files[i];
        }
      else if (pp_is_context_file (files[i]))
        ppc[nppc++] = files[i];
      else
        ppd[nppd++] = files[i]; /* missing: said by the walk */
    }
  if ((nppd && pp_walk_inputs (ppd, nppd, ".ppd", count_found, &found_ppd)
                   < 0)
      || (nppc
          && pp_walk_inputs (ppc, nppc, ".ppc", count_found, &found_ppc) < 0))
    goto out;
  if (!found_ppd && !found_ppc)
    {
      fprintf (stderr, "ppprof: no profiles (.ppd, .ppc) in %s: run a "
               "program built with ppgcc -fprofile-paths first\n",
               nfiles ? files[0] : "the current directory");
      goto out;
    }
  if (o->metric && !found_ppc)
    {
      fprintf (stderr, "ppprof: --metric: no context profile (.ppc) "
               "given\n");
      rc = 1;
      goto out;
    }
  if (found_ppd)
    {
      have_set = 1;
      if (pp_profile_set_load (&set, ppd, nppd) < 0
          || pp_profile_set_analyse (&set) < 0)
        goto out;
    }
  if (found_ppc)
    {
      if (pp_context_load (&cct, ppc, nppc, o->subtract_probes) < 0)
        goto out;
      have_cct = 1;
      /* The metric asked for, else the first one measured (as ppprof cct
         orders), else calls.  */
      o->cct_metric = -1;
      if (o->metric)
        {
          o->cct_metric = pp_context_metric (&cct, o->metric);
          if (o->cct_metric < 0)
            goto out;
          if (!pp_context_measured (&cct, o->cct_metric))
            {
              fprintf (stderr, "ppprof: %s: metric '%s' was not measured "
                       "(source unavailable)\n", cct.name, o->metric);
              goto out;
            }
        }
      else
        for (uint32_t m = 0; m < cct.prof.nmetrics && o->cct_metric < 0; m++)
          if (pp_context_measured (&cct, (int) m))
            o->cct_metric = (int) m;
    }
  rc = found_ppd ? write_report (&set, have_cct ? &cct : NULL, o)
                 : write_cct_only (&cct, o);
out:
  if (have_set)
    pp_profile_set_free (&set);
  if (have_cct)
    pp_context_free (&cct);
  free (ppd);
  free (ppc);
  return rc;
}
