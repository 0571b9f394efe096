/* Graphs for the unit tests, written as text.  */
#ifndef PP_TEST_GRAPHS_H
#define PP_TEST_GRAPHS_H

#include "pp/core.h"

/* The node NAME of G, added when new.  */
int test_node (pp_graph *g, const char *name);
/* A graph from "a b, b c, ..." (one edge per comma-separated pair, in
   order) with entry ENTRY and exit EXIT.  */
pp_graph *test_graph_from (const char *edges, const char *entry,
                           const char *exit);

#endif
