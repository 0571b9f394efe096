/* CUnit tests of the graph-language parser (doc/graph-language.md):
   what good inputs build (nodes, edges in order, flags, weights, lines,
   functions, paths) and the exact FILE:LINE:COL message of every class of
   error.  */
#include "test_spec.h"

#include "pp/core.h"
#include "pp/spec.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

/* ------------------------------------------------------------ helpers */

static char err[512];

static pp_spec *
parse (const char *text)
{
  err[0] = '\0';
  pp_spec *s = pp_spec_parse_string (text, strlen (text), "t.graph", err,
                                     sizeof err);
  if (!s)
    fprintf (stderr, "\n  unexpected error: %s\n", err);
  return s;
}

/* Parses TEXT (LEN bytes), expects failure with exactly MSG.  */
static void
expect_error_len (const char *text, size_t len, const char *msg, int line)
{
  err[0] = '\0';
  pp_spec *s = pp_spec_parse_string (text, len, "t.graph", err, sizeof err);
  if (s || strcmp (err, msg) != 0)
    {
      fprintf (stderr, "\n  test_spec.c:%d: expected \"%s\"\n"
               "                          got      \"%s\"%s\n", line, msg,
               err, s ? " (and a result)" : "");
      CU_FAIL ("wrong error");
    }
  else
    CU_PASS ("error as expected");
  pp_spec_free (s);
}

#define EXPECT_ERROR(text, msg) \
  expect_error_len ((text), strlen (text), (msg), __LINE__)

/* The names of G's nodes, space separated, in id order.  */
static const char *
node_names (const pp_graph *g)
{
  static char buf[512];
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < pp_graph_num_nodes (g) && used < sizeof buf; i++)
    used += (size_t) snprintf (buf + used, sizeof buf - used, "%s%s",
                               i ? " " : "", pp_graph_node_name (g, i));
  return buf;
}

/* G's edges as "a>b a>c" in id order.  */
static const char *
edge_list (const pp_graph *g)
{
  static char buf[512];
  size_t used = 0;
  buf[0] = '\0';
  for (int e = 0; e < pp_graph_num_edges (g) && used < sizeof buf; e++)
    used += (size_t) snprintf (buf + used, sizeof buf - used, "%s%s>%s",
                               e ? " " : "",
                               pp_graph_node_name (g, pp_graph_edge_src (g, e)),
                               pp_graph_node_name (g, pp_graph_edge_dst (g, e)));
  return buf;
}

static const char fig3_4[] =
  "entry s\n"
  "exit t\n"
  "edge s a\n"
  "edge s b\n"
  "edge a c\n"
  "edge a b\n"
  "edge b c\n"
  "edge c d\n"
  "edge c t\n"
  "edge d t\n"
  "path s a c d t\n"
  "path s a c t\n"
  "path s b c t\n";

/* ------------------------------------------------------- good inputs */

static void
test_fig3_4 (void)
{
  pp_spec *s = parse (fig3_4);
  CU_ASSERT_FATAL (s != NULL);
  CU_ASSERT_EQUAL (s->num_fns, 1);
  CU_ASSERT_STRING_EQUAL (s->filename, "t.graph");
  pp_spec_function *f = &s->fns[0];
  CU_ASSERT_PTR_NULL (f->name);
  CU_ASSERT_PTR_NULL (f->file);
  CU_ASSERT_EQUAL (f->has_checksum, 0);
  CU_ASSERT_EQUAL (f->has_max_paths, 0);
  CU_ASSERT_EQUAL (f->max_paths, 0);
  CU_ASSERT_EQUAL (f->line, 1);
  CU_ASSERT_EQUAL (f->col, 1);
  CU_ASSERT_FATAL (f->graph != NULL);
  CU_ASSERT_EQUAL (pp_graph_num_nodes (f->graph), 6);
  CU_ASSERT_EQUAL (pp_graph_num_edges (f->graph), 8);
  CU_ASSERT_STRING_EQUAL (node_names (f->graph), "s t a b c d");
  CU_ASSERT_STRING_EQUAL (edge_list (f->graph),
                          "s>a s>b a>c a>b b>c c>d c>t d>t");
  CU_ASSERT_EQUAL (pp_graph_entry (f->graph), 0);
  CU_ASSERT_EQUAL (pp_graph_exit (f->graph), 1);
  for (int e = 0; e < 8; e++)
    {
      CU_ASSERT_EQUAL (pp_graph_edge_flags (f->graph, e), 0);
      CU_ASSERT (pp_graph_edge_weight (f->graph, e) < 0);
    }
  CU_ASSERT_EQUAL_FATAL (f->num_paths, 3);
  static const int p0[] = { 0, 2, 4, 5, 1 }; /* s a c d t */
  CU_ASSERT_EQUAL (f->paths[0].kind, PP_SPEC_PATH_NODES);
  CU_ASSERT_EQUAL_FATAL (f->paths[0].num_nodes, 5);
  CU_ASSERT (memcmp (f->paths[0].nodes, p0, sizeof p0) == 0);
  CU_ASSERT_EQUAL (f->paths[1].num_nodes, 4);
  CU_ASSERT_EQUAL (f->paths[2].num_nodes, 4);
  CU_ASSERT_EQUAL (f->paths[2].nodes[1], 3); /* b */
  CU_ASSERT_EQUAL (f->paths[1].line, 12);
  CU_ASSERT_EQUAL (f->paths[1].col, 1);
  pp_spec_free (s);
}

