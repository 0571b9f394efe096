/* Counter placement (thesis §3.6, "Counter optimizations", after Ball and
   Larus): increments only on chords of a maximum spanning tree, the
   initialisation pushed down and merged with the first increment, and the
   last increment folded into the counter update at each path end.

   Chords.  Add the edge EXIT->ENTRY and take a maximum spanning tree of the
   undirected DAG (Kruskal).  Give every node a potential phi with
   phi(ENTRY) = phi(EXIT) = 0 and phi(v) - phi(u) = val(u->v) on tree edges;
   then inc(e) = val(e) + phi(src) - phi(dst) is 0 on tree edges and the incs
   along any ENTRY..EXIT path add up to its id.  Edges that carry a probe
   anyway (pseudo edges: the path end and restart at a back edge; edges into
   EXIT: the counter update) are the cheapest chords, so they weigh least.
   Everything is modulo 2^64: an increment may be "negative".

   Push-down.  A dataflow pass finds the nodes where the register's value is
   the same constant on every path from ENTRY ("known").  The register is
   only written where a path enters an unknown node (materialised with a
   SET from a known node, an ADD between unknown ones), and a path end at a
   known node updates a constant counter index.

   Early counts.  A node that only ends paths and cannot be left midway
   has its count on its in-edges instead (pp_plan_early, end_moves_up).

   Derived restarts.  A path that restarts at a dispatch block and ends
   in it is counted by readers (pp_plan_derived, pp_restart_derivable).  */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* --------------------------------------------------------------- weights */

/* Static estimate without a profile: a node in loop depth k runs 8^k as
   often as the entry; an edge gets its source's share.  Loop depth counts
   the natural loops (of the DFS back edges) that contain the node.  */
static double *
static_node_freq (const pp_numbering *n, const pp_graph *g)
{
  int nn = n->num_nodes, ne = n->num_cfg_edges;
  int *depth = pp_xcalloc (nn, sizeof *depth);
  int *rstart = pp_xcalloc (nn + 1, sizeof *rstart);
  int *redges = pp_xcalloc (ne ? ne : 1, sizeof *redges);
  for (int e = 0; e < ne; e++)
    rstart[pp_graph_edge_dst (g, e) + 1]++;
  for (int v = 0; v < nn; v++)
    rstart[v + 1] += rstart[v];
  int *fill = pp_xcalloc (nn, sizeof *fill);
  for (int e = 0; e < ne; e++)
    {
      int w = pp_graph_edge_dst (g, e);
      redges[rstart[w] + fill[w]++] = e;
    }
  int *mark = pp_xcalloc (nn, sizeof *mark), stamp = 0;
  int *stack = pp_xcalloc (nn, sizeof *stack);
  for (int e = 0; e < ne; e++)
    {
      if (!n->cfg[e].back)
        continue;
      int header = pp_graph_edge_dst (g, e), latch = pp_graph_edge_src (g, e);
      stamp++;
      int sp = 0;
      mark[header] = stamp;
      depth[header]++;
      if (mark[latch] != stamp)
        {
          mark[latch] = stamp;
          depth[latch]++;
          stack[sp++] = latch;
        }
      while (sp)
        {
          int v = stack[--sp];
          for (int i = rstart[v]; i < rstart[v + 1]; i++)
            {
              int u = pp_graph_edge_src (g, redges[i]);
              if (mark[u] != stamp
                  && !(n->node_flags[u] & PP_NODE_UNREACHED))
                {
                  mark[u] = stamp;
                  depth[u]++;
                  stack[sp++] = u;
                }
            }
        }
    }
  double *freq = pp_xcalloc (nn, sizeof *freq);
  for (int v = 0; v < nn; v++)
    {
      freq[v] = 1;
      for (int k = 0; k < depth[v] && k < 20; k++)
        freq[v] *= 8;
    }
  free (depth);
  free (rstart);
  free (redges);
  free (fill);
  free (mark);
  free (stack);
  return freq;
}

static double *
dag_edge_weights (const pp_numbering *n, const pp_graph *g)
{
  int nd = n->num_dag_edges;
  double *w = pp_xcalloc (nd ? nd : 1, sizeof *w);
  int profiled = 0;
  for (int e = 0; e < n->num_cfg_edges; e++)
    if (pp_graph_edge_weight (g, e) >= 0)
      profiled = 1;
  double *freq = profiled ? NULL : static_node_freq (n, g);
  int *outdeg = pp_xcalloc (n->num_nodes, sizeof *outdeg);
  for (int d = 0; d < nd; d++)
    outdeg[n->dag[d].src]++;
  for (int d = 0; d < nd; d++)
    {
      const pp_dag_edge *de = &n->dag[d];
      if (de->kind != PP_DAG_REAL || de->dst == n->exit)
        w[d] = -1; /* carries a probe anyway: the cheapest chord */
      else if (profiled)
        w[d] = pp_graph_edge_weight (g, de->cfg_edge);
      else
        w[d] = freq[de->src] / outdeg[de->src];
    }
  free (freq);
  free (outdeg);
  return w;
}

