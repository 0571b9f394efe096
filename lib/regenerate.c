/* Paths as edge sequences: ids from edges, and edges back from an id
   (path regeneration, which every report needs).  */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>

pp_pathid
pp_path_bl (const pp_numbering *n, const int *dag_edges, int len)
{
  pp_pathid id = 0;
  for (int i = 0; i < len; i++)
    id += n->dag[dag_edges[i]].val;
  return id;
}

int64_t
pp_path_ppp (const pp_numbering *n, const int *dag_edges, int len)
{
  /* Unsigned sum, so that an uninteresting path's alias wraps like the
     instrumented register does instead of overflowing.  */
  uint64_t id = 0;
  for (int i = 0; i < len; i++)
    if (n->dag[dag_edges[i]].ppp_set)
      id += (uint64_t) n->dag[dag_edges[i]].ppp;
  return (int64_t) id;
}

/* At each node the out-edges' weights increase in list order (each is the
   sum of the path counts before it), so the edge taken is the last one whose
   weight does not exceed what is left of the id.  */
int
pp_regenerate (const pp_numbering *n, pp_pathid id, int **out)
{
  if (id >= n->num_paths)
    return -1;
  int cap = 16, len = 0;
  int *path = pp_xrealloc (NULL, cap * sizeof *path);
  int v = n->entry;
  pp_pathid rest = id;
  while (v != n->exit)
    {
      /* Binary search: ENTRY may have thousands of pseudo entry edges.  */
      const int *o = n->out[v];
      int lo = 0, hi = n->num_out[v];
      int take = -1;
      while (lo < hi)
        {
          int mid = lo + (hi - lo) / 2;
          if (n->dag[o[mid]].val <= rest)
            take = o[mid], lo = mid + 1;
          else
            hi = mid;
        }
      if (take < 0)
        {
          free (path);
          return -1;
        }
      if (len == cap)
        path = pp_xrealloc (path, (cap *= 2) * sizeof *path);
      path[len++] = take;
      rest -= n->dag[take].val;
      v = n->dag[take].dst;
    }
  if (rest != 0)
    {
      free (path);
      return -1;
    }
  *out = path;
  return len;
}

int
pp_path_from_nodes (const pp_numbering *n, const int *nodes, int len,
                    int **out, char *err, size_t errlen)
{
  if (len < 2 || nodes[0] != n->entry || nodes[len - 1] != n->exit)
    {
      snprintf (err, errlen, "a path must run from the entry to the exit");
      return -1;
    }
  int *path = pp_xcalloc (len - 1, sizeof *path);
  for (int i = 0; i + 1 < len; i++)
    {
      int found = -1;
      for (int *o = n->out[nodes[i]]; *o >= 0; o++)
        if (n->dag[*o].dst == nodes[i + 1]
            && (found < 0 || (n->dag[found].kind != PP_DAG_REAL
                              && n->dag[*o].kind == PP_DAG_REAL)))
          found = *o;
      if (found < 0)
        {
          snprintf (err, errlen, "no edge from node %d to node %d in the DAG",
                    nodes[i], nodes[i + 1]);
          free (path);
          return -1;
        }
      path[i] = found;
    }
  *out = path;
  return len - 1;
}
