/* Supergraphs for interprocedural path segments (thesis §3.4.4 step 4,
   Fig 3.12): the caller's CFG with each chosen call's callee spliced in.
   See include/pp/ipp.h for the layout, which the plugin, the tools and
   the tests rely on.  */
#include "pp/alloc.h"
#include "pp/ipp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Per owner (the caller, then each site's callee copy): the supergraph
   node of each of its graph's nodes (part 0), the number of call points
   in it, and the node of its part 1 (the others follow).  */
typedef struct
{
  const pp_graph *g;
  const char *name;   /* callee name, NULL for the caller */
  int *part0, *points, *post;
} owner_map;

static const pp_graph *
owner_graph (const pp_graph *caller, const pp_ipp_site *sites, int o)
{
  return o < 0 ? caller : sites[o].callee;
}

/* A callee copy has no ENTRY or EXIT node of its own.  */
static int
copied_p (const owner_map *m, int owner, int v)
{
  return owner < 0
         || (v != pp_graph_entry (m->g) && v != pp_graph_exit (m->g));
}

static int
add_part (pp_graph *sg, pp_ipp_supergraph *s, int *cap, const owner_map *m,
          int owner, int v, int part, int site_index)
{
  char buf[512];
  const char *name = pp_graph_node_name (m->g, v);
  if (owner < 0 && part == 0)
    snprintf (buf, sizeof buf, "%s", name);
  else if (owner < 0)
    snprintf (buf, sizeof buf, "%s.%d", name, part);
  else if (part == 0)
    snprintf (buf, sizeof buf, "%s:%d:%s", m->name, site_index, name);
  else
    snprintf (buf, sizeof buf, "%s:%d:%s.%d", m->name, site_index, name, part);
  int id = pp_graph_add_node (sg, buf);
  unsigned first, last;
  pp_graph_node_lines (m->g, v, &first, &last);
  if (first)
    pp_graph_set_lines (sg, id, first, last);
  /* the condition ends the block: its last part */
  pp_graph_node_cond (m->g, v, &first, &last);
  if (first && part == m->points[v])
    pp_graph_set_cond (sg, id, first, last);
  if (id >= *cap)
    {
      *cap = 2 * id + 16;
      s->nodes = pp_xrealloc (s->nodes, *cap * sizeof *s->nodes);
    }
  s->nodes[id] = (pp_ipp_node) { owner, v, part };
  return id;
}

static int
add_edge (pp_ipp_supergraph *s, int *cap, int src, int dst, unsigned flags,
          pp_ipp_edge info)
{
  int id = pp_graph_add_edge (s->graph, src, dst, flags, -1.0);
  if (id >= *cap)
    {
      *cap = 2 * id + 16;
      s->edges = pp_xrealloc (s->edges, *cap * sizeof *s->edges);
    }
  s->edges[id] = info;
  return id;
}

/* Edge E of G copied as supergraph edge ID: which way it goes.  */
static void
copy_branch (pp_graph *sg, int id, const pp_graph *g, int e)
{
  const char *text;
  int kind = pp_graph_edge_branch (g, e, &text);
  if (kind != PP_BRANCH_NONE)
    pp_graph_set_edge_branch (sg, id, kind, text);
}

static int
part_node (const owner_map *m, int v, int part)
{
  return part == 0 ? m->part0[v] : m->post[v] + part - 1;
}