/* Nodes are numbered in order of first mention, even when the first mention
   is an edge destination declared later.  */
static void
test_node_order (void)
{
  pp_spec *s = parse ("entry s\n"
                      "edge s a\n"
                      "edge s b\n"
                      "node x\n"
                      "edge b t\n"
                      "edge a t\n"
                      "exit t\n"
                      "node b\n"
                      "edge a b\n");
  CU_ASSERT_FATAL (s != NULL);
  const pp_graph *g = s->fns[0].graph;
  CU_ASSERT_STRING_EQUAL (node_names (g), "s a b x t");
  CU_ASSERT_STRING_EQUAL (edge_list (g), "s>a s>b b>t a>t a>b");
  CU_ASSERT_EQUAL (pp_graph_entry (g), 0);
  CU_ASSERT_EQUAL (pp_graph_exit (g), 4);
  pp_spec_free (s);
}

static void
test_flags_weights_lines (void)
{
  pp_spec *s = parse ("entry s\n"
                      "exit t\n"
                      "node a line 3 5\n"
                      "node b line 9\n"
                      "edge s a weight 100\n"
                      "edge s b abnormal\n"
                      "edge a t abnormal weight 0x10\n"
                      "edge b t\n"
                      "edge a t\n");
  CU_ASSERT_FATAL (s != NULL);
  const pp_graph *g = s->fns[0].graph;
  CU_ASSERT_STRING_EQUAL (node_names (g), "s t a b");
  CU_ASSERT_EQUAL_FATAL (pp_graph_num_edges (g), 5);
  CU_ASSERT_EQUAL (pp_graph_edge_flags (g, 0), 0);
  CU_ASSERT_DOUBLE_EQUAL (pp_graph_edge_weight (g, 0), 100.0, 0.0);
  CU_ASSERT_EQUAL (pp_graph_edge_flags (g, 1), PP_EDGE_ABNORMAL);
  CU_ASSERT_DOUBLE_EQUAL (pp_graph_edge_weight (g, 1), -1.0, 0.0);
  CU_ASSERT_EQUAL (pp_graph_edge_flags (g, 2), PP_EDGE_ABNORMAL);
  CU_ASSERT_DOUBLE_EQUAL (pp_graph_edge_weight (g, 2), 16.0, 0.0);
  CU_ASSERT_EQUAL (pp_graph_edge_flags (g, 3), 0);
  CU_ASSERT_DOUBLE_EQUAL (pp_graph_edge_weight (g, 3), -1.0, 0.0);
  /* a parallel edge is a second edge, in file order */
  CU_ASSERT_EQUAL (pp_graph_edge_src (g, 4), 2);
  CU_ASSERT_EQUAL (pp_graph_edge_dst (g, 4), 1);
  unsigned first = 99, last = 99;
  pp_graph_node_lines (g, 2, &first, &last);
  CU_ASSERT_EQUAL (first, 3);
  CU_ASSERT_EQUAL (last, 5);
  pp_graph_node_lines (g, 3, &first, &last);
  CU_ASSERT_EQUAL (first, 9);
  CU_ASSERT_EQUAL (last, 9);
  pp_graph_node_lines (g, 0, &first, &last);
  CU_ASSERT_EQUAL (first, 0);
  CU_ASSERT_EQUAL (last, 0);
  pp_spec_free (s);
}

static void
test_functions (void)
{
  pp_spec *s = parse ("# metadata of two functions\n"
                      "function main\n"
                      "file \"t.c\"\n"
                      "checksum 0x1a2b3c4d\n"
                      "max_paths 0\n"
                      "entry bb0\n"
                      "exit bb1\n"
                      "node bb2 line 3 5\n"
                      "edge bb0 bb2\n"
                      "edge bb2 bb3\n"
                      "edge bb3 bb1 abnormal\n"
                      "\n"
                      "function foo.part.0\n"
                      "  file \"dir/u v.c\"\n"
                      "  checksum 4294967295\n"
                      "  max_paths 0xFFFFFFFFFFFFFFFF fitted\n"
                      "  entry bb0\n"
                      "  exit bb1\n"
                      "  edge bb0 bb1\n"
                      "  path bb0 bb1\n"
                      "function main\n"
                      "entry x\n"
                      "exit y\n");
  CU_ASSERT_FATAL (s != NULL);
  CU_ASSERT_EQUAL_FATAL (s->num_fns, 3);
  pp_spec_function *f = &s->fns[0];
  CU_ASSERT_STRING_EQUAL (f->name, "main");
  CU_ASSERT_STRING_EQUAL (f->file, "t.c");
  CU_ASSERT_EQUAL (f->has_checksum, 1);
  CU_ASSERT_EQUAL (f->checksum, 0x1a2b3c4du);
  CU_ASSERT_EQUAL (f->has_max_paths, 1);
  CU_ASSERT_EQUAL (f->max_paths, 0);
  CU_ASSERT_EQUAL (f->cut_rule, PP_CUT_SHARE);
  CU_ASSERT_EQUAL (f->line, 2);
  CU_ASSERT_EQUAL (f->num_paths, 0);
  CU_ASSERT_STRING_EQUAL (node_names (f->graph), "bb0 bb1 bb2 bb3");
  CU_ASSERT_STRING_EQUAL (edge_list (f->graph), "bb0>bb2 bb2>bb3 bb3>bb1");
  CU_ASSERT_EQUAL (pp_graph_edge_flags (f->graph, 2), PP_EDGE_ABNORMAL);

  f = &s->fns[1];
  CU_ASSERT_STRING_EQUAL (f->name, "foo.part.0");
  CU_ASSERT_STRING_EQUAL (f->file, "dir/u v.c");
  CU_ASSERT_EQUAL (f->checksum, 0xffffffffu);
  CU_ASSERT_EQUAL (f->max_paths, UINT64_MAX);
  CU_ASSERT_EQUAL (f->cut_rule, PP_CUT_FITTED);
  CU_ASSERT_EQUAL (f->line, 13);
  CU_ASSERT_EQUAL (f->col, 1);
  CU_ASSERT_EQUAL (pp_graph_num_nodes (f->graph), 2);
  CU_ASSERT_EQUAL (pp_graph_num_edges (f->graph), 1);
  CU_ASSERT_EQUAL (f->num_paths, 1);
  CU_ASSERT_EQUAL (f->paths[0].line, 20);
  CU_ASSERT_EQUAL (f->paths[0].col, 3);

  /* the same name again (two objects' metadata concatenated) is fine */
  f = &s->fns[2];
  CU_ASSERT_STRING_EQUAL (f->name, "main");
  CU_ASSERT_PTR_NULL (f->file);
  CU_ASSERT_EQUAL (f->has_checksum, 0);
  CU_ASSERT_STRING_EQUAL (node_names (f->graph), "x y");
  pp_spec_free (s);
}