/* ----------------------------------------------------- spanning tree */

static int
uf_find (int *parent, int x)
{
  while (parent[x] != x)
    x = parent[x] = parent[parent[x]];
  return x;
}

static const double *sort_weights;

static int
by_weight_desc (const void *a, const void *b)
{
  int x = *(const int *) a, y = *(const int *) b;
  if (sort_weights[x] != sort_weights[y])
    return sort_weights[x] > sort_weights[y] ? -1 : 1;
  return x - y;
}

/* Potentials along the tree: phi(dst) - phi(src) = weight on tree edges.  */
static void
potentials (const pp_numbering *n, const char *in_tree, int ppp,
            pp_pathid *phi)
{
  int nn = n->num_nodes, nd = n->num_dag_edges;
  /* Undirected tree adjacency.  */
  int *start = pp_xcalloc (nn + 1, sizeof *start);
  int *adj = pp_xcalloc (2 * nd + 2, sizeof *adj);
  for (int d = 0; d < nd; d++)
    if (in_tree[d])
      {
        start[n->dag[d].src + 1]++;
        start[n->dag[d].dst + 1]++;
      }
  for (int v = 0; v < nn; v++)
    start[v + 1] += start[v];
  int *fill = pp_xcalloc (nn, sizeof *fill);
  for (int d = 0; d < nd; d++)
    if (in_tree[d])
      {
        int u = n->dag[d].src, v = n->dag[d].dst;
        adj[start[u] + fill[u]++] = d;
        adj[start[v] + fill[v]++] = d;
      }
  char *seen = pp_xcalloc (nn, 1);
  int *queue = pp_xcalloc (nn, sizeof *queue);
  int head = 0, tail = 0;
  /* ENTRY and EXIT are joined by the extra tree edge of weight 0.  */
  phi[n->entry] = phi[n->exit] = 0;
  seen[n->entry] = seen[n->exit] = 1;
  queue[tail++] = n->entry;
  queue[tail++] = n->exit;
  while (head < tail)
    {
      int v = queue[head++];
      for (int i = start[v]; i < start[v + 1]; i++)
        {
          const pp_dag_edge *de = &n->dag[adj[i]];
          pp_pathid wt = ppp ? (de->ppp_set ? (pp_pathid) de->ppp : 0)
                             : de->val;
          int other = de->src == v ? de->dst : de->src;
          if (seen[other])
            continue;
          seen[other] = 1;
          phi[other] = de->src == v ? phi[v] + wt : phi[v] - wt;
          queue[tail++] = other;
        }
    }
  free (start);
  free (adj);
  free (fill);
  free (seen);
  free (queue);
}

void
pp_place_chords (pp_numbering *n, const pp_graph *g)
{
  int nn = n->num_nodes, nd = n->num_dag_edges;
  double *w = dag_edge_weights (n, g);
  int *order = pp_xcalloc (nd ? nd : 1, sizeof *order);
  for (int d = 0; d < nd; d++)
    order[d] = d;
  sort_weights = w;
  qsort (order, nd, sizeof *order, by_weight_desc);
  sort_weights = NULL;

  int *parent = pp_xcalloc (nn, sizeof *parent);
  for (int v = 0; v < nn; v++)
    parent[v] = v;
  parent[uf_find (parent, n->exit)] = uf_find (parent, n->entry);
  char *in_tree = pp_xcalloc (nd ? nd : 1, 1);
  for (int i = 0; i < nd; i++)
    {
      int d = order[i];
      int a = uf_find (parent, n->dag[d].src), b = uf_find (parent, n->dag[d].dst);
      if (a != b)
        {
          parent[a] = b;
          in_tree[d] = 1;
        }
    }

  pp_pathid *phi = pp_xcalloc (nn, sizeof *phi);
  potentials (n, in_tree, 0, phi);
  for (int d = 0; d < nd; d++)
    {
      pp_dag_edge *de = &n->dag[d];
      de->chord = !in_tree[d];
      de->inc = in_tree[d] ? 0 : de->val + phi[de->src] - phi[de->dst];
    }
  potentials (n, in_tree, 1, phi);
  for (int d = 0; d < nd; d++)
    {
      pp_dag_edge *de = &n->dag[d];
      pp_pathid p = de->ppp_set ? (pp_pathid) de->ppp : 0;
      de->ppp_inc = in_tree[d] ? 0 : p + phi[de->src] - phi[de->dst];
    }
  free (w);
  free (order);
  free (parent);
  free (in_tree);
  free (phi);
}

