/* ppprof html: one function's page.  Its hottest paths (and, in a
   residual profile, its untested ones) as a table whose rows select a
   path; the source with each line's count as `ppprof annotate --function`
   prints it; the CFG.  What a path covers (the lines `annotate --path`
   marks, the CFG's nodes and edges) is in the page as JSON, read by the
   inline script (html_assets.c), which puts class "on-path" on them.  */
#include "config.h"

#include "commands.h"
#include "html.h"

#include "pp/rt_abi.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Untested paths listed at most (a residual profile of a changed
   program may have many; the page stays readable).  */
#define MAX_UNTESTED 200

/* Which of a function's tables a path is listed in.  */
enum { HOT = 1, UNTESTED = 2 };

/* The table row of path P (share of the function's TOTAL).  */
static void
path_row (FILE *out, const pp_report_path *p, uint64_t total)
{
  fprintf (out, "<tr data-path=\"%" PRIu64 "\"><td class=\"n\">"
           "<a href=\"#path=%" PRIu64 "\">%" PRIu64 "</a></td>"
           "<td class=\"n\">%" PRIu64 "</td><td class=\"n\">",
           p->id, p->id, p->id, p->count);
  pp_html_share (out, p->count, total);
  fprintf (out, "</td><td class=\"lines\">");
  /* print_path's text (report's), escaped: callee names appear in it.  */
  char *text = NULL;
  size_t len = 0;
  FILE *m = open_memstream (&text, &len);
  if (m)
    {
      print_path (m, p);
      if (fclose (m) == 0)
        pp_html_text (out, text);
    }
  free (text);
  if (p->untested)
    fprintf (out, " <span class=\"untested\">untested</span>");
  fprintf (out, "</td></tr>\n");
}

/* The paths K of FN with bit WHICH set in LISTED[K].  */
static void
path_table (FILE *out, const char *id, const pp_report_fn *fn,
            const unsigned char *listed, int which)
{
  fprintf (out, "<table class=\"paths\" id=\"%s\"><thead><tr>"
           "<th class=\"n\">id</th><th class=\"n\">count</th>"
           "<th class=\"n\">share</th><th>source lines</th></tr></thead>"
           "<tbody>\n", id);
  for (int k = 0; k < fn->num_paths_run; k++)
    if (listed[k] & which)
      path_row (out, &fn->paths[k], fn->total);
  fprintf (out, "</tbody></table>\n");
}

static void
json_list_end (FILE *out, int *first)
{
  if (*first)
    fprintf (out, "[");
  fprintf (out, "]");
  *first = 1;
}

/* Path K of FN as JSON: "ID": {"c": count, "u": untested, "l": lines
   marked (LC's, as annotate --path marks them), "n": CFG nodes, "e": CFG
   edges}.  ON is scratch of one byte per line of LC.  */
static void
path_json (FILE *out, const pp_report_fn *fn, int k,
           const pp_line_counts *lc, unsigned char *on)
{
  const pp_report_path *p = &fn->paths[k];
  fprintf (out, "\"%" PRIu64 "\":{\"c\":\"%" PRIu64 "\",\"u\":%d,\"l\":",
           p->id, p->count, p->untested);
  int first = 1;
  if (lc->first && pp_line_counts_path (fn, lc, p->id, on) == 0)
    for (unsigned l = lc->first; l <= lc->last; l++)
      if (on[l - lc->first])
        {
          fprintf (out, "%s%u", first ? "[" : ",", l);
          first = 0;
        }
  json_list_end (out, &first);
  int *edges;
  int len = pp_regenerate (fn->numbering, p->id, &edges);
  const pp_dag_edge *dag = fn->numbering->dag;
  /* Pseudo edges (a path starting after a back edge, or ending at one)
     have ENTRY or EXIT at one end, not on the path.  */
  fprintf (out, ",\"n\":");
  for (int e = 0; e < len; e++)
    {
      pp_dag_kind kind = dag[edges[e]].kind;
      if ((kind == PP_DAG_REAL && e == 0) || kind == PP_DAG_EXIT)
        {
          fprintf (out, "%s%d", first ? "[" : ",", dag[edges[e]].src);
          first = 0;
        }
      if (kind != PP_DAG_EXIT)
        {
          fprintf (out, "%s%d", first ? "[" : ",", dag[edges[e]].dst);
          first = 0;
        }
    }
  json_list_end (out, &first);
  fprintf (out, ",\"e\":");
  for (int e = 0; e < len; e++)
    if (dag[edges[e]].kind == PP_DAG_REAL)
      {
        fprintf (out, "%s%d", first ? "[" : ",", dag[edges[e]].cfg_edge);
        first = 0;
      }
  json_list_end (out, &first);
  fprintf (out, "}");
  if (len >= 0)
    free (edges);
}

