/* The ppgcc graph language (doc/graph-language.md): graphs for ppnum, the
   per-function metadata of instrumented objects, path specifications.

   One statement per line.  Keywords are separate tokens, but wherever the
   grammar wants a node or function name it also takes any keyword (the
   `name` rule), so `edge exit t` or `function line` work: keywords are
   reserved only where they start a statement or where an option is
   expected.  The actions hand everything to the builder (spec.c), which
   owns all memory, so no semantic value needs a destructor; the first error
   stops the parse.  Pure parser, reentrant scanner, pp_spec_yy prefix: no
   global state, no clash with other parsers in the same process (cc1).  */

%define api.pure full
%define api.prefix {pp_spec_yy}
%define api.location.type {pp_spec_loc}
%define parse.error custom
/* exact "expecting ..." lists despite default reductions */
%define parse.lac full
%locations

%code requires {
#include "spec_build.h"
#ifndef PP_SPEC_YYSCAN_T_DEFINED
#define PP_SPEC_YYSCAN_T_DEFINED
typedef void *pp_spec_yyscan_t;
#endif
}

%code provides {
int pp_spec_yylex (PP_SPEC_YYSTYPE *lval, PP_SPEC_YYLTYPE *lloc,
                   pp_spec_yyscan_t scanner);
int pp_spec_yyparse (pp_spec_yyscan_t scanner, pp_spec_builder *b);
pp_spec_lexstate *pp_spec_yyget_extra (pp_spec_yyscan_t scanner);
}

%code {
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

/* A rule's location is where its first symbol starts; an empty rule takes
   the end of the previous symbol, which is good enough for messages.  */
#define YYLLOC_DEFAULT(Cur, Rhs, N)                         \
  do                                                        \
    (Cur) = (N) ? YYRHSLOC (Rhs, 1) : YYRHSLOC (Rhs, 0);    \
  while (0)

/* Bison's own failures (memory exhausted); syntax errors go through
   yyreport_syntax_error below.  */
static void
pp_spec_yyerror (const pp_spec_loc *loc, pp_spec_yyscan_t scanner,
                 pp_spec_builder *b, const char *msg)
{
  (void) scanner;
  pp_spec_error (b, *loc, "%s", msg);
}

#define CHECK(call)          \
  do                         \
    if ((call) != 0)         \
      YYABORT;               \
  while (0)
}

%param {pp_spec_yyscan_t scanner}
%parse-param {pp_spec_builder *b}

%union {
  const char *str;        /* owned by the builder */
  uint64_t num;
  unsigned line;
  pp_spec_edge_opts opts;
  struct { int has; unsigned first, last; } lines;
  struct { int kind; const char *text; } branch;
}

%token <str> NAME "name"
%token <str> STRING "string"
%token <num> NUMBER "number"
%token NL "end of line"
%token LEX_ERROR "invalid token" /* the scanner has reported the error */
%token KW_FUNCTION "function"
%token KW_FILE "file"
%token KW_CHECKSUM "checksum"
%token KW_MAX_PATHS "max_paths"
%token KW_NODE "node"
%token KW_ENTRY "entry"
%token KW_EXIT "exit"
%token KW_EDGE "edge"
%token KW_PATH "path"
%token KW_LINE "line"
%token KW_LINES "lines"
%token KW_ABNORMAL "abnormal"
%token KW_WEIGHT "weight"
%token KW_ID "id"
%token KW_COND "cond"
%token KW_TRUE "true"
%token KW_FALSE "false"
%token KW_CASE "case"
%token KW_CALLER "caller"
%token KW_DERIVED_RESTART "derived_restart"

%type <str> name
%type <line> line_number
%type <opts> edge_opts
%type <lines> node_lines node_cond
%type <branch> edge_branch

%%

input:
  %empty
| input line
;

line:
  NL
| statement NL
;

statement:
  KW_FUNCTION name        { CHECK (pp_spec_b_function (b, @1, $2)); }
| KW_FILE STRING          { CHECK (pp_spec_b_file (b, @1, $2)); }
| KW_CHECKSUM NUMBER
    {
      if ($2 > UINT32_MAX)
        {
          pp_spec_error (b, @2, "checksum %#" PRIx64 " does not fit in 32 bits",
                         $2);
          YYABORT;
        }
      CHECK (pp_spec_b_checksum (b, @1, (uint32_t) $2));
    }
