/* ppprof's commands (tools/ppprof.c parses the command line) and the
   printing of paths they share (report.c).  */
#ifndef PPPROF_COMMANDS_H
#define PPPROF_COMMANDS_H

#include "profile_set.h"

#include <stdio.h>

/* Source lines as ranges: 3 4 5 9 -> 3-5 9.  */
void print_lines (FILE *out, const pp_report_path *p);
/* The path as in report lines, with the (cont) and (break) marks.  */
void print_path (FILE *out, const pp_report_path *p);
/* "lines": [...] for --json.  */
void print_json_lines (FILE *out, const pp_report_path *p);
/* Whether function NAME is in SET (else one line on stderr).  */
int known_function (const pp_profile_set *set, const char *name);

/* Each returns the exit status (0, 1, 2: see ppprof.c).  */
int ppprof_report (pp_profile_set *set, long top, const char *only, int json);
int ppprof_residual (pp_profile_set *set, const char *only, int json,
                     int fail_on_new);
int ppprof_overlap_files (char **names, long top, int json);

#endif
