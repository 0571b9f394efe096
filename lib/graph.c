/* Control-flow graphs: nodes, edges in insertion order, entry, exit.  */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pp_graph
{
  int num_nodes, node_cap;
  char **names;
  unsigned *first_line, *last_line;
  unsigned *cond_line, *cond_col;   /* 0: no condition recorded */
  int num_edges, edge_cap;
  int *src, *dst;
  unsigned *flags;
  double *weight;
  int *branch;                      /* PP_BRANCH_* */
  char **case_text;                 /* PP_BRANCH_CASE: the labels, or NULL */
  int entry, exit;
  /* Name index: open addressing over node ids, -1 for empty slots.  */
  int *index;
  unsigned index_cap;
};

void *
pp_xrealloc (void *p, size_t n)
{
  void *q = realloc (p, n ? n : 1);
  if (!q)
    {
      fputs ("ppgcc: out of memory\n", stderr);
      abort ();
    }
  return q;
}

void *
pp_xcalloc (size_t n, size_t size)
{
  void *q = calloc (n ? n : 1, size ? size : 1);
  if (!q)
    {
      fputs ("ppgcc: out of memory\n", stderr);
      abort ();
    }
  return q;
}

unsigned
pp_hash_name (const char *s)
{
  unsigned h = 2166136261u; /* FNV-1a */
  for (; *s; s++)
    h = (h ^ (unsigned char) *s) * 16777619u;
  return h;
}

static void
index_insert (pp_graph *g, int node)
{
  unsigned mask = g->index_cap - 1;
  unsigned i = pp_hash_name (g->names[node]) & mask;
  while (g->index[i] >= 0)
    i = (i + 1) & mask;
  g->index[i] = node;
}

static void
index_grow (pp_graph *g)
{
  free (g->index);
  g->index_cap = g->index_cap ? g->index_cap * 2 : 64;
  g->index = pp_xrealloc (NULL, g->index_cap * sizeof *g->index);
  memset (g->index, -1, g->index_cap * sizeof *g->index);
  for (int n = 0; n < g->num_nodes; n++)
    index_insert (g, n);
}

pp_graph *
pp_graph_new (void)
{
  pp_graph *g = pp_xcalloc (1, sizeof *g);
  g->entry = g->exit = -1;
  return g;
}

void
pp_graph_free (pp_graph *g)
{
  if (!g)
    return;
  for (int n = 0; n < g->num_nodes; n++)
    free (g->names[n]);
  free (g->names);
  free (g->first_line);
  free (g->last_line);
  free (g->cond_line);
  free (g->cond_col);
  for (int e = 0; e < g->num_edges; e++)
    free (g->case_text[e]);
  free (g->case_text);
  free (g->branch);
  free (g->src);
  free (g->dst);
  free (g->flags);
  free (g->weight);
  free (g->index);
  free (g);
}

int
pp_graph_add_node (pp_graph *g, const char *name)
{
  if (g->num_nodes == g->node_cap)
    {
      g->node_cap = g->node_cap ? 2 * g->node_cap : 16;
      g->names = pp_xrealloc (g->names, g->node_cap * sizeof *g->names);
      g->first_line = pp_xrealloc (g->first_line,
                                   g->node_cap * sizeof *g->first_line);
      g->last_line = pp_xrealloc (g->last_line,
                                  g->node_cap * sizeof *g->last_line);
      g->cond_line = pp_xrealloc (g->cond_line,
                                  g->node_cap * sizeof *g->cond_line);
      g->cond_col = pp_xrealloc (g->cond_col,
                                 g->node_cap * sizeof *g->cond_col);
    }
  int n = g->num_nodes++;
  char buf[32];
  if (!name)
    {
      snprintf (buf, sizeof buf, "n%d", n);
      name = buf;
    }
  g->names[n] = pp_xrealloc (NULL, strlen (name) + 1);
  strcpy (g->names[n], name);
  g->first_line[n] = g->last_line[n] = 0;
  g->cond_line[n] = g->cond_col[n] = 0;
  if (2u * (unsigned) g->num_nodes > g->index_cap)
    index_grow (g);
  else
    index_insert (g, n);
  return n;
}

int
pp_graph_add_edge (pp_graph *g, int src, int dst, unsigned flags,
                   double weight)
{
  if (src < 0 || src >= g->num_nodes || dst < 0 || dst >= g->num_nodes)
    return -1;
  if (g->num_edges == g->edge_cap)
    {
      g->edge_cap = g->edge_cap ? 2 * g->edge_cap : 16;
      g->src = pp_xrealloc (g->src, g->edge_cap * sizeof *g->src);
      g->dst = pp_xrealloc (g->dst, g->edge_cap * sizeof *g->dst);
      g->flags = pp_xrealloc (g->flags, g->edge_cap * sizeof *g->flags);
      g->weight = pp_xrealloc (g->weight, g->edge_cap * sizeof *g->weight);
      g->branch = pp_xrealloc (g->branch, g->edge_cap * sizeof *g->branch);
      g->case_text = pp_xrealloc (g->case_text,
                                  g->edge_cap * sizeof *g->case_text);
    }
  int e = g->num_edges++;
  g->src[e] = src;
  g->dst[e] = dst;
  g->flags[e] = flags;
  g->weight[e] = weight;
  g->branch[e] = PP_BRANCH_NONE;
  g->case_text[e] = NULL;
  return e;
}

