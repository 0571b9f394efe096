/* ppgcc graph language: graphs to number (ppnum), the per-function metadata
   the plugin embeds in objects, and path specifications.  The language is
   described in doc/graph-language.md; the grammar is lib/spec_parser.y over
   lib/spec_lexer.l.  The parser is reentrant and keeps no global state.  */
#ifndef PP_SPEC_H
#define PP_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "pp/core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
  PP_SPEC_PATH_NODES, /* path NAME NAME ...   */
  PP_SPEC_PATH_ID,    /* path id NUMBER       */
  PP_SPEC_PATH_LINES  /* path lines NUMBER... */
} pp_spec_path_kind;

/* An interesting path, as written.  */
typedef struct
{
  pp_spec_path_kind kind;
  int *nodes;          /* PP_SPEC_PATH_NODES: graph node ids, entry..exit */
  int num_nodes;
  uint64_t id;         /* PP_SPEC_PATH_ID: Ball-Larus id */
  unsigned *lines;     /* PP_SPEC_PATH_LINES: source lines */
  int num_lines;
  int line, col;       /* where the `path` statement starts (1-based) */
} pp_spec_path;

/* `caller NAME CHECKSUM NODE`: the function is called once at each
   execution of node NODE of function NAME (whose CFG checksum is CHECKSUM),
   from a call site the plugin recorded for a function whose count is
   derived from its callers' paths (PP_FN_DERIVED, lib/derive.c).  */
typedef struct
{
  char *function;
  uint32_t checksum;
  char *node;
} pp_spec_caller;

/* One `function` block, or the anonymous graph of a file without one.  */
typedef struct
{
  char *name;          /* NULL for the anonymous graph */
  char *file;          /* `file` statement, or NULL */
  uint32_t checksum;   /* `checksum` statement, when has_checksum */
  int has_checksum;
  uint64_t max_paths;  /* `max_paths` statement, 0 when absent (= 2^64-1) */
  int has_max_paths;
  int cut_rule;        /* its rule: PP_CUT_SHARE, or PP_CUT_FITTED when the
                          statement says "fitted" (include/pp/core.h) */
  pp_graph *graph;     /* NULL when the block declares no node at all (a path
                          specification by id or by lines needs no graph) */
  pp_spec_path *paths;
  int num_paths;
  pp_spec_caller *callers; /* `caller` statements, in file order */
  int num_callers;
  /* `derived_restart NODE` statements: the path that restarts at NODE
     and ends in its block has no probe; readers derive its count
     (PP_FN_DERIVED_RESTARTS, pp_derive_restart_count).  */
  char **derived_restarts;
  int num_derived_restarts;
  int line, col;       /* the `function` statement, or the first statement of
                          the anonymous graph */
} pp_spec_function;

typedef struct
{
  pp_spec_function *fns; /* in file order; names need not be unique */
  int num_fns;           /* 0 for an input with no statement at all */
  char *filename;        /* the name errors are reported under */
} pp_spec;

/* Parses TEXT (LEN bytes, NUL bytes are errors) read from FILENAME (only
   used in messages; NULL gives "<string>").  Returns NULL on error, with
   "FILE:LINE:COL: message" (one line, no newline) in ERR.  */
pp_spec *pp_spec_parse_string (const char *text, size_t len,
                               const char *filename, char *err,
                               size_t errlen);
/* Reads and parses PATH; "-" reads standard input (named "<stdin>").  An
   unreadable file gives "PATH: reason".  */
pp_spec *pp_spec_parse_file (const char *path, char *err, size_t errlen);
void pp_spec_free (pp_spec *spec);

/* Resolves path P of FN into its Ball-Larus id under numbering N (built from
   FN->graph).  Returns 0, or -1 with "FILE:LINE:COL: message" in ERR:
     path is not a path of the graph: does not start at the entry 's'
     path is not a path of the graph: does not end at the exit 't'
     path is not a path of the graph: no edge a->b
     path id N is out of range: the graph has M paths
   Paths by source lines cannot be resolved from a numbering alone and give
   an error.  */
int pp_spec_resolve_path (const pp_spec *spec, const pp_spec_function *fn,
                          const pp_spec_path *p, const pp_numbering *n,
                          pp_pathid *id, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
