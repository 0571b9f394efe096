/* ppprof's view of a set of .ppd files: every function with its paths,
   regenerated from the metadata recorded at compile time.  */
#ifndef PPPROF_PROFILE_SET_H
#define PPPROF_PROFILE_SET_H

#include "pp/core.h"
#include "pp/ppd.h"
#include "pp/spec.h"

/* Interprocedural path segments (PP_FN_IPP records, include/pp/ipp.h):
   a maximal run of a path's nodes in one function's code, the record's
   own or one callee copy's (a recursive call's copy starts a new segment
   although its function is the same).  */
/* A condition on a path and the way the path went there (the metadata's
   `cond` and edge branch fields, doc/graph-language.md).  Paths through
   the same lines differ in these.  */
typedef struct
{
  unsigned line, column;  /* the condition; column 0: unknown */
  int show_column;        /* another condition of the function is on the
                             line: the text needs the column */
  int kind;               /* PP_BRANCH_TRUE, _FALSE or _CASE */
  const char *case_text;  /* _CASE: the labels ("3", "1...3", "default");
                             NULL when too many: see target_line */
  unsigned target_line;   /* _CASE: the first line of the block it enters */
} pp_report_branch;

typedef struct
{
  char *function;    /* the record's name, or the callee's */
  int callee;        /* in a callee copy, not the record's own code */
  unsigned *lines;   /* its source lines (in the function's own source
                        file), no repeats in a row */
  int num_lines;
  unsigned *spans;   /* each block's first and last line, in pairs: the
                        lines inside a block are on the path too */
  int num_spans;     /* pairs */
  pp_report_branch *branches; /* the conditions in it, in path order */
  int num_branches;
} pp_report_segment;

typedef struct
{
  pp_pathid id;
  uint64_t count;
  unsigned *lines;   /* source lines along the path, no repeats in a row:
                        each block's first and last (report --json's
                        "lines" is every line of SPANS instead) */
  int num_lines;
  unsigned *spans;   /* each block's first and last line, in pairs: what
                        the text shows (4-9: lines 5 to 8 too) */
  int num_spans;     /* pairs */
  pp_report_branch *branches;  /* the conditions on it, in path order */
  int num_branches;
  int interprocedural;         /* from a PP_FN_IPP record: segments set */
  pp_report_segment *segments; /* in path order */
  int num_segments;
  int starts_at_back_edge; /* begins with a pseudo ENTRY->w edge */
  int ends_at_back_edge;   /* ends with a pseudo v->EXIT edge */
  int untested;            /* ran, but not in the function's trained set */
} pp_report_path;

typedef struct
{
  const char *name;
  const char *file;        /* source file, from the metadata */
  const char *profile;     /* the .ppd it came from */
  uint32_t checksum, flags;
  uint64_t num_paths, dropped, total;
  pp_spec *spec;           /* parsed metadata */
  pp_numbering *numbering;
  unsigned char *show_column; /* per graph node: its condition shares its
                                 line with another (pp_report_number) */
  pp_report_path *paths;   /* by count, descending */
  int num_paths_run;
  /* PP_FN_TRAINED (residual profiles): the Ball-Larus ids the training
     profile had run, ascending; the union over the merged profiles.  */
  uint64_t *trained;
  uint64_t ntrained;
  int num_untested;        /* paths with `untested` set */
  uint64_t untested_total; /* their executions */
} pp_report_fn;

typedef struct
{
  ppd_profile *profiles;
  char **profile_names;
  int num_profiles;
  pp_report_fn *fns;
  int num_fns;
  uint64_t total;
  /* --file F: analyse only the functions of source files whose path ends
     with F (a whole component: "cJSON.c" or "lib/cJSON.c"); NULL: all.  */
  const char *only_file;
  int num_other_files;     /* functions left out by only_file */
} pp_profile_set;

/* Loads the .ppd files named (directories are searched recursively; no
   names: the current directory).  Returns 0, or -1 after printing one line
   `ppprof: PATH: why`.  */
int pp_profile_set_load (pp_profile_set *set, char **names, int count);
/* Regenerates every function's paths.  Returns 0 or -1 (message printed). */
int pp_profile_set_analyse (pp_profile_set *set);
/* One line: PROFILE holds counts of FN without its metadata.  */
void pp_report_no_meta (const char *profile, const char *fn);
void pp_profile_set_free (pp_profile_set *set);
/* One note for each program whose objects' profiles in SET count
   different numbers of its runs (tools/mixed_runs.c); WANTED (one flag
   per profile, NULL: all): only programs of those profiles.  */
void pp_note_mixed_runs (const pp_profile_set *set,
                         const unsigned char *wanted);

/* Calls ADD for every regular file below DIR whose name ends in SUFFIX
   (hidden directories too: libtool's .libs); stops at the first negative
   return.  Returns 0 or -1 (DIR unreadable: message printed).  */
int pp_walk_dir (const char *dir, const char *suffix,
                 int (*add) (void *ctx, const char *path), void *ctx);
/* The profiles the command line names: each of NAMES (COUNT of them;
   none: ".") is a file, given to ADD, or a directory, walked for files
   ending in SUFFIX.  Returns 0, or -1 after a message (a name that does
   not exist, an unreadable directory) or when ADD returns -1.  */
int pp_walk_inputs (char **names, int count, const char *suffix,
                    int (*add) (void *ctx, const char *path), void *ctx);
/* Numbers FN's graph (fn->spec) into fn->numbering and checks it against
   fn->num_paths.  0, or -1 after one line `ppprof: PROFILE: ...`.  */
int pp_report_number (pp_report_fn *fn);
/* P's source lines and (cont)/(break) marks from its id, fn->numbering
   set; for a PP_FN_IPP record (fn->flags) its segments too.  0, or -1
   when the id is out of range.  */
int pp_report_regenerate (const pp_report_fn *fn, pp_report_path *p);
/* Sets each path's `untested` from FN's trained set (PP_FN_TRAINED; the
   analysis does it; ppprof db residual again, with its own set).  */
void pp_report_mark_untested (pp_report_fn *fn);
/* Frees what pp_report_regenerate allocated in P (lines, segments).  */
void pp_report_path_free (pp_report_path *p);

#endif