/* A line's count cell class: how hot, relative to the hottest line.  */
static const char *
heat (uint64_t count, uint64_t max)
{
  if (count == 0)
    return "zero";
  double r = (double) count / (double) max;
  return r > 0.5 ? "h4" : r > 0.1 ? "h3" : r > 0.01 ? "h2" : "h1";
}

/* The function's lines with their counts (annotate's "-", "#####").  */
static void
source_table (FILE *out, const pp_source *src, const pp_line_counts *lc)
{
  unsigned from = lc->first, to = lc->last;
  /* The closing brace, which holds no code (as annotate shows it).  */
  if (to < src->num_lines && !pp_source_line_has_code (src, to + 1)
      && strchr (src->lines[to], '}'))
    to++;
  uint64_t max = 1;
  for (unsigned l = lc->first; l <= lc->last; l++)
    if (lc->has[l - lc->first] && lc->count[l - lc->first] > max)
      max = lc->count[l - lc->first];
  fprintf (out, "<table class=\"src\"><tbody>\n");
  for (unsigned l = from; l <= to && l <= src->num_lines; l++)
    {
      int has = l <= lc->last && lc->has[l - lc->first];
      uint64_t count = has ? lc->count[l - lc->first] : 0;
      fprintf (out, "<tr class=\"line%s%s\" id=\"L%u\"><td class=\"c\">",
               has ? " " : "", has ? heat (count, max) : "", l);
      if (!has)
        fprintf (out, "-");
      else if (count == 0)
        fprintf (out, "#####");
      else
        fprintf (out, "%" PRIu64, count);
      fprintf (out, "</td><td class=\"ln\">%u</td><td class=\"t\">", l);
      pp_html_text (out, src->lines[l - 1]);
      fprintf (out, "</td></tr>\n");
    }
  fprintf (out, "</tbody></table>\n");
}

static void
summary (FILE *out, const pp_profile_set *set, const pp_report_fn *fn,
         const pp_line_counts *lc)
{
  fprintf (out, "<p><code>");
  pp_html_text (out, fn->file);
  if (lc->first)
    fprintf (out, ":%u", lc->decl_line ? lc->decl_line : lc->first);
  fprintf (out, "</code> &middot; %" PRIu64 " call%s &middot; %d of %"
           PRIu64 " paths run &middot; %" PRIu64 " path executions (",
           lc->calls, lc->calls == 1 ? "" : "s", fn->num_paths_run,
           fn->num_paths, fn->total);
  pp_html_share (out, fn->total, set->total);
  fprintf (out, " of all)");
  if (fn->flags & PP_FN_TRAINED)
    fprintf (out, " &middot; <span class=\"untested\">%d untested path%s"
             "</span> (%" PRIu64 " executions)", fn->num_untested,
             fn->num_untested == 1 ? "" : "s", fn->untested_total);
  fprintf (out, "</p>\n");
  if (fn->flags & 2u)
    fprintf (out, "<p class=\"note\">More than 2^64 paths: its paths are "
             "cut (truncated) at some edges.</p>\n");
  if (fn->dropped)
    fprintf (out, "<p class=\"note\">%" PRIu64 " path executions could not "
             "be recorded (runtime out of memory, or evicted from the Hot "
             "Path Table).</p>\n", fn->dropped);
}

