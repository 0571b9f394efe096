/* Ball-Larus edge weights: thesis Fig 3.1 (computeBLIncrements).

   Nodes are taken in reverse topological order; an out-edge's weight is the
   number of paths to EXIT through the out-edges before it, so the paths
   from a node get the ids 0 .. N_v-1 (Lemma 3.2.1).  Counts never wrap:
   a node that would exceed its share is reported to the caller, which cuts
   a successor (paths are split there, as in the BL paper) and renumbers.  */
#include "internal.h"

int
pp_bl_weights (pp_numbering *n, pp_pathid per_node, pp_pathid limit,
               int *too_many)
{
  *too_many = 0;
  for (int i = n->num_topo - 1; i >= 0; i--)
    {
      int v = n->topo[i];
      if (v == n->exit)
        {
          n->npaths[v] = 1;
          continue;
        }
      pp_pathid nv = 0;
      int overflow = 0;
      for (int *o = n->out[v]; *o >= 0; o++)
        {
          pp_dag_edge *d = &n->dag[*o];
          d->val = nv;
          if (__builtin_add_overflow (nv, n->npaths[d->dst], &nv))
            {
              overflow = 1;
              nv = UINT64_MAX;
            }
        }
      n->npaths[v] = nv;
      pp_pathid cap = v == n->entry ? limit : per_node;
      if (!overflow && nv <= cap)
        continue;
      if (v == n->entry)
        {
          *too_many = 1;
          return -1;
        }
      /* Cut the real successor with the most paths.  */
      int victim = -1;
      for (int *o = n->out[v]; *o >= 0; o++)
        {
          pp_dag_edge *d = &n->dag[*o];
          if (d->kind == PP_DAG_REAL && d->dst != n->exit
              && (victim < 0 || n->npaths[d->dst] > n->npaths[victim]))
            victim = d->dst;
        }
      if (victim >= 0)
        return victim;
      /* Only pseudo or exit successors: nothing to cut here; ENTRY's own
         check decides.  */
      n->npaths[v] = overflow ? UINT64_MAX : nv;
    }
  return -1;
}