| KW_MAX_PATHS NUMBER     { CHECK (pp_spec_b_max_paths (b, @1, $2, NULL)); }
| KW_MAX_PATHS NUMBER name { CHECK (pp_spec_b_max_paths (b, @1, $2, $3)); }
| KW_CALLER name NUMBER name
    {
      if ($3 > UINT32_MAX)
        {
          pp_spec_error (b, @3, "checksum %#" PRIx64 " does not fit in 32 bits",
                         $3);
          YYABORT;
        }
      CHECK (pp_spec_b_caller (b, @1, $2, (uint32_t) $3, $4));
    }
| KW_DERIVED_RESTART name { CHECK (pp_spec_b_derived_restart (b, @1, $2)); }
| KW_NODE name node_lines node_cond
    {
      CHECK (pp_spec_b_node (b, @2, $2, $3.has, $3.first, $3.last));
      if ($4.has)
        CHECK (pp_spec_b_node_cond (b, @2, $2, $4.first, $4.last));
    }
| KW_ENTRY name           { CHECK (pp_spec_b_entry (b, @1, $2)); }
| KW_EXIT name            { CHECK (pp_spec_b_exit (b, @1, $2)); }
| KW_EDGE name name edge_opts edge_branch
    {
      $4.branch = $5.kind;
      $4.case_text = $5.text;
      CHECK (pp_spec_b_edge (b, @1, $2, $3, @3, &$4));
    }
| KW_PATH                 { CHECK (pp_spec_b_path_begin (b, @1)); }
  path_body               { CHECK (pp_spec_b_path_end (b)); }
;

node_lines:
  %empty                      { $$.has = 0; $$.first = $$.last = 0; }
| KW_LINE line_number         { $$.has = 1; $$.first = $$.last = $2; }
| KW_LINE line_number line_number
                              { $$.has = 1; $$.first = $2; $$.last = $3; }
;

/* `cond LINE [COLUMN]`: the block ends in a condition there (for
   reports); a missing column is 0, unknown.  */
node_cond:
  %empty                      { $$.has = 0; $$.first = $$.last = 0; }
| KW_COND line_number         { $$.has = 1; $$.first = $2; $$.last = 0; }
| KW_COND line_number line_number
                              { $$.has = 1; $$.first = $2; $$.last = $3; }
;

/* Which way a conditional block's edge goes, for reports.  */
edge_branch:
  %empty                 { $$.kind = PP_BRANCH_NONE; $$.text = NULL; }
| KW_TRUE                { $$.kind = PP_BRANCH_TRUE; $$.text = NULL; }
| KW_FALSE               { $$.kind = PP_BRANCH_FALSE; $$.text = NULL; }
| KW_CASE STRING         { $$.kind = PP_BRANCH_CASE; $$.text = $2; }
;

edge_opts:
  %empty                 { $$.flags = 0; $$.has_weight = 0; $$.weight = 0; }
| KW_ABNORMAL            { $$.flags = PP_EDGE_ABNORMAL; $$.has_weight = 0;
                           $$.weight = 0; }
| KW_WEIGHT NUMBER       { $$.flags = 0; $$.has_weight = 1; $$.weight = $2; }
| KW_ABNORMAL KW_WEIGHT NUMBER
                         { $$.flags = PP_EDGE_ABNORMAL; $$.has_weight = 1;
                           $$.weight = $3; }
;

/* `path id 5` and `path lines 3 4` against a path through nodes named `id`
   or `lines`: one token of lookahead (a number or not) decides.  */
path_body:
  path_nodes
| KW_ID NUMBER            { CHECK (pp_spec_b_path_id (b, $2)); }
| KW_LINES path_lines
;

path_nodes:
  name                    { CHECK (pp_spec_b_path_node (b, @1, $1)); }
| path_nodes name         { CHECK (pp_spec_b_path_node (b, @2, $2)); }
;

path_lines:
  line_number             { CHECK (pp_spec_b_path_line (b, $1)); }
| path_lines line_number  { CHECK (pp_spec_b_path_line (b, $2)); }
;

line_number:
  NUMBER
    {
      if ($1 > UINT_MAX)
        {
          pp_spec_error (b, @1, "line number %" PRIu64 " is out of range",
                         $1);
          YYABORT;
        }
      $$ = (unsigned) $1;
    }
;

name:
  NAME            { $$ = $1; }