void
pp_graph_set_entry (pp_graph *g, int node)
{
  g->entry = node;
}

void
pp_graph_set_exit (pp_graph *g, int node)
{
  g->exit = node;
}

void
pp_graph_set_lines (pp_graph *g, int node, unsigned first, unsigned last)
{
  if (node >= 0 && node < g->num_nodes)
    {
      g->first_line[node] = first;
      g->last_line[node] = last;
    }
}

void
pp_graph_set_cond (pp_graph *g, int node, unsigned line, unsigned col)
{
  if (node >= 0 && node < g->num_nodes)
    {
      g->cond_line[node] = line;
      g->cond_col[node] = line ? col : 0;
    }
}

void
pp_graph_node_cond (const pp_graph *g, int node, unsigned *line,
                    unsigned *col)
{
  *line = g->cond_line[node];
  *col = g->cond_col[node];
}

void
pp_graph_set_edge_branch (pp_graph *g, int e, int kind, const char *text)
{
  if (e < 0 || e >= g->num_edges)
    return;
  free (g->case_text[e]);
  g->case_text[e] = NULL;
  g->branch[e] = kind;
  if (kind == PP_BRANCH_CASE && text && *text)
    {
      g->case_text[e] = pp_xrealloc (NULL, strlen (text) + 1);
      strcpy (g->case_text[e], text);
    }
}

int
pp_graph_edge_branch (const pp_graph *g, int e, const char **text)
{
  if (text)
    *text = g->case_text[e];
  return g->branch[e];
}

int pp_graph_num_nodes (const pp_graph *g) { return g->num_nodes; }
int pp_graph_num_edges (const pp_graph *g) { return g->num_edges; }
int pp_graph_entry (const pp_graph *g) { return g->entry; }
int pp_graph_exit (const pp_graph *g) { return g->exit; }
const char *pp_graph_node_name (const pp_graph *g, int n) { return g->names[n]; }
int pp_graph_edge_src (const pp_graph *g, int e) { return g->src[e]; }
int pp_graph_edge_dst (const pp_graph *g, int e) { return g->dst[e]; }
unsigned pp_graph_edge_flags (const pp_graph *g, int e) { return g->flags[e]; }
double pp_graph_edge_weight (const pp_graph *g, int e) { return g->weight[e]; }

void
pp_graph_set_edge_weight (pp_graph *g, int e, double weight)
{
  if (e >= 0 && e < g->num_edges)
    g->weight[e] = weight;
}

void
pp_graph_node_lines (const pp_graph *g, int node, unsigned *first,
                     unsigned *last)
{
  *first = g->first_line[node];
  *last = g->last_line[node];
}

int
pp_graph_find_node (const pp_graph *g, const char *name)
{
  if (!g->index_cap)
    return -1;
  unsigned mask = g->index_cap - 1;
  for (unsigned i = pp_hash_name (name) & mask; g->index[i] >= 0;
       i = (i + 1) & mask)
    if (strcmp (g->names[g->index[i]], name) == 0)
      return g->index[i];
  return -1;
}

int
pp_graph_find_edge (const pp_graph *g, int src, int dst)
{
  for (int e = 0; e < g->num_edges; e++)
    if (g->src[e] == src && g->dst[e] == dst)
      return e;
  return -1;
}

/* FNV-1a over the shape: what must match between the build that wrote a
   profile and the build that reads it.  Names and lines do not count.  */
uint32_t
pp_graph_checksum (const pp_graph *g)
{
  uint32_t h = 2166136261u;
#define MIX(x)                                                              \
  do                                                                        \
    {                                                                       \
      uint32_t v_ = (uint32_t) (x);                                         \
      for (int b_ = 0; b_ < 4; b_++, v_ >>= 8)                              \
        h = (h ^ (v_ & 0xffu)) * 16777619u;                                 \
    }                                                                       \
  while (0)
  MIX (g->num_nodes);
  MIX (g->num_edges);
  MIX (g->entry);
  MIX (g->exit);
  for (int e = 0; e < g->num_edges; e++)
    {
      MIX (g->src[e]);
      MIX (g->dst[e]);
      MIX (g->flags[e]);
    }
#undef MIX
  return h;
}

int
pp_graph_out_csr (const pp_graph *g, int **start, int **edges)
{
  int n = g->num_nodes;
  int *st = pp_xcalloc (n + 1, sizeof *st);
  int *ed = pp_xcalloc (g->num_edges, sizeof *ed);
  for (int e = 0; e < g->num_edges; e++)
    st[g->src[e] + 1]++;
  for (int v = 0; v < n; v++)
    st[v + 1] += st[v];
  int *fill = pp_xcalloc (n, sizeof *fill);
  for (int e = 0; e < g->num_edges; e++)
    ed[st[g->src[e]] + fill[g->src[e]]++] = e;
  free (fill);
  *start = st;
  *edges = ed;
  return 0;
}
