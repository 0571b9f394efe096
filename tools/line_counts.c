/* A function's line counts from its path counts (line_counts.h).

   The block and edge counts follow exactly from the paths (lib/counts.c).
   Lines get them as gcov gives them (gcov.cc, accumulate_line_info): a
   block belongs to its last line, and a line's count is the number of
   times control entered its blocks from elsewhere plus the turns of loops
   that stay on the line (`for (...) x++;` on one line: its elementary
   cycles, each taking the smallest count on it, as gcov does).  A line
   that is no block's last line counts the blocks it starts.

   The compiler records each block's first and last line only
   (plugin/cfg-graph.cc), the smallest and largest of its statements'
   lines; the largest stands in for the last statement's.  Lines strictly
   inside a block that no block starts or ends at get that block's count
   (the innermost block's) when the source shows code there.  */
#include "line_counts.h"

#include "pp/ipp.h"
#include "pp/sat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The declaration's line: the nearest line at or above FIRST that names
   the function followed by '(' (at most 20 lines up: a return type,
   parameters and comments between).  0 when none.  */
static unsigned
find_decl (const pp_source *src, const char *name, unsigned first)
{
  size_t len = strlen (name);
  for (unsigned l = first; src && l >= 1 && l + 20 > first; l--)
    {
      if (l > src->num_lines)
        continue;
      const char *s = src->lines[l - 1];
      for (const char *p = strstr (s, name); p; p = strstr (p + 1, name))
        {
          const char *q = p + len;
          while (*q == ' ' || *q == '\t')
            q++;
          int starts = p == s || !(p[-1] == '_' || (p[-1] >= '0' && p[-1] <= '9')
                                   || ((p[-1] | 32) >= 'a' && (p[-1] | 32) <= 'z'));
          if (starts && (*q == '(' || *q == 0))
            return l;
        }
    }
  return 0;
}

/* The cycle search of one line's blocks.  */
typedef struct
{
  const pp_graph *g;
  const int *out_start, *out_list; /* node v's out-edges: out_list
                                      [out_start[v] .. out_start[v+1]) */
  const int *in_set;     /* per node: position in the set + 1, or 0 */
  uint64_t *cs;          /* per CFG edge: count not yet used by a cycle */
  int *stack;            /* edges of the current walk */
  char *on_stack;        /* per node */
  int depth, start;
  long budget;           /* steps left: the search is exponential */
  uint64_t total;
} cycles;

/* Elementary cycles through C->start over nodes later in the set than it
   (each found once).  */
static void
walk (cycles *c, int v)
{
  for (int i = c->out_start[v]; i < c->out_start[v + 1] && c->budget > 0;
       i++)
    {
      int e = c->out_list[i];
      c->budget--;
      int w = pp_graph_edge_dst (c->g, e);
      if (!c->in_set[w] || c->in_set[w] < c->in_set[c->start])
        continue;
      if (w == c->start)
        {
          uint64_t min = c->cs[e];
          for (int i = 0; i < c->depth; i++)
            if (c->cs[c->stack[i]] < min)
              min = c->cs[c->stack[i]];
          if (min)
            {
              c->total = pp_add_sat (c->total, min);
              c->cs[e] -= min;
              for (int i = 0; i < c->depth; i++)
                c->cs[c->stack[i]] -= min;
            }
          continue;
        }
      if (c->on_stack[w])
        continue;
      c->on_stack[w] = 1;
      c->stack[c->depth++] = e;
      walk (c, w);
      c->depth--;
      c->on_stack[w] = 0;
    }
}

/* The count of a line whose blocks are SET (N of them): entries from
   other blocks plus the loops among them.  */
static uint64_t
line_count (const pp_graph *g, const int *out_start, const int *out_list,
            const uint64_t *edge_count, const int *set, int n, int *in_set,
            uint64_t *cs, int *stack, char *on_stack)
{
  int ne = pp_graph_num_edges (g);
  for (int i = 0; i < n; i++)
    in_set[set[i]] = i + 1;
  uint64_t count = 0;
  for (int e = 0; e < ne; e++)
    {
      cs[e] = edge_count[e];
      if (in_set[pp_graph_edge_dst (g, e)] && !in_set[pp_graph_edge_src (g, e)])
        count = pp_add_sat (count, edge_count[e]);
    }
  cycles c = { g, out_start, out_list, in_set, cs, stack, on_stack, 0, 0,
               100000, 0 };
  for (int i = 0; i < n; i++)
    {
      c.start = set[i];
      on_stack[set[i]] = 1;
      walk (&c, set[i]);
      on_stack[set[i]] = 0;
    }
  for (int i = 0; i < n; i++)
    in_set[set[i]] = 0;
  return pp_add_sat (count, c.total);
}

