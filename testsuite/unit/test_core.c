/* CUnit tests of the core numbering library: the thesis examples, and
   property tests over random DAGs and random cyclic CFGs (fixed seeds).  */
#include "test_core.h"
#include "test_graphs.h"

#include "pp/core.h"

#include <CUnit/CUnit.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ helpers */

/* A graph from "a b, b c, ..." with entry s and exit t.  */
static pp_graph *
graph_from (const char *edges)
{
  return test_graph_from (edges, "s", "t");
}

/* Ids of a path given as "s a c t".  */
static int
path_ids (pp_numbering *n, pp_graph *g, const char *nodes, pp_pathid *bl,
          int64_t *ppp)
{
  int seq[64], len = 0;
  char buf[256];
  snprintf (buf, sizeof buf, "%s", nodes);
  for (char *tok = strtok (buf, " "); tok; tok = strtok (NULL, " "))
    seq[len++] = pp_graph_find_node (g, tok);
  int *dag;
  char err[200];
  int k = pp_path_from_nodes (n, seq, len, &dag, err, sizeof err);
  if (k < 0)
    return -1;
  if (bl)
    *bl = pp_path_bl (n, dag, k);
  if (ppp)
    *ppp = pp_path_ppp (n, dag, k);
  free (dag);
  return 0;
}

static const char *fig34
    = "s a, s b, a c, a b, b c, c d, c t, d t";

/* ----------------------------------------------------- thesis examples */

