/* ppprof html's parts: the escaping and page frame they share
   (html_page.c), the index and the command (html.c), a function's page
   (html_fn.c), the CFG drawings (html_cfg.c), the context tree
   (html_cct.c), the inline CSS and scripts (html_assets.c).  */
#ifndef PPPROF_HTML_H
#define PPPROF_HTML_H

#include "context.h"
#include "demangle.h"
#include "line_counts.h"
#include "profile_set.h"

#include <stdint.h>
#include <stdio.h>

/* S as HTML text or attribute value: & < > " ' escaped, control
   characters other than tab shown as U+FFFD (the page stays valid).  */
void pp_html_text (FILE *out, const char *s);
/* A function's NAME as HTML text, demangled when it is a C++ symbol.  */
void pp_html_name (FILE *out, const char *name);
/* The page up to <body>: title TITLE (escaped here), the inline CSS.  */
void pp_html_begin (FILE *out, const char *title);
/* "12.34%" of COUNT in TOTAL; "-" when TOTAL is 0 or saturated (a share
   of a lower bound would be made up).  */
void pp_html_share (FILE *out, uint64_t count, uint64_t total);

/* CFG drawings by Graphviz, all made by one run of dot (thousands of
   functions: one process, not one each).  */
typedef struct pp_html_cfg pp_html_cfg;
/* Draws the functions ORDER[0..NUM) of SET (indices into set->fns) that
   ran and are small enough, working in DIR (scratch files, removed).
   Without dot, or when it fails, the pages say so instead; NULL only
   when out of memory.  ORDER must live as long as the result.  */
pp_html_cfg *pp_html_cfg_draw (const pp_profile_set *set, const int *order,
                               int num, const char *dir);
/* Writes function I's drawing (an inline <svg>, node V's id "cfg-nV",
   edge E's "cfg-eE") or a note why there is none.  Functions must be
   asked for in ORDER's order (some may be left out).  */
void pp_html_cfg_write (pp_html_cfg *c, int i, FILE *out);
void pp_html_cfg_free (pp_html_cfg *c);

/* The page of function FN (set->fns index I) to OUT: its summary, its
   TOP hottest paths (0: all) and untested ones, selectable; its source
   SRC (NULL: not readable) with line counts; its CFG from CFG.  *CALLS
   is set to its entry count.  0, or -1 after a message.  */
int pp_html_fn_page (FILE *out, const pp_profile_set *set, int i,
                     const pp_source *src, long top, pp_html_cfg *cfg,
                     uint64_t *calls);

/* The icicle graph of a context profile (html_cct.c), whose widths are
   metric METRIC's inclusive values (-1: calls); contexts narrower than
   MIN_PERCENT of the whole are merged, a parent's into one node.
   FN_PAGES (may be NULL) gives, per function of C's profile, its page's
   address relative to the report (NULL: none).  HAVE_INDEX: link back to
   index.html.  0, or -1 after a message.  */
typedef struct
{
  uint32_t contexts;     /* in the tree, the root aside */
  uint32_t drawn;        /* of them sent one by one */
  uint32_t merged;       /* of them in merged nodes */
  uint32_t merged_nodes; /* the merged nodes */
} pp_html_cct_stats;
int pp_html_cct_page (FILE *out, const pp_context *c, int metric,
                      double min_percent, const char *const *fn_pages,
                      int have_index, pp_html_cct_stats *st);

extern const char pp_html_css[];
extern const char pp_html_fn_js[];
extern const char pp_html_index_js[];
extern const char pp_html_cct_js[];

#endif