/* Comments, blank lines, CR LF line ends, tabs, no newline at the end.  */
static void
test_layout (void)
{
  pp_spec *s = parse ("\n# comment only\n   \n"
                      "entry s # trailing comment\r\n"
                      "\texit   t\t\r\n"
                      "edge s t#no blank before the comment\n"
                      "path s t");
  CU_ASSERT_FATAL (s != NULL);
  CU_ASSERT_EQUAL (s->fns[0].line, 4);
  CU_ASSERT_EQUAL (s->fns[0].col, 1);
  CU_ASSERT_STRING_EQUAL (edge_list (s->fns[0].graph), "s>t");
  CU_ASSERT_EQUAL (s->fns[0].num_paths, 1);
  CU_ASSERT_EQUAL (s->fns[0].paths[0].line, 7);
  pp_spec_free (s);

  s = parse ("");
  CU_ASSERT_FATAL (s != NULL);
  CU_ASSERT_EQUAL (s->num_fns, 0);
  pp_spec_free (s);

  s = parse ("# nothing\n\n");
  CU_ASSERT_FATAL (s != NULL);
  CU_ASSERT_EQUAL (s->num_fns, 0);
  pp_spec_free (s);
}

static void
test_numbers (void)
{
  pp_spec *s = parse ("function f\n"
                      "path id 0\n"
                      "path id 0x0\n"
                      "path id 007\n"
                      "path id 0XaBcD\n"
                      "path id 18446744073709551615\n"
                      "path id 0xffffffffffffffff\n"
                      "path lines 4294967295 0x10 1\n");
  CU_ASSERT_FATAL (s != NULL);
  pp_spec_function *f = &s->fns[0];
  CU_ASSERT_PTR_NULL (f->graph); /* a path specification needs no graph */
  CU_ASSERT_EQUAL_FATAL (f->num_paths, 7);
  static const uint64_t ids[] = { 0, 0, 7, 0xabcd, UINT64_MAX, UINT64_MAX };
  for (int i = 0; i < 6; i++)
    {
      CU_ASSERT_EQUAL (f->paths[i].kind, PP_SPEC_PATH_ID);
      CU_ASSERT_EQUAL (f->paths[i].id, ids[i]);
    }
  CU_ASSERT_EQUAL (f->paths[6].kind, PP_SPEC_PATH_LINES);
  CU_ASSERT_EQUAL_FATAL (f->paths[6].num_lines, 3);
  CU_ASSERT_EQUAL (f->paths[6].lines[0], 4294967295u);
  CU_ASSERT_EQUAL (f->paths[6].lines[1], 16);
  CU_ASSERT_EQUAL (f->paths[6].lines[2], 1);
  pp_spec_free (s);
}

static void
test_strings (void)
{
  pp_spec *s = parse ("function f\n"
                      "file \"a\\\"b\\\\c d.c\"\n"
                      "function g\n"
                      "file \"\"\n"
                      "function h\n"
                      "file \"caf\xc3\xa9 #not a comment.c\"\n");
  CU_ASSERT_FATAL (s != NULL);
  CU_ASSERT_EQUAL_FATAL (s->num_fns, 3);
  CU_ASSERT_STRING_EQUAL (s->fns[0].file, "a\"b\\c d.c");
  CU_ASSERT_STRING_EQUAL (s->fns[1].file, "");
  CU_ASSERT_STRING_EQUAL (s->fns[2].file, "caf\xc3\xa9 #not a comment.c");
  pp_spec_free (s);
}

/* Keywords are reserved only at the start of a statement and where an
   option is expected.  */
