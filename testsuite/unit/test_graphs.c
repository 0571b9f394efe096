/* Graphs for the unit tests, written as text.  */
#include "test_graphs.h"

#include <stdio.h>
#include <string.h>

int
test_node (pp_graph *g, const char *name)
{
  int v = pp_graph_find_node (g, name);
  return v >= 0 ? v : pp_graph_add_node (g, name);
}

pp_graph *
test_graph_from (const char *edges, const char *entry, const char *exit)
{
  pp_graph *g = pp_graph_new ();
  pp_graph_set_entry (g, test_node (g, entry));
  pp_graph_set_exit (g, test_node (g, exit));
  char buf[1024];
  snprintf (buf, sizeof buf, "%s", edges);
  for (char *tok = strtok (buf, ","); tok; tok = strtok (NULL, ","))
    {
      char a[64], b[64];
      if (sscanf (tok, " %63s %63s", a, b) == 2)
        pp_graph_add_edge (g, test_node (g, a), test_node (g, b), 0, -1);
    }
  return g;
}
