/* From a CFG to the DAG that Ball-Larus numbering works on (PLDI'97 §2.2,
   thesis §3.2.2), and the numbering itself with overflow cuts.

   A path of the DAG runs from ENTRY to EXIT.  CFG edges that a path cannot
   cross are "breaks": the path ends at the source (pseudo edge v->EXIT) and a
   new one starts at the destination (pseudo edge ENTRY->w).  Breaks are
     - back edges found by a depth-first search (irreducible CFGs too: any
       DFS's retreating edges break every cycle);
     - every edge into a restart node, one with an abnormal in-edge (a setjmp
       receiver, a non-local label, an EH landing pad);
     - edges cut because the path count would overflow (ballarus.c);
     - every edge out of a node with an abnormal out-edge: such a node ends its
       paths inside the block, before the statement that may jump away.
   A node with no successor at all (a call to a noreturn function) ends its
   paths inside the block too, so a path ending in exit() is still counted.
   Pseudo edges are shared: one v->EXIT per node v, one ENTRY->w per node w.  */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Depth-first search from ENTRY: marks reached nodes and back edges.  */
static void
find_back_edges (const pp_graph *g, const int *start, const int *edges,
                 int entry, char *reached, char *back)
{
  int nn = pp_graph_num_nodes (g);
  char *color = pp_xcalloc (nn, 1); /* 0 white, 1 on the stack, 2 done */
  int *stack = pp_xcalloc (nn, sizeof *stack);
  int *next = pp_xcalloc (nn, sizeof *next);
  int sp = 0;
  stack[sp++] = entry;
  color[entry] = 1;
  reached[entry] = 1;
  while (sp)
    {
      int v = stack[sp - 1];
      if (start[v] + next[v] == start[v + 1])
        {
          color[v] = 2;
          sp--;
          continue;
        }
      int e = edges[start[v] + next[v]++];
      int w = pp_graph_edge_dst (g, e);
      if (color[w] == 1)
        back[e] = 1;
      else if (color[w] == 0)
        {
          color[w] = 1;
          reached[w] = 1;
          stack[sp++] = w;
        }
    }
  free (color);
  free (stack);
  free (next);
}

static int
add_dag_edge (pp_numbering *n, int *cap, int src, int dst, pp_dag_kind kind,
              int cfg_edge)
{
  if (n->num_dag_edges == *cap)
    {
      *cap = *cap ? 2 * *cap : 16;
      n->dag = pp_xrealloc (n->dag, *cap * sizeof *n->dag);
    }
  pp_dag_edge *d = &n->dag[n->num_dag_edges];
  memset (d, 0, sizeof *d);
  d->src = src;
  d->dst = dst;
  d->kind = kind;
  d->cfg_edge = cfg_edge;
  return n->num_dag_edges++;
}

static void
free_dag (pp_numbering *n)
{
  free (n->cfg);
  free (n->node_flags);
  free (n->npaths);
  free (n->node_exit_edge);
  free (n->node_entry_edge);
  free (n->dag);
  if (n->out)
    free (n->out[0]);
  free (n->out);
  free (n->topo);
  free (n->num_out);
  n->num_out = NULL;
  n->cfg = NULL;
  n->node_flags = NULL;
  n->npaths = NULL;
  n->node_exit_edge = n->node_entry_edge = NULL;
  n->dag = NULL;
  n->out = NULL;
  n->topo = NULL;
  n->num_dag_edges = n->num_topo = 0;
}

/* Builds the DAG for the given cut set.  Returns 0, or -1 if it is cyclic
   (cannot happen for a valid input; reported as an internal error).  */
