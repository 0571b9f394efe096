/* CUnit tests of supergraphs (ipp/supergraph.c, thesis §3.4.4 step 4, Fig 3.12)
   and of the interesting supergraph paths composed from intraprocedural
   profiles (ipp/compose.c, thesis §3.5.2 "Alternative scheme"),
   checked on hand-made examples and against a brute-force oracle.  */
#include "test_ipp.h"
#include "test_graphs.h"

#include "pp/ipp.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ helpers */

/* A graph from "a b, b c, ..." with entry ENTRY and exit EXIT.  */
static pp_graph *
graph_from (const char *edges)
{
  return test_graph_from (edges, "ENTRY", "EXIT");
}

/* Ball-Larus id of the path through the named nodes "ENTRY a b EXIT"
   (real edges preferred), or ~0 when it is not a path.  */
static pp_pathid
path_id (const pp_numbering *n, const pp_graph *g, const char *nodes)
{
  int seq[128], len = 0;
  char buf[1024];
  snprintf (buf, sizeof buf, "%s", nodes);
  for (char *tok = strtok (buf, " "); tok && len < 128; tok = strtok (NULL, " "))
    seq[len++] = pp_graph_find_node (g, tok);
  int *dag;
  char err[200];
  int k = pp_path_from_nodes (n, seq, len, &dag, err, sizeof err);
  if (k < 0)
    return ~(pp_pathid) 0;
  pp_pathid id = pp_path_bl (n, dag, k);
  free (dag);
  return id;
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
/* Caller with a loop around its call block d (back edge d->a).  */
static const char *foo_loop = "ENTRY g, g a, a d, d a, d f, f EXIT";

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

/* ------------------------------------------- Task 2: pp_ipp_compose */

/* One composition: the caller FOO with SITES over their callees, the
   executed paths of each owner given by node names (NULL-terminated lists;
   SITE_PATHS[i] NULL: never ran).  */
typedef struct
{
  pp_ipp_supergraph *s;
  pp_numbering *sn;
  pp_numbering *on[8];  /* [0]: the caller, [i + 1]: site i's callee */
  pp_pathid ids[8][16];
  pp_ipp_profile prof[8];
  pp_pathid *out;
  size_t nout;
  int rc;
  char err[200];
} composed;

static pp_pathid
owner_path (const pp_numbering *n, const pp_graph *g, const char *nodes)
{
  pp_pathid id = path_id (n, g, nodes);
  CU_ASSERT (id != ~(pp_pathid) 0);
  return id;
}

static void
compose (composed *c, const pp_graph *caller, const char **caller_paths,
         const pp_ipp_site *sites, int nsites, const char **site_paths[],
         size_t cap)
{
  memset (c, 0, sizeof *c);
  c->s = pp_ipp_build (caller, sites, nsites, c->err, sizeof c->err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (c->s);
  c->sn = number (c->s->graph);
  for (int o = 0; o <= nsites; o++)
    {
      const pp_graph *g = o ? sites[o - 1].callee : caller;
      const char **paths = o ? site_paths[o - 1] : caller_paths;
      c->on[o] = number (g);
      size_t k = 0;
      for (; paths && paths[k]; k++)
        c->ids[o][k] = owner_path (c->on[o], g, paths[k]);
      c->prof[o] = (pp_ipp_profile) { c->on[o], c->ids[o], k };
    }
  c->rc = pp_ipp_compose (c->s, c->sn, &c->prof[0], &c->prof[1], cap,
                          &c->out, &c->nout, c->err, sizeof c->err);
  if (c->rc < 0)
    fprintf (stderr, "pp_ipp_compose: %s\n", c->err);
}

static void
composed_free (composed *c)
{
  for (int o = 0; o < 8; o++)
    pp_numbering_free (c->on[o]);
  pp_numbering_free (c->sn);
  pp_ipp_free (c->s);
  free (c->out);
}

/* Whether the composition produced the supergraph path through NODES.  */
static int
produced (const composed *c, const char *nodes)
{
  pp_pathid id = path_id (c->sn, c->s->graph, nodes);
  CU_ASSERT (id != ~(pp_pathid) 0);
  for (size_t i = 0; i < c->nout; i++)
    if (c->out[i] == id)
      return 1;
  return 0;
}

static void
test_compose_fig312 (void)
{
  pp_graph *foo = graph_from (foo_edges), *bar = graph_from (bar_edges);
  pp_ipp_site st = site (-1, pp_graph_find_node (foo, "d"), 0, bar, "bar",
                         0);
  const char *fp[] = { "ENTRY a b d EXIT", NULL };
  const char *bp1[] = { "ENTRY x y w EXIT", NULL };
  const char **sp1[] = { bp1 };
  composed c;
  compose (&c, foo, fp, &st, 1, sp1, 100);
  CU_ASSERT_EQUAL (c.rc, 0);
  CU_ASSERT_EQUAL_FATAL (c.nout, 1);
  CU_ASSERT_EQUAL (c.out[0],
                   path_id (c.sn, c.s->graph,
                            "ENTRY a b d bar:0:x bar:0:y bar:0:w d.1 EXIT"));
  composed_free (&c);
  /* Both of bar's paths ran: two supergraph paths, ascending.  */
  const char *bp2[] = { "ENTRY x y w EXIT", "ENTRY x z w EXIT", NULL };
  const char **sp2[] = { bp2 };
  compose (&c, foo, fp, &st, 1, sp2, 100);
  CU_ASSERT_EQUAL (c.rc, 0);
  CU_ASSERT_EQUAL_FATAL (c.nout, 2);
  CU_ASSERT (c.out[0] < c.out[1]);
  CU_ASSERT (produced (&c, "ENTRY a b d bar:0:x bar:0:z bar:0:w d.1 EXIT"));
  CU_ASSERT (!produced (&c, "ENTRY a c d bar:0:x bar:0:z bar:0:w d.1 EXIT"));
  composed_free (&c);
  /* The cap: 4 paths when everything ran.  */
  const char *fp_all[] = { "ENTRY a b d EXIT", "ENTRY a c d EXIT", NULL };
  compose (&c, foo, fp_all, &st, 1, sp2, 4);
  CU_ASSERT_EQUAL (c.rc, 0);
  CU_ASSERT_EQUAL (c.nout, 4);
  composed_free (&c);
  compose (&c, foo, fp_all, &st, 1, sp2, 3);
  CU_ASSERT_EQUAL (c.rc, 1);
  CU_ASSERT_PTR_NULL (c.out);
  CU_ASSERT_EQUAL (c.nout, 0);
  composed_free (&c);
  pp_graph_free (foo);
  pp_graph_free (bar);
}

static void
test_compose_loops (void)
{
  pp_graph *foo = graph_from (foo_loop), *bar = graph_from (bar_loop);
  pp_ipp_site st = site (-1, pp_graph_find_node (foo, "d"), 0, bar, "bar",
                         0);
  /* foo went round its loop once (g a d, back edge) and bar looped once
     and left (e x y, back edge; x y z).  */
  const char *fp[] = { "ENTRY g a d EXIT", NULL };
  const char *bp[] = { "ENTRY e x y EXIT", "ENTRY x y z EXIT", NULL };
  const char **sp[] = { bp };
  composed c;
  compose (&c, foo, fp, &st, 1, sp, 100);
  CU_ASSERT_EQUAL (c.rc, 0);
  CU_ASSERT_EQUAL (c.nout, 2);
  /* Ends inside the copy at bar's back edge.  */
  CU_ASSERT (produced (&c, "ENTRY g a d bar:0:e bar:0:x bar:0:y EXIT"));
  /* Starts inside the copy, returns, ends with foo's back edge in d.1.  */
  CU_ASSERT (produced (&c, "ENTRY bar:0:x bar:0:y bar:0:z d.1 EXIT"));
  composed_free (&c);
  /* Everything ran: every supergraph path is interesting.  */
  const char *fp_all[] = { "ENTRY g a d EXIT", "ENTRY g a d f EXIT",
                           "ENTRY a d EXIT", "ENTRY a d f EXIT", NULL };
  const char *bp_all[] = { "ENTRY e x y EXIT", "ENTRY e x y z EXIT",
                           "ENTRY x y EXIT", "ENTRY x y z EXIT", NULL };
  const char **sp_all[] = { bp_all };
  compose (&c, foo, fp_all, &st, 1, sp_all, 1000);
  CU_ASSERT_EQUAL (c.rc, 0);
  CU_ASSERT_EQUAL (c.nout, c.sn->num_paths);
  for (size_t i = 0; i < c.nout; i++)
    CU_ASSERT_EQUAL (c.out[i], (pp_pathid) i);
  composed_free (&c);
  pp_graph_free (foo);
  pp_graph_free (bar);
}

static void
test_compose_two_sites (void)
{
  pp_graph *foo = graph_from (foo_edges), *bar = graph_from (bar_edges);
  pp_graph *baz = graph_from (baz_edges);
  int d = pp_graph_find_node (foo, "d");
  pp_ipp_site st[2] = { site (-1, d, 0, bar, "bar", 0),
                        site (-1, d, 1, baz, "baz", 0) };
  const char *fp[] = { "ENTRY a b d EXIT", NULL };
  const char *bp[] = { "ENTRY x y w EXIT", NULL };
  const char *zp[] = { "ENTRY u v EXIT", "ENTRY u w EXIT", NULL };
  const char **sp[] = { bp, zp };
  composed c;
  compose (&c, foo, fp, st, 2, sp, 100);
  CU_ASSERT_EQUAL (c.rc, 0);
  CU_ASSERT_EQUAL (c.nout, 2);
  CU_ASSERT (produced (&c, "ENTRY a b d bar:0:x bar:0:y bar:0:w d.1 "
                           "baz:1:u baz:1:w d.2 EXIT"));
  composed_free (&c);
  /* baz never ran: d's paths cannot go past its call.  */
  const char **sp0[] = { bp, NULL };
  compose (&c, foo, fp, st, 2, sp0, 100);
  CU_ASSERT_EQUAL (c.rc, 0);
  CU_ASSERT_EQUAL (c.nout, 0);
  composed_free (&c);
  pp_graph_free (foo);
  pp_graph_free (bar);
  pp_graph_free (baz);
}

static void
test_compose_indirect (void)
{
  /* foo may skip d.  */
  pp_graph *foo = graph_from ("ENTRY a, a b, a c, b d, c d, d EXIT, "
                              "a EXIT");
  pp_graph *bar = graph_from (bar_edges), *baz = graph_from (baz_edges);
  int d = pp_graph_find_node (foo, "d");
  pp_ipp_site st[2] = { site (-1, d, 0, bar, "bar", 1),
                        site (-1, d, 0, baz, "baz", 1) };
  const char *fp[] = { "ENTRY a b d EXIT", "ENTRY a EXIT", NULL };
  const char *bp[] = { "ENTRY x y w EXIT", NULL };
  const char **sp[] = { bp, NULL };
  composed c;
  compose (&c, foo, fp, st, 2, sp, 100);
  CU_ASSERT_EQUAL (c.rc, 0);
  /* Through bar, through the plain call, and around d.  */
  CU_ASSERT_EQUAL (c.nout, 3);
  CU_ASSERT (produced (&c, "ENTRY a b d bar:0:x bar:0:y bar:0:w d.1 EXIT"));
  CU_ASSERT (produced (&c, "ENTRY a b d d.1 EXIT"));
  CU_ASSERT (produced (&c, "ENTRY a EXIT"));
  composed_free (&c);
  /* The same call point direct, bar never ran: only the path around d.  */
  pp_ipp_site direct = site (-1, d, 0, bar, "bar", 0);
  const char **none[] = { NULL };
  compose (&c, foo, fp, &direct, 1, none, 100);
  CU_ASSERT_EQUAL (c.rc, 0);
  CU_ASSERT_EQUAL_FATAL (c.nout, 1);
  CU_ASSERT (produced (&c, "ENTRY a EXIT"));
  composed_free (&c);
  pp_graph_free (foo);
  pp_graph_free (bar);
  pp_graph_free (baz);
}

static void
test_compose_depth2 (void)
{
  pp_graph *foo = graph_from (foo_edges), *bar = graph_from (bar_loop);
  pp_graph *baz = graph_from ("ENTRY r, r u, u v, v u, v EXIT");
  pp_ipp_site st[2] = {
    site (-1, pp_graph_find_node (foo, "d"), 0, bar, "bar", 0),
    site (0, pp_graph_find_node (bar, "z"), 0, baz, "baz", 0)
  };
  const char *fp[] = { "ENTRY a b d EXIT", NULL };
  const char *bp[] = { "ENTRY x y z EXIT", NULL };  /* from bar's loop */
  const char *zp[] = { "ENTRY u v EXIT", NULL };    /* from baz's loop */
  const char **sp[] = { bp, zp };
  composed c;
  compose (&c, foo, fp, st, 2, sp, 100);
  CU_ASSERT_EQUAL (c.rc, 0);
  /* Starts in baz's copy, returns to bar's copy, then to foo.  */
  CU_ASSERT_EQUAL_FATAL (c.nout, 1);
  CU_ASSERT (produced (&c, "ENTRY baz:1:u baz:1:v bar:0:z.1 d.1 EXIT"));
  composed_free (&c);
  pp_graph_free (foo);
  pp_graph_free (bar);
  pp_graph_free (baz);
}

static void
test_compose_bad_input (void)
{
  pp_graph *foo = graph_from (foo_edges), *bar = graph_from (bar_edges);
  pp_ipp_site st = site (-1, pp_graph_find_node (foo, "d"), 0, bar, "bar",
                         0);
  char err[200];
  pp_ipp_supergraph *s = pp_ipp_build (foo, &st, 1, err, sizeof err);
  pp_numbering *sn = number (s->graph), *fn = number (foo);
  pp_numbering *bn = number (bar);
  pp_pathid big = 99;
  pp_ipp_profile fp = { fn, &big, 1 }, bp = { bn, NULL, 0 };
  pp_pathid *out;
  size_t nout;
  err[0] = 0;
  CU_ASSERT_EQUAL (pp_ipp_compose (s, sn, &fp, &bp, 10, &out, &nout, err,
                                   sizeof err), -1);
  CU_ASSERT (strstr (err, "out of range") != NULL);
  /* A numbering of another shape given for the caller.  */
  pp_graph *small = graph_from (baz_edges);
  pp_numbering *zn = number (small);
  pp_ipp_profile wrong = { zn, NULL, 0 };
  err[0] = 0;
  CU_ASSERT_EQUAL (pp_ipp_compose (s, sn, &wrong, &bp, 10, &out, &nout, err,
                                   sizeof err), -1);
  CU_ASSERT (err[0] != 0);
  /* The caller's numbering as the supergraph's.  */
  CU_ASSERT_EQUAL (pp_ipp_compose (s, fn, &fp, &bp, 10, &out, &nout, err,
                                   sizeof err), -1);
  pp_numbering_free (sn);
  pp_numbering_free (fn);
  pp_numbering_free (bn);
  pp_numbering_free (zn);
  pp_graph_free (small);
  pp_ipp_free (s);
  pp_graph_free (foo);
  pp_graph_free (bar);
}

/* ------------------------------------------------ the brute-force oracle */

/* One owner's stretch of a supergraph path, projected back.  */
enum { FROM_ENTRY, FROM_PSEUDO, FROM_MIDDLE };
#define MAXSEG 512
typedef struct
{
  int present, from, middle, ended;
  int len, edge[MAXSEG]; /* the owner's DAG edges */
} segment;

/* Owner O's DAG edge for its CFG edge E, or -1 when the owner breaks it. */
static int
owner_real (const pp_numbering *n, int e)
{
  return n->cfg[e].role == PP_CFG_DAG ? n->cfg[e].dag_edge : -1;
}

static int
last_part (const pp_ipp_supergraph *s, int owner, int v)
{
  int k = 0;
  for (int x = 0; x < s->num_nodes; x++)
    if (s->nodes[x].owner == owner && s->nodes[x].node == v
        && s->nodes[x].part > k)
      k = s->nodes[x].part;
  return k;
}

static int
append (segment *g, int e)
{
  if (e < 0 || g->len == MAXSEG)
    return -1;
  g->edge[g->len++] = e;
  return 0;
}

/* Splits supergraph path D (SN's DAG edges) into owner segments; 0 when
   the path does not project onto owner paths at all.  */
static int
project (const pp_ipp_supergraph *s, const pp_numbering *sn,
         pp_numbering *const *on, const int *d, int len, segment *seg)
{
  for (int k = 0; k < len; k++)
    {
      const pp_dag_edge *e = &sn->dag[d[k]];
      if (e->kind != PP_DAG_REAL)
        {
          int x = e->kind == PP_DAG_ENTRY ? e->dst : e->src;
          const pp_ipp_node *nd = &s->nodes[x];
          segment *g = &seg[nd->owner + 1];
          const pp_numbering *n = on[nd->owner + 1];
          if (e->kind == PP_DAG_ENTRY)
            {
              if (nd->part != 0 || g->present)
                return 0;
              g->present = 1;
              g->from = FROM_PSEUDO;
              if (append (g, n->node_entry_edge[nd->node]))
                return 0;
            }
          else
            {
              if (nd->part != last_part (s, nd->owner, nd->node)
                  || !g->present || append (g, n->node_exit_edge[nd->node]))
                return 0;
              g->ended = 1;
            }
          continue;
        }
      const pp_ipp_edge *ie = &s->edges[e->cfg_edge];
      int o = ie->kind == PP_IPP_BODY ? ie->owner : ie->site;
      segment *g = &seg[o + 1];
      const pp_numbering *n = on[o + 1];
      switch (ie->kind)
        {
        case PP_IPP_BODY:
          if (!g->present && o == -1 && k == 0)
            g->present = 1, g->from = FROM_ENTRY;
          if (!g->present || append (g, owner_real (n, ie->edge)))
            return 0;
          if (n->dag[g->edge[g->len - 1]].dst == n->exit)
            g->ended = 1;
          break;
        case PP_IPP_CALL:
          if (g->present)
            return 0;
          g->present = 1;
          g->from = FROM_ENTRY;
          if (append (g, owner_real (n, ie->edge)))
            return 0;
          if (n->dag[g->edge[0]].dst == n->exit)
            g->ended = 1;
          break;
        case PP_IPP_RETURN:
          {
            if (!g->present || append (g, owner_real (n, ie->edge)))
              return 0;
            g->ended = 1;
            const pp_ipp_node *r = &s->nodes[s->site_return[o]];
            segment *pg = &seg[r->owner + 1];
            if (!pg->present)
              {
                pg->present = 1;
                pg->from = FROM_MIDDLE;
                pg->middle = r->node;
              }
            break;
          }
        case PP_IPP_BYPASS:
          break;
        }
    }
  return 1;
}

/* Whether some executed path of owner N fits segment G.  */
static int
segment_ran (const pp_numbering *n, const pp_ipp_profile *pr,
             const segment *g)
{
  int ok = 0;
  for (size_t i = 0; i < pr->nids && !ok; i++)
    {
      int *e;
      int len = pp_regenerate (n, pr->ids[i], &e);
      int from = 0;
      if (g->from == FROM_MIDDLE)
        {
          from = -1;
          for (int t = 0; t < len && from < 0; t++)
            if (n->dag[e[t]].dst == g->middle)
              from = t + 1;
        }
      if (from >= 0 && (g->ended ? len - from == g->len
                                 : len - from >= g->len))
        ok = memcmp (e + from, g->edge, g->len * sizeof (int)) == 0;
      free (e);
    }
  return ok;
}

static int
oracle (const pp_ipp_supergraph *s, const pp_numbering *sn,
        pp_numbering *const *on, const pp_ipp_profile *prof, pp_pathid id)
{
  int *d;
  int len = pp_regenerate (sn, id, &d);
  segment *seg = calloc (s->num_sites + 1, sizeof *seg);
  int ok = project (s, sn, on, d, len, seg);
  for (int o = 0; ok && o <= s->num_sites; o++)
    if (seg[o].present)
      ok = segment_ran (on[o], &prof[o], &seg[o]);
  free (seg);
  free (d);
  return ok;
}

/* ---------------------------------------------------- random instances */

static unsigned long long rng_state;

static unsigned
rnd (unsigned bound)
{
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (unsigned) ((rng_state >> 33) % bound);
}

/* ENTRY, n0..n(K-1), EXIT: forward edges, some back edges, now and then a
   sink (a noreturn call) and, for a callee, ENTRY->EXIT.  */
static pp_graph *
random_graph (int k, int callee)
{
  pp_graph *g = pp_graph_new ();
  int s = pp_graph_add_node (g, "ENTRY");
  for (int i = 0; i < k; i++)
    {
      char name[16];
      snprintf (name, sizeof name, "n%d", i);
      pp_graph_add_node (g, name);
    }
  int t = pp_graph_add_node (g, "EXIT");
  pp_graph_set_entry (g, s);
  pp_graph_set_exit (g, t);
  pp_graph_add_edge (g, s, 1, 0, -1);
  if (callee && rnd (8) == 0)
    pp_graph_add_edge (g, s, t, 0, -1);
  if (k > 1 && rnd (4) == 0 && pp_graph_find_edge (g, s, 2) < 0)
    pp_graph_add_edge (g, s, 2, 0, -1);
  for (int i = 0; i < k; i++)
    {
      int v = 1 + i;
      if (rnd (16) == 0 && i > 0)
        continue; /* a sink */
      int nsucc = 1 + rnd (2);
      for (int a = 0; a < nsucc; a++)
        {
          int w = v + 1 + rnd (k - i); /* a later node or EXIT */
          if (pp_graph_find_edge (g, v, w) < 0)
            pp_graph_add_edge (g, v, w, 0, -1);
        }
      if (rnd (4) == 0)
        {
          int w = 1 + rnd (i + 1);
          if (pp_graph_find_edge (g, v, w) < 0)
            pp_graph_add_edge (g, v, w, 0, -1);
        }
    }
  return g;
}

static void
dump (const pp_ipp_supergraph *s, const pp_numbering *sn)
{
  for (int e = 0; e < s->num_edges; e++)
    fprintf (stderr, "  %s -> %s kind %d site %d role %d back %d\n",
             pp_graph_node_name (s->graph, pp_graph_edge_src (s->graph, e)),
             pp_graph_node_name (s->graph, pp_graph_edge_dst (s->graph, e)),
             s->edges[e].kind, s->edges[e].site, sn->cfg[e].role,
             sn->cfg[e].back);
}

#define NCALLEES 3
#define MAXSITES 6

static void
test_compose_oracle (void)
{
  static const char *cname[NCALLEES] = { "f0", "f1", "f2" };
  int instances = 0, nonempty = 0, partial = 0;
  long produced_total = 0;
  rng_state = 20261123;
  for (int round = 0; round < 1500; round++)
    {
      pp_graph *caller = random_graph (3 + rnd (3), 0);
      pp_graph *callee[NCALLEES];
      for (int f = 0; f < NCALLEES; f++)
        callee[f] = random_graph (2 + rnd (3), 1);
      /* Call points: depth 1 in the caller, then maybe depth 2.  */
      pp_ipp_site sites[MAXSITES];
      int ns = 0, npoints[MAXSITES + 1][8] = { { 0 } };
      int want = 1 + rnd (4);
      while (ns < want)
        {
          int parent = ns > 0 && rnd (3) == 0 ? (int) rnd (ns) : -1;
          if (parent >= 0 && sites[parent].parent >= 0)
            parent = -1;
          const pp_graph *pg = parent < 0 ? caller : sites[parent].callee;
          int v = 1 + rnd (pp_graph_num_nodes (pg) - 2);
          int indirect = rnd (3) == 0;
          int targets = indirect ? 1 + rnd (2) : 1;
          int point = npoints[parent + 1][v]++;
          for (int a = 0; a < targets && ns < MAXSITES; a++)
            {
              int f = rnd (NCALLEES);
              sites[ns++] = site (parent, v, point, callee[f], cname[f],
                                  indirect);
            }
        }
      char err[200];
      pp_ipp_supergraph *s = pp_ipp_build (caller, sites, ns, err,
                                           sizeof err);
      CU_ASSERT_PTR_NOT_NULL_FATAL (s);
      pp_numbering *sn = pp_number (s->graph, NULL, err, sizeof err);
      CU_ASSERT_PTR_NOT_NULL_FATAL (sn);
      pp_numbering *on[MAXSITES + 1];
      pp_pathid ids[MAXSITES + 1][64];
      pp_ipp_profile prof[MAXSITES + 1];
      for (int o = 0; o <= ns; o++)
        {
          on[o] = pp_number (o ? sites[o - 1].callee : caller, NULL, err,
                             sizeof err);
          CU_ASSERT_PTR_NOT_NULL_FATAL (on[o]);
          size_t k = 0;
          int density = rnd (4); /* 0: never ran ... 3: every path */
          if (o == 0 && density == 0)
            density = 1;
          for (pp_pathid p = 0; p < on[o]->num_paths && k < 64; p++)
            if (density == 3 || (density > 0 && rnd (3) < (unsigned) density))
              ids[o][k++] = p;
          prof[o] = (pp_ipp_profile) { on[o], ids[o], k };
        }
      if (sn->num_paths <= 3000)
        {
          pp_pathid *out;
          size_t nout;
          int rc = pp_ipp_compose (s, sn, &prof[0], &prof[1], 1u << 20, &out,
                                   &nout, err, sizeof err);
          CU_ASSERT_EQUAL (rc, 0);
          if (rc != 0)
            {
              fprintf (stderr, "round %d: %s\n", round, err);
              if (getenv ("IPP_DEBUG"))
                dump (s, sn);
            }
          size_t k = 0;
          int bad = 0;
          for (pp_pathid id = 0; id < sn->num_paths && rc == 0; id++)
            {
              int in = k < nout && out[k] == id;
              k += in;
              if (in != oracle (s, sn, on, prof, id))
                bad++;
            }
          CU_ASSERT_EQUAL (bad, 0);
          if (bad)
            fprintf (stderr, "round %d: %d paths differ\n", round, bad);
          CU_ASSERT (rc != 0 || k == nout);
          instances++;
          nonempty += nout > 0;
          partial += nout > 0 && nout < sn->num_paths;
          produced_total += (long) nout;
          /* The cap: one less than needed gives 1 and nothing.  */
          if (rc == 0 && nout > 0)
            {
              pp_pathid *o2;
              size_t n2;
              CU_ASSERT_EQUAL (pp_ipp_compose (s, sn, &prof[0], &prof[1],
                                               nout - 1, &o2, &n2, err,
                                               sizeof err), 1);
              CU_ASSERT_PTR_NULL (o2);
              CU_ASSERT_EQUAL (n2, 0);
            }
          free (out);
        }
      for (int o = 0; o <= ns; o++)
        pp_numbering_free (on[o]);
      pp_numbering_free (sn);
      pp_ipp_free (s);
      pp_graph_free (caller);
      for (int f = 0; f < NCALLEES; f++)
        pp_graph_free (callee[f]);
    }
  CU_ASSERT (instances > 1000);
  CU_ASSERT (partial > 300);
  CU_ASSERT (nonempty > partial);
  if (getenv ("IPP_DEBUG"))
    fprintf (stderr, "%d instances, %d with paths, %d partial, %ld paths\n",
             instances, nonempty, partial, produced_total);
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
  CU_add_test (s, "compose: Fig 3.12 and the cap", test_compose_fig312);
  CU_add_test (s, "compose: loops in caller and callee",
               test_compose_loops);
  CU_add_test (s, "compose: two sites in a block", test_compose_two_sites);
  CU_add_test (s, "compose: indirect site, callee never run",
               test_compose_indirect);
  CU_add_test (s, "compose: depth 2 from inside a copy",
               test_compose_depth2);
  CU_add_test (s, "compose: bad input", test_compose_bad_input);
  CU_add_test (s, "compose: 1500 random instances against an oracle",
               test_compose_oracle);
}