/* Whether node V is code of FN's own (not of a callee copy in an
   interprocedural record, whose lines are in the callee's file).  */
static int
own_node (const pp_graph *g, int v)
{
  size_t len;
  return pp_ipp_node_function (pp_graph_node_name (g, v), &len) == NULL;
}

int
pp_line_counts_of (const pp_report_fn *fn, const pp_source *src,
                   pp_line_counts *lc)
{
  memset (lc, 0, sizeof *lc);
  const pp_graph *g = fn->spec->fns[0].graph;
  const pp_numbering *n = fn->numbering;
  int nn = pp_graph_num_nodes (g), ne = pp_graph_num_edges (g);
  size_t np = fn->num_paths_run;
  pp_pathid *ids = calloc (np ? np : 1, sizeof *ids);
  uint64_t *counts = calloc (np ? np : 1, sizeof *counts);
  lc->node_count = calloc (nn ? nn : 1, sizeof *lc->node_count);
  lc->num_nodes = nn;
  uint64_t *edge_count = calloc (ne ? ne : 1, sizeof *edge_count);
  char *known = calloc (ne ? ne : 1, 1);
  int rc = -1;
  if (!ids || !counts || !lc->node_count || !edge_count || !known)
    {
      fprintf (stderr, "ppprof: out of memory\n");
      goto out;
    }
  for (size_t k = 0; k < np; k++)
    {
      ids[k] = fn->paths[k].id;
      counts[k] = fn->paths[k].count;
    }
  if (pp_counts_from_paths (n, g, ids, counts, np, lc->node_count, edge_count,
                            known) < 0)
    {
      fprintf (stderr, "ppprof: %s: function '%s': a path id out of range\n",
               fn->profile, fn->name);
      goto out;
    }
  lc->calls = lc->node_count[pp_graph_entry (g)];
  for (int v = 0; v < nn; v++)
    {
      unsigned first, last;
      pp_graph_node_lines (g, v, &first, &last);
      if (!first || !own_node (g, v))
        continue;
      if (!lc->first || first < lc->first)
        lc->first = first;
      if (last > lc->last)
        lc->last = last;
    }
  rc = 0;
  if (!lc->first)
    goto out; /* no line known: nothing to show */
  lc->decl_line = find_decl (src, fn->name, lc->first);
  if (lc->decl_line && lc->decl_line < lc->first)
    lc->first = lc->decl_line;
  unsigned nl = lc->last - lc->first + 1;
  lc->count = calloc (nl, sizeof *lc->count);
  lc->has = calloc (nl, 1);
  lc->owner = malloc (nl * sizeof *lc->owner);
  int *set = calloc (nn, sizeof *set), *in_set = calloc (nn, sizeof *in_set);
  int *stack = calloc (nn + 1, sizeof *stack);
  char *on_stack = calloc (nn, 1);
  uint64_t *cs = calloc (ne ? ne : 1, sizeof *cs);
  int *out_start = calloc (nn + 1, sizeof *out_start);
  int *out_list = calloc (ne ? ne : 1, sizeof *out_list);
  if (out_start && out_list)
    {
      for (int e = 0; e < ne; e++)
        out_start[pp_graph_edge_src (g, e) + 1]++;
      for (int v = 0; v < nn; v++)
        out_start[v + 1] += out_start[v];
      int *fill = calloc (nn ? nn : 1, sizeof *fill);
      for (int e = 0; fill && e < ne; e++)
        {
          int v = pp_graph_edge_src (g, e);
          out_list[out_start[v] + fill[v]++] = e;
        }
      if (!fill)
        free (out_list), out_list = NULL;
      free (fill);
    }
  if (!lc->count || !lc->has || !lc->owner || !set || !in_set || !stack
      || !on_stack || !cs || !out_start || !out_list)
    {
      fprintf (stderr, "ppprof: out of memory\n");
      rc = -1;
    }
  for (unsigned i = 0; rc == 0 && i < nl; i++)
    {
      unsigned line = lc->first + i;
      int ns = 0, starts = 0, inner = -1;
      unsigned inner_span = 0;
      uint64_t started = 0;
      for (int v = 0; v < nn; v++)
        {
          unsigned first, last;
          pp_graph_node_lines (g, v, &first, &last);
          if (!first || !own_node (g, v))
            continue;
          if (last == line)
            set[ns++] = v;
          else if (first == line)
            {
              starts = 1;
              started = pp_add_sat (started, lc->node_count[v]);
            }
          else if (first < line && line < last
                   && (inner < 0 || last - first < inner_span))
            {
              inner = v;
              inner_span = last - first;
            }
        }
      lc->owner[i] = -1;
      if (ns)
        lc->count[i] = line_count (g, out_start, out_list, edge_count, set,
                                   ns, in_set, cs, stack, on_stack);
      else if (starts)
        lc->count[i] = started;
      else if (inner >= 0 && (!src || pp_source_line_has_code (src, line)))
        {
          lc->count[i] = lc->node_count[inner];
          lc->owner[i] = inner;
        }
      else
        continue;
      lc->has[i] = 1;
      if (ns || starts)
        lc->owner[i] = -2;
    }
  /* gcov counts the declaration's line as the function's entries.  */
  if (rc == 0 && lc->decl_line && !lc->has[lc->decl_line - lc->first])
    {
      lc->has[lc->decl_line - lc->first] = 1;
      lc->count[lc->decl_line - lc->first] = lc->calls;
    }
  free (set);
  free (in_set);
  free (stack);
  free (on_stack);
  free (cs);
  free (out_start);
  free (out_list);
out:
  free (ids);
  free (counts);
  if (rc == 0)
    lc->edge_count = edge_count;
  else
    free (edge_count);
  free (known);
  return rc;
}