/* ------------------------------------------------------------ the plan */

/* Known register values: KNOWN[v] set when every DAG path from ENTRY gives
   the register the same value KVAL[v] at v.  */
static void
known_values (const pp_numbering *n, int ppp, char *known, pp_pathid *kval)
{
  int nn = n->num_nodes;
  char *any = pp_xcalloc (nn, 1);
  memset (known, 1, nn);
  known[n->entry] = 1;
  kval[n->entry] = 0;
  any[n->entry] = 1;
  for (int i = 0; i < n->num_topo; i++)
    {
      int u = n->topo[i];
      for (int *o = n->out[u]; *o >= 0; o++)
        {
          const pp_dag_edge *de = &n->dag[*o];
          int v = de->dst;
          pp_pathid inc = ppp ? de->ppp_inc : de->inc;
          if (!known[u])
            known[v] = 0;
          else if (!any[v])
            kval[v] = kval[u] + inc;
          else if (kval[v] != kval[u] + inc)
            known[v] = 0;
          any[v] = 1;
        }
    }
  free (any);
}

typedef struct
{
  const pp_numbering *n;
  char *known[2];
  pp_pathid *kval[2];
  int nregs;
} plan_state;

/* Counter index at a path end through DAG edge D from node U.  */
static void
end_index (const plan_state *ps, int d, pp_probe *p)
{
  const pp_dag_edge *de = &ps->n->dag[d];
  int u = de->src;
  p->count = 1;
  p->count_uses_reg = !ps->known[0][u];
  p->count_off = (p->count_uses_reg ? 0 : ps->kval[0][u]) + de->inc;
  if (ps->nregs > 1)
    {
      p->ppp_count_uses_reg = !ps->known[1][u];
      p->ppp_count_off = (p->ppp_count_uses_reg ? 0 : ps->kval[1][u])
                         + de->ppp_inc;
    }
}

/* Register update for taking DAG edge D (a real edge, or a pseudo entry
   when a path restarts).  */
static void
reg_update (const plan_state *ps, int d, pp_probe *p)
{
  const pp_dag_edge *de = &ps->n->dag[d];
  for (int r = 0; r < ps->nregs; r++)
    {
      pp_pathid inc = r ? de->ppp_inc : de->inc;
      if (ps->known[r][de->dst])
        p->op[r] = PP_REG_NONE;
      else if (ps->known[r][de->src])
        {
          p->op[r] = PP_REG_SET;
          p->val[r] = ps->kval[r][de->src] + inc;
        }
      else if (inc != 0)
        {
          p->op[r] = PP_REG_ADD;
          p->val[r] = inc;
        }
    }
}

static int
probe_does_something (const pp_probe *p)
{
  return p->count || p->op[0] != PP_REG_NONE || p->op[1] != PP_REG_NONE
         || p->loop_init || p->loop_step || p->loop_flush;
}

/* Counting a path end on the edges into its node.  A node U whose only
   DAG out-edge D ends the path, whose register value is not known and
   whose block always runs to its end once entered (COUNT_EARLY[U]: no
   call or asm that could leave it) ends every path through it at D.  The
   count then goes on each of U's in-edges, with the index known there:
   a constant where the source's value is known, instead of setting the
   register for U to count through.  At a function's one return block,
   joined by many returns, a path end cost `lea counts+K(%rip), %reg' in
   each predecessor and `addq $1, (%reg)' in the block; it becomes one
   `addq $1, counts+K(%rip)' (bzip2's mainGtU: 3.4 M of its 6.3 M
   instructions over -O2).  In a loop, where values are known only
   relative to the header's, the arms' increments fold into the count's
   displacement.  Only where some in-edge would set or add to the
   register: elsewhere it gains nothing.  Returns whether U qualifies,
   with D.  */
