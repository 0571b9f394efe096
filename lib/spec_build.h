/* The interface between the graph-language grammar (spec_parser.y), its
   scanner (spec_lexer.l) and the code that builds the pp_spec (spec.c).
   Internal to libppcore.  */
#ifndef PP_SPEC_BUILD_H
#define PP_SPEC_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "pp/spec.h"

/* A source position, 1-based; columns count bytes.  Used as the Bison
   location type: a token's or a rule's location is where it starts.  */
typedef struct
{
  int line, col;
} pp_spec_loc;

typedef struct pp_spec_builder pp_spec_builder;

/* Options of an `edge` statement.  */
typedef struct
{
  unsigned flags;   /* PP_EDGE_ABNORMAL */
  int has_weight;
  uint64_t weight;
  int branch;             /* PP_BRANCH_* */
  const char *case_text;  /* PP_BRANCH_CASE, owned by the builder */
} pp_spec_edge_opts;

/* What the scanner keeps between tokens (flex's "extra" data).  */
typedef struct
{
  pp_spec_builder *b;
  int line, col;      /* position of the next character */
  int need_nl;        /* a token was returned since the last end of line */
  const char *last_text; /* the last NAME or keyword, for syntax errors */
} pp_spec_lexstate;

/* Every function below returns 0, or -1 after recording the first error of
   the parse (later ones are dropped), which makes the parser abort.  */
void pp_spec_error (pp_spec_builder *b, pp_spec_loc loc, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));
int pp_spec_has_error (const pp_spec_builder *b);

/* A copy of TEXT[0..LEN) owned by the builder (freed with it).  */
char *pp_spec_strdup (pp_spec_builder *b, const char *text, size_t len);

int pp_spec_b_function (pp_spec_builder *b, pp_spec_loc loc, const char *name);
int pp_spec_b_file (pp_spec_builder *b, pp_spec_loc loc, const char *file);
int pp_spec_b_checksum (pp_spec_builder *b, pp_spec_loc loc, uint32_t sum);
/* RULE: how the cuts were chosen ("fitted"), NULL for the original rule.  */
int pp_spec_b_max_paths (pp_spec_builder *b, pp_spec_loc loc, uint64_t max,
                         const char *rule);
int pp_spec_b_derived_restart (pp_spec_builder *b, pp_spec_loc loc,
                               const char *node);
int pp_spec_b_caller (pp_spec_builder *b, pp_spec_loc loc, const char *function,
                      uint32_t checksum, const char *node);
/* HAS_LINES: a `line FIRST [LAST]` clause (LAST = FIRST when omitted).  */
int pp_spec_b_node (pp_spec_builder *b, pp_spec_loc loc, const char *name,
                    int has_lines, unsigned first, unsigned last);
/* `cond LINE COL` of a node statement (COL 0: unknown).  */
int pp_spec_b_node_cond (pp_spec_builder *b, pp_spec_loc loc,
                         const char *name, unsigned line, unsigned col);
int pp_spec_b_entry (pp_spec_builder *b, pp_spec_loc loc, const char *name);
int pp_spec_b_exit (pp_spec_builder *b, pp_spec_loc loc, const char *name);
int pp_spec_b_edge (pp_spec_builder *b, pp_spec_loc loc, const char *src,
                    const char *dst, pp_spec_loc dstloc,
                    const pp_spec_edge_opts *opts);
int pp_spec_b_path_begin (pp_spec_builder *b, pp_spec_loc loc);
int pp_spec_b_path_node (pp_spec_builder *b, pp_spec_loc loc,
                         const char *name);
int pp_spec_b_path_id (pp_spec_builder *b, uint64_t id);
int pp_spec_b_path_line (pp_spec_builder *b, unsigned line);
int pp_spec_b_path_end (pp_spec_builder *b);

#endif
