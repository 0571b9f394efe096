/* Internals of the core library, shared between its files only.  */
#ifndef PP_INTERNAL_H
#define PP_INTERNAL_H

#include "pp/core.h"

#include <stddef.h>

void *pp_xrealloc (void *p, size_t n);
void *pp_xcalloc (size_t n, size_t size);

/* Out-edges of every node in insertion order, compressed: the edges of node
   v are edges[start[v] .. start[v+1]-1].  Both arrays malloc'd.  */
int pp_graph_out_csr (const pp_graph *g, int **start, int **edges);

/* Ball-Larus weights (thesis Fig 3.1) over the DAG in N->dag / N->out,
   processing N->topo backwards.  Fills npaths and dag[].val.  When a node
   other than ENTRY would get more than PER_NODE paths, returns the node to
   cut (the successor with the most paths); otherwise -1.  Sets *TOO_MANY
   when ENTRY itself exceeds LIMIT.  */
int pp_bl_weights (pp_numbering *n, pp_pathid per_node, pp_pathid limit,
                   int *too_many);

#endif
