/* CUnit tests of derived counts (include/pp/ppd_derive.h, lib/derive.c):
   functions without probes get the count their call sites' blocks have in
   their callers' paths.  The oracle: each path's nodes, regenerated from
   its id, say which paths run a call site.  */
#include "test_derive.h"

#include "pp/core.h"
#include "pp/ppd.h"
#include "pp/ppd_derive.h"
#include "pp/rt_abi.h"
#include "pp/spec.h"

#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

/* A two-way branch inside a loop: b and c are the arms, the call sites.  */
static const char caller_meta[] =
  "function caller\nchecksum 0x11\nmax_paths 0\nentry s\nexit t\n"
  "edge s a\nedge a b true\nedge a c false\nedge b d\nedge c d\n"
  "edge d a\nedge d t\n";
/* One path, one node: x calls g.  */
static const char h_meta[] =
  "function h\nchecksum 0x22\nmax_paths 0\nentry s\nexit t\n"
  "edge s x\nedge x t\n"
  "caller caller 0x11 b\ncaller caller 0x11 b\ncaller caller 0x11 c\n";
static const char g_meta[] =
  "function g\nchecksum 0x33\nmax_paths 0\nentry s\nexit t\n"
  "edge s x\nedge x t\ncaller h 0x22 x\n";
static const char p_meta[] =
  "function p\nchecksum 0x44\nmax_paths 0\nentry s\nexit t\n"
  "edge s x\nedge x t\ncaller q 0x55 x\n";
static const char q_meta[] =
  "function q\nchecksum 0x55\nmax_paths 0\nentry s\nexit t\n"
  "edge s x\nedge x t\ncaller p 0x44 x\n";
/* A caller that is not in the profile, and one of another CFG.  */
static const char lost_meta[] =
  "function lost\nchecksum 0x66\nmax_paths 0\nentry s\nexit t\n"
  "edge s x\nedge x t\ncaller nobody 0x11 b\ncaller caller 0x99 b\n";

static void
add_fn (ppd_profile *p, const char *name, uint32_t checksum, uint32_t flags,
        uint64_t num_paths, const char *meta, const ppd_pair *pairs,
        uint64_t npairs)
{
  p->fns = realloc (p->fns, (p->nfns + 1) * sizeof *p->fns);
  ppd_fn *f = &p->fns[p->nfns++];
  memset (f, 0, sizeof *f);
  f->name = strdup (name);
  f->checksum = checksum;
  f->flags = flags;
  f->num_paths = num_paths;
  f->meta = strdup (meta);
  f->meta_len = (uint32_t) strlen (meta);
  if (npairs)
    {
      f->pairs = malloc (npairs * sizeof *pairs);
      memcpy (f->pairs, pairs, npairs * sizeof *pairs);
    }
  f->npairs = npairs;
}

static const ppd_fn *
fn_named (const ppd_profile *p, const char *name)
{
  for (uint32_t i = 0; i < p->nfns; i++)
    if (!strcmp (p->fns[i].name, name))
      return &p->fns[i];
  return NULL;
}

static uint64_t
count_of (const ppd_profile *p, const char *name)
{
  const ppd_fn *f = fn_named (p, name);
  CU_ASSERT_PTR_NOT_NULL_FATAL (f);
  CU_ASSERT_EQUAL (f->flags & PP_FN_DERIVED, 0);
  CU_ASSERT (f->npairs <= 1);
  if (f->npairs)
    CU_ASSERT_EQUAL (f->pairs[0].id, 0);
  return f->npairs ? f->pairs[0].count : 0;
}

/* How often node NODE of CALLER_META runs under PAIRS: by regenerating
   each path's DAG edges and looking for an edge into the node.  */