int
pp_line_counts_path (const pp_report_fn *fn, const pp_line_counts *lc,
                     pp_pathid id, unsigned char *on)
{
  int *edges;
  int len = pp_regenerate (fn->numbering, id, &edges);
  if (len < 0)
    return -1;
  const pp_graph *g = fn->spec->fns[0].graph;
  unsigned nl = lc->first ? lc->last - lc->first + 1 : 0;
  memset (on, 0, nl);
  for (int k = 0; k < len; k++)
    {
      int v = fn->numbering->dag[edges[k]].dst;
      unsigned first, last;
      pp_graph_node_lines (g, v, &first, &last);
      if (!first || !own_node (g, v))
        continue;
      for (unsigned l = first; l <= last; l++)
        {
          unsigned i = l - lc->first;
          if (lc->has[i] && (l == first || l == last || lc->owner[i] == v))
            on[i] = 1;
        }
    }
  free (edges);
  return 0;
}

int
pp_line_counts_branches (const pp_report_fn *fn, const pp_line_counts *lc,
                         pp_branch **out)
{
  const pp_graph *g = fn->spec->fns[0].graph;
  int nn = pp_graph_num_nodes (g), ne = pp_graph_num_edges (g);
  *out = NULL;
  if (!lc->edge_count || !lc->node_count)
    return 0;
  int *normal_out = calloc (nn ? nn : 1, sizeof *normal_out);
  pp_branch *b = malloc ((ne ? ne : 1) * sizeof *b);
  if (!normal_out || !b)
    {
      free (normal_out);
      free (b);
      fprintf (stderr, "ppprof: out of memory\n");
      return -1;
    }
  for (int e = 0; e < ne; e++)
    if (!(pp_graph_edge_flags (g, e) & PP_EDGE_ABNORMAL))
      normal_out[pp_graph_edge_src (g, e)]++;
  int n = 0;
  for (int v = 0; v < nn; v++)
    {
      unsigned first, last;
      pp_graph_node_lines (g, v, &first, &last);
      if (normal_out[v] < 2 || !first || !own_node (g, v))
        continue;
      int rank = 0;
      for (int e = 0; e < ne; e++)
        if (pp_graph_edge_src (g, e) == v
            && !(pp_graph_edge_flags (g, e) & PP_EDGE_ABNORMAL))
          b[n++] = (pp_branch) { last, v, rank++, lc->node_count[v] > 0,
                                 lc->edge_count[e] };
    }
  free (normal_out);
  *out = b;
  return n;
}

void
pp_line_counts_free (pp_line_counts *lc)
{
  free (lc->count);
  free (lc->has);
  free (lc->owner);
  free (lc->node_count);
  free (lc->edge_count);
  memset (lc, 0, sizeof *lc);
}
