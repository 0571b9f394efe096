/* Block and edge counts from a path profile.

   A Ball-Larus path profile determines the edge profile (thesis §2.3.1):
   every passage of a path through a block counts for the block, every DAG
   edge of a path for its CFG edge.  Edges that end and restart paths (back
   edges, edges into restart nodes) appear in no path as such; their counts
   follow from flow conservation, iterated to a fixpoint: a block's count is
   the sum of its in-edges' counts (every block but ENTRY), and the sum of
   its out-edges' counts (every block but EXIT and those whose paths end
   inside them: a noreturn call, an abnormal exit).  */
#include "internal.h"
#include "pp/sat.h"

#include <stdlib.h>
#include <string.h>

/* One pass of flow conservation.  For each node with exactly one unknown
   edge on a side where conservation holds, that edge gets the rest.
   Returns the number of edges it settled.  */
static int
settle (const pp_numbering *n, const uint64_t *node_count,
        uint64_t *edge_count, char *known, const int *start, const int *list,
        int out_side, int entry_known, int exit_known)
{
  int settled = 0;
  for (int v = 0; v < n->num_nodes; v++)
    {
      if (out_side ? (v == n->exit
                      || (n->node_flags[v] & PP_NODE_END_IN_BLOCK)
                      || (v == n->entry && !entry_known))
                   : (v == n->entry || (v == n->exit && !exit_known)))
        continue;
      int unknown = -1, nunknown = 0;
      uint64_t sum = 0;
      for (int i = start[v]; i < start[v + 1]; i++)
        {
          int e = list[i];
          if (known[e])
            sum = pp_add_sat (sum, edge_count[e]);
          else
            unknown = e, nunknown++;
        }
      if (nunknown != 1)
        continue;
      edge_count[unknown] = node_count[v] > sum ? node_count[v] - sum : 0;
      known[unknown] = 1;
      settled++;
    }
  return settled;
}