int
pp_html_fn_page (FILE *out, const pp_profile_set *set, int i,
                 const pp_source *src, long top, pp_html_cfg *cfg,
                 uint64_t *calls)
{
  const pp_report_fn *fn = &set->fns[i];
  pp_line_counts lc;
  if (pp_line_counts_of (fn, src, &lc) < 0)
    {
      pp_line_counts_free (&lc);
      return -1;
    }
  *calls = lc.calls;
  unsigned char *listed = calloc (fn->num_paths_run + 1, 1);
  unsigned char *on = calloc (lc.first ? lc.last - lc.first + 1 : 1, 1);
  if (!listed || !on)
    {
      fprintf (stderr, "ppprof: out of memory\n");
      free (listed);
      free (on);
      pp_line_counts_free (&lc);
      return -1;
    }
  int hot = 0, untested = 0;
  for (int k = 0; k < fn->num_paths_run; k++)
    {
      if (top <= 0 || k < top)
        listed[k] |= HOT, hot++;
      if (fn->paths[k].untested && untested < MAX_UNTESTED)
        listed[k] |= UNTESTED, untested++;
    }

  char *demangled = pp_demangle (fn->name);
  pp_html_begin (out, demangled ? demangled : fn->name);
  fprintf (out, "<p><a href=\"../index.html\">&larr; all functions</a></p>\n"
           "<h1>Function <code>");
  pp_html_text (out, demangled ? demangled : fn->name);
  fprintf (out, "</code></h1>\n");
  if (demangled)
    {
      fprintf (out, "<p class=\"note\">Symbol <code>");
      pp_html_text (out, fn->name);
      fprintf (out, "</code></p>\n");
    }
  free (demangled);
  summary (out, set, fn, &lc);
  fprintf (out, "<p id=\"selection\"></p>\n");

  fprintf (out, "<h2>Hottest paths</h2>\n");
  if (hot)
    {
      if (hot < fn->num_paths_run)
        fprintf (out, "<p class=\"note\">The %d hottest of %d paths run "
                 "(<code>ppprof report --function</code> lists all).</p>\n",
                 hot, fn->num_paths_run);
      path_table (out, "hot", fn, listed, HOT);
    }
  else
    fprintf (out, "<p class=\"note\">No path ran.</p>\n");
  if (fn->flags & PP_FN_TRAINED)
    {
      fprintf (out, "<h2>Untested paths</h2>\n<p class=\"note\">Paths that "
               "ran here but not in training (a residual profile).</p>\n");
      if (untested)
        path_table (out, "untested", fn, listed, UNTESTED);
      else
        fprintf (out, "<p class=\"note\">None.</p>\n");
      if (untested < fn->num_untested)
        fprintf (out, "<p class=\"note\">%d more: <code>ppprof residual "
                 "--function</code> lists all.</p>\n",
                 fn->num_untested - untested);
    }

  /* Source and CFG side by side: a selected path shows in both.  */
  fprintf (out, "<div class=\"cols\">\n<div>\n<h2>Source</h2>\n");
  if (src && lc.first)
    source_table (out, src, &lc);
  else
    fprintf (out, "<p class=\"note\">%s</p>\n",
             src ? "No source line known (compiler-made code)."
                 : "Source file not readable.");

  fprintf (out, "</div>\n<div class=\"cfgcol\">\n<h2>Control-flow graph"
           "</h2>\n<p class=\"note\">Edges as thick and red as their share "
           "of the path executions, labelled with their counts.</p>\n");
  pp_html_cfg_write (cfg, i, out);
  fprintf (out, "</div>\n</div>\n");

  /* Ids are strings: 64-bit, beyond a JavaScript number's exact range.  */
  fprintf (out, "<script type=\"application/json\" id=\"paths\">{");
  int first = 1;
  for (int k = 0; k < fn->num_paths_run; k++)
    if (listed[k])
      {
        fprintf (out, "%s", first ? "" : ",\n");
        path_json (out, fn, k, &lc, on);
        first = 0;
      }
  fprintf (out, "}</script>\n<script>\n%s</script>\n</body>\n</html>\n",
           pp_html_fn_js);
  free (listed);
  free (on);
  pp_line_counts_free (&lc);
  return 0;
}