| KW_FUNCTION     { $$ = "function"; }
| KW_FILE         { $$ = "file"; }
| KW_CHECKSUM     { $$ = "checksum"; }
| KW_MAX_PATHS    { $$ = "max_paths"; }
| KW_NODE         { $$ = "node"; }
| KW_ENTRY        { $$ = "entry"; }
| KW_EXIT         { $$ = "exit"; }
| KW_EDGE         { $$ = "edge"; }
| KW_PATH         { $$ = "path"; }
| KW_LINE         { $$ = "line"; }
| KW_LINES        { $$ = "lines"; }
| KW_ABNORMAL     { $$ = "abnormal"; }
| KW_WEIGHT       { $$ = "weight"; }
| KW_ID           { $$ = "id"; }
| KW_COND         { $$ = "cond"; }
| KW_TRUE         { $$ = "true"; }
| KW_FALSE        { $$ = "false"; }
| KW_CASE         { $$ = "case"; }
| KW_CALLER       { $$ = "caller"; }
| KW_DERIVED_RESTART { $$ = "derived_restart"; }
;

%%

/* How a token is named in a syntax error: keywords quoted, the rest by
   their alias without Bison's double quotes.  */
static void
describe_symbol (yysymbol_kind_t sym, char *buf, size_t len)
{
  const char *s = yysymbol_name (sym);
  size_t n = strlen (s);
  int keyword = sym >= YYSYMBOL_KW_FUNCTION && sym <= YYSYMBOL_KW_DERIVED_RESTART;
  if (sym == YYSYMBOL_YYEOF)
    {
      snprintf (buf, len, "end of file");
      return;
    }
  if (n >= 2 && s[0] == '"' && s[n - 1] == '"')
    {
      s++;
      n -= 2;
    }
  snprintf (buf, len, keyword ? "'%.*s'" : "%.*s", (int) n, s);
}

/* "syntax error, unexpected X, expecting Y or Z"; at the start of a
   statement the list of statements would be long, so it says "a
   statement".  */
static int
yyreport_syntax_error (const yypcontext_t *ctx, pp_spec_yyscan_t scanner,
                       pp_spec_builder *b)
{
  enum { MAX_LISTED = 6 };
  yysymbol_kind_t unexpected = yypcontext_token (ctx);
  yysymbol_kind_t expected[YYNTOKENS];
  int nexp = yypcontext_expected_tokens (ctx, expected, YYNTOKENS);
  char what[64], msg[512];
  size_t used;
  int i;

  if (unexpected == YYSYMBOL_LEX_ERROR)
    return 0; /* the scanner has said what is wrong */
  describe_symbol (unexpected, what, sizeof what);
  used = (size_t) snprintf (msg, sizeof msg, "syntax error, unexpected %s",
                            what);
  if (unexpected == YYSYMBOL_NAME)
    {
      const pp_spec_lexstate *ls = pp_spec_yyget_extra (scanner);
      if (ls->last_text)
        used += (size_t) snprintf (msg + used, sizeof msg - used, " '%s'",
                                   ls->last_text);
    }
  int name_expected = 0, statement_expected = 0;
  for (i = 0; i < nexp; i++)
    {
      name_expected |= expected[i] == YYSYMBOL_NAME;
      statement_expected |= expected[i] == YYSYMBOL_KW_EDGE;
    }
  if (statement_expected && !name_expected)
    {
      /* the start of a statement: too many to list */
      snprintf (msg + used, sizeof msg - used, ", expecting a statement");
      pp_spec_error (b, *yypcontext_location (ctx), "%s", msg);
      return 0;
    }
  /* where a name is expected, keywords are names too: do not list them */
  if (name_expected)
    {
      int j, k = 0;
      for (j = 0; j < nexp; j++)
        if (!(expected[j] >= YYSYMBOL_KW_FUNCTION
              && expected[j] <= YYSYMBOL_KW_DERIVED_RESTART))
          expected[k++] = expected[j];
      nexp = k;
    }
  if (nexp <= MAX_LISTED)
    for (i = 0; i < nexp && used < sizeof msg; i++)
      {
        describe_symbol (expected[i], what, sizeof what);
        used += (size_t) snprintf (msg + used, sizeof msg - used, "%s%s",
                                   i == 0 ? ", expecting "
                                   : i == nexp - 1 ? " or " : ", ",
                                   what);
      }
  pp_spec_error (b, *yypcontext_location (ctx), "%s", msg);
  return 0;
}