static uint64_t
node_runs (const ppd_pair *pairs, int npairs, const char *node)
{
  char err[256];
  pp_spec *spec = pp_spec_parse_string (caller_meta, strlen (caller_meta),
                                        NULL, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (spec);
  const pp_graph *g = spec->fns[0].graph;
  pp_options opt = { 0 };
  pp_numbering *n = pp_number (g, &opt, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (n);
  int v = pp_graph_find_node (g, node);
  uint64_t runs = 0;
  for (int k = 0; k < npairs; k++)
    {
      int *edges;
      int len = pp_regenerate (n, pairs[k].id, &edges);
      CU_ASSERT_FATAL (len > 0);
      for (int i = 0; i < len; i++)
        if (n->dag[edges[i]].dst == v)
          runs += pairs[k].count;
      free (edges);
    }
  pp_numbering_free (n);
  pp_spec_free (spec);
  return runs;
}

static void
test_derive (void)
{
  /* The loop's paths: s-a-(b|c)-d and a-(b|c)-d after the back edge, each
     ending at d-t or at the back edge: 8 paths.  */
  ppd_pair caller_pairs[8];
  for (int k = 0; k < 8; k++)
    caller_pairs[k] = (ppd_pair){ (uint64_t) k, (uint64_t) (3 * k + 1) };
  ppd_profile p = { 0 };
  p.runs = 1;
  p.sum_max = 50; /* under h's 2b + c > b + c = 92, the caller's total */
  /* g (derived from h) comes first: h is derived before it is read.  h
     has stale pairs (an older probed build's): replaced.  */
  add_fn (&p, "g", 0x33, PP_FN_DERIVED, 1, g_meta, NULL, 0);
  ppd_pair stale = { 0, 999 };
  add_fn (&p, "h", 0x22, PP_FN_DERIVED, 1, h_meta, &stale, 1);
  add_fn (&p, "caller", 0x11, 0, 8, caller_meta, caller_pairs, 8);
  add_fn (&p, "p", 0x44, PP_FN_DERIVED, 1, p_meta, NULL, 0);
  add_fn (&p, "q", 0x55, PP_FN_DERIVED, 1, q_meta, NULL, 0);
  add_fn (&p, "lost", 0x66, PP_FN_DERIVED, 1, lost_meta, NULL, 0);
  char err[256] = "";
  CU_ASSERT_EQUAL_FATAL (ppd_derive_counts (&p, err, sizeof err), 0);
  uint64_t b = node_runs (caller_pairs, 8, "b");
  uint64_t c = node_runs (caller_pairs, 8, "c");
  CU_ASSERT (b > 0 && c > 0);
  CU_ASSERT_EQUAL (count_of (&p, "h"), 2 * b + c);
  CU_ASSERT_EQUAL (count_of (&p, "g"), 2 * b + c);
  /* One-path functions calling each other never return.  */
  CU_ASSERT_EQUAL (count_of (&p, "p"), 0);
  CU_ASSERT_EQUAL (count_of (&p, "q"), 0);
  CU_ASSERT_EQUAL (count_of (&p, "lost"), 0);
  /* The hottest function is a derived one now.  */
  CU_ASSERT_EQUAL (p.sum_max, 2 * b + c);
  /* The caller's own counts stay.  */
  const ppd_fn *cf = fn_named (&p, "caller");
  CU_ASSERT_EQUAL (cf->npairs, 8);
  CU_ASSERT_EQUAL (cf->pairs[7].count, 22);
  ppd_free (&p);
}

static void
test_derive_bad (void)
{
  static const char bad_node[] =
    "function h\nchecksum 0x22\nmax_paths 0\nentry s\nexit t\n"
    "edge s x\nedge x t\ncaller caller 0x11 zz\n";
  ppd_pair one = { 0, 4 };
  ppd_profile p = { 0 };
  add_fn (&p, "caller", 0x11, 0, 8, caller_meta, &one, 1);
  add_fn (&p, "h", 0x22, PP_FN_DERIVED, 1, bad_node, NULL, 0);
  char err[256] = "";
  CU_ASSERT_EQUAL (ppd_derive_counts (&p, err, sizeof err), -1);
  CU_ASSERT_PTR_NOT_NULL (strstr (err, "has no node 'zz'"));
  ppd_free (&p);

  /* A caller id beyond its paths, and metadata that does not parse.  */
  ppd_pair far = { 8, 1 };
  memset (&p, 0, sizeof p);
  add_fn (&p, "caller", 0x11, 0, 8, caller_meta, &far, 1);
  add_fn (&p, "h", 0x22, PP_FN_DERIVED, 1, h_meta, NULL, 0);
  CU_ASSERT_EQUAL (ppd_derive_counts (&p, err, sizeof err), -1);
  CU_ASSERT_PTR_NOT_NULL (strstr (err, "out of range"));
  ppd_free (&p);
  memset (&p, 0, sizeof p);
  add_fn (&p, "h", 0x22, PP_FN_DERIVED, 1, "caller x\n", NULL, 0);
  CU_ASSERT_EQUAL (ppd_derive_counts (&p, err, sizeof err), -1);
  ppd_free (&p);
}

/* A computed goto: d jumps abnormally to the bytecodes x, y and h; x and
   y jump back to d, h returns.  The path that restarts at d and ends
   there has no probe (`derived_restart d').  */
static const char dispatch_meta[] =
  "function vm\nchecksum 0x77\nmax_paths 0\nentry s\nexit t\n"
  "edge s a\nedge a d\nedge d x abnormal\nedge d y abnormal\n"
  "edge d h abnormal\nedge x d\nedge y d\nedge h t\n"
  "derived_restart d\n";

static void
test_derive_restarts (void)
{
  char err[256] = "";
  pp_spec *spec = pp_spec_parse_string (dispatch_meta, strlen (dispatch_meta),
                                        NULL, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (spec);
  CU_ASSERT_EQUAL_FATAL (spec->fns[0].num_derived_restarts, 1);
  CU_ASSERT_STRING_EQUAL (spec->fns[0].derived_restarts[0], "d");
  const pp_graph *g = spec->fns[0].graph;
  pp_options opt = { 0 };
  pp_numbering *n = pp_number (g, &opt, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (n);
  int d = pp_graph_find_node (g, "d");
  CU_ASSERT_FATAL (pp_restart_derivable (n, g, d));
  CU_ASSERT (!pp_restart_derivable (n, g, pp_graph_find_node (g, "a")));
  pp_pathid restart = pp_restart_path_id (n, d);
  /* Every path but the restart ran 10 * (id + 1) times: the restart ran
     once after each path that ends at x's or y's break (the oracle: the
     source of each path's last, pseudo, edge).  */
  ppd_pair pairs[16];
  int np = 0;
  uint64_t want = 0;
  for (pp_pathid id = 0; id < n->num_paths; id++)
    {
      if (id == restart)
        continue;
      int *edges;
      int len = pp_regenerate (n, id, &edges);
      CU_ASSERT_FATAL (len > 0);
      const char *from = pp_graph_node_name (g, n->dag[edges[len - 1]].src);
      uint64_t count = 10 * (id + 1);
      if (n->dag[edges[len - 1]].kind == PP_DAG_EXIT
          && (!strcmp (from, "x") || !strcmp (from, "y")))
        want += count;
      pairs[np++] = (ppd_pair){ id, count };
      free (edges);
    }
  CU_ASSERT (want > 0);
  ppd_profile p = { 0 };
  add_fn (&p, "vm", 0x77, PP_FN_DERIVED_RESTARTS, n->num_paths,
          dispatch_meta, pairs, (uint64_t) np);
  CU_ASSERT_EQUAL_FATAL (ppd_derive_counts (&p, err, sizeof err), 0);
  const ppd_fn *f = fn_named (&p, "vm");
  CU_ASSERT_EQUAL (f->flags & PP_FN_DERIVED_RESTARTS, 0);
  CU_ASSERT_EQUAL_FATAL (f->npairs, (uint64_t) np + 1);
  uint64_t got = 0;
  for (uint64_t k = 0; k < f->npairs; k++)
    {
      if (f->pairs[k].id == restart)
        got = f->pairs[k].count;
      if (k)
        CU_ASSERT (f->pairs[k - 1].id < f->pairs[k].id);
    }
  CU_ASSERT_EQUAL (got, want);
  /* Merged with a raw record of the same build, the flag is back and the
     derived pair is there: derived again, it is replaced, not added to.  */
  p.fns[0].flags |= PP_FN_DERIVED_RESTARTS;
  CU_ASSERT_EQUAL_FATAL (ppd_derive_counts (&p, err, sizeof err), 0);
  CU_ASSERT_EQUAL (f->npairs, (uint64_t) np + 1);
  for (uint64_t k = 0; k < f->npairs; k++)
    if (f->pairs[k].id == restart)
      CU_ASSERT_EQUAL (f->pairs[k].count, want);
  ppd_free (&p);

  /* No break ran: no pair.  A node that is not a dispatch block, or
     none at all: one line saying so.  */
  memset (&p, 0, sizeof p);
  add_fn (&p, "vm", 0x77, PP_FN_DERIVED_RESTARTS, n->num_paths,
          dispatch_meta, NULL, 0);
  CU_ASSERT_EQUAL (ppd_derive_counts (&p, err, sizeof err), 0);
  CU_ASSERT_EQUAL (p.fns[0].npairs, 0);
  ppd_free (&p);
  static const char *const bad[] = { "derived_restart a\n",
                                     "derived_restart zz\n" };
  static const char *const why[] = { "cannot be derived", "no node 'zz'" };
  for (int k = 0; k < 2; k++)
    {
      char meta[512];
      snprintf (meta, sizeof meta, "%.*s%s",
                (int) (strstr (dispatch_meta, "derived_restart")
                       - dispatch_meta),
                dispatch_meta, bad[k]);
      memset (&p, 0, sizeof p);
      add_fn (&p, "vm", 0x77, PP_FN_DERIVED_RESTARTS, n->num_paths, meta,
              pairs, (uint64_t) np);
      CU_ASSERT_EQUAL (ppd_derive_counts (&p, err, sizeof err), -1);
      CU_ASSERT_PTR_NOT_NULL (strstr (err, why[k]));
      ppd_free (&p);
    }
  pp_numbering_free (n);
  pp_spec_free (spec);
}

void
pp_add_derive_tests (void)
{
  CU_pSuite s = CU_add_suite ("derived counts", NULL, NULL);
  CU_add_test (s, "from callers' paths, chained, cycles", test_derive);
  CU_add_test (s, "bad metadata", test_derive_bad);
  CU_add_test (s, "a dispatch block's restart path", test_derive_restarts);
}