static int
end_moves_up (const plan_state *ps, const pp_graph *g,
              const char *count_early, const int *first_in, int u, int *d)
{
  const pp_numbering *n = ps->n;
  if (!count_early || !count_early[u] || u == n->entry || u == n->exit
      || (n->node_flags[u] & (PP_NODE_END_IN_BLOCK | PP_NODE_UNREACHED))
      || n->node_entry_edge[u] >= 0 || ps->known[0][u])
    return 0;
  if (n->out[u][0] < 0 || n->out[u][1] >= 0
      || n->dag[n->out[u][0]].dst != n->exit)
    return 0;
  *d = n->out[u][0];
  int gains = 0;
  for (int e = first_in[u]; e >= 0; e = first_in[n->num_nodes + e])
    {
      const pp_cfg_edge_info *c = &n->cfg[e];
      if (c->role == PP_CFG_UNREACHED)
        continue;
      if (c->role != PP_CFG_DAG
          || (pp_graph_edge_flags (g, e) & PP_EDGE_ABNORMAL))
        return 0;
      pp_probe set = { 0 };
      reg_update (ps, c->dag_edge, &set);
      gains |= set.op[0] != PP_REG_NONE || set.op[1] != PP_REG_NONE;
    }
  return gains;
}

/* The count of path end D on the in-edge E of its node.  */
static void
end_index_early (const plan_state *ps, int e, int d, pp_probe *p)
{
  const pp_dag_edge *ie = &ps->n->dag[ps->n->cfg[e].dag_edge];
  const pp_dag_edge *de = &ps->n->dag[d];
  int s = ie->src;
  p->count = 1;
  p->count_uses_reg = !ps->known[0][s];
  p->count_off = (p->count_uses_reg ? 0 : ps->kval[0][s]) + ie->inc + de->inc;
  if (ps->nregs > 1)
    {
      p->ppp_count_uses_reg = !ps->known[1][s];
      p->ppp_count_off = (p->ppp_count_uses_reg ? 0 : ps->kval[1][s])
                         + ie->ppp_inc + de->ppp_inc;
    }
}

/* Restart paths left to readers.  A computed goto's dispatch block (Lua's
   `goto *disptab[op]`) ends every path inside it, its out-edges being
   abnormal, and is entered by a back edge after each bytecode: each
   dispatch paid the bytecode's path end, a restart of the register and a
   count through it of the one-block path that restarts there.  That
   path runs once per break into the block, which the ids of the paths
   ending at those breaks say when their sources end paths in no other
   way; readers add it (pp_derive_restart_count), and the breaks only end
   their paths.  */
int
pp_restart_derivable (const pp_numbering *n, const pp_graph *g, int node)
{
  if (node == n->entry || node == n->exit || n->node_entry_edge[node] < 0
      || n->node_exit_edge[node] < 0
      || (n->node_flags[node] & (PP_NODE_RESTART_ABNORMAL | PP_NODE_UNREACHED))
      || !(n->node_flags[node] & PP_NODE_END_IN_BLOCK)
      || n->out[node][0] != n->node_exit_edge[node] || n->out[node][1] >= 0)
    return 0;
  int breaks = 0;
  for (int e = 0; e < n->num_cfg_edges; e++)
    {
      if (pp_graph_edge_dst (g, e) != node
          || n->cfg[e].role == PP_CFG_UNREACHED)
        continue;
      if (pp_graph_edge_flags (g, e) & PP_EDGE_ABNORMAL)
        return 0;
      if (n->cfg[e].role != PP_CFG_BREAK)
        continue;
      int u = pp_graph_edge_src (g, e);
      if (n->node_flags[u] & PP_NODE_END_IN_BLOCK)
        return 0;
      for (int f = 0; f < n->num_cfg_edges; f++)
        if (pp_graph_edge_src (g, f) == u && n->cfg[f].role == PP_CFG_BREAK
            && pp_graph_edge_dst (g, f) != node)
          return 0;
      breaks++;
    }
  return breaks > 0;
}

pp_pathid
pp_restart_path_id (const pp_numbering *n, int node)
{
  return n->dag[n->node_entry_edge[node]].val
         + n->dag[n->node_exit_edge[node]].val;
}

/* ------------------------------------------------------ promoted loops

   A loop whose body is a single path from its header H to its one back
   edge B (the latch's) runs, each time it is entered, a first trip whose
   path starts wherever the path entering H started, then trips that
   restart at H: the same path each time.  Counting those where they end
   costs each trip a count through the register and a restart of it.
   Instead a local counter c counts the trips round B (LLVM keeps its
   loops' edge counters in registers the same way, storing them at the
   loop's exits), and the register is left as H's first trip had it,
   since the body's increments are constants: OFF[u] from H to u.
   Leaving by an edge from u, when c is not zero, the first trip's path
   (the register's value at H plus the latch's end offset) counts once,
   the later trips' path (the restart value plus the same offset) c - 1
   times, and the register restarts; then it gets u's offset, and the
   edge's own probe runs as before.  No call or asm in the body (a callee
   could longjmp out of it or exit), nothing that ends or restarts paths
   inside it, and no other way in than through H.  */