static void
test_keywords_as_names (void)
{
  pp_spec *s = parse ("function line\n"
                      "entry entry\n"
                      "exit exit\n"
                      "node node line 1 2\n"
                      "edge entry id\n"
                      "edge id lines\n"
                      "edge lines exit weight 3\n"
                      "edge entry node\n"
                      "edge node weight abnormal\n"
                      "edge weight exit\n"
                      "path entry id lines exit\n"
                      "path id 3\n"
                      "path lines 5 6\n"
                      "path entry node weight exit\n"
                      "function exit\n"
                      "function $x:y-z.1\n"
                      "entry _\n"
                      "exit .\n"
                      "edge _ .\n");
  CU_ASSERT_FATAL (s != NULL);
  CU_ASSERT_EQUAL_FATAL (s->num_fns, 3);
  pp_spec_function *f = &s->fns[0];
  CU_ASSERT_STRING_EQUAL (f->name, "line");
  CU_ASSERT_STRING_EQUAL (node_names (f->graph),
                          "entry exit node id lines weight");
  CU_ASSERT_EQUAL (pp_graph_edge_flags (f->graph, 4), PP_EDGE_ABNORMAL);
  CU_ASSERT_STRING_EQUAL (edge_list (f->graph),
                          "entry>id id>lines lines>exit entry>node "
                          "node>weight weight>exit");
  CU_ASSERT_EQUAL_FATAL (f->num_paths, 4);
  CU_ASSERT_EQUAL (f->paths[0].kind, PP_SPEC_PATH_NODES);
  CU_ASSERT_EQUAL (f->paths[0].num_nodes, 4);
  CU_ASSERT_EQUAL (f->paths[1].kind, PP_SPEC_PATH_ID);
  CU_ASSERT_EQUAL (f->paths[1].id, 3);
  CU_ASSERT_EQUAL (f->paths[2].kind, PP_SPEC_PATH_LINES);
  CU_ASSERT_EQUAL (f->paths[2].num_lines, 2);
  CU_ASSERT_EQUAL (f->paths[3].kind, PP_SPEC_PATH_NODES);
  CU_ASSERT_EQUAL (f->paths[3].nodes[2], 5); /* weight */
  CU_ASSERT_STRING_EQUAL (s->fns[1].name, "exit");
  CU_ASSERT_PTR_NULL (s->fns[1].graph);
  CU_ASSERT_STRING_EQUAL (s->fns[2].name, "$x:y-z.1");
  CU_ASSERT_STRING_EQUAL (edge_list (s->fns[2].graph), "_>.");
  pp_spec_free (s);
}

/* Branch fields (for reports): `cond LINE [COL]` on a node, `true`,
   `false`, `case STRING` on an edge.  Metadata without them (what older
   ppgcc wrote) reads as before, with no branch information, and the
   checksum does not depend on them.  */
