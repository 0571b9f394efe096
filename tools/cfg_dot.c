/* A function's CFG in Graphviz's language, each edge labelled with its
   exact count (derived from the path counts, loop back edges included)
   and as thick and red as its share of the hottest edge's: `ppprof dot`
   prints it, `ppprof html` has it drawn as SVG into each function's
   page.  */
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
  int nn = pp_graph_num_nodes (g), ne = pp_graph_num_edges (g);
  size_t np = fn->num_paths_run;
  /* Every CFG edge's exact count, back edges and edges into restart
     nodes included (they end and start paths, so no path holds them as
     such: flow conservation gives them, lib/counts.c).  */
  uint64_t *flow = calloc (ne + 1, sizeof *flow);
  uint64_t *node_count = calloc (nn + 1, sizeof *node_count);
  char *known = calloc (ne + 1, 1);
  pp_pathid *pids = calloc (np + 1, sizeof *pids);
  uint64_t *counts = calloc (np + 1, sizeof *counts);
  int rc = -1;
  if (!flow || !node_count || !known || !pids || !counts)
    {
      fprintf (stderr, "ppprof: out of memory\n");
      goto out;
    }
  for (size_t k = 0; k < np; k++)
    {
      pids[k] = fn->paths[k].id;
      counts[k] = fn->paths[k].count;
    }
  if (pp_counts_from_paths (n, g, pids, counts, np, node_count, flow, known)
      < 0)
    {
      fprintf (stderr, "ppprof: %s: function '%s': a path id out of range\n",
               fn->profile, fn->name);
      goto out;
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
  rc = 0;
out:
  free (flow);
  free (node_count);
  free (known);
  free (pids);
  free (counts);
  return rc;
}