typedef struct
{
  int *in_body;    /* [nn]: the loop's number when the node is in its body */
  pp_pathid *off;  /* [nn]: the register's increment from H */
  int *init, *step, *flush, *quiet; /* [edges]: the loop's number, or 0 */
  pp_pathid *exit_off;               /* [edges]: OFF of a flush's source */
  pp_probe *loops;                   /* [nloops]: each one's loop_* fields */
  int nloops;
  int max_exits;
} loop_plan;

static int
body_node_ok (const plan_state *ps, const char *count_early,
              const int *moved_end, const char *is_derived, int v)
{
  const pp_numbering *n = ps->n;
  return v != n->entry && v != n->exit && count_early[v]
         && !(n->node_flags[v]
              & (PP_NODE_RESTART_ABNORMAL | PP_NODE_RESTART_CUT
                 | PP_NODE_END_IN_BLOCK | PP_NODE_UNREACHED))
         && moved_end[v] < 0 && !is_derived[v];
}

/* Promotes the loop closed by back edge B when it qualifies; its number
   is LP->nloops + 1.  FIRST_IN / FIRST_OUT chain the in- and out-edges
   (plan's layout); MARK is scratch, all zero on entry and on return.  */
static void
promote_loop (const plan_state *ps, const pp_graph *g,
              const char *count_early, const int *first_in,
              const int *first_out, const int *moved_end,
              const char *is_derived, int b, char *mark, int *stack,
              loop_plan *lp)
{
  const pp_numbering *n = ps->n;
  int nn = n->num_nodes;
  const pp_cfg_edge_info *bc = &n->cfg[b];
  if (bc->role != PP_CFG_BREAK || !bc->back || bc->entry_edge < 0
      || bc->exit_edge < 0
      || (pp_graph_edge_flags (g, b) & PP_EDGE_ABNORMAL))
    return;
  int latch = pp_graph_edge_src (g, b), h = pp_graph_edge_dst (g, b);
  if (!body_node_ok (ps, count_early, moved_end, is_derived, h)
      || lp->in_body[h] || lp->in_body[latch])
    return;
  for (int e = first_in[h]; e >= 0; e = first_in[nn + e])
    if (e != b && (n->cfg[e].role == PP_CFG_BREAK
                   || (pp_graph_edge_flags (g, e) & PP_EDGE_ABNORMAL)))
      return;
  /* The body: what reaches the latch without passing H.  */
  int sp = 0, nbody = 1, ok = 1;
  mark[h] = 1;
  if (!mark[latch])
    {
      mark[latch] = 1;
      stack[sp++] = latch;
      nbody++;
    }
  while (sp > 0 && ok)
    {
      int v = stack[--sp];
      if (!body_node_ok (ps, count_early, moved_end, is_derived, v)
          || n->node_entry_edge[v] >= 0 || lp->in_body[v])
        {
          ok = 0;
          break;
        }
      for (int e = first_in[v]; e >= 0; e = first_in[nn + e])
        {
          if (n->cfg[e].role == PP_CFG_UNREACHED)
            continue;
          if (n->cfg[e].role != PP_CFG_DAG
              || (pp_graph_edge_flags (g, e) & PP_EDGE_ABNORMAL))
            {
              ok = 0;
              break;
            }
          int u = pp_graph_edge_src (g, e);
          if (!mark[u])
            {
              mark[u] = 1;
              stack[sp++] = u;
              nbody++;
            }
        }
    }
  /* One path through it: each node has one successor in the body, the
     latch none but H by B; every other way out is a DAG edge.  */
  int cur = h, walked = 1;
  pp_pathid off = 0;
  while (ok)
    {
      lp->off[cur] = off;
      int next = -1;
      for (int e = first_out[cur]; e >= 0 && ok; e = first_out[nn + e])
        {
          int w = pp_graph_edge_dst (g, e);
          if (e == b)
            continue;
          if (n->cfg[e].role != PP_CFG_DAG
              || (pp_graph_edge_flags (g, e) & PP_EDGE_ABNORMAL))
            ok = 0;
          else if (mark[w] && w != h && next < 0 && cur != latch)
            {
              next = w;
              off += n->dag[n->cfg[e].dag_edge].inc;
            }
          else if (mark[w])
            ok = 0;
        }
      if (!ok || cur == latch)
        break;
      if (next < 0 || walked >= nbody)
        ok = 0;
      else
        {
          cur = next;
          walked++;
        }
    }
  ok = ok && cur == latch && walked == nbody;
  if (ok)
    {
      int exits = 0;
      for (int v = 0; v < nn; v++)
        if (mark[v])
          for (int e = first_out[v]; e >= 0; e = first_out[nn + e])
            exits += e != b && !mark[pp_graph_edge_dst (g, e)];
      ok = exits <= lp->max_exits;
    }
  if (ok)
    {
      int id = ++lp->nloops;
      pp_probe *l = &lp->loops[id - 1];
      memset (l, 0, sizeof *l);
      pp_pathid end = lp->off[latch] + n->dag[bc->exit_edge].inc;
      pp_pathid restart = n->dag[bc->entry_edge].inc;
      l->loop_reg = !ps->known[0][h];
      l->loop_first_uses_reg = l->loop_reg;
      l->loop_first = (l->loop_reg ? 0 : ps->kval[0][h]) + end;
      l->loop_steady = restart + end;
      l->loop_restart = restart;
      for (int v = 0; v < nn; v++)
        if (mark[v])
          lp->in_body[v] = id;
      for (int e = first_in[h]; e >= 0; e = first_in[nn + e])
        if (e != b && n->cfg[e].role == PP_CFG_DAG)
          lp->init[e] = id;
      lp->step[b] = id;
      for (int v = 0; v < nn; v++)
        if (mark[v])
          for (int e = first_out[v]; e >= 0; e = first_out[nn + e])
            {
              if (e == b)
                continue;
              if (mark[pp_graph_edge_dst (g, e)])
                lp->quiet[e] = id;
              else
                {
                  lp->flush[e] = id;
                  lp->exit_off[e] = lp->off[v];
                }
            }
    }
  for (int v = 0; v < nn; v++)
    mark[v] = 0;
}