static void
test_branches (void)
{
  static const char *with
      = "function f\n"
        "entry bb0\n"
        "exit bb1\n"
        "node bb2 line 1 2 cond 2 9\n"
        "node bb3 line 3 3 cond 3\n"
        "node bb4 cond 7 5\n"
        "edge bb0 bb2\n"
        "edge bb2 bb3 true\n"
        "edge bb2 bb4 false\n"
        "edge bb3 bb1 abnormal weight 4 true\n"
        "edge bb3 bb4 false\n"
        "edge bb4 bb1 case \"1...3\"\n"
        "edge bb4 bb5 case \"\"\n"
        "edge bb4 bb6 weight 2 case \"default\"\n"
        "edge bb5 bb1\n"
        "edge bb6 bb1\n";
  static const char *without
      = "function f\n"
        "entry bb0\n"
        "exit bb1\n"
        "node bb2 line 1 2\n"
        "node bb3 line 3 3\n"
        "node bb4\n"
        "edge bb0 bb2\n"
        "edge bb2 bb3\n"
        "edge bb2 bb4\n"
        "edge bb3 bb1 abnormal weight 4\n"
        "edge bb3 bb4\n"
        "edge bb4 bb1\n"
        "edge bb4 bb5\n"
        "edge bb4 bb6 weight 2\n"
        "edge bb5 bb1\n"
        "edge bb6 bb1\n";
  pp_spec *a = parse (with), *b = parse (without);
  CU_ASSERT_FATAL (a != NULL && b != NULL);
  const pp_graph *g = a->fns[0].graph, *h = b->fns[0].graph;
  CU_ASSERT_EQUAL_FATAL (pp_graph_num_edges (g), 10);
  unsigned line = 99, col = 99, first, last;
  pp_graph_node_cond (g, pp_graph_find_node (g, "bb2"), &line, &col);
  CU_ASSERT_EQUAL (line, 2);
  CU_ASSERT_EQUAL (col, 9);
  pp_graph_node_lines (g, pp_graph_find_node (g, "bb2"), &first, &last);
  CU_ASSERT_EQUAL (first, 1);
  CU_ASSERT_EQUAL (last, 2);
  pp_graph_node_cond (g, pp_graph_find_node (g, "bb3"), &line, &col);
  CU_ASSERT_EQUAL (line, 3);
  CU_ASSERT_EQUAL (col, 0);
  pp_graph_node_cond (g, pp_graph_find_node (g, "bb4"), &line, &col);
  CU_ASSERT_EQUAL (line, 7);
  CU_ASSERT_EQUAL (col, 5);
  pp_graph_node_lines (g, pp_graph_find_node (g, "bb4"), &first, &last);
  CU_ASSERT_EQUAL (first, 0);
  pp_graph_node_cond (g, pp_graph_find_node (g, "bb0"), &line, &col);
  CU_ASSERT_EQUAL (line, 0);
  static const int kinds[10] = {
    PP_BRANCH_NONE, PP_BRANCH_TRUE, PP_BRANCH_FALSE, PP_BRANCH_TRUE,
    PP_BRANCH_FALSE, PP_BRANCH_CASE, PP_BRANCH_CASE, PP_BRANCH_CASE,
    PP_BRANCH_NONE, PP_BRANCH_NONE
  };
  for (int e = 0; e < 10; e++)
    {
      const char *text = "x";
      CU_ASSERT_EQUAL (pp_graph_edge_branch (g, e, &text), kinds[e]);
      if (e == 5)
        {
          CU_ASSERT_STRING_EQUAL (text, "1...3");
        }
      else if (e == 7)
        {
          CU_ASSERT_STRING_EQUAL (text, "default");
        }
      else
        {
          CU_ASSERT_PTR_NULL (text); /* case "": too many labels */
        }
      CU_ASSERT_EQUAL (pp_graph_edge_branch (h, e, NULL), PP_BRANCH_NONE);
    }
  /* the other options still apply */
  CU_ASSERT_EQUAL (pp_graph_edge_flags (g, 3), PP_EDGE_ABNORMAL);
  CU_ASSERT_DOUBLE_EQUAL (pp_graph_edge_weight (g, 3), 4.0, 0.0);
  CU_ASSERT_DOUBLE_EQUAL (pp_graph_edge_weight (g, 7), 2.0, 0.0);
  /* old metadata: no condition anywhere */
  for (int v = 0; v < pp_graph_num_nodes (h); v++)
    {
      pp_graph_node_cond (h, v, &line, &col);
      CU_ASSERT_EQUAL (line, 0);
      CU_ASSERT_EQUAL (col, 0);
    }
  CU_ASSERT_EQUAL (pp_graph_checksum (g), pp_graph_checksum (h));
  pp_spec_free (a);
  pp_spec_free (b);

  /* the new keywords are names where a name is expected */
  pp_spec *k = parse ("entry true\n"
                      "exit case\n"
                      "node cond cond 4 2\n"
                      "edge true cond\n"
                      "edge cond false true\n"
                      "edge cond case false\n"
                      "edge false case case \"0\"\n");
  CU_ASSERT_FATAL (k != NULL);
  g = k->fns[0].graph;
  CU_ASSERT_STRING_EQUAL (node_names (g), "true case cond false");
  CU_ASSERT_STRING_EQUAL (edge_list (g),
                          "true>cond cond>false cond>case false>case");
  CU_ASSERT_EQUAL (pp_graph_edge_branch (g, 0, NULL), PP_BRANCH_NONE);
  CU_ASSERT_EQUAL (pp_graph_edge_branch (g, 1, NULL), PP_BRANCH_TRUE);
  CU_ASSERT_EQUAL (pp_graph_edge_branch (g, 2, NULL), PP_BRANCH_FALSE);
  CU_ASSERT_EQUAL (pp_graph_edge_branch (g, 3, NULL), PP_BRANCH_CASE);
  pp_graph_node_cond (g, 2, &line, &col);
  CU_ASSERT_EQUAL (line, 4);
  CU_ASSERT_EQUAL (col, 2);
  pp_spec_free (k);

  EXPECT_ERROR ("node a cond\n", "t.graph:1:12: syntax error, unexpected "
                "end of line, expecting number");
  EXPECT_ERROR ("node a cond 1 2 line 3\n", "t.graph:1:17: syntax error, "
                "unexpected 'line', expecting end of line");
  EXPECT_ERROR ("edge a b case\n", "t.graph:1:14: syntax error, "
                "unexpected end of line, expecting string");
  EXPECT_ERROR ("edge a b case 3\n", "t.graph:1:15: syntax error, "
                "unexpected number, expecting string");
  EXPECT_ERROR ("edge a b true false\n", "t.graph:1:15: syntax error, "
                "unexpected 'false', expecting end of line");
  EXPECT_ERROR ("edge a b true abnormal\n", "t.graph:1:15: syntax error, "
                "unexpected 'abnormal', expecting end of line");
}

/* A big function: the name table must scale (and keep the order).  */
static void
test_large (void)
{
  enum { N = 20000 };
  size_t cap = (size_t) N * 40 + 64, used = 0;
  char *text = malloc (cap);
  CU_ASSERT_FATAL (text != NULL);
  used += (size_t) snprintf (text + used, cap - used, "entry n0\nexit n%d\n",
                             N - 1);
  for (int i = 0; i + 1 < N; i++)
    used += (size_t) snprintf (text + used, cap - used,
                               "edge n%d n%d\nedge n%d n%d\n", i, i + 1, i,
                               (i * 7919) % N);
  pp_spec *s = parse (text);
  free (text);
  CU_ASSERT_FATAL (s != NULL);
  const pp_graph *g = s->fns[0].graph;
  CU_ASSERT_EQUAL (pp_graph_num_nodes (g), N);
  CU_ASSERT_EQUAL (pp_graph_num_edges (g), 2 * (N - 1));
  /* ids in order of first mention, recomputed here */
  static int id_of[N];
  int next = 0, bad_order = 0;
  memset (id_of, -1, sizeof id_of);
  id_of[0] = next++;
  id_of[N - 1] = next++;
  for (int i = 0; i + 1 < N; i++)
    {
      if (id_of[i + 1] < 0)
        id_of[i + 1] = next++;
      if (id_of[(i * 7919) % N] < 0)
        id_of[(i * 7919) % N] = next++;
    }
  CU_ASSERT_EQUAL (next, N);
  for (int i = 0; i < N; i++)
    {
      char name[16];
      snprintf (name, sizeof name, "n%d", i);
      bad_order += strcmp (pp_graph_node_name (g, id_of[i]), name) != 0;
    }
  CU_ASSERT_EQUAL (bad_order, 0);
  CU_ASSERT_EQUAL (pp_graph_edge_dst (g, 2 * 5000 + 1),
                   id_of[5000 * 7919 % N]);
  pp_spec_free (s);
}