static int
build_dag (pp_numbering *n, const pp_graph *g, const int *start,
           const int *edges, const char *reached, const char *back,
           const char *cut_edge)
{
  int nn = n->num_nodes, ne = n->num_cfg_edges;
  int s = n->entry, t = n->exit;
  n->cfg = pp_xcalloc (ne, sizeof *n->cfg);
  n->node_flags = pp_xcalloc (nn, sizeof *n->node_flags);
  n->npaths = pp_xcalloc (nn, sizeof *n->npaths);
  n->node_exit_edge = pp_xcalloc (nn, sizeof *n->node_exit_edge);
  n->node_entry_edge = pp_xcalloc (nn, sizeof *n->node_entry_edge);

  for (int v = 0; v < nn; v++)
    {
      n->node_exit_edge[v] = n->node_entry_edge[v] = -1;
      if (!reached[v])
        n->node_flags[v] |= PP_NODE_UNREACHED;
      else if (v != t && start[v] == start[v + 1])
        n->node_flags[v] |= PP_NODE_END_IN_BLOCK;
    }
  for (int e = 0; e < ne; e++)
    {
      int u = pp_graph_edge_src (g, e), w = pp_graph_edge_dst (g, e);
      if (reached[u] && (pp_graph_edge_flags (g, e) & PP_EDGE_ABNORMAL))
        {
          n->node_flags[u] |= PP_NODE_END_IN_BLOCK;
          n->node_flags[w] |= PP_NODE_RESTART_ABNORMAL;
        }
    }

  /* Roles, and which nodes need pseudo edges.  */
  char *needs_exit = pp_xcalloc (nn, 1), *needs_entry = pp_xcalloc (nn, 1);
  for (int e = 0; e < ne; e++)
    {
      int u = pp_graph_edge_src (g, e), w = pp_graph_edge_dst (g, e);
      pp_cfg_edge_info *c = &n->cfg[e];
      c->dag_edge = c->exit_edge = c->entry_edge = -1;
      c->back = back[e];
      if (!reached[u])
        c->role = PP_CFG_UNREACHED;
      else if (back[e] || cut_edge[e]
               || (n->node_flags[w] & PP_NODE_RESTART_ABNORMAL)
               || (n->node_flags[u] & PP_NODE_END_IN_BLOCK))
        {
          c->role = PP_CFG_BREAK;
          if (cut_edge[e])
            n->node_flags[w] |= PP_NODE_RESTART_CUT;
          needs_exit[u] = 1;
          if (w != t)
            needs_entry[w] = 1;
        }
      else
        c->role = PP_CFG_DAG;
    }
  for (int v = 0; v < nn; v++)
    if (n->node_flags[v] & PP_NODE_END_IN_BLOCK)
      needs_exit[v] = 1;

  /* DAG edges, grouped by source so that out-lists keep CFG order: real
     edges first, then (for ENTRY) pseudo entries by node, then the node's
     own pseudo exit.  */
  int cap = 0;
  for (int v = 0; v < nn; v++)
    {
      if (!reached[v])
        continue;
      for (int i = start[v]; i < start[v + 1]; i++)
        {
          int e = edges[i];
          if (n->cfg[e].role == PP_CFG_DAG)
            n->cfg[e].dag_edge = add_dag_edge (n, &cap, v,
                                               pp_graph_edge_dst (g, e),
                                               PP_DAG_REAL, e);
        }
      if (v == s)
        for (int w = 0; w < nn; w++)
          if (needs_entry[w])
            n->node_entry_edge[w] = add_dag_edge (n, &cap, s, w,
                                                  PP_DAG_ENTRY, -1);
      if (needs_exit[v])
        n->node_exit_edge[v] = add_dag_edge (n, &cap, v, t, PP_DAG_EXIT, -1);
    }
  for (int e = 0; e < ne; e++)
    if (n->cfg[e].role == PP_CFG_BREAK)
      {
        n->cfg[e].exit_edge = n->node_exit_edge[pp_graph_edge_src (g, e)];
        n->cfg[e].entry_edge = n->node_entry_edge[pp_graph_edge_dst (g, e)];
      }
  free (needs_exit);
  free (needs_entry);

  /* Out-lists, -1 terminated, in one block.  */
  int *deg = pp_xcalloc (nn, sizeof *deg);
  for (int d = 0; d < n->num_dag_edges; d++)
    deg[n->dag[d].src]++;
  n->out = pp_xcalloc (nn, sizeof *n->out);
  int *store = pp_xcalloc (n->num_dag_edges + nn, sizeof *store);
  for (int v = 0, pos = 0; v < nn; v++)
    {
      n->out[v] = store + pos;
      pos += deg[v] + 1;
      n->out[v][deg[v]] = -1;
      deg[v] = 0;
    }
  for (int d = 0; d < n->num_dag_edges; d++)
    {
      int v = n->dag[d].src;
      n->out[v][deg[v]++] = d;
    }
  n->num_out = pp_xcalloc (nn, sizeof *n->num_out);
  memcpy (n->num_out, deg, nn * sizeof *deg);

  /* Topological order (Kahn), ties by node index for determinism.  */
  int *indeg = deg;
  memset (indeg, 0, nn * sizeof *indeg);
  for (int d = 0; d < n->num_dag_edges; d++)
    indeg[n->dag[d].dst]++;
  int nreached = 0;
  for (int v = 0; v < nn; v++)
    nreached += reached[v] != 0;
  n->topo = pp_xcalloc (nreached, sizeof *n->topo);
  int head = 0, tail = 0;
  for (int v = 0; v < nn; v++)
    if (reached[v] && indeg[v] == 0)
      n->topo[tail++] = v;
  while (head < tail)
    {
      int v = n->topo[head++];
      for (int *o = n->out[v]; *o >= 0; o++)
        if (--indeg[n->dag[*o].dst] == 0)
          n->topo[tail++] = n->dag[*o].dst;
    }
  free (indeg);
  n->num_topo = tail;
  return tail == nreached ? 0 : -1;
}