/* Fills LP for every loop that qualifies (none with the PPP register).  */
static void
plan_loops (const plan_state *ps, const pp_graph *g, const char *count_early,
            const int *first_in, const int *moved_end,
            const char *is_derived, int max_exits, loop_plan *lp)
{
  const pp_numbering *n = ps->n;
  int nn = n->num_nodes, ne = n->num_cfg_edges;
  lp->in_body = pp_xcalloc (nn, sizeof *lp->in_body);
  lp->off = pp_xcalloc (nn, sizeof *lp->off);
  int *edge_arrays = pp_xcalloc ((size_t) 4 * ne + 1, sizeof *edge_arrays);
  lp->init = edge_arrays;
  lp->step = edge_arrays + ne;
  lp->flush = edge_arrays + 2 * ne;
  lp->quiet = edge_arrays + 3 * ne;
  lp->exit_off = pp_xcalloc (ne + 1, sizeof *lp->exit_off);
  lp->loops = pp_xcalloc (ne + 1, sizeof *lp->loops);
  lp->nloops = 0;
  lp->max_exits = max_exits;
  if (!count_early || ps->nregs > 1 || max_exits <= 0)
    return;
  int *first_out = pp_xcalloc (nn + ne + 1, sizeof *first_out);
  for (int v = 0; v < nn; v++)
    first_out[v] = -1;
  for (int e = ne - 1; e >= 0; e--)
    {
      int u = pp_graph_edge_src (g, e);
      first_out[nn + e] = first_out[u];
      first_out[u] = e;
    }
  char *mark = pp_xcalloc (nn, 1);
  int *stack = pp_xcalloc (nn, sizeof *stack);
  for (int b = 0; b < ne; b++)
    promote_loop (ps, g, count_early, first_in, first_out, moved_end,
                  is_derived, b, mark, stack, lp);
  free (first_out);
  free (mark);
  free (stack);
}

static void
free_loop_plan (loop_plan *lp)
{
  free (lp->in_body);
  free (lp->off);
  free (lp->init);
  free (lp->exit_off);
  free (lp->loops);
}

int
pp_plan (pp_numbering *n, const pp_graph *g, pp_probe **out)
{
  return pp_plan_derived (n, g, NULL, NULL, out);
}

int
pp_plan_early (pp_numbering *n, const pp_graph *g, const char *count_early,
               pp_probe **out)
{
  return pp_plan_derived (n, g, count_early, NULL, out);
}

int
pp_plan_derived (pp_numbering *n, const pp_graph *g, const char *count_early,
                 char *derived, pp_probe **out)
{
  return pp_plan_loops (n, g, count_early, derived, 0, NULL, out);
}