static void
test_fig34_ball_larus (void)
{
  pp_graph *g = graph_from (fig34);
  char err[200];
  pp_numbering *n = pp_number (g, NULL, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (n);
  CU_ASSERT_EQUAL (n->num_paths, 6);
  const char *paths[] = { "s a c d t", "s a c t", "s a b c d t",
                          "s a b c t", "s b c d t", "s b c t" };
  for (int i = 0; i < 6; i++)
    {
      pp_pathid bl = 99;
      CU_ASSERT_EQUAL (path_ids (n, g, paths[i], &bl, NULL), 0);
      CU_ASSERT_EQUAL (bl, (pp_pathid) i);
    }
  pp_numbering_free (n);
  pp_graph_free (g);
}

static void
test_fig34_ppp (void)
{
  pp_graph *g = graph_from (fig34);
  char err[200];
  pp_numbering *n = pp_number (g, NULL, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (n);
  pp_pathid ids[3];
  path_ids (n, g, "s a c d t", &ids[0], NULL);
  path_ids (n, g, "s a c t", &ids[1], NULL);
  path_ids (n, g, "s b c t", &ids[2], NULL);
  CU_ASSERT_EQUAL (ids[0], 0);
  CU_ASSERT_EQUAL (ids[1], 1);
  CU_ASSERT_EQUAL (ids[2], 5);
  int64_t ppp[3];
  CU_ASSERT_EQUAL_FATAL (pp_ppp (n, ids, 3, ppp, err, sizeof err), 0);
  CU_ASSERT_EQUAL (ppp[0], 0);
  CU_ASSERT_EQUAL (ppp[1], 1);
  CU_ASSERT_EQUAL (ppp[2], 2);
  CU_ASSERT_EQUAL (n->ppp_min, 0);
  CU_ASSERT_EQUAL (n->ppp_max, 2);
  CU_ASSERT_DOUBLE_EQUAL (n->delta, 1.0, 1e-12);
  /* Fig 3.4(b): W(b,c) = -1, W(s,b) = 2, W(c,t) = 1, (a,b) undefined.  */
  int bc = -1, sb = -1, ct = -1, ab = -1;
  for (int d = 0; d < n->num_dag_edges; d++)
    {
      const char *src = pp_graph_node_name (g, n->dag[d].src);
      const char *dst = pp_graph_node_name (g, n->dag[d].dst);
      if (!strcmp (src, "b") && !strcmp (dst, "c")) bc = d;
      if (!strcmp (src, "s") && !strcmp (dst, "b")) sb = d;
      if (!strcmp (src, "c") && !strcmp (dst, "t")) ct = d;
      if (!strcmp (src, "a") && !strcmp (dst, "b")) ab = d;
    }
  CU_ASSERT_EQUAL (n->dag[bc].ppp, -1);
  CU_ASSERT_EQUAL (n->dag[sb].ppp, 2);
  CU_ASSERT_EQUAL (n->dag[ct].ppp, 1);
  CU_ASSERT_EQUAL (n->dag[ab].ppp_set, 0);
  /* The uninteresting paths alias: sabct with sacdt, sbcdt with sact.  */
  int64_t alias;
  path_ids (n, g, "s a b c t", NULL, &alias);
  CU_ASSERT_EQUAL (alias, 0);
  path_ids (n, g, "s b c d t", NULL, &alias);
  CU_ASSERT_EQUAL (alias, 1);
  pp_numbering_free (n);
  pp_graph_free (g);
}

static void
check_ppp_unique (const char *edges, const char **paths, int np,
                  double *delta)
{
  pp_graph *g = graph_from (edges);
  char err[200];
  pp_numbering *n = pp_number (g, NULL, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (n);
  pp_pathid ids[16];
  int64_t ppp[16];
  for (int i = 0; i < np; i++)
    CU_ASSERT_EQUAL (path_ids (n, g, paths[i], &ids[i], NULL), 0);
  CU_ASSERT_EQUAL_FATAL (pp_ppp (n, ids, np, ppp, err, sizeof err), 0);
  for (int i = 0; i < np; i++)
    {
      CU_ASSERT (ppp[i] >= n->ppp_min && ppp[i] <= n->ppp_max);
      for (int j = 0; j < i; j++)
        CU_ASSERT_NOT_EQUAL (ppp[i], ppp[j]);
    }
  *delta = n->delta;
  pp_numbering_free (n);
  pp_graph_free (g);
}

/* Lemma 3.3.1 (Fig 3.5): no separating assignment exists, but PPP still
   numbers the interesting paths uniquely.  */
static void
test_lemma_331 (void)
{
  const char *paths[] = { "s a c e t", "s b c d t" };
  double delta;
  check_ppp_unique ("s a, s b, a c, b c, c d, c e, d t, e t", paths, 2,
                    &delta);
  CU_ASSERT (delta >= 1.0);
}

/* Lemma 3.3.2 (Fig 3.6): no perfect assignment exists, so delta > 1.  */
static void
test_lemma_332 (void)
{
  const char *paths[] = { "s a d f t", "s a d g t", "s b d e t",
                          "s b d g t", "s c d e t", "s c d f t" };
  double delta;
  check_ppp_unique ("s a, s b, s c, a d, b d, c d, d e, d f, d g, e t, f t, "
                    "g t",
                    paths, 6, &delta);
  CU_ASSERT (delta > 1.0);
}

static void
test_bad_graphs (void)
{
  char err[200];
  pp_graph *g = pp_graph_new ();
  pp_graph_add_node (g, "x");
  CU_ASSERT_PTR_NULL (pp_number (g, NULL, err, sizeof err));
  CU_ASSERT (strstr (err, "no entry") != NULL);
  pp_graph_free (g);
  g = graph_from ("s a, a t, t a");
  CU_ASSERT_PTR_NULL (pp_number (g, NULL, err, sizeof err));
  CU_ASSERT (strstr (err, "exit node 't' has a successor") != NULL);
  pp_graph_free (g);
  /* Unreachable and dead-end nodes are handled, not crashed on.  */
  g = graph_from ("s a, a t, u a, s d");
  pp_numbering *n = pp_number (g, NULL, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (n);
  CU_ASSERT (n->node_flags[pp_graph_find_node (g, "u")] & PP_NODE_UNREACHED);
  CU_ASSERT (n->node_flags[pp_graph_find_node (g, "d")]
             & PP_NODE_END_IN_BLOCK);
  CU_ASSERT_EQUAL (n->num_paths, 2);
  pp_numbering_free (n);
  pp_graph_free (g);
}

/* A loop: the back edge becomes ENTRY->header and latch->EXIT (PLDI'97).  */
static void
test_loop_pseudo_edges (void)
{
  pp_graph *g = graph_from ("s h, h b, b h, h t");
  char err[200];
  pp_numbering *n = pp_number (g, NULL, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (n);
  /* Paths: s h t, s h b t(pseudo), s(pseudo) h t, s(pseudo) h b t.  */
  CU_ASSERT_EQUAL (n->num_paths, 4);
  int entries = 0, exits = 0;
  for (int d = 0; d < n->num_dag_edges; d++)
    {
      entries += n->dag[d].kind == PP_DAG_ENTRY;
      exits += n->dag[d].kind == PP_DAG_EXIT;
    }
  CU_ASSERT_EQUAL (entries, 1);
  CU_ASSERT_EQUAL (exits, 1);
  int back = pp_graph_find_edge (g, pp_graph_find_node (g, "b"),
                                 pp_graph_find_node (g, "h"));
  CU_ASSERT_EQUAL (n->cfg[back].role, PP_CFG_BREAK);
  CU_ASSERT (n->cfg[back].back);
  pp_numbering_free (n);
  pp_graph_free (g);
}

/* ------------------------------------------------- random graph checks */

static unsigned long long rng_state;

static unsigned
rnd (unsigned bound)
{
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (unsigned) ((rng_state >> 33) % bound);
}

/* Random graph: nodes 0 (entry) .. k-1 (exit).  Forward edges keep every
   node reachable and able to reach the exit; CYCLIC adds back edges,
   abnormal edges and noreturn sinks, and when 2 dispatch blocks.  */
static pp_graph *
random_graph (int k, int cyclic)
{
  pp_graph *g = pp_graph_new ();
  for (int i = 0; i < k; i++)
    pp_graph_add_node (g, NULL);
  pp_graph_set_entry (g, 0);
  pp_graph_set_exit (g, k - 1);
  char *has = calloc ((size_t) k * k, 1);
#define EDGE(a, b, f)                                                       \
  do                                                                        \
    if (!has[(a) * k + (b)])                                                \
      {                                                                     \
        has[(a) * k + (b)] = 1;                                             \
        pp_graph_add_edge (g, (a), (b), (f), -1);                           \
      }                                                                     \
  while (0)
  for (int i = 1; i < k; i++)
    EDGE ((int) rnd (i), i, 0);
  for (int i = 0; i < k - 1; i++)
    {
      int extra = rnd (3);
      for (int j = 0; j < extra; j++)
        EDGE (i, i + 1 + (int) rnd (k - 1 - i), 0);
      EDGE (i, i + 1 + (int) rnd (k - 1 - i), 0);
    }
  if (cyclic)
    {
      int backs = rnd (4);
      for (int j = 0; j < backs; j++)
        {
          int from = 1 + rnd (k - 2), to = 1 + rnd (from);
          EDGE (from, to, 0);
        }
      if (rnd (3) == 0)
        {
          int from = 1 + rnd (k - 2), to = 1 + rnd (k - 2);
          EDGE (from, to, PP_EDGE_ABNORMAL);
        }
      if (rnd (3) == 0)
        {
          int sink = pp_graph_add_node (g, NULL);
          pp_graph_add_edge (g, rnd (k - 1), sink, 0, -1);
        }
      if (cyclic > 1 && rnd (3) == 0)
        {
          /* A computed goto's dispatch block: entered from one node and
             from the ends of the "bytecodes" it jumps to abnormally.  */
          int d = pp_graph_add_node (g, NULL);
          pp_graph_add_edge (g, rnd (k - 1), d, 0, -1);
          int targets = 1 + rnd (3), returns = 1 + rnd (3);
          for (int j = 0; j < targets; j++)
            pp_graph_add_edge (g, d, 1 + rnd (k - 2), PP_EDGE_ABNORMAL, -1);
          for (int j = 0; j < returns; j++)
            pp_graph_add_edge (g, 1 + rnd (k - 2), d, 0, -1);
        }
    }
#undef EDGE
  free (has);
  return g;
}

/* Every DAG path by depth-first enumeration (independent of the numbering
   and of regeneration); returns how many, calling CHECK on each id.  */
static long
enumerate (const pp_numbering *n, int v, pp_pathid sum, char *seen,
           long limit, long count, int *bad)
{
  if (count > limit)
    return count;
  if (v == n->exit)
    {
      if (sum < n->num_paths && !seen[sum])
        seen[sum] = 1;
      else
        ++*bad; /* out of range, or a duplicate id */
      return count + 1;
    }
  for (const int *o = n->out[v]; *o >= 0; o++)
    count = enumerate (n, n->dag[*o].dst, sum + n->dag[*o].val, seen, limit,
                       count, bad);
  return count;
}

typedef struct
{
  pp_pathid bl[512], ppp[512];
  int n;
} counted;

static void
collect (void *ctx, pp_pathid bl, pp_pathid ppp)
{
  counted *c = ctx;
  if (c->n < 512)
    {
      c->bl[c->n] = bl;
      c->ppp[c->n] = ppp;
    }
  c->n++;
}

/* The oracle for a walk: cut it into DAG paths by the numbering's own
   description of each CFG edge, and take each path's id from its edges.  */
static void
expected_paths (const pp_numbering *n, const pp_graph *g, const int *walk,
                int len, counted *want)
{
  int cur[4096], clen = 0;
  want->n = 0;
#define EMIT()                                                              \
  do                                                                        \
    {                                                                       \
      CU_ASSERT_EQUAL (n->dag[cur[0]].src, n->entry);                       \
      CU_ASSERT_EQUAL (n->dag[cur[clen - 1]].dst, n->exit);                 \
      for (int q_ = 1; q_ < clen; q_++)                                     \
        CU_ASSERT_EQUAL (n->dag[cur[q_]].src, n->dag[cur[q_ - 1]].dst);     \
      pp_pathid id_ = pp_path_bl (n, cur, clen);                            \
      int *re_;                                                             \
      int rl_ = pp_regenerate (n, id_, &re_);                               \
      CU_ASSERT_EQUAL (rl_, clen);                                          \
      if (rl_ == clen)                                                      \
        CU_ASSERT (memcmp (re_, cur, clen * sizeof *cur) == 0);             \
      if (rl_ >= 0)                                                         \
        free (re_);                                                         \
      collect (want, id_, (pp_pathid) pp_path_ppp (n, cur, clen));          \
      clen = 0;                                                             \
    }                                                                       \
  while (0)
  int v = n->entry;
  for (int i = 0; i < len; i++)
    {
      int e = walk[i];
      const pp_cfg_edge_info *c = &n->cfg[e];
      if (n->node_flags[v] & PP_NODE_END_IN_BLOCK)
        {
          cur[clen++] = n->node_exit_edge[v];
          EMIT ();
        }
      if (c->role == PP_CFG_DAG)
        {
          cur[clen++] = c->dag_edge;
          if (n->dag[c->dag_edge].dst == n->exit)
            EMIT ();
        }
      else
        {
          if (!(n->node_flags[v] & PP_NODE_END_IN_BLOCK))
            {
              cur[clen++] = c->exit_edge;
              EMIT ();
            }
          if (c->entry_edge >= 0)
            cur[clen++] = c->entry_edge;
        }
      v = pp_graph_edge_dst (g, e);
    }
  if (n->node_flags[v] & PP_NODE_END_IN_BLOCK)
    {
      cur[clen++] = n->node_exit_edge[v];
      EMIT ();
    }
#undef EMIT
}

/* A random walk from the entry to the exit or a sink; -1 if too long.  */
static int
random_walk (const pp_graph *g, int *walk, int max)
{
  int v = pp_graph_entry (g), len = 0;
  int ne = pp_graph_num_edges (g);
  while (v != pp_graph_exit (g))
    {
      int outs[64], k = 0;
      for (int e = 0; e < ne && k < 64; e++)
        if (pp_graph_edge_src (g, e) == v)
          outs[k++] = e;
      if (k == 0)
        break;
      if (len == max)
        return -1;
      int e = outs[rnd (k)];
      walk[len++] = e;
      v = pp_graph_edge_dst (g, e);
    }
  return len;
}

/* Derivable dispatch blocks the random graphs had (test_random_cyclic
   asserts there were some), and loops whose counts were promoted.  */
static int derived_seen, loops_seen;

static int
by_id (const void *a, const void *b)
{
  pp_pathid x = *(const pp_pathid *) a, y = *(const pp_pathid *) b;
  return x < y ? -1 : x > y;
}

/* Leaves out of WANT the restart paths of DERIVED nodes, which no probe
   counts, after checking that readers derive each one's count from the
   other paths: the paths ending at a break into its node.  */
static void
drop_derived (const pp_numbering *n, const pp_graph *g, const char *derived,
              counted *want)
{
  uint64_t ones[512];
  for (int i = 0; i < want->n; i++)
    ones[i] = 1;
  for (int v = 0; v < n->num_nodes; v++)
    {
      if (!derived[v])
        continue;
      derived_seen++;
      pp_pathid id = pp_restart_path_id (n, v);
      uint64_t ran = 0, derived_count = 99;
      for (int i = 0; i < want->n; i++)
        ran += want->bl[i] == id;
      CU_ASSERT_EQUAL (pp_derive_restart_count (n, g, v, want->bl, ones,
                                                (size_t) want->n,
                                                &derived_count), 0);
      CU_ASSERT_EQUAL (derived_count, ran);
      int k = 0;
      for (int i = 0; i < want->n; i++)
        if (want->bl[i] != id)
          {
            want->bl[k] = want->bl[i];
            want->ppp[k++] = want->ppp[i];
          }
      want->n = k;
    }
}

/* Chord-only probes count the same ids as full edge weights, with path
   ends kept at their nodes (pass 0) and counted on the in-edges of
   nodes whose register value is unknown, dispatch blocks' restarts left
   to readers (pass 1).  */
static void
check_plan (pp_numbering *n, pp_graph *g, int early)
{
  char *count_early = NULL, *derived = NULL;
  if (early)
    {
      count_early = malloc (pp_graph_num_nodes (g));
      memset (count_early, 1, pp_graph_num_nodes (g));
      derived = calloc (pp_graph_num_nodes (g), 1);
    }
  pp_probe *probes;
  int loops = 0;
  int nprobes = pp_plan_loops (n, g, count_early, derived,
                               early ? INT_MAX : 0, &loops, &probes);
  loops_seen += loops;
  free (count_early);
  int chords = 0, real = 0;
  for (int d = 0; d < n->num_dag_edges; d++)
    {
      chords += n->dag[d].chord;
      real += n->dag[d].kind == PP_DAG_REAL;
      if (!n->dag[d].chord)
        CU_ASSERT_EQUAL (n->dag[d].inc, 0);
    }
  for (int i = 0; i < nprobes; i++)
    if (probes[i].where == PP_AT_EDGE)
      CU_ASSERT (!(pp_graph_edge_flags (g, probes[i].edge)
                   & PP_EDGE_ABNORMAL));
  for (int w = 0; w < 20; w++)
    {
      int walk[400];
      int len = random_walk (g, walk, 400);
      if (len < 0)
        continue;
      counted want, got = { .n = 0 };
      expected_paths (n, g, walk, len, &want);
      if (want.n > 512)
        continue;
      if (derived)
        drop_derived (n, g, derived, &want);
      pp_simulate (n, probes, nprobes, walk, len, collect, &got);
      CU_ASSERT_EQUAL_FATAL (got.n, want.n);
      if (loops && got.n <= 512)
        {
          /* A promoted loop's trips are counted when it is left.  */
          qsort (got.bl, got.n, sizeof *got.bl, by_id);
          qsort (want.bl, want.n, sizeof *want.bl, by_id);
        }
      int bad = 0;
      for (int i = 0; i < got.n && i < 512; i++)
        bad += got.bl[i] != want.bl[i] || got.bl[i] >= n->num_paths
               || (n->ppp_done && got.ppp[i] != want.ppp[i]);
      CU_ASSERT_EQUAL_FATAL (bad, 0);
    }
  free (probes);
  free (derived);
}

/* A block that only ends paths, joined by arms that would write the
   register (a function's return block): with COUNT_EARLY its count goes
   onto the arms, as constants where their values are known; a loop latch
   whose arms write nothing keeps its count.  */
static void
test_count_early (void)
{
  const char *graphs[] = { "s a, a b, a c, b r, c r, r t",
                           "s h, h b, h c, b l, c l, l h, h t" };
  for (int k = 0; k < 2; k++)
    {
      pp_graph *g = graph_from (graphs[k]);
      char err[200];
      pp_numbering *n = pp_number (g, NULL, err, sizeof err);
      CU_ASSERT_PTR_NOT_NULL_FATAL (n);
      int join = pp_graph_find_node (g, k ? "l" : "r");
      for (int early = 0; early < 2; early++)
        {
          char *count_early = calloc (pp_graph_num_nodes (g), 1);
          count_early[join] = early;
          pp_probe *probes;
          int np = pp_plan_early (n, g, count_early, &probes);
          int via_reg = 0, sets_into_join = 0, counts_on_arms = 0;
          for (int i = 0; i < np; i++)
            {
              via_reg += probes[i].count && probes[i].count_uses_reg;
              if (probes[i].where == PP_AT_EDGE
                  && pp_graph_edge_dst (g, probes[i].edge) == join)
                {
                  sets_into_join += probes[i].op[0] != PP_REG_NONE;
                  counts_on_arms += probes[i].count;
                }
            }
          /* The diamond: each arm sets the register, the return block
             counts through it; or each arm counts a constant.  The loop:
             its arms' increments are on the edges out of the header, so
             moving the latch's count would gain nothing.  */
          int moved = early && k == 0;
          CU_ASSERT_EQUAL (via_reg, k == 0 ? !moved : 2);
          CU_ASSERT_EQUAL (sets_into_join, k == 0 && !moved ? 2 : 0);
          CU_ASSERT_EQUAL (counts_on_arms, moved ? 2 : 0);
          free (probes);
          free (count_early);
        }
      check_plan (n, g, 1);
      pp_numbering_free (n);
      pp_graph_free (g);
    }
}

/* Single-path loops counted in a local counter: which loops qualify,
   and that the back edge then carries nothing but the trip count.  */
static void
test_promoted_loops (void)
{
  struct
  {
    const char *graph;
    int loops;
  } cases[] = {
    /* while loop */
    { "s h, h b, b h, h t", 1 },
    /* entered from two places, left from the header and the body */
    { "s a, s h, a h, h b, b c, c h, b t, h t", 1 },
    /* a branch in the body: two paths */
    { "s h, h b, h c, b l, c l, l h, h t", 0 },
    /* nested: the inner one only */
    { "s o, o i, i j, j i, i p, p o, o t", 1 },
    /* a self loop */
    { "s h, h h, h t", 1 },
    /* the body runs into a block that ends paths (a call there) */
    { "s h, h b, b h, h t", -1 },
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
    {
      pp_graph *g = graph_from (cases[k].graph);
      char err[200];
      pp_numbering *n = pp_number (g, NULL, err, sizeof err);
      CU_ASSERT_PTR_NOT_NULL_FATAL (n);
      int nn = pp_graph_num_nodes (g);
      char *count_early = malloc (nn);
      memset (count_early, 1, nn);
      if (cases[k].loops < 0)
        count_early[pp_graph_find_node (g, "b")] = 0;
      pp_probe *probes;
      int loops = -1;
      int np = pp_plan_loops (n, g, count_early, NULL, INT_MAX, &loops,
                              &probes);
      CU_ASSERT_EQUAL (loops, cases[k].loops < 0 ? 0 : cases[k].loops);
      /* Left two ways: not with one way out allowed.  */
      if (k == 1)
        {
          pp_probe *fewer;
          int none = -1;
          pp_plan_loops (n, g, count_early, NULL, 1, &none, &fewer);
          free (fewer);
          CU_ASSERT_EQUAL (none, 0);
        }
      int steps = 0;
      for (int i = 0; i < np; i++)
        if (probes[i].loop_step)
          {
            steps++;
            CU_ASSERT (!probes[i].count && probes[i].op[0] == PP_REG_NONE);
          }
      CU_ASSERT_EQUAL (steps, loops);
      free (probes);
      free (count_early);
      check_plan (n, g, 1);
      pp_numbering_free (n);
      pp_graph_free (g);
    }
}

static void
check_graph_rule (pp_graph *g, pp_pathid max_paths, int cut_rule,
                  int with_ppp)
{
  char err[200];
  pp_options opt = { max_paths, cut_rule };
  pp_numbering *n = pp_number (g, &opt, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (n);
  CU_ASSERT (n->num_paths >= 1);
  if (max_paths)
    CU_ASSERT (n->num_paths <= max_paths);

  /* BL ids are exactly 0..N-1.  */
  if (n->num_paths <= 20000)
    {
      char *seen = calloc (n->num_paths, 1);
      int bad = 0;
      long count = enumerate (n, n->entry, 0, seen, 20000, 0, &bad);
      CU_ASSERT_EQUAL ((pp_pathid) count, n->num_paths);
      CU_ASSERT_EQUAL (bad, 0);
      free (seen);
    }

  /* PPP over a random interesting subset.  */
  if (with_ppp && n->num_paths <= 20000)
    {
      int np = 1 + rnd (n->num_paths < 40 ? (unsigned) n->num_paths : 40);
      pp_pathid ids[40];
      int64_t ppp[40];
      for (int i = 0; i < np; i++)
        ids[i] = rnd ((unsigned) n->num_paths);
      CU_ASSERT_EQUAL_FATAL (pp_ppp (n, ids, np, ppp, err, sizeof err), 0);
      int bad = 0;
      for (int i = 0; i < np; i++)
        {
          bad += !(ppp[i] >= n->ppp_min && ppp[i] <= n->ppp_max);
          for (int j = 0; j < i; j++)
            bad += ids[i] != ids[j] && ppp[i] == ppp[j];
        }
      CU_ASSERT_EQUAL (bad, 0);
    }

  for (int early = 0; early < 2; early++)
    check_plan (n, g, early);
  pp_numbering_free (n);
}

static void
check_graph (pp_graph *g, pp_pathid max_paths, int with_ppp)
{
  check_graph_rule (g, max_paths, PP_CUT_SHARE, with_ppp);
}

static void
test_random_dags (void)
{
  rng_state = 12345;
  for (int i = 0; i < 2000; i++)
    {
      pp_graph *g = random_graph (3 + rnd (18), 0);
      check_graph (g, 0, i % 2);
      pp_graph_free (g);
    }
}

static void
test_random_cyclic (void)
{
  rng_state = 67890;
  derived_seen = 0;
  loops_seen = 0;
  for (int i = 0; i < 2000; i++)
    {
      pp_graph *g = random_graph (3 + rnd (18), 2);
      check_graph (g, 0, i % 2);
      pp_graph_free (g);
    }
  CU_ASSERT (derived_seen > 100);
  CU_ASSERT (loops_seen > 100);
  printf ("(%d derived restarts, %d promoted loops) ", derived_seen,
          loops_seen);
}

/* Small path limits force cuts: numbering stays exact and within range.  */
static void
test_random_cut (void)
{
  rng_state = 424242;
  for (int i = 0; i < 500; i++)
    {
      pp_graph *g = random_graph (10 + rnd (20), i % 2);
      pp_pathid max = 50 + rnd (200);
      check_graph (g, max, 1);
      check_graph_rule (g, max, PP_CUT_FITTED, 1);
      pp_graph_free (g);
    }
}

/* 70 diamonds in a row have 2^70 paths: cut, never wrapped.  */
static void
test_overflow_diamonds (void)
{
  pp_graph *g = pp_graph_new ();
  int prev = pp_graph_add_node (g, "s");
  pp_graph_set_entry (g, prev);
  for (int i = 0; i < 70; i++)
    {
      int a = pp_graph_add_node (g, NULL), b = pp_graph_add_node (g, NULL);
      int j = pp_graph_add_node (g, NULL);
      pp_graph_add_edge (g, prev, a, 0, -1);
      pp_graph_add_edge (g, prev, b, 0, -1);
      pp_graph_add_edge (g, a, j, 0, -1);
      pp_graph_add_edge (g, b, j, 0, -1);
      prev = j;
    }
  int t = pp_graph_add_node (g, "t");
  pp_graph_add_edge (g, prev, t, 0, -1);
  pp_graph_set_exit (g, t);
  char err[200];
  pp_numbering *n = pp_number (g, NULL, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (n);
  CU_ASSERT (n->num_cuts > 0);
  pp_numbering_free (n);
  rng_state = 99;
  check_graph (g, 0, 0);
  /* Under 2^18 the share rule keeps 2^18/213 = 1230 paths a node; cut
     back only to that, a fork is over it again two diamonds up, so nearly
     every diamond is cut (59 cuts).  The fitted rule cuts a node over its
     share down to an eighth of it, and stays within 2^18/16 paths: 12.  */
  pp_options share = { 1u << 18, PP_CUT_SHARE };
  pp_options fitted = { 1u << 18, PP_CUT_FITTED };
  pp_numbering *ns = pp_number (g, &share, err, sizeof err);
  pp_numbering *nf = pp_number (g, &fitted, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (ns);
  CU_ASSERT_PTR_NOT_NULL_FATAL (nf);
  CU_ASSERT_EQUAL (ns->num_cuts, 59);
  CU_ASSERT_EQUAL (nf->num_cuts, 12);
  CU_ASSERT (nf->num_paths <= (1u << 18) / PP_CUT_FITTED_PART);
  pp_numbering_free (ns);
  pp_numbering_free (nf);
  check_graph_rule (g, 1u << 18, PP_CUT_FITTED, 0);
  pp_graph_free (g);
}

/* Block and edge counts from path counts equal the counts of the walks
   that made the paths (every edge the profile determines; the block
   counts always).  */
static void
test_counts_from_paths (void)
{
  rng_state = 777;
  int graphs = 0, settled = 0, unsettled = 0;
  for (int t = 0; t < 500; t++)
    {
      pp_graph *g = random_graph (3 + rnd (12), 1);
      char err[200];
      pp_options opt = { 0 };
      pp_numbering *n = pp_number (g, &opt, err, sizeof err);
      CU_ASSERT_PTR_NOT_NULL_FATAL (n);
      int nn = pp_graph_num_nodes (g), ne = pp_graph_num_edges (g);
      uint64_t *node_want = calloc (nn, sizeof *node_want);
      uint64_t *edge_want = calloc (ne, sizeof *edge_want);
      pp_pathid ids[512];
      uint64_t counts[512];
      size_t npaths = 0;
      int ok = 1;
      for (int w = 0; w < 20 && ok; w++)
        {
          int walk[400];
          int len = random_walk (g, walk, 400);
          if (len < 0)
            continue;
          node_want[pp_graph_entry (g)]++;
          for (int i = 0; i < len; i++)
            {
              edge_want[walk[i]]++;
              node_want[pp_graph_edge_dst (g, walk[i])]++;
            }
          counted want;
          expected_paths (n, g, walk, len, &want);
          for (int i = 0; i < want.n && ok; i++)
            {
              size_t k = 0;
              while (k < npaths && ids[k] != want.bl[i])
                k++;
              if (k == npaths)
                {
                  if (npaths == 512 || i >= 512)
                    {
                      ok = 0;
                      break;
                    }
                  ids[npaths] = want.bl[i];
                  counts[npaths++] = 0;
                }
              counts[k]++;
            }
        }
      if (ok)
        {
          graphs++;
          uint64_t *node_got = calloc (nn, sizeof *node_got);
          uint64_t *edge_got = calloc (ne, sizeof *edge_got);
          char *known = calloc (ne ? ne : 1, 1);
          CU_ASSERT_EQUAL (pp_counts_from_paths (n, g, ids, counts, npaths,
                                                 node_got, edge_got, known),
                           0);
          /* The entry's and exit's counts are known when their edges'
             are.  */
          int ends_known = 1;
          for (int e = 0; e < ne; e++)
            if ((pp_graph_edge_src (g, e) == n->entry
                 || pp_graph_edge_dst (g, e) == n->exit) && !known[e])
              ends_known = 0;
          int bad = 0;
          for (int v = 0; v < nn; v++)
            if (!(n->node_flags[v] & PP_NODE_UNREACHED)
                && ((v != n->entry && v != n->exit) || ends_known))
              bad += node_got[v] != node_want[v];
          for (int e = 0; e < ne; e++)
            {
              if (known[e])
                {
                  settled++;
                  bad += edge_got[e] != edge_want[e];
                }
              else
                unsettled++;
            }
          CU_ASSERT_EQUAL (bad, 0);
          free (node_got);
          free (edge_got);
          free (known);
        }
      free (node_want);
      free (edge_want);
      pp_numbering_free (n);
      pp_graph_free (g);
    }
  CU_ASSERT (graphs > 400);
  /* Nearly every edge's count follows from the paths (4% do not here: a
     third of these graphs have abnormal edges, a third noreturn sinks).  */
  CU_ASSERT (unsettled * 20 < settled);
}

void
pp_add_core_tests (void)
{
  CU_pSuite s = CU_add_suite ("core", NULL, NULL);
  CU_add_test (s, "Fig 3.4 Ball-Larus ids", test_fig34_ball_larus);
  CU_add_test (s, "Fig 3.4 PPP ids and aliases", test_fig34_ppp);
  CU_add_test (s, "Lemma 3.3.1 counterexample", test_lemma_331);
  CU_add_test (s, "Lemma 3.3.2 counterexample", test_lemma_332);
  CU_add_test (s, "bad and partial graphs", test_bad_graphs);
  CU_add_test (s, "loop pseudo edges", test_loop_pseudo_edges);
  CU_add_test (s, "path ends counted on the edges into their block",
               test_count_early);
  CU_add_test (s, "single-path loops counted in a local counter",
               test_promoted_loops);
  CU_add_test (s, "2000 random DAGs", test_random_dags);
  CU_add_test (s, "2000 random cyclic CFGs", test_random_cyclic);
  CU_add_test (s, "500 random graphs with path limits", test_random_cut);
  CU_add_test (s, "2^70 paths are cut", test_overflow_diamonds);
  CU_add_test (s, "block and edge counts from path counts",
               test_counts_from_paths);
}
