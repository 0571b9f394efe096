/* Ball-Larus edge weights: thesis Fig 3.1 (computeBLIncrements), and the
   choice of cuts that keeps path counts within 64 bits.

   Nodes are taken in reverse topological order; an out-edge's weight is the
   number of paths to EXIT through the out-edges before it, so the paths
   from a node get the ids 0 .. N_v-1 (Lemma 3.2.1).  */
#include "internal.h"
#include "pp/sat.h"

#include <stdlib.h>

void
pp_bl_weights (pp_numbering *n)
{
  for (int i = n->num_topo - 1; i >= 0; i--)
    {
      int v = n->topo[i];
      pp_pathid nv = v == n->exit ? 1 : 0;
      for (int *o = n->out[v]; *o >= 0; o++)
        {
          n->dag[*o].val = nv;
          nv = pp_add_sat (nv, n->npaths[n->dag[*o].dst]);
        }
      n->npaths[v] = nv;
    }
}

/* Path splitting, as the Ball-Larus paper suggests for functions with too
   many paths: going bottom-up, a node whose count would exceed PER_NODE
   gets its out-edges with the most paths cut (turned into breaks: the path
   ends at the node and restarts at the successor) until it has at most
   DOWN_TO (at most PER_NODE).  Cutting only down to PER_NODE leaves a node
   near the limit, so that its predecessor overflows again: a chain of
   if-else diamonds is then cut at nearly every diamond (59 cuts in 70
   diamonds under 2^18 paths, where 12 do).  A cut only
   changes the node being processed and ENTRY (a new pseudo entry edge),
   which comes last, so one pass decides every cut.  Returns their number.  */
int
pp_choose_cuts (pp_numbering *n, pp_pathid per_node, pp_pathid down_to,
                char *cut_edge)
{
  int cuts = 0;
  int *cand = NULL, ncand_cap = 0;
  for (int i = n->num_topo - 1; i >= 0; i--)
    {
      int v = n->topo[i];
      if (v == n->exit)
        {
          n->npaths[v] = 1;
          continue;
        }
      pp_pathid nv = 0;
      int ncand = 0, has_exit = n->node_exit_edge[v] >= 0;
      for (int *o = n->out[v]; *o >= 0; o++)
        {
          pp_dag_edge *d = &n->dag[*o];
          nv = pp_add_sat (nv, n->npaths[d->dst]);
          if (v != n->entry && d->kind == PP_DAG_REAL && d->dst != n->exit)
            {
              if (ncand == ncand_cap)
                cand = pp_xrealloc (cand, (ncand_cap = 2 * ncand_cap + 8)
                                              * sizeof *cand);
              cand[ncand++] = *o;
            }
        }
      pp_pathid goal = nv > per_node ? down_to : per_node;
      while (nv > goal && ncand > 0)
        {
          int best = 0;
          for (int k = 1; k < ncand; k++)
            if (n->npaths[n->dag[cand[k]].dst]
                > n->npaths[n->dag[cand[best]].dst])
              best = k;
          pp_dag_edge *d = &n->dag[cand[best]];
          cand[best] = cand[--ncand];
          if (nv != UINT64_MAX)
            nv -= n->npaths[d->dst];
          else
            {
              /* Saturated: recount what is left.  */
              nv = 0;
              for (int k = 0; k < ncand; k++)
                nv = pp_add_sat (nv, n->npaths[n->dag[cand[k]].dst]);
              for (int *o = n->out[v]; *o >= 0; o++)
                if (n->dag[*o].kind != PP_DAG_REAL || n->dag[*o].dst == n->exit)
                  nv = pp_add_sat (nv, 1);
            }
          if (!has_exit)
            {
              nv = pp_add_sat (nv, 1); /* the new pseudo exit */
              has_exit = 1;
            }
          cut_edge[d->cfg_edge] = 1;
          cuts++;
        }
      n->npaths[v] = nv;
    }
  free (cand);
  return cuts;
}