int
pp_plan_loops (pp_numbering *n, const pp_graph *g, const char *count_early,
               char *derived, int max_exits, int *loops, pp_probe **out)
{
  pp_place_chords (n, g);
  plan_state ps = { n, { NULL, NULL }, { NULL, NULL }, n->ppp_done ? 2 : 1 };
  for (int r = 0; r < ps.nregs; r++)
    {
      ps.known[r] = pp_xcalloc (n->num_nodes, 1);
      ps.kval[r] = pp_xcalloc (n->num_nodes, sizeof (pp_pathid));
      known_values (n, r, ps.known[r], ps.kval[r]);
    }
  /* In-edges by destination: FIRST_IN[v], then FIRST_IN[num_nodes + e]
     the next after e (-1 ends).  */
  int nn = n->num_nodes;
  int *first_in = pp_xcalloc (nn + n->num_cfg_edges + 1, sizeof *first_in);
  for (int v = 0; v < nn; v++)
    first_in[v] = -1;
  for (int e = n->num_cfg_edges - 1; e >= 0; e--)
    {
      int w = pp_graph_edge_dst (g, e);
      first_in[nn + e] = first_in[w];
      first_in[w] = e;
    }
  /* MOVED_END[v]: the path end counted on v's in-edges, or -1.  */
  int *moved_end = pp_xcalloc (nn, sizeof *moved_end);
  for (int v = 0; v < nn; v++)
    if (!end_moves_up (&ps, g, count_early, first_in, v, &moved_end[v]))
      moved_end[v] = -1;
  /* IS_DERIVED[v]: v's restart path is the readers'; paths that reach it
     by DAG edges end on those edges, as moved ends do.  */
  char *is_derived = pp_xcalloc (nn, 1);
  for (int v = 0; derived && v < nn; v++)
    {
      is_derived[v] = count_early && count_early[v]
                      && pp_restart_derivable (n, g, v);
      derived[v] = is_derived[v];
    }
  loop_plan lp;
  plan_loops (&ps, g, count_early, first_in, moved_end, is_derived,
              max_exits, &lp);
  if (loops)
    *loops = lp.nloops;
  pp_probe *probes = pp_xcalloc (n->num_cfg_edges + n->num_nodes + 1,
                                 sizeof *probes);
  int np = 0;
  for (int v = 0; v < n->num_nodes; v++)
    if ((n->node_flags[v] & PP_NODE_END_IN_BLOCK)
        && !(n->node_flags[v] & PP_NODE_UNREACHED) && !is_derived[v])
      {
        pp_probe *p = &probes[np++];
        p->where = PP_AT_BLOCK_END;
        p->block = v;
        p->edge = -1;
        end_index (&ps, n->node_exit_edge[v], p);
      }
  for (int e = 0; e < n->num_cfg_edges; e++)
    {
      const pp_cfg_edge_info *c = &n->cfg[e];
      pp_probe *p = &probes[np];
      memset (p, 0, sizeof *p);
      p->where = PP_AT_EDGE;
      p->edge = e;
      p->block = -1;
      if (lp.quiet[e])
        continue;
      if (lp.step[e])
        {
          p->loop_step = lp.step[e];
          np++;
          continue;
        }
      if (c->role == PP_CFG_DAG)
        {
          const pp_dag_edge *de = &n->dag[c->dag_edge];
          if (de->dst == n->exit)
            {
              if (moved_end[de->src] < 0)
                end_index (&ps, c->dag_edge, p);
            }
          else if (moved_end[de->dst] >= 0)
            end_index_early (&ps, e, moved_end[de->dst], p);
          else if (is_derived[de->dst])
            end_index_early (&ps, e, n->node_exit_edge[de->dst], p);
          else
            reg_update (&ps, c->dag_edge, p);
        }
      else if (c->role == PP_CFG_BREAK)
        {
          int u = pp_graph_edge_src (g, e);
          if (!(n->node_flags[u] & PP_NODE_END_IN_BLOCK)
              && moved_end[u] < 0)
            end_index (&ps, c->exit_edge, p);
          if (c->entry_edge >= 0 && !is_derived[pp_graph_edge_dst (g, e)])
            reg_update (&ps, c->entry_edge, p);
        }
      if (lp.flush[e])
        {
          const pp_probe *l = &lp.loops[lp.flush[e] - 1];
          p->loop_flush = lp.flush[e];
          p->loop_first_uses_reg = l->loop_first_uses_reg;
          p->loop_reg = l->loop_reg;
          p->loop_first = l->loop_first;
          p->loop_steady = l->loop_steady;
          p->loop_restart = l->loop_restart;
          p->loop_off = lp.exit_off[e];
        }
      p->loop_init = lp.init[e];
      /* An abnormal edge cannot carry code; the DAG makes sure it needs
         none (its source ends paths in the block, its target is a restart
         node whose register value is known).  */
      if (probe_does_something (p)
          && !(pp_graph_edge_flags (g, e) & PP_EDGE_ABNORMAL))
        np++;
    }
  free (first_in);
  free (moved_end);
  free (is_derived);
  free_loop_plan (&lp);
  for (int r = 0; r < ps.nregs; r++)
    {
      free (ps.known[r]);
      free (ps.kval[r]);
    }
  *out = probes;
  return np;
}