pp_ipp_supergraph *
pp_ipp_build (const pp_graph *caller, const pp_ipp_site *sites, int nsites,
              char *err, size_t errlen)
{
  if (pp_graph_entry (caller) < 0 || pp_graph_exit (caller) < 0)
    {
      snprintf (err, errlen, "caller graph has no entry or exit");
      return NULL;
    }
  int nowners = nsites + 1;
  owner_map *maps = pp_xcalloc (nowners, sizeof *maps);
  owner_map *m = maps + 1; /* m[-1] is the caller */
  pp_ipp_supergraph *s = NULL;
  for (int o = -1; o < nsites; o++)
    {
      const pp_graph *g = owner_graph (caller, sites, o);
      if (!g || pp_graph_entry (g) < 0 || pp_graph_exit (g) < 0)
        {
          snprintf (err, errlen, "site %d: callee graph has no entry or exit",
                    o);
          goto fail;
        }
      int n = pp_graph_num_nodes (g);
      m[o].g = g;
      m[o].name = o < 0 ? NULL : sites[o].callee_name;
      m[o].part0 = pp_xcalloc (n, sizeof (int));
      m[o].points = pp_xcalloc (n, sizeof (int));
      m[o].post = pp_xcalloc (n, sizeof (int));
    }
  /* Call points per block: 0..k-1, each present.  */
  for (int i = 0; i < nsites; i++)
    {
      const pp_ipp_site *st = &sites[i];
      if (st->parent < -1 || st->parent >= i || !st->callee_name
          || strchr (st->callee_name, ':'))
        {
          snprintf (err, errlen, "site %d: bad parent or callee name", i);
          goto fail;
        }
      owner_map *p = &m[st->parent];
      if (st->node < 0 || st->node >= pp_graph_num_nodes (p->g)
          || !copied_p (p, st->parent, st->node) || st->point < 0
          || st->node == pp_graph_entry (p->g)
          || st->node == pp_graph_exit (p->g))
        {
          snprintf (err, errlen, "site %d: no such call block", i);
          goto fail;
        }
      if (st->point + 1 > p->points[st->node])
        p->points[st->node] = st->point + 1;
    }
  for (int o = -1; o < nsites; o++)
    for (int v = 0; v < pp_graph_num_nodes (m[o].g); v++)
      for (int j = 0; j < m[o].points[v]; j++)
        {
          int found = 0;
          for (int i = 0; i < nsites && !found; i++)
            found = sites[i].parent == o && sites[i].node == v
                    && sites[i].point == j;
          if (!found)
            {
              snprintf (err, errlen, "call points of node %d not 0..%d", v,
                        m[o].points[v] - 1);
              goto fail;
            }
        }

  s = pp_xcalloc (1, sizeof *s);
  s->graph = pp_graph_new ();
  int ncap = 0, ecap = 0;
  for (int o = -1; o < nsites; o++)
    {
      int n = pp_graph_num_nodes (m[o].g);
      for (int v = 0; v < n; v++)
        if (copied_p (&m[o], o, v))
          m[o].part0[v] = add_part (s->graph, s, &ncap, &m[o], o, v, 0, o);
      for (int v = 0; v < n; v++)
        for (int j = 1; j <= m[o].points[v]; j++)
          {
            int id = add_part (s->graph, s, &ncap, &m[o], o, v, j, o);
            if (j == 1)
              m[o].post[v] = id;
          }
    }
  pp_graph_set_entry (s->graph, m[-1].part0[pp_graph_entry (caller)]);
  pp_graph_set_exit (s->graph, m[-1].part0[pp_graph_exit (caller)]);
  s->num_sites = nsites;
  s->site_entry = pp_xcalloc (nsites, sizeof (int));
  s->site_return = pp_xcalloc (nsites, sizeof (int));
  for (int i = 0; i < nsites; i++)
    {
      owner_map *p = &m[sites[i].parent];
      s->site_entry[i] = part_node (p, sites[i].node, sites[i].point);
      s->site_return[i] = part_node (p, sites[i].node, sites[i].point + 1);
    }

  for (int o = -1; o < nsites; o++)
    {
      const pp_graph *g = m[o].g;
      int ne = pp_graph_num_edges (g);
      for (int v = 0; v < pp_graph_num_nodes (g); v++)
        {
          if (!copied_p (&m[o], o, v))
            continue;
          int k = m[o].points[v];
          for (int j = 0; j < k; j++)
            {
              int src = part_node (&m[o], v, j);
              int after = part_node (&m[o], v, j + 1);
              int first = -1, bypass = 0;
              for (int i = 0; i < nsites; i++)
                {
                  if (sites[i].parent != o || sites[i].node != v
                      || sites[i].point != j)
                    continue;
                  if (first < 0)
                    first = i;
                  bypass |= sites[i].indirect;
                  const pp_graph *c = sites[i].callee;
                  for (int e = 0; e < pp_graph_num_edges (c); e++)
                    {
                      if (pp_graph_edge_src (c, e) != pp_graph_entry (c))
                        continue;
                      int d = pp_graph_edge_dst (c, e);
                      int dst = d == pp_graph_exit (c) ? after
                                                       : m[i].part0[d];
                      add_edge (s, &ecap, src, dst,
                                pp_graph_edge_flags (c, e),
                                (pp_ipp_edge) { PP_IPP_CALL, o, e, i });
                    }
                }
              if (bypass)
                add_edge (s, &ecap, src, after, 0,
                          (pp_ipp_edge) { PP_IPP_BYPASS, o, -1, first });
            }
          int src = part_node (&m[o], v, k);
          for (int e = 0; e < ne; e++)
            {
              if (pp_graph_edge_src (g, e) != v)
                continue;
              int d = pp_graph_edge_dst (g, e);
              unsigned fl = pp_graph_edge_flags (g, e);
              if (o >= 0 && d == pp_graph_exit (g))
                copy_branch (s->graph,
                             add_edge (s, &ecap, src, s->site_return[o], fl,
                                       (pp_ipp_edge) { PP_IPP_RETURN, o, e,
                                                       o }),
                             g, e);
              else if (o >= 0 && d == pp_graph_entry (g))
                {
                  snprintf (err, errlen, "callee %s: edge into its entry",
                            m[o].name);
                  goto fail;
                }
              else
                copy_branch (s->graph,
                             add_edge (s, &ecap, src, m[o].part0[d], fl,
                                       (pp_ipp_edge) { PP_IPP_BODY, o, e,
                                                       -1 }),
                             g, e);
            }
        }
    }
  s->num_nodes = pp_graph_num_nodes (s->graph);
  s->num_edges = pp_graph_num_edges (s->graph);
  for (int o = -1; o < nsites; o++)
    {
      free (m[o].part0);
      free (m[o].points);
      free (m[o].post);
    }
  free (maps);
  return s;

fail:
  for (int o = -1; o < nsites; o++)
    {
      free (m[o].part0);
      free (m[o].points);
      free (m[o].post);
    }
  free (maps);
  pp_ipp_free (s);
  return NULL;
}

void
pp_ipp_free (pp_ipp_supergraph *s)
{
  if (!s)
    return;
  pp_graph_free (s->graph);
  free (s->nodes);
  free (s->edges);
  free (s->site_entry);
  free (s->site_return);
  free (s);
}

const char *
pp_ipp_node_function (const char *name, size_t *len)
{
  const char *colon = name ? strchr (name, ':') : NULL;
  if (!colon)
    return NULL;
  *len = (size_t) (colon - name);
  return name;
}