static void
test_parse_file (void)
{
  char path[] = "/tmp/test_spec_XXXXXX";
  int fd = mkstemp (path);
  CU_ASSERT_FATAL (fd >= 0);
  CU_ASSERT_FATAL (write (fd, fig3_4, sizeof fig3_4 - 1)
                   == (ssize_t) (sizeof fig3_4 - 1));
  close (fd);
  pp_spec *s = pp_spec_parse_file (path, err, sizeof err);
  CU_ASSERT_FATAL (s != NULL);
  CU_ASSERT_STRING_EQUAL (s->filename, path);
  CU_ASSERT_EQUAL (pp_graph_num_edges (s->fns[0].graph), 8);
  pp_spec_free (s);

  /* errors carry the file's name */
  fd = open (path, O_WRONLY | O_TRUNC);
  CU_ASSERT_FATAL (fd >= 0);
  CU_ASSERT_FATAL (write (fd, "entry s\nexit s s\n", 17) == 17);
  close (fd);
  s = pp_spec_parse_file (path, err, sizeof err);
  CU_ASSERT_PTR_NULL (s);
  char want[256];
  snprintf (want, sizeof want, "%s:2:8: syntax error, unexpected name 's', "
            "expecting end of line", path);
  CU_ASSERT_STRING_EQUAL (err, want);
  unlink (path);

  s = pp_spec_parse_file (path, err, sizeof err);
  CU_ASSERT_PTR_NULL (s);
  snprintf (want, sizeof want, "%s: No such file or directory", path);
  CU_ASSERT_STRING_EQUAL (err, want);

  s = pp_spec_parse_file ("/", err, sizeof err);
  CU_ASSERT_PTR_NULL (s);
  CU_ASSERT_STRING_EQUAL (err, "/: Is a directory");
}

/* ------------------------------------------------------------ errors */

static void
test_lexical_errors (void)
{
  EXPECT_ERROR ("entry s\nedge s @\n", "t.graph:2:8: invalid character '@'");
  EXPECT_ERROR ("entry s\x01\n", "t.graph:1:8: invalid character '\\x01'");
  EXPECT_ERROR ("entry -s\n", "t.graph:1:7: invalid character '-'");
  expect_error_len ("entry s\n\0", 9, "t.graph:2:1: invalid character '\\x00'",
                    __LINE__);
  EXPECT_ERROR ("function f\nfile \"abc\n",
                "t.graph:2:6: unterminated string");
  EXPECT_ERROR ("function f\nfile \"abc", "t.graph:2:6: unterminated string");
  EXPECT_ERROR ("function f\nfile \"abc\\\"\n",
                "t.graph:2:6: unterminated string");
  EXPECT_ERROR ("function f\nfile \"abc\\\n\"\n",
                "t.graph:2:6: unterminated string");
  EXPECT_ERROR ("function f\nfile \"a\\nb\"\n",
                "t.graph:2:8: invalid escape sequence '\\n' in string "
                "(only \\\" and \\\\)");
  expect_error_len ("file \"a\0b\"\n", 11,
                    "t.graph:1:8: NUL character in string", __LINE__);
  EXPECT_ERROR ("max_paths 18446744073709551616\n",
                "t.graph:1:11: number 18446744073709551616 is out of range "
                "(more than 64 bits)");
  EXPECT_ERROR ("max_paths 0x10000000000000000\n",
                "t.graph:1:11: number 0x10000000000000000 is out of range "
                "(more than 64 bits)");
  EXPECT_ERROR ("function f\nmax_paths 10 wide\n",
                "t.graph:2:1: unknown cut rule 'wide' (max_paths N [fitted])");
  EXPECT_ERROR ("path id 12ab\n", "t.graph:1:9: invalid number '12ab'");
  EXPECT_ERROR ("path id 0x\n", "t.graph:1:9: invalid number '0x'");
  EXPECT_ERROR ("path id 0xfg\n", "t.graph:1:9: invalid number '0xfg'");
}

static void
test_range_errors (void)
{
  EXPECT_ERROR ("checksum 0x100000000\n",
                "t.graph:1:10: checksum 0x100000000 does not fit in 32 bits");
  EXPECT_ERROR ("entry s\nnode s line 4294967296\n",
                "t.graph:2:13: line number 4294967296 is out of range");
  EXPECT_ERROR ("entry s\nnode s line 1 4294967296\n",
                "t.graph:2:15: line number 4294967296 is out of range");
  EXPECT_ERROR ("path lines 1 2 99999999999\n",
                "t.graph:1:16: line number 99999999999 is out of range");
}