/* ------------------------------------------------------------- simulate */

static void
run_probe (const pp_probe *p, pp_pathid reg[2], uint64_t *trips,
           pp_count_sink sink, void *ctx)
{
  if (p->loop_step)
    trips[p->loop_step]++;
  if (p->loop_flush)
    {
      uint64_t c = trips[p->loop_flush];
      if (c)
        {
          sink (ctx, (p->loop_first_uses_reg ? reg[0] : 0) + p->loop_first,
                0);
          for (uint64_t i = 1; i < c; i++)
            sink (ctx, p->loop_steady, 0);
          if (p->loop_reg)
            reg[0] = p->loop_restart;
        }
      if (p->loop_reg)
        reg[0] += p->loop_off;
      /* Garbage, as in a register no longer live.  */
      trips[p->loop_flush] = 0x7ea5ull;
    }
  if (p->count)
    sink (ctx, (p->count_uses_reg ? reg[0] : 0) + p->count_off,
          (p->ppp_count_uses_reg ? reg[1] : 0) + p->ppp_count_off);
  for (int r = 0; r < 2; r++)
    {
      if (p->op[r] == PP_REG_ADD)
        reg[r] += p->val[r];
      else if (p->op[r] == PP_REG_SET)
        reg[r] = p->val[r];
    }
  if (p->loop_init)
    trips[p->loop_init] = 0;
}

int
pp_simulate (const pp_numbering *n, const pp_probe *probes, int nprobes,
             const int *cfg_edges, int len, pp_count_sink sink, void *ctx)
{
  /* Garbage in the registers at entry: a plan that reads the register
     before writing it shows up as wrong ids.  */
  pp_pathid reg[2] = { 0x5eed5eed5eed5eedull, 0xbadc0ffee0ddf00dull };
  int *edge_probe = pp_xcalloc (n->num_cfg_edges ? n->num_cfg_edges : 1,
                                sizeof *edge_probe);
  int *block_probe = pp_xcalloc (n->num_nodes, sizeof *block_probe);
  int nloops = 0;
  for (int i = 0; i < nprobes; i++)
    {
      const pp_probe *p = &probes[i];
      int most = p->loop_init > p->loop_step ? p->loop_init : p->loop_step;
      most = most > p->loop_flush ? most : p->loop_flush;
      nloops = most > nloops ? most : nloops;
    }
  uint64_t *trips = pp_xcalloc (nloops + 1, sizeof *trips);
  for (int i = 0; i <= nloops; i++)
    trips[i] = 0x5eedull; /* garbage until a loop's entry zeroes it */
  for (int i = 0; i < nprobes; i++)
    {
      if (probes[i].where == PP_AT_EDGE)
        edge_probe[probes[i].edge] = i + 1;
      else
        block_probe[probes[i].block] = i + 1;
    }
  int last = n->entry;
  for (int i = 0; i < len; i++)
    {
      int e = cfg_edges[i];
      int u = last;
      if (block_probe[u])
        run_probe (&probes[block_probe[u] - 1], reg, trips, sink, ctx);
      if (edge_probe[e])
        run_probe (&probes[edge_probe[e] - 1], reg, trips, sink, ctx);
      last = -1;
      /* The caller gives edges; the destination is looked up by the
         caller's graph, which the numbering does not keep, so we track the
         node through the DAG information we have.  */
      const pp_cfg_edge_info *c = &n->cfg[e];
      if (c->role == PP_CFG_DAG)
        last = n->dag[c->dag_edge].dst;
      else if (c->role == PP_CFG_BREAK)
        last = c->entry_edge >= 0 ? n->dag[c->entry_edge].dst : n->exit;
      if (last < 0)
        break;
    }
  if (last >= 0 && block_probe[last])
    run_probe (&probes[block_probe[last] - 1], reg, trips, sink, ctx);
  free (edge_probe);
  free (block_probe);
  free (trips);
  return 0;
}
