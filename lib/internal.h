/* Internals of the core library, shared between its files only.  */
#ifndef PP_INTERNAL_H
#define PP_INTERNAL_H

#include "pp/alloc.h"
#include "pp/core.h"

#include <stddef.h>

/* FNV-1a of a node name, for the name indexes.  */
unsigned pp_hash_name (const char *s);

/* Out-edges of every node in insertion order, compressed: the edges of node
   v are edges[start[v] .. start[v+1]-1].  Both arrays malloc'd.  */
int pp_graph_out_csr (const pp_graph *g, int **start, int **edges);

/* Ball-Larus weights (thesis Fig 3.1) over the DAG in N->dag / N->out,
   processing N->topo backwards: fills npaths (saturating at 2^64-1) and
   dag[].val.  */
void pp_bl_weights (pp_numbering *n);

/* Marks in CUT_EDGE (indexed by CFG edge) the edges to cut so that no node
   but ENTRY has more than PER_NODE paths.  Returns the number of cuts.  */
int pp_choose_cuts (pp_numbering *n, pp_pathid per_node, pp_pathid down_to,
                    char *cut_edge);

#endif