/* What a node over PER_NODE is cut down to under PP_CUT_FITTED.  */
static pp_pathid
fitted_down_to (pp_pathid per_node)
{
  pp_pathid d = per_node / PP_CUT_DOWN;
  return d ? d : 1;
}

/* ENTRY's path count once cut at PER_NODE paths a node (CUT is left
   cleared), or UINT64_MAX when the DAG cannot be built.  */
static pp_pathid
paths_when_cut (pp_numbering *n, const pp_graph *g, const int *start,
                const int *edges, const char *reached, const char *back,
                char *cut, pp_pathid per_node)
{
  int ne = n->num_cfg_edges;
  pp_pathid total = UINT64_MAX;
  memset (cut, 0, ne ? ne : 1);
  if (build_dag (n, g, start, edges, reached, back, cut) == 0)
    {
      pp_choose_cuts (n, per_node, fitted_down_to (per_node), cut);
      free_dag (n);
      if (build_dag (n, g, start, edges, reached, back, cut) == 0)
        {
          pp_bl_weights (n);
          total = n->npaths[n->entry];
        }
    }
  free_dag (n);
  memset (cut, 0, ne ? ne : 1);
  return total;
}

/* The cut rule PP_CUT_FITTED (include/pp/core.h): the largest per-node
   share that keeps ENTRY within LIMIT, found by bisection from SAFE (LIMIT
   over the number of nodes, which always fits: every pseudo entry edge
   brings at most one node's share).  The safe share cuts far more than a
   limit needs: pcre2's match(), 3,000 blocks under 2^18 paths, was cut at
   87 paths a node, so most of its paths were a line or two long, each
   ending in a count and a restart.  Only shares whose totals
   were computed are chosen, so the result fits whether or not the total
   grows with the share.  */
static pp_pathid
fitted_per_node (pp_numbering *n, const pp_graph *g, const int *start,
                 const int *edges, const char *reached, const char *back,
                 char *cut, pp_pathid limit, pp_pathid safe)
{
  pp_pathid lo = safe, hi = limit; /* LO fits; shares above HI cannot */
  while (lo < hi)
    {
      pp_pathid mid = lo + (hi - lo + 1) / 2;
      if (paths_when_cut (n, g, start, edges, reached, back, cut, mid)
          <= limit)
        lo = mid;
      else
        hi = mid - 1;
    }
  return lo;
}

