/* Per-line execution counts of a function, derived exactly from its path
   counts (block and edge counts: lib/counts.c), attributed to lines the
   way gcov does; shared by ppprof annotate and ppprof lcov.  */
#ifndef PPPROF_LINE_COUNTS_H
#define PPPROF_LINE_COUNTS_H

#include "profile_set.h"

#include <stdint.h>

/* A source file's text, split into lines (lines[0] is line 1).  */
typedef struct
{
  char *name;           /* the path it was read from */
  char *text;
  char **lines;
  unsigned num_lines;
  unsigned char *code;  /* per line: pp_source_line_has_code */
} pp_source;

/* Reads PATH; 0, or -1 (errno set).  */
int pp_source_read (pp_source *s, const char *path);
void pp_source_free (pp_source *s);
/* FN's source file: through a --path-map, under the --source-root
   (pp_source_search), by its name as compiled, or (a relative name)
   under the directory of its profile or a parent of it.  0, or -1 after
   one line on stderr.  */
int pp_open_source (pp_source *src, const pp_report_fn *fn);
/* Where pp_open_source also looks: under ROOT (NULL: nowhere), and
   through MAPS, NUM_MAPS "OLD=NEW" prefix mappings (each with an '=' and
   a non-empty OLD).  The strings are the caller's, kept while used.  */
void pp_source_search (const char *root, const char *const *maps,
                       int num_maps);
/* Whether LINE (1-based) holds something gcov could count: not blank and
   not only braces, a keyword such as `else`, or a comment.  */
int pp_source_line_has_code (const pp_source *s, unsigned line);

/* Line I of the function is FIRST + I.  */
typedef struct
{
  unsigned first, last;   /* the function's lines (0, 0: none known) */
  unsigned decl_line;     /* the line naming it (0: not found) */
  uint64_t calls;         /* its entry count */
  uint64_t *count;        /* per line */
  unsigned char *has;     /* per line: 1 counted, 0 no code ("-") */
  int *owner;             /* per line: the block whose lines hold it
                             inside (not first or last), -1 none, -2 a
                             block's first or last line */
  uint64_t *node_count;   /* per CFG node */
  int num_nodes;
  uint64_t *edge_count;   /* per CFG edge */
} pp_line_counts;

/* FN's line counts; SRC (may be NULL) is its source file, which finds the
   declaration line and tells lines inside a block with code from blank
   ones.  0, or -1 after one line on stderr.  */
int pp_line_counts_of (const pp_report_fn *fn, const pp_source *src,
                       pp_line_counts *lc);
void pp_line_counts_free (pp_line_counts *lc);
/* Marks in ON (one byte per line of LC, as count) the lines on FN's path
   of Ball-Larus id ID: those its blocks are counted at.  0, or -1 when ID
   is out of range.  */
int pp_line_counts_path (const pp_report_fn *fn, const pp_line_counts *lc,
                         pp_pathid id, unsigned char *on);

/* A conditional branch of a function: one out-edge of a block with two
   or more (abnormal edges aside), at the block's last line, as gcov -b
   and lcov's BRDA records count them.  */
typedef struct
{
  unsigned line;
  int block;          /* the block's CFG node */
  int branch;         /* the edge's rank among the block's out-edges */
  int block_ran;      /* the block ran (else lcov prints "-") */
  uint64_t taken;
} pp_branch;

/* FN's branches, by block then edge, in a malloc'd *OUT; their number,
   or -1 (out of memory; message printed).  */
int pp_line_counts_branches (const pp_report_fn *fn,
                             const pp_line_counts *lc, pp_branch **out);

#endif
