/* ppprof's commands (tools/ppprof.c parses the command line) and the
   printing of paths they share (report.c).  */
#ifndef PPPROF_COMMANDS_H
#define PPPROF_COMMANDS_H

#include "profile_set.h"

#include <stdio.h>

/* Source lines as ranges: 3 4 5 9 -> 3-5 9.  */
void print_lines (FILE *out, const pp_report_path *p);
/* The path as in report lines, with the (cont) and (break) marks; one
   through or in a callee (PP_FN_IPP) by segment, each with its function:
   foo 3-4 > bar 10-11 13 > foo 5-6.  */
void print_path (FILE *out, const pp_report_path *p);
/* "lines": [...] for --json, then for a PP_FN_IPP record's path
   "segments": [{"function": F, "lines": [...]}, ...].  */
void print_json_lines (FILE *out, const pp_report_path *p);
/* Whether function NAME is in SET (else one line on stderr).  */
int known_function (const pp_profile_set *set, const char *name);

/* Each returns the exit status (0, 1, 2: see ppprof.c).  */
int ppprof_report (pp_profile_set *set, long top, const char *only, int json);
int ppprof_residual (pp_profile_set *set, const char *only, int json,
                     int fail_on_new);
/* annotate.c: the source with line counts; PATH (NULL: none) a path id
   of function ONLY whose lines are marked.  lcov.c: an lcov tracefile to
   OUT (NULL: stdout), of function ONLY (NULL: all).  */
int ppprof_annotate (pp_profile_set *set, const char *only, const char *path);
int ppprof_lcov (pp_profile_set *set, const char *only, const char *out);
int ppprof_overlap_files (char **names, long top, int json);
/* html.c: a static HTML report into directory DIR (made if need be) of
   FILES (.ppd and .ppc files, directories searched for both; none: the
   current directory): index.html and a page per function (ONLY: that
   one), each with its TOP hottest paths (0: all) selectable; of context
   profiles, cct.html, an icicle graph of the calling context tree (widths
   by METRIC, else the first measured, else calls; contexts under
   MIN_PERCENT of the whole merged).  */
typedef struct
{
  const char *only, *dir, *metric;
  long top;
  double min_percent;
  int subtract_probes;
  int cct_metric;       /* set by ppprof_html: METRIC's index, -1 calls */
} pp_html_options;
int ppprof_html (char **files, int nfiles, pp_html_options *o);

/* cfg_dot.c: FN's CFG in Graphviz's language to OUT, each edge labelled
   with its exact count (from the path counts, back edges included), as
   thick and red as its share of the hottest edge's; IDS (NULL: none) gives
   node V the id IDS"n"V and edge E IDS"e"E (the SVG's element ids).
   0, or -1 (out of memory, message printed).  */
int pp_cfg_dot (FILE *out, const pp_report_fn *fn, const char *ids);

/* Context profiles (.ppc): cct.c, folded.c, context_report.c.  FILES
   are .ppc files or directories searched for them (none: the current
   directory); several merge into one tree.  */
typedef struct
{
  const char *metric;   /* --metric, or NULL: every metric */
  int json, subtract_probes;
  long paths;           /* --paths N: each context's top N paths */
  double min_percent;   /* --min-percent P: smaller contexts hidden */
} pp_cct_options;

typedef struct
{
  const char *metric, *only; /* --metric (NULL: by count), --function */
  long top;
  int json, subtract_probes;
} pp_report_options;

int ppprof_cct (char **files, int nfiles, const pp_cct_options *o);
int ppprof_folded (char **files, int nfiles, const char *metric,
                   int subtract_probes);
/* record.c: PROG run with the sampler preloaded (ARGV after
   "record"); its exit status, or 1 usage, 2 no sampler.  */
int ppprof_record (int argc, char **argv);
int ppprof_report_context (char **files, int nfiles,
                           const pp_report_options *o);

#endif
