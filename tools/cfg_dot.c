/* A function's CFG in Graphviz's language, each edge as thick and red as
   the share of path executions that run over it: `ppprof dot` prints it,
   `ppprof html` has it drawn as SVG into each function's page.  */
#include "config.h"

#include "commands.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* S escaped for a DOT string (C++ names may hold '"').  */
static void
dot_escaped (FILE *out, const char *s)
{
  for (; *s; s++)
    {
      if (*s == '"' || *s == '\\')
        putc ('\\', out);
      putc (*s, out);
    }
}

static void
dot_string (FILE *out, const char *s)
{
  putc ('"', out);
  dot_escaped (out, s);
  putc ('"', out);
}

int
pp_cfg_dot (FILE *out, const pp_report_fn *fn, const char *ids)
{
  const pp_graph *g = fn->spec->fns[0].graph;
  const pp_numbering *n = fn->numbering;
  uint64_t *flow = calloc (pp_graph_num_edges (g) + 1, sizeof *flow);
  if (!flow)
    {
      fprintf (stderr, "ppprof: out of memory\n");
      return -1;
    }
  for (int k = 0; k < fn->num_paths_run; k++)
    {
      int *edges, len = pp_regenerate (n, fn->paths[k].id, &edges);
      for (int e = 0; e < len; e++)
        if (n->dag[edges[e]].kind == PP_DAG_REAL)
          flow[n->dag[edges[e]].cfg_edge] += fn->paths[k].count;
      if (len >= 0)
        free (edges);
    }
  fprintf (out, "digraph ");
  dot_string (out, fn->name);
  fprintf (out, " {\n  node [shape=box, fontname=monospace];\n");
  /* For the HTML pages: compact, beside the source.  */
  if (ids)
    fprintf (out, "  graph [ranksep=0.3, nodesep=0.25];\n  node [fontsize=10,"
             " height=0.3];\n  edge [fontsize=10, fontname=sans];\n");
  for (int v = 0; v < pp_graph_num_nodes (g); v++)
    {
      unsigned first, last;
      pp_graph_node_lines (g, v, &first, &last);
      const char *name = pp_graph_node_name (g, v);
      fprintf (out, "  ");
      dot_string (out, name);
      int attrs = 1;
      if (v == pp_graph_entry (g) || v == pp_graph_exit (g))
        fprintf (out, " [label=\"%s\", shape=oval",
                 v == pp_graph_entry (g) ? "ENTRY" : "EXIT");
      else if (first)
        {
          fprintf (out, " [label=\"");
          dot_escaped (out, name);
          fprintf (out, "\\nlines %u-%u\"", first, last);
        }
      else
        attrs = 0;
      if (ids)
        fprintf (out, "%sid=\"%sn%d\"", attrs ? ", " : " [", ids, v);
      fprintf (out, "%s;\n", attrs || ids ? "]" : "");
    }
  uint64_t max = 1;
  for (int e = 0; e < pp_graph_num_edges (g); e++)
    if (flow[e] > max)
      max = flow[e];
  for (int e = 0; e < pp_graph_num_edges (g); e++)
    {
      double share = (double) flow[e] / (double) max;
      fprintf (out, "  ");
      dot_string (out, pp_graph_node_name (g, pp_graph_edge_src (g, e)));
      fprintf (out, " -> ");
      dot_string (out, pp_graph_node_name (g, pp_graph_edge_dst (g, e)));
      fprintf (out, " [label=\"%" PRIu64 "\", penwidth=%.1f, color=\"%s\"%s",
               flow[e], 1.0 + 5.0 * share,
               share > 0.5 ? "red" : share > 0 ? "orange" : "gray",
               (pp_graph_edge_flags (g, e) & PP_EDGE_ABNORMAL)
                   ? ", style=dashed" : "");
      if (ids)
        fprintf (out, ", id=\"%se%d\"", ids, e);
      fprintf (out, "];\n");
    }
  fprintf (out, "}\n");
  free (flow);
  return 0;
}