static void
test_syntax_errors (void)
{
  EXPECT_ERROR ("entry s\nfoo bar\n",
                "t.graph:2:1: syntax error, unexpected name 'foo', "
                "expecting a statement");
  EXPECT_ERROR ("12\n", "t.graph:1:1: syntax error, unexpected number, "
                "expecting a statement");
  EXPECT_ERROR ("  weight 3\n", "t.graph:1:3: syntax error, unexpected "
                "'weight', expecting a statement");
  EXPECT_ERROR ("entry\n", "t.graph:1:6: syntax error, unexpected end of "
                "line, expecting name");
  EXPECT_ERROR ("entry", "t.graph:1:6: syntax error, unexpected end of "
                "line, expecting name");
  EXPECT_ERROR ("entry s t\n", "t.graph:1:9: syntax error, unexpected name "
                "'t', expecting end of line");
  EXPECT_ERROR ("entry 3\n", "t.graph:1:7: syntax error, unexpected number, "
                "expecting name");
  EXPECT_ERROR ("entry \"s\"\n", "t.graph:1:7: syntax error, unexpected "
                "string, expecting name");
  EXPECT_ERROR ("edge a\n", "t.graph:1:7: syntax error, unexpected end of "
                "line, expecting name");
  EXPECT_ERROR ("edge a b foo\n", "t.graph:1:10: syntax error, unexpected "
                "name 'foo', expecting end of line, 'abnormal', 'weight', "
                "'true', 'false' or 'case'");
  EXPECT_ERROR ("edge a b weight abnormal\n", "t.graph:1:17: syntax error, "
                "unexpected 'abnormal', expecting number");
  EXPECT_ERROR ("edge a b weight 1 abnormal\n", "t.graph:1:19: syntax "
                "error, unexpected 'abnormal', expecting end of line, "
                "'true', 'false' or 'case'");
  EXPECT_ERROR ("edge a b abnormal abnormal\n", "t.graph:1:19: syntax "
                "error, unexpected 'abnormal', expecting end of line, "
                "'weight', 'true', 'false' or 'case'");
  EXPECT_ERROR ("node a line\n", "t.graph:1:12: syntax error, unexpected "
                "end of line, expecting number");
  EXPECT_ERROR ("node a line 1 2 3\n", "t.graph:1:17: syntax error, "
                "unexpected number, expecting end of line or 'cond'");
  EXPECT_ERROR ("node a lines 1\n", "t.graph:1:8: syntax error, unexpected "
                "'lines', expecting end of line, 'line' or 'cond'");
  EXPECT_ERROR ("checksum\n", "t.graph:1:9: syntax error, unexpected end of "
                "line, expecting number");
  EXPECT_ERROR ("max_paths x\n", "t.graph:1:11: syntax error, unexpected "
                "name 'x', expecting number");
  EXPECT_ERROR ("file t.c\n", "t.graph:1:6: syntax error, unexpected name "
                "'t.c', expecting string");
  EXPECT_ERROR ("function\n", "t.graph:1:9: syntax error, unexpected end of "
                "line, expecting name");
  EXPECT_ERROR ("function \"f\"\n", "t.graph:1:10: syntax error, "
                "unexpected string, expecting name");
  EXPECT_ERROR ("path\n", "t.graph:1:5: syntax error, unexpected end of "
                "line, expecting name");
  EXPECT_ERROR ("path 3 4\n", "t.graph:1:6: syntax error, unexpected "
                "number, expecting name");
  EXPECT_ERROR ("path id 3 4\n", "t.graph:1:11: syntax error, unexpected "
                "number, expecting end of line");
  EXPECT_ERROR ("path lines 3 x\n", "t.graph:1:14: syntax error, "
                "unexpected name 'x', expecting number or end of line");
  EXPECT_ERROR ("path s 3\n", "t.graph:1:8: syntax error, unexpected "
                "number, expecting name or end of line");
}

static void
test_semantic_errors (void)
{
  /* edges and paths need declared nodes: reported at the first use */
  EXPECT_ERROR ("entry s\nexit t\nedge s a\nedge s tt\nedge a t\n",
                "t.graph:4:8: edge to undeclared node 'tt'");
  EXPECT_ERROR ("entry s\nexit t\nedge s b\nedge s a\nedge a t\n",
                "t.graph:3:8: edge to undeclared node 'b'");
  EXPECT_ERROR ("entry s\nexit t\nedge s t\npath s x t\n",
                "t.graph:4:8: path through undeclared node 'x'");
  EXPECT_ERROR ("entry s\nexit t\npath s x t\nedge s x\n",
                "t.graph:3:8: path through undeclared node 'x'");
  EXPECT_ERROR ("function f\npath a b\n",
                "t.graph:2:6: path through undeclared node 'a'");
  /* checked per function: the next `function` closes this one */
  EXPECT_ERROR ("function f\nentry s\nexit t\nedge s u\n"
                "function g\nentry u\nexit t\nedge u t\n",
                "t.graph:4:8: edge to undeclared node 'u'");

  /* one entry, one exit */
  EXPECT_ERROR ("exit t\nedge s t\n", "t.graph:1:1: graph has no entry node");
  EXPECT_ERROR ("# c\n\nentry s\nedge s t\nnode t\n",
                "t.graph:3:1: graph has no exit node");
  EXPECT_ERROR ("function f\nentry s\nexit t\nedge s t\n"
                "function g\n  file \"g.c\"\n  node s\n",
                "t.graph:5:1: function 'g' has no entry node");
  EXPECT_ERROR ("function f\nentry s\nfunction g\n",
                "t.graph:1:1: function 'f' has no exit node");
  EXPECT_ERROR ("entry s\nexit t\nentry t\n",
                "t.graph:3:1: duplicate entry node 't' (the entry is 's', "
                "declared at line 1)");
  EXPECT_ERROR ("entry s\nexit t\n  exit t\n",
                "t.graph:3:3: duplicate exit node 't' (the exit is 't', "
                "declared at line 2)");

  /* attributes once per function */
  EXPECT_ERROR ("function f\nfile \"a\"\nfile \"b\"\n",
                "t.graph:3:1: duplicate 'file' (first at line 2)");
  EXPECT_ERROR ("function f\nchecksum 1\nentry s\nchecksum 1\n",
                "t.graph:4:1: duplicate 'checksum' (first at line 2)");
  EXPECT_ERROR ("max_paths 1\nmax_paths 2\n",
                "t.graph:2:1: duplicate 'max_paths' (first at line 1)");

  /* statements outside any function once the file has functions */
  EXPECT_ERROR ("# header\nfile \"x.c\"\nfunction f\n",
                "t.graph:2:1: statement outside any function (the file has "
                "'function' blocks, the first at line 3)");

  /* the first error wins, even with later ones */
  EXPECT_ERROR ("entry s\nexit t\nentry u\n@\n",
                "t.graph:3:1: duplicate entry node 'u' (the entry is 's', "
                "declared at line 1)");
}