pp_numbering *
pp_number (const pp_graph *g, const pp_options *opt, char *err,
           size_t errlen)
{
  int nn = pp_graph_num_nodes (g), ne = pp_graph_num_edges (g);
  int s = pp_graph_entry (g), t = pp_graph_exit (g);
  if (s < 0 || t < 0)
    {
      snprintf (err, errlen, "the graph has no %s node",
                s < 0 ? "entry" : "exit");
      return NULL;
    }
  if (s == t)
    {
      snprintf (err, errlen, "entry and exit are the same node '%s'",
                pp_graph_node_name (g, s));
      return NULL;
    }
  for (int e = 0; e < ne; e++)
    {
      if (pp_graph_edge_src (g, e) == t)
        {
          snprintf (err, errlen, "the exit node '%s' has a successor '%s'",
                    pp_graph_node_name (g, t),
                    pp_graph_node_name (g, pp_graph_edge_dst (g, e)));
          return NULL;
        }
      if (pp_graph_edge_dst (g, e) == s)
        {
          snprintf (err, errlen,
                    "the entry node '%s' has a predecessor '%s'",
                    pp_graph_node_name (g, s),
                    pp_graph_node_name (g, pp_graph_edge_src (g, e)));
          return NULL;
        }
    }

  int *start, *edges;
  pp_graph_out_csr (g, &start, &edges);
  char *reached = pp_xcalloc (nn, 1), *back = pp_xcalloc (ne, 1);
  char *cut = pp_xcalloc (ne ? ne : 1, 1); /* cut CFG edges */
  find_back_edges (g, start, edges, s, reached, back);
  reached[t] = 1; /* pseudo exits need it even when no real edge gets there */

  pp_numbering *n = pp_xcalloc (1, sizeof *n);
  n->entry = s;
  n->exit = t;
  n->num_nodes = nn;
  n->num_cfg_edges = ne;

  pp_pathid limit = opt && opt->max_paths ? opt->max_paths : UINT64_MAX;
  int nreached = 0;
  for (int v = 0; v < nn; v++)
    nreached += reached[v] != 0;
  /* Every node but ENTRY keeps at most PER_NODE paths; ENTRY sums at most
     one such count per out-edge, so ENTRY stays within LIMIT too.  */
  pp_pathid per_node = limit / (pp_pathid) (nreached + 1);
  if (per_node < 1)
    per_node = 1;

  int fail = 0;
  pp_pathid down_to = per_node;
  if (opt && opt->max_paths && opt->cut_rule == PP_CUT_FITTED)
    {
      pp_pathid target = limit / PP_CUT_FITTED_PART;
      pp_pathid safe = target / (pp_pathid) (nreached + 1);
      per_node = fitted_per_node (n, g, start, edges, reached, back, cut,
                                  target, safe ? safe : 1);
      down_to = fitted_down_to (per_node);
    }
  if (build_dag (n, g, start, edges, reached, back, cut) < 0)
    fail = 1;
  else if ((n->num_cuts = pp_choose_cuts (n, per_node, down_to, cut)) > 0)
    {
      free_dag (n);
      fail = build_dag (n, g, start, edges, reached, back, cut) < 0;
    }
  if (fail)
    snprintf (err, errlen, "internal error: the DAG has a cycle");
  else
    {
      pp_bl_weights (n);
      if (n->npaths[s] > limit)
        {
          snprintf (err, errlen,
                    "more than %llu paths even after %d cuts",
                    (unsigned long long) limit, n->num_cuts);
          fail = 1;
        }
    }
  free (start);
  free (edges);
  free (reached);
  free (back);
  free (cut);
  if (fail)
    {
      pp_numbering_free (n);
      return NULL;
    }
  n->num_paths = n->npaths[s];
  return n;
}

void
pp_numbering_free (pp_numbering *n)
{
  if (!n)
    return;
  free_dag (n);
  free (n);
}
