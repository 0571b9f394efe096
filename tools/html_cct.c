/* ppprof html's page of a context profile: DIR/cct.html, the calling
   context tree as an icicle graph (a flame graph upside down: the root
   on top, each context as wide as its inclusive measure, its children
   side by side below it, hottest first, its exclusive share the gap they
   leave).  A click zooms into a context's subtree; a hover shows its
   function, call site, inclusive and exclusive values.

   The tree goes into the page as data (JSON, one context a line) and the
   script draws it as absolutely placed <div>s: no library, nothing
   fetched.  A big program's tree (sqlite3's: 15,000 contexts) would make
   a heavy page of slivers no one can point at, so contexts narrower than
   MIN_PERCENT of the whole are not sent one by one: a parent's small
   children are merged into one grey node "(K contexts)", as wide as
   their sum, which names the biggest of them.  */
#include "config.h"

#include "commands.h"
#include "context.h"
#include "html.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  const pp_context *c;
  int metric;              /* -1: calls */
  uint64_t threshold;      /* smaller contexts merged */
  int *fn_out;             /* per prof.fns: its index in the page, -1 */
  uint32_t *stack;         /* room for every node: counts merged ones */
  uint32_t next;           /* the next context's index in the page */
  pp_html_cct_stats *st;
} cct_page;

/* S as the inside of a JSON string that may sit inside <script>: '<',
   '>' and '&' escaped too, so no name can end the element.  */
static void
js_chars (FILE *out, const char *s)
{
  for (; *s; s++)
    {
      unsigned char ch = (unsigned char) *s;
      if (ch == '"' || ch == '\\')
        fprintf (out, "\\%c", ch);
      else if (ch < 0x20 || ch == '<' || ch == '>' || ch == '&')
        fprintf (out, "\\u%04x", ch);
      else
        putc (ch, out);
    }
}

static void
js_string (FILE *out, const char *s)
{
  putc ('"', out);
  js_chars (out, s);
  putc ('"', out);
}

static uint64_t
incl_of (const cct_page *p, uint32_t n)
{
  return p->metric >= 0 ? p->c->incl[n][p->metric] : p->c->incl_calls[n];
}

static uint64_t
excl_of (const cct_page *p, uint32_t n)
{
  return p->metric >= 0 ? p->c->excl[n][p->metric]
                        : p->c->prof.nodes[n].calls;
}

static uint64_t
add_sat (uint64_t a, uint64_t b)
{
  return a + b < a ? UINT64_MAX : a + b;
}

static const cct_page *sort_page;

/* Widest first; ties in the tree's order (function name, call site).  */
static int
by_incl (const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
  uint64_t ix = incl_of (sort_page, x), iy = incl_of (sort_page, y);
  if (ix != iy)
    return ix < iy ? 1 : -1;
  return 0; /* qsort is not stable: the caller breaks ties */
}

/* The contexts in node N's subtree, N included.  */
static uint32_t
subtree_size (cct_page *p, uint32_t n)
{
  uint32_t top = 0, count = 0;
  p->stack[top++] = n;
  while (top)
    {
      uint32_t v = p->stack[--top];
      count++;
      for (uint32_t i = 0; i < p->c->nchildren[v]; i++)
        p->stack[top++] = p->c->children[v][i];
    }
  return count;
}

/* Node N (child of the page's context PARENT; the root: -1) and its
   subtree, preorder, one context a line: [parent, fn, site, inclusive,
   exclusive, calls, recursive] (the root's fn is -1).  A context's
   children narrower than the threshold are one line [parent, -2, K,
   inclusive, inclusive, calls, 0, "the three widest, ..."].  */
static int
emit (cct_page *p, FILE *out, uint32_t n, int64_t parent)
{
  const ppc_profile *prof = &p->c->prof;
  const ppc_node *nd = &prof->nodes[n];
  uint32_t self = p->next++;
  fprintf (out, "%s[%" PRId64 ",%d,", self ? ",\n" : "", parent,
           n == 0 ? -1 : p->fn_out[nd->fn]);
  js_string (out, nd->site ? nd->site : "");
  fprintf (out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "]",
           incl_of (p, n), excl_of (p, n), nd->calls, nd->recursive);
  if (n)
    p->st->drawn++;
  uint32_t nk = p->c->nchildren[n];
  if (nk == 0)
    return 0;
  uint32_t *kids = malloc (nk * sizeof *kids);
  if (!kids)
    return -1;
  /* Sorted by width, ties kept in the tree's order: a merge sort would
     do; insertion keeps it short, and a context has few children.  */
  memcpy (kids, p->c->children[n], nk * sizeof *kids);
  sort_page = p;
  for (uint32_t i = 1; i < nk; i++)
    {
      uint32_t v = kids[i], j = i;
      for (; j > 0 && by_incl (&kids[j - 1], &v) > 0; j--)
        kids[j] = kids[j - 1];
      kids[j] = v;
    }
  uint32_t k = 0;
  for (; k < nk; k++)
    {
      uint64_t v = incl_of (p, kids[k]);
      if (v == 0 || v < p->threshold)
        break;
      if (emit (p, out, kids[k], self) < 0)
        {
          free (kids);
          return -1;
        }
    }
  /* The rest are narrow: one node for them all, their subtrees in it.  */
  uint64_t sum = 0, calls = 0;
  for (uint32_t j = k; j < nk; j++)
    {
      sum = add_sat (sum, incl_of (p, kids[j]));
      calls = add_sat (calls, p->c->incl_calls[kids[j]]);
      p->st->merged += subtree_size (p, kids[j]);
    }
  if (k < nk && sum > 0)
    {
      p->next++;
      fprintf (out, ",\n[%" PRIu32 ",-2,%" PRIu32 ",%" PRIu64 ",%" PRIu64
               ",%" PRIu64 ",0,\"", self, nk - k, sum, sum, calls);
      for (uint32_t j = k; j < nk && j < k + 3; j++)
        {
          const char *name = prof->fns[prof->nodes[kids[j]].fn].name;
          char *d = pp_demangle (name);
          js_chars (out, d ? d : name);
          free (d);
          if (j + 1 < nk && j + 1 < k + 3)
            fputs (", ", out);
        }
      if (nk - k > 3)
        fputs (", \\u2026", out);
      fputs ("\"]", out);
      p->st->merged_nodes++;
    }
  free (kids);
  return 0;
}

