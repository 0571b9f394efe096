/* CUnit tests of supergraphs (lib/ipp.c, thesis §3.4.4 step 4, Fig 3.12). */
#include "test_ipp.h"

#include "pp/ipp.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ helpers */

static int
node (pp_graph *g, const char *name)
{
  int v = pp_graph_find_node (g, name);
  return v >= 0 ? v : pp_graph_add_node (g, name);
}

/* A graph from "ENTRY a, a b, ..." with entry ENTRY and exit EXIT.  */
static pp_graph *
graph_from (const char *edges)
{
  pp_graph *g = pp_graph_new ();
  pp_graph_set_entry (g, node (g, "ENTRY"));
  pp_graph_set_exit (g, node (g, "EXIT"));
  char buf[1024];
  snprintf (buf, sizeof buf, "%s", edges);
  for (char *tok = strtok (buf, ","); tok; tok = strtok (NULL, ","))
    {
      char a[64], b[64];
      if (sscanf (tok, " %63s %63s", a, b) == 2)
        pp_graph_add_edge (g, node (g, a), node (g, b), 0, -1);
    }
  return g;
}

static pp_numbering *
number (const pp_graph *g)
{
  char err[200];
  pp_numbering *n = pp_number (g, NULL, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL (n);
  return n;
}

static int
count_kind (const pp_ipp_supergraph *s, pp_ipp_edge_kind kind)
{
  int k = 0;
  for (int e = 0; e < s->num_edges; e++)
    k += s->edges[e].kind == kind;
  return k;
}

static int
has_edge (const pp_ipp_supergraph *s, const char *src, const char *dst,
          pp_ipp_edge_kind kind)
{
  int a = pp_graph_find_node (s->graph, src);
  int b = pp_graph_find_node (s->graph, dst);
  for (int e = 0; e < s->num_edges; e++)
    if (pp_graph_edge_src (s->graph, e) == a
        && pp_graph_edge_dst (s->graph, e) == b && s->edges[e].kind == kind)
      return 1;
  return 0;
}

static const char *foo_edges
    = "ENTRY a, a b, a c, b d, c d, d EXIT";          /* Fig 3.12 foo */
static const char *bar_edges
    = "ENTRY x, x y, x z, y w, z w, w EXIT";          /* Fig 3.12 bar */
static const char *baz_edges = "ENTRY u, u v, u w, v EXIT, w EXIT";

static pp_ipp_site
site (int parent, int nd, int point, const pp_graph *callee,
      const char *name, int indirect)
{
  return (pp_ipp_site) { parent, nd, point, callee, name, indirect };
}

/* The supergraph's path count, or 0 when it cannot be numbered.  */
static pp_pathid
super_paths (const pp_ipp_supergraph *s)
{
  char err[200];
  pp_numbering *n = pp_number (s->graph, NULL, err, sizeof err);
  pp_pathid k = n ? n->num_paths : 0;
  pp_numbering_free (n);
  return k;
}

/* ------------------------------------------------ Task 1: pp_ipp_build */

static void
test_build_fig312 (void)
{
  pp_graph *foo = graph_from (foo_edges), *bar = graph_from (bar_edges);
  pp_ipp_site st = site (-1, pp_graph_find_node (foo, "d"), 0, bar, "bar",
                         0);
  char err[200];
  pp_ipp_supergraph *s = pp_ipp_build (foo, &st, 1, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (s);
  /* foo's 6 nodes, d.1, and bar's 4 inner nodes.  */
  CU_ASSERT_EQUAL (s->num_nodes, 11);
  CU_ASSERT_EQUAL (s->num_edges, 12);
  CU_ASSERT_EQUAL (pp_graph_num_nodes (s->graph), 11);
  const char *names[] = { "ENTRY", "a", "b", "c", "d", "EXIT", "d.1",
                          "bar:0:x", "bar:0:y", "bar:0:z", "bar:0:w" };
  for (int i = 0; i < 11; i++)
    CU_ASSERT (pp_graph_find_node (s->graph, names[i]) >= 0);
  CU_ASSERT_EQUAL (pp_graph_find_node (s->graph, "bar:0:ENTRY"), -1);
  CU_ASSERT_EQUAL (pp_graph_find_node (s->graph, "bar:0:EXIT"), -1);
  CU_ASSERT_EQUAL (s->site_entry[0], pp_graph_find_node (s->graph, "d"));
  CU_ASSERT_EQUAL (s->site_return[0], pp_graph_find_node (s->graph, "d.1"));
  CU_ASSERT_EQUAL (pp_graph_entry (s->graph),
                   pp_graph_find_node (s->graph, "ENTRY"));
  CU_ASSERT_EQUAL (pp_graph_exit (s->graph),
                   pp_graph_find_node (s->graph, "EXIT"));
  CU_ASSERT_EQUAL (count_kind (s, PP_IPP_CALL), 1);
  CU_ASSERT_EQUAL (count_kind (s, PP_IPP_RETURN), 1);
  CU_ASSERT_EQUAL (count_kind (s, PP_IPP_BODY), 10);
  CU_ASSERT_EQUAL (count_kind (s, PP_IPP_BYPASS), 0);
  CU_ASSERT (has_edge (s, "d", "bar:0:x", PP_IPP_CALL));
  CU_ASSERT (has_edge (s, "bar:0:w", "d.1", PP_IPP_RETURN));
  CU_ASSERT (has_edge (s, "d.1", "EXIT", PP_IPP_BODY));
  CU_ASSERT (!has_edge (s, "d", "EXIT", PP_IPP_BODY));
  CU_ASSERT (has_edge (s, "bar:0:x", "bar:0:z", PP_IPP_BODY));
  /* Node and edge records.  */
  int x = pp_graph_find_node (s->graph, "bar:0:x");
  CU_ASSERT_EQUAL (s->nodes[x].owner, 0);
  CU_ASSERT_EQUAL (s->nodes[x].node, pp_graph_find_node (bar, "x"));
  CU_ASSERT_EQUAL (s->nodes[x].part, 0);
  int d1 = pp_graph_find_node (s->graph, "d.1");
  CU_ASSERT_EQUAL (s->nodes[d1].owner, -1);
  CU_ASSERT_EQUAL (s->nodes[d1].part, 1);
  for (int e = 0; e < s->num_edges; e++)
    if (s->edges[e].kind == PP_IPP_CALL)
      {
        CU_ASSERT_EQUAL (s->edges[e].site, 0);
        CU_ASSERT_EQUAL (s->edges[e].owner, -1);
        CU_ASSERT_EQUAL (s->edges[e].edge,
                         pp_graph_find_edge (bar, pp_graph_entry (bar),
                                             pp_graph_find_node (bar, "x")));
      }
  size_t len;
  CU_ASSERT_PTR_NOT_NULL (pp_ipp_node_function ("bar:0:x", &len));
  CU_ASSERT_EQUAL (len, 3);
  CU_ASSERT_PTR_NULL (pp_ipp_node_function ("d.1", &len));
  /* Fig 3.12(b): foo's 2 paths times bar's 2.  */
  CU_ASSERT_EQUAL (super_paths (s), 4);
  pp_ipp_free (s);
  pp_graph_free (foo);
  pp_graph_free (bar);
}

static void
test_build_two_points (void)
{
  pp_graph *foo = graph_from (foo_edges), *bar = graph_from (bar_edges);
  pp_graph *baz = graph_from (baz_edges);
  int d = pp_graph_find_node (foo, "d");
  pp_ipp_site st[2] = { site (-1, d, 0, bar, "bar", 0),
                        site (-1, d, 1, baz, "baz", 0) };
  char err[200];
  pp_ipp_supergraph *s = pp_ipp_build (foo, st, 2, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (s);
  CU_ASSERT_EQUAL (s->num_nodes, 6 + 2 + 4 + 3);
  CU_ASSERT_EQUAL (s->site_entry[0], pp_graph_find_node (s->graph, "d"));
  CU_ASSERT_EQUAL (s->site_return[0], pp_graph_find_node (s->graph, "d.1"));
  CU_ASSERT_EQUAL (s->site_entry[1], pp_graph_find_node (s->graph, "d.1"));
  CU_ASSERT_EQUAL (s->site_return[1], pp_graph_find_node (s->graph, "d.2"));
  CU_ASSERT (has_edge (s, "d.1", "baz:1:u", PP_IPP_CALL));
  CU_ASSERT (has_edge (s, "baz:1:v", "d.2", PP_IPP_RETURN));
  CU_ASSERT (has_edge (s, "baz:1:w", "d.2", PP_IPP_RETURN));
  CU_ASSERT (has_edge (s, "d.2", "EXIT", PP_IPP_BODY));
  CU_ASSERT_EQUAL (super_paths (s), 2 * 2 * 2);
  pp_ipp_free (s);
  pp_graph_free (foo);
  pp_graph_free (bar);
  pp_graph_free (baz);
}

static void
test_build_indirect (void)
{
  pp_graph *foo = graph_from (foo_edges), *bar = graph_from (bar_edges);
  pp_graph *baz = graph_from (baz_edges);
  int d = pp_graph_find_node (foo, "d");
  char err[200];
  /* One validated target: foo's 2 paths times (bar's 2 + the plain call).  */
  pp_ipp_site one = site (-1, d, 0, bar, "bar", 1);
  pp_ipp_supergraph *s = pp_ipp_build (foo, &one, 1, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (s);
  CU_ASSERT_EQUAL (count_kind (s, PP_IPP_BYPASS), 1);
  CU_ASSERT (has_edge (s, "d", "d.1", PP_IPP_BYPASS));
  CU_ASSERT_EQUAL (super_paths (s), 2 * (2 + 1));
  pp_ipp_free (s);
  /* Two targets at one point share the bypass: 2 * (2 + 2 + 1).  */
  pp_ipp_site two[2] = { site (-1, d, 0, bar, "bar", 1),
                         site (-1, d, 0, baz, "baz", 1) };
  s = pp_ipp_build (foo, two, 2, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (s);
  CU_ASSERT_EQUAL (count_kind (s, PP_IPP_BYPASS), 1);
  CU_ASSERT_EQUAL (count_kind (s, PP_IPP_CALL), 2);
  CU_ASSERT_EQUAL (s->site_entry[0], s->site_entry[1]);
  CU_ASSERT_EQUAL (s->site_return[0], s->site_return[1]);
  CU_ASSERT (has_edge (s, "d", "baz:1:u", PP_IPP_CALL));
  CU_ASSERT_EQUAL (super_paths (s), 2 * (2 + 2 + 1));
  pp_ipp_free (s);
  pp_graph_free (foo);
  pp_graph_free (bar);
  pp_graph_free (baz);
}

/* Callee with a loop: bar's paths ENTRY e x y z EXIT, ENTRY e x y (back
   edge y->x), x y z EXIT, x y.  */
static const char *bar_loop = "ENTRY e, e x, x y, y x, y z, z EXIT";

static void
test_build_callee_loop (void)
{
  pp_graph *foo = graph_from (foo_edges), *bar = graph_from (bar_loop);
  pp_ipp_site st = site (-1, pp_graph_find_node (foo, "d"), 0, bar, "bar",
                         0);
  char err[200];
  pp_numbering *bn = number (bar);
  CU_ASSERT_EQUAL (bn->num_paths, 4);
  pp_ipp_supergraph *s = pp_ipp_build (foo, &st, 1, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (s);
  /* Through the call: foo's 2 prefixes times bar's 2 paths from its entry;
     from the loop header bar:0:x: returning (then d.1 EXIT) or not.  */
  CU_ASSERT_EQUAL (super_paths (s), 2 * 2 + 2);
  pp_numbering *sn = number (s->graph);
  int y = pp_graph_find_node (s->graph, "bar:0:y");
  int x = pp_graph_find_node (s->graph, "bar:0:x");
  CU_ASSERT (sn->node_exit_edge[y] >= 0);
  CU_ASSERT (sn->node_entry_edge[x] >= 0);
  pp_numbering_free (sn);
  pp_numbering_free (bn);
  pp_ipp_free (s);
  pp_graph_free (foo);
  pp_graph_free (bar);
}

static void
test_build_depth2 (void)
{
  pp_graph *foo = graph_from (foo_edges), *bar = graph_from (bar_edges);
  pp_graph *baz = graph_from (baz_edges);
  pp_ipp_site st[2] = {
    site (-1, pp_graph_find_node (foo, "d"), 0, bar, "bar", 0),
    site (0, pp_graph_find_node (bar, "y"), 0, baz, "baz", 0)
  };
  char err[200];
  pp_ipp_supergraph *s = pp_ipp_build (foo, st, 2, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (s);
  CU_ASSERT (pp_graph_find_node (s->graph, "bar:0:y.1") >= 0);
  CU_ASSERT (pp_graph_find_node (s->graph, "baz:1:u") >= 0);
  CU_ASSERT_EQUAL (s->site_entry[1], pp_graph_find_node (s->graph,
                                                         "bar:0:y"));
  CU_ASSERT_EQUAL (s->site_return[1], pp_graph_find_node (s->graph,
                                                          "bar:0:y.1"));
  CU_ASSERT (has_edge (s, "bar:0:y", "baz:1:u", PP_IPP_CALL));
  CU_ASSERT (has_edge (s, "baz:1:v", "bar:0:y.1", PP_IPP_RETURN));
  CU_ASSERT (has_edge (s, "bar:0:y.1", "bar:0:w", PP_IPP_BODY));
  int u = pp_graph_find_node (s->graph, "baz:1:u");
  CU_ASSERT_EQUAL (s->nodes[u].owner, 1);
  /* foo 2 times bar's (x y [baz 2] w + x z w) = 2 * 3.  */
  CU_ASSERT_EQUAL (super_paths (s), 2 * 3);
  pp_ipp_free (s);
  pp_graph_free (foo);
  pp_graph_free (bar);
  pp_graph_free (baz);
}

static void
test_build_bad_sites (void)
{
  pp_graph *foo = graph_from (foo_edges), *bar = graph_from (bar_edges);
  int d = pp_graph_find_node (foo, "d");
  char err[200];
  /* Points 0 and 2 of d: point 1 missing.  */
  pp_ipp_site gap[2] = { site (-1, d, 0, bar, "bar", 0),
                         site (-1, d, 2, bar, "bar", 0) };
  err[0] = 0;
  CU_ASSERT_PTR_NULL (pp_ipp_build (foo, gap, 2, err, sizeof err));
  CU_ASSERT (strstr (err, "call points") != NULL);
  /* A parent that is not an earlier site.  */
  pp_ipp_site self[2] = { site (-1, d, 0, bar, "bar", 0),
                          site (1, pp_graph_find_node (bar, "y"), 0, bar,
                                "bar", 0) };
  err[0] = 0;
  CU_ASSERT_PTR_NULL (pp_ipp_build (foo, self, 2, err, sizeof err));
  CU_ASSERT (strstr (err, "parent") != NULL);
  /* The entry (and the exit) hold no call.  */
  pp_ipp_site at_entry = site (-1, pp_graph_entry (foo), 0, bar, "bar", 0);
  err[0] = 0;
  CU_ASSERT_PTR_NULL (pp_ipp_build (foo, &at_entry, 1, err, sizeof err));
  CU_ASSERT (strstr (err, "no such call block") != NULL);
  pp_ipp_site at_exit = site (-1, pp_graph_exit (foo), 0, bar, "bar", 0);
  CU_ASSERT_PTR_NULL (pp_ipp_build (foo, &at_exit, 1, err, sizeof err));
  /* A callee copy's entry neither.  */
  pp_ipp_site in_entry[2] = { site (-1, d, 0, bar, "bar", 0),
                              site (0, pp_graph_entry (bar), 0, bar, "bar",
                                    0) };
  CU_ASSERT_PTR_NULL (pp_ipp_build (foo, in_entry, 2, err, sizeof err));
  /* A callee without an exit, a name with ':'.  */
  pp_graph *open = pp_graph_new ();
  pp_graph_set_entry (open, pp_graph_add_node (open, "ENTRY"));
  pp_ipp_site no_exit = site (-1, d, 0, open, "open", 0);
  CU_ASSERT_PTR_NULL (pp_ipp_build (foo, &no_exit, 1, err, sizeof err));
  pp_ipp_site colon = site (-1, d, 0, bar, "a:b", 0);
  CU_ASSERT_PTR_NULL (pp_ipp_build (foo, &colon, 1, err, sizeof err));
  pp_graph_free (open);
  pp_graph_free (foo);
  pp_graph_free (bar);
}

void
pp_add_ipp_tests (void)
{
  CU_pSuite s = CU_add_suite ("ipp", NULL, NULL);
  CU_add_test (s, "Fig 3.12 supergraph", test_build_fig312);
  CU_add_test (s, "two call points in a block", test_build_two_points);
  CU_add_test (s, "indirect sites and the bypass", test_build_indirect);
  CU_add_test (s, "callee loop", test_build_callee_loop);
  CU_add_test (s, "depth 2", test_build_depth2);
  CU_add_test (s, "bad sites are refused", test_build_bad_sites);
}