/* No error text lost or overflowed with small buffers; no crash with
   none.  */
static void
test_error_buffers (void)
{
  char small[12];
  memset (small, 'x', sizeof small);
  pp_spec *s = pp_spec_parse_string ("@", 1, "t.graph", small, sizeof small);
  CU_ASSERT_PTR_NULL (s);
  CU_ASSERT_STRING_EQUAL (small, "t.graph:1:1");
  s = pp_spec_parse_string ("@", 1, "t.graph", NULL, 0);
  CU_ASSERT_PTR_NULL (s);
  s = pp_spec_parse_string ("@", 1, NULL, err, sizeof err);
  CU_ASSERT_PTR_NULL (s);
  CU_ASSERT_STRING_EQUAL (err, "<string>:1:1: invalid character '@'");
  /* after an error, a parse starts afresh (no state kept) */
  s = parse (fig3_4);
  CU_ASSERT_PTR_NOT_NULL (s);
  pp_spec_free (s);
  pp_spec_free (NULL);
}

/* ---------------------------------------------------- resolving paths */

static void
test_resolve (void)
{
  pp_spec *s = parse ("entry s\nexit t\n"
                      "edge s a\nedge s b\nedge a c\nedge a b\nedge b c\n"
                      "edge c d\nedge c t\nedge d t\n"
                      "path s a c d t\n"   /* 11 */
                      "path s a c t\n"
                      "path s b c t\n"
                      "path id 5\n"
                      "path id 6\n"        /* 15 */
                      "path a c t\n"
                      "path s a c\n"
                      "path s c t\n"
                      "path lines 1 2\n");
  CU_ASSERT_FATAL (s != NULL);
  pp_spec_function *f = &s->fns[0];
  pp_options opt = { 0 };
  char nerr[256];
  pp_numbering *n = pp_number (f->graph, &opt, nerr, sizeof nerr);
  CU_ASSERT_FATAL (n != NULL);
  CU_ASSERT_EQUAL (n->num_paths, 6);
  static const pp_pathid want[] = { 0, 1, 5, 5 };
  for (int i = 0; i < 4; i++)
    {
      pp_pathid id = 99;
      CU_ASSERT_EQUAL (pp_spec_resolve_path (s, f, &f->paths[i], n, &id, err,
                                             sizeof err), 0);
      CU_ASSERT_EQUAL (id, want[i]);
    }
  static const char *const msgs[] = {
    "t.graph:15:1: path id 6 is out of range: the graph has 6 paths",
    "t.graph:16:1: path is not a path of the graph: does not start at the "
    "entry 's'",
    "t.graph:17:1: path is not a path of the graph: does not end at the exit "
    "'t'",
    "t.graph:18:1: path is not a path of the graph: no edge s->c",
    "t.graph:19:1: a path by source lines cannot be resolved against a graph",
  };
  for (int i = 0; i < 5; i++)
    {
      pp_pathid id = 99;
      err[0] = '\0';
      CU_ASSERT_EQUAL (pp_spec_resolve_path (s, f, &f->paths[4 + i], n, &id,
                                             err, sizeof err), -1);
      CU_ASSERT_STRING_EQUAL (err, msgs[i]);
      CU_ASSERT_EQUAL (id, 99);
    }
  pp_numbering_free (n);
  pp_spec_free (s);
}

void
pp_add_spec_tests (void)
{
  CU_pSuite s = CU_add_suite ("graph language", NULL, NULL);
  CU_add_test (s, "thesis Fig 3.4", test_fig3_4);
  CU_add_test (s, "nodes in order of first mention", test_node_order);
  CU_add_test (s, "edge flags, weights, node lines", test_flags_weights_lines);
  CU_add_test (s, "several functions", test_functions);
  CU_add_test (s, "comments, blanks, line ends", test_layout);
  CU_add_test (s, "decimal and hex numbers", test_numbers);
  CU_add_test (s, "strings and escapes", test_strings);
  CU_add_test (s, "keywords as names", test_keywords_as_names);
  CU_add_test (s, "branch fields, and metadata without them",
               test_branches);
  CU_add_test (s, "20000 nodes", test_large);
  CU_add_test (s, "files", test_parse_file);
  CU_add_test (s, "lexical errors", test_lexical_errors);
  CU_add_test (s, "number range errors", test_range_errors);
  CU_add_test (s, "syntax errors", test_syntax_errors);
  CU_add_test (s, "semantic errors", test_semantic_errors);
  CU_add_test (s, "error buffers", test_error_buffers);
  CU_add_test (s, "resolving paths", test_resolve);
}