int
pp_html_cct_page (FILE *out, const pp_context *c, int metric,
                  double min_percent, const char *const *fn_pages,
                  int have_index, pp_html_cct_stats *st)
{
  const ppc_profile *prof = &c->prof;
  memset (st, 0, sizeof *st);
  st->contexts = prof->nnodes ? prof->nnodes - 1 : 0;
  cct_page p = { c, metric, 0, calloc (prof->nfns + 1, sizeof (int)),
                 calloc (prof->nnodes + 1, sizeof (uint32_t)), 0, st };
  char *used = calloc (prof->nfns + 1, 1);
  int rc = -1;
  if (!p.fn_out || !p.stack || !used)
    {
      fprintf (stderr, "ppprof: out of memory\n");
      goto out;
    }
  uint64_t total = prof->nnodes ? incl_of (&p, 0) : 0;
  double t = (double) total * min_percent / 100.0;
  p.threshold = t >= 18446744073709551615.0 ? UINT64_MAX
                : (uint64_t) t + ((double) (uint64_t) t < t);
  const char *measure = metric >= 0 ? prof->metrics[metric].name : "calls";
  const char *unit = metric >= 0 ? prof->metrics[metric].unit : "";

  pp_html_begin (out, "Calling context tree");
  if (have_index)
    fprintf (out, "<p class=\"note\"><a href=\"index.html\">&larr; "
             "index</a></p>\n");
  fprintf (out, "<h1>Calling context tree</h1>\n<p><code>");
  pp_html_text (out, c->name);
  fprintf (out, "</code> &middot; %" PRIu64 " run%s &middot; %" PRIu32
           " contexts &middot; widths: inclusive <b>", prof->runs,
           prof->runs == 1 ? "" : "s", st->contexts);
  pp_html_text (out, measure);
  fprintf (out, "</b>%s", *unit ? " (" : "");
  pp_html_text (out, unit);
  fprintf (out, "%s, %s%" PRIu64 " in all%s</p>\n", *unit ? ")" : "",
           total == UINT64_MAX ? "at least " : "", total,
           c->subtract_probes ? ", the probes' cost subtracted" : "");

  /* The functions the tree names, in the profile's order, each with its
     page in the report (or null).  */
  fprintf (out, "<script type=\"application/json\" id=\"cct-data\">\n"
           "{\"name\": ");
  js_string (out, c->name);
  fprintf (out, ", \"measure\": ");
  js_string (out, measure);
  fprintf (out, ", \"unit\": ");
  js_string (out, unit);
  fprintf (out, ", \"total\": %" PRIu64 ", \"min_percent\": %g,\n"
           "\"fns\": [", total, min_percent);
  for (uint32_t i = 1; i < prof->nnodes; i++)
    used[prof->nodes[i].fn] = 1;
  int k = 0;
  for (uint32_t f = 0; f < prof->nfns; f++)
    {
      p.fn_out[f] = -1;
      if (!used[f])
        continue;
      p.fn_out[f] = k;
      fprintf (out, "%s[", k++ ? ",\n" : "\n");
      char *d = pp_demangle (prof->fns[f].name);
      js_string (out, d ? d : prof->fns[f].name);
      free (d);
      putc (',', out);
      if (fn_pages && fn_pages[f])
        js_string (out, fn_pages[f]);
      else
        fputs ("null", out);
      putc (']', out);
    }
  fprintf (out, "],\n\"nodes\": [\n");
  if (prof->nnodes && emit (&p, out, 0, -1) < 0)
    {
      fprintf (stderr, "ppprof: out of memory\n");
      goto out;
    }
  fprintf (out, "\n]}\n</script>\n");
  fprintf (out, "<p class=\"note\" id=\"cct-summary\">%" PRIu32
           " contexts drawn one by one", st->drawn);
  if (st->merged)
    fprintf (out, "; %" PRIu32 " narrower than %g%% of the whole merged "
             "into %" PRIu32 " grey nodes", st->merged, min_percent,
             st->merged_nodes);
  fprintf (out, ".  Click a context to zoom into it, the one above it to "
           "zoom out.</p>\n"
           "<p><input id=\"cct-q\" type=\"search\" placeholder=\"highlight "
           "functions\" aria-label=\"highlight functions\"> <span "
           "id=\"cct-match\" class=\"note\"></span></p>\n"
           "<div id=\"cct-info\" class=\"mono\">&nbsp;</div>\n"
           "<div id=\"cct\"></div>\n<noscript><p>The graph needs "
           "JavaScript; <code>ppprof cct</code> prints the same tree."
           "</p></noscript>\n<script>\n%s</script>\n</body>\n</html>\n",
           pp_html_cct_js);
  rc = 0;
out:
  free (p.fn_out);
  free (p.stack);
  free (used);
  return rc;
}