int
pp_counts_from_paths (const pp_numbering *n, const pp_graph *g,
                      const pp_pathid *ids, const uint64_t *counts,
                      size_t npaths, uint64_t *node_count,
                      uint64_t *edge_count, char *known)
{
  int nn = n->num_nodes, ne = n->num_cfg_edges;
  memset (node_count, 0, nn * sizeof *node_count);
  memset (edge_count, 0, ne * sizeof *edge_count);
  memset (known, 0, ne);
  for (int e = 0; e < ne; e++)
    if (n->cfg[e].role == PP_CFG_DAG)
      known[e] = 1; /* counted below, by the paths */
    else if (n->cfg[e].role == PP_CFG_UNREACHED)
      known[e] = 1; /* never runs: 0 */

  for (size_t k = 0; k < npaths; k++)
    {
      int *edges;
      int len = pp_regenerate (n, ids[k], &edges);
      if (len < 0)
        return -1;
      for (int i = 0; i < len; i++)
        {
          const pp_dag_edge *de = &n->dag[edges[i]];
          if (de->kind == PP_DAG_REAL)
            edge_count[de->cfg_edge] = pp_add_sat (edge_count[de->cfg_edge],
                                                counts[k]);
          if (i == 0 && de->kind == PP_DAG_REAL)
            node_count[de->src] = pp_add_sat (node_count[de->src], counts[k]);
          if (de->dst != n->exit)
            node_count[de->dst] = pp_add_sat (node_count[de->dst], counts[k]);
        }
      free (edges);
    }
  /* The entry's count is that of the paths leaving it by DAG edges: right
     unless an edge from it starts paths afresh (into a restart node), when
     a path from the entry cannot be told from a restart.  Then the entry's
     edges are settled at their targets, and its count is their sum.  */
  int entry_known = 1;
  for (int e = 0; e < ne; e++)
    if (pp_graph_edge_src (g, e) == n->entry && !known[e])
      entry_known = 0;
  /* EXIT, likewise, is known from its DAG in-edges unless an edge into it
     ends a path before it (an edge from a block whose paths end inside).  */
  int exit_known = 1;
  for (int e = 0; e < ne; e++)
    if (pp_graph_edge_dst (g, e) == n->exit && !known[e])
      exit_known = 0;

  /* In- and out-edge lists.  */
  int *in_start = pp_xcalloc (nn + 1, sizeof *in_start);
  int *out_start = pp_xcalloc (nn + 1, sizeof *out_start);
  int *in_list = pp_xcalloc (ne ? ne : 1, sizeof *in_list);
  int *out_list = pp_xcalloc (ne ? ne : 1, sizeof *out_list);
  for (int e = 0; e < ne; e++)
    {
      in_start[pp_graph_edge_dst (g, e) + 1]++;
      out_start[pp_graph_edge_src (g, e) + 1]++;
    }
  for (int v = 0; v < nn; v++)
    {
      in_start[v + 1] += in_start[v];
      out_start[v + 1] += out_start[v];
    }
  int *fill_in = pp_xcalloc (nn, sizeof *fill_in);
  int *fill_out = pp_xcalloc (nn, sizeof *fill_out);
  for (int e = 0; e < ne; e++)
    {
      int s = pp_graph_edge_src (g, e), d = pp_graph_edge_dst (g, e);
      in_list[in_start[d] + fill_in[d]++] = e;
      out_list[out_start[s] + fill_out[s]++] = e;
    }
  for (int i = in_start[n->exit]; i < in_start[n->exit + 1]; i++)
    if (known[in_list[i]])
      node_count[n->exit] = pp_add_sat (node_count[n->exit],
                                     edge_count[in_list[i]]);
  while (settle (n, node_count, edge_count, known, out_start, out_list, 1,
                 entry_known, exit_known)
         + settle (n, node_count, edge_count, known, in_start, in_list, 0,
                   entry_known, exit_known))
    ;
  if (!exit_known)
    {
      node_count[n->exit] = 0;
      for (int i = in_start[n->exit]; i < in_start[n->exit + 1]; i++)
        node_count[n->exit] = pp_add_sat (node_count[n->exit],
                                       edge_count[in_list[i]]);
    }
  if (!entry_known)
    {
      node_count[n->entry] = 0;
      for (int i = out_start[n->entry]; i < out_start[n->entry + 1]; i++)
        node_count[n->entry] = pp_add_sat (node_count[n->entry],
                                        edge_count[out_list[i]]);
    }
  free (in_start);
  free (out_start);
  free (in_list);
  free (out_list);
  free (fill_in);
  free (fill_out);
  return 0;
}

/* A derived restart's count (pp_restart_derivable): each path that ends
   at the exit pseudo edge of a break's source crossed a break into NODE,
   and NODE's restart path ran once after it.  */
int
pp_derive_restart_count (const pp_numbering *n, const pp_graph *g, int node,
                         const pp_pathid *ids, const uint64_t *counts,
                         size_t npaths, uint64_t *count)
{
  *count = 0;
  if (node < 0 || node >= n->num_nodes || !pp_restart_derivable (n, g, node))
    return -1;
  /* The exit pseudo edges of the breaks' sources.  */
  char *ends_here = pp_xcalloc (n->num_dag_edges ? n->num_dag_edges : 1, 1);
  for (int e = 0; e < n->num_cfg_edges; e++)
    if (n->cfg[e].role == PP_CFG_BREAK && pp_graph_edge_dst (g, e) == node)
      ends_here[n->cfg[e].exit_edge] = 1;
  int rc = 0;
  for (size_t k = 0; k < npaths && rc == 0; k++)
    {
      int *edges;
      int len = pp_regenerate (n, ids[k], &edges);
      if (len < 0)
        rc = -1;
      else
        {
          if (len > 0 && ends_here[edges[len - 1]])
            *count = pp_add_sat (*count, counts[k]);
          free (edges);
        }
    }
  free (ends_here);
  return rc;
}
