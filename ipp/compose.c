/* The interesting paths of a supergraph from intraprocedural profiles
   (thesis §3.5.2, "Alternative scheme", stage II): an over-approximation of
   the depth-k interprocedural path segments a test run exercised, built
   from the Ball-Larus paths of the caller and of each site's callee.

   Each executed owner path is mapped onto the supergraph edge for edge
   (include/pp/ipp.h: owner nodes become their parts, owner edges BODY,
   CALL or RETURN edges, pseudo edges the supergraph's pseudo edges at the
   first or last part), and at every call point it passes the walk branches
   over the point's sites and their callees' executed paths (thesis §3.4.1:
   an IPS is a subpath, a call, the callee's subpath, the return...).  The
   walk keeps its continuation (what to do when the current callee path
   returns) as a chain of frames on the C stack.  */
#include "pp/alloc.h"
#include "pp/ipp.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An owner edge's supergraph DAG edge when there is none.  NO_PATH: no
   supergraph path takes it; the supergraph cannot reach it (a part after
   a call whose callee never returns), or its numbering breaks the edge
   where the owner's keeps it or the reverse (the depth-first search that
   finds back edges met the nodes in another order because of such an
   unreachable part; or overflow cuts).  The supergraph's numbering
   decides: such owner paths yield nothing.  MISMATCH: the owner edge has
   no counterpart at all (profiles of another shape): an error.  */
enum { NO_PATH = -1, MISMATCH = -2 };

/* One executed path of an owner.  */
typedef struct
{
  int len;
  int *edge;   /* the owner's DAG edges */
  int *at;     /* the owner node each edge leads to */
  int *sedge;  /* the supergraph DAG edge each maps to, or NO_PATH or
                  MISMATCH */
  int from_entry; /* starts with a real edge out of the owner's ENTRY */
} opath;

/* The caller (index 0) or the callee copy of site i (index i + 1).  */
typedef struct
{
  const pp_numbering *n;
  int nn;         /* nodes indexed (owner graph nodes) */
  opath *paths;
  int npaths;
  int *emap;      /* [n->num_cfg_edges]: supergraph CFG edge, -1 */
  int *part_off;  /* [nn + 1]: node v's parts are parts[part_off[v]..] */
  int *parts;
} owner;

/* What to do when the current callee path returns: go on with the
   parent's path P after edge T at call point J (frame), or, for a path
   that started inside the copy of SITE, with every distinct rest of a
   parent path through the call's block (suffix).  */
typedef struct cont
{
  const struct cont *up;
  int site;          /* >= 0: a suffix continuation for this site */
  int o;             /* frame: owner index (0: caller) */
  const opath *p;
  int t, j;
} cont;

/* A parent path's visit to a site's block: path P, edge T leads there.  */
typedef struct
{
  const opath *p;
  int t;
} visit;

typedef struct
{
  const pp_ipp_supergraph *s;
  const pp_numbering *sn;
  owner *own;        /* [num_sites + 1] */
  int *site_off;     /* [sn nodes + 1]: sites called from a part node */
  int *site_list;
  int *bypass;       /* [sn nodes]: the bypass DAG edge out of it, -1 */
  visit **rest;      /* [num_sites]: distinct parent visits of its block */
  int *nrest;
  int *buf;          /* the supergraph path being built (DAG edges) */
  int len, bufcap;
  pp_pathid *set;    /* open-addressing set of produced ids */
  char *used;
  size_t setcap, count, cap;
  int stop;          /* 1: over the cap; -1: error */
  char *err;
  size_t errlen;
} ctx;

/* ------------------------------------------------------------- helpers */

static owner *
owner_of (ctx *c, int o)
{
  return &c->own[o + 1];
}

static int
part (const owner *w, int v, int j)
{
  if (v < 0 || v >= w->nn || w->part_off[v] + j >= w->part_off[v + 1])
    return -1;
  return w->parts[w->part_off[v] + j];
}

static int
nparts (const owner *w, int v)
{
  return w->part_off[v + 1] - w->part_off[v];
}

/* Records the first error (printf-style) and stops the walk.  */
static int
fail (ctx *c, const char *fmt, ...)
{
  if (c->stop != -1)
    {
      va_list ap;
      va_start (ap, fmt);
      vsnprintf (c->err, c->errlen, fmt, ap);
      va_end (ap);
    }
  c->stop = -1;
  return -1;
}

/* ------------------------------------------------------- the id set */

static size_t
slot (const ctx *c, pp_pathid id)
{
  pp_pathid h = id * 0x9e3779b97f4a7c15ull;
  return (size_t) (h >> 17) & (c->setcap - 1);
}

static void
set_grow (ctx *c)
{
  pp_pathid *old = c->set;
  char *oldu = c->used;
  size_t oldcap = c->setcap;
  c->setcap = oldcap ? 2 * oldcap : 64;
  c->set = pp_xcalloc (c->setcap, sizeof *c->set);
  c->used = pp_xcalloc (c->setcap, 1);
  for (size_t i = 0; i < oldcap; i++)
    if (oldu[i])
      {
        size_t k = slot (c, old[i]);
        while (c->used[k])
          k = (k + 1) & (c->setcap - 1);
        c->used[k] = 1;
        c->set[k] = old[i];
      }
  free (old);
  free (oldu);
}

/* Adds ID; counts it when new.  */
static void
set_add (ctx *c, pp_pathid id)
{
  if (2 * (c->count + 1) > c->setcap)
    set_grow (c);
  size_t k = slot (c, id);
  while (c->used[k])
    {
      if (c->set[k] == id)
        return;
      k = (k + 1) & (c->setcap - 1);
    }
  c->used[k] = 1;
  c->set[k] = id;
  if (++c->count > c->cap)
    c->stop = 1;
}

/* ------------------------------------------------------------ the walk */

/* Appends a supergraph DAG edge.  Returns 0; 1 for NO_PATH (the path
   cannot be completed, not an error); -1 (and stop) for MISMATCH.  */
static int
push (ctx *c, int sedge)
{
  if (sedge == NO_PATH)
    return 1;
  if (sedge < 0)
    return fail (c, "an owner path's edge has no supergraph edge "
                    "(after %d edges)", c->len);
  if (c->len == c->bufcap)
    {
      c->bufcap = c->bufcap ? 2 * c->bufcap : 64;
      c->buf = pp_xrealloc (c->buf, c->bufcap * sizeof *c->buf);
    }
  c->buf[c->len++] = sedge;
  return 0;
}

/* The path in BUF is complete: it must run ENTRY..EXIT in SN.  */
static void
emit (ctx *c)
{
  const pp_numbering *sn = c->sn;
  int at = sn->entry;
  for (int i = 0; i < c->len; i++)
    {
      const pp_dag_edge *d = &sn->dag[c->buf[i]];
      if (d->src != at)
        {
          fail (c, "internal error: composed path broken at edge %d of %d",
                i, c->len);
          return;
        }
      at = d->dst;
    }
  if (at != sn->exit)
    {
      fail (c, "internal error: composed path of %d edges ends at node %d",
            c->len, at);
      return;
    }
  set_add (c, pp_path_bl (sn, c->buf, c->len));
}

static void walk (ctx *c, int o, const opath *p, int t, int j,
                  const cont *k);

/* The current callee path has returned: continue as K says.  */
static void
resume (ctx *c, const cont *k)
{
  if (k->site < 0)
    {
      walk (c, k->o, k->p, k->t, k->j, k->up);
      return;
    }
  /* The path started inside the copy of site I: any executed path of the
     parent through the call's block goes on from the next call point.  */
  int i = k->site;
  const pp_ipp_node *at = &c->s->nodes[c->s->site_entry[i]];
  cont up = { NULL, at->owner, 0, NULL, 0, 0 };
  for (int r = 0; r < c->nrest[i] && !c->stop; r++)
    walk (c, at->owner, c->rest[i][r].p, c->rest[i][r].t, at->part + 1,
          at->owner < 0 ? NULL : &up);
}

/* Call point J of the node V that path P of owner O reached by edge T:
   each site's callee paths from its entry, then the bypass.  */
static void
call_point (ctx *c, int o, const opath *p, int t, int j, const cont *k,
            int x)
{
  cont back = { k, -1, o, p, t, j + 1 };
  for (int a = c->site_off[x]; a < c->site_off[x + 1] && !c->stop; a++)
    {
      int i = c->site_list[a];
      const owner *w = owner_of (c, i);
      for (int q = 0; q < w->npaths && !c->stop; q++)
        {
          if (!w->paths[q].from_entry)
            continue;
          int r = push (c, w->paths[q].sedge[0]);
          if (r < 0)
            return;
          if (r)
            continue;
          walk (c, i, &w->paths[q], 0, 0, &back);
          c->len--;
        }
    }
  if (c->bypass[x] >= 0 && !c->stop)
    {
      if (push (c, c->bypass[x]))
        return;
      walk (c, o, p, t, j + 1, k);
      c->len--;
    }
}

/* Path P of owner O has just taken edge T (already in BUF); call points
   J.. of the node it reached are still to be expanded.  K: what to do when
   P reaches its owner's real EXIT (NULL: P is the caller's).  */
static void
walk (ctx *c, int o, const opath *p, int t, int j, const cont *k)
{
  if (c->stop)
    return;
  const owner *w = owner_of (c, o);
  const pp_dag_edge *d = &w->n->dag[p->edge[t]];
  if (d->kind == PP_DAG_EXIT)
    {
      emit (c); /* ends inside its last node: so does the supergraph path */
      return;
    }
  int v = p->at[t];
  if (v == w->n->exit)
    {
      if (!k)
        emit (c);
      else
        resume (c, k);
      return;
    }
  if (j < nparts (w, v) - 1)
    {
      call_point (c, o, p, t, j, k, part (w, v, j));
      return;
    }
  if (t + 1 >= p->len)
    {
      fail (c, "internal error: owner %d path stops at node %d", o, v);
      return;
    }
  if (push (c, p->sedge[t + 1]))
    return;
  walk (c, o, p, t + 1, 0, k);
  c->len--;
}

/* ----------------------------------------------------------- the setup */

/* The supergraph DAG edge of owner O's DAG edge D, or NO_PATH or
   MISMATCH.  */
static int
map_edge (ctx *c, int o, int d)
{
  const owner *w = owner_of (c, o);
  const pp_numbering *sn = c->sn;
  const pp_dag_edge *e = &w->n->dag[d];
  int x, r;
  switch (e->kind)
    {
    case PP_DAG_REAL:
      x = w->emap[e->cfg_edge];
      if (x < 0)
        return MISMATCH;
      return sn->cfg[x].role == PP_CFG_DAG ? sn->cfg[x].dag_edge : NO_PATH;
    case PP_DAG_ENTRY:
      x = part (w, e->dst, 0);
      if (x < 0)
        return MISMATCH;
      r = sn->node_entry_edge[x];
      break;
    default:
      if (e->src >= w->nn || nparts (w, e->src) == 0)
        return MISMATCH;
      x = part (w, e->src, nparts (w, e->src) - 1);
      r = sn->node_exit_edge[x];
      break;
    }
  return r >= 0 ? r : NO_PATH;
}

static int
load_paths (ctx *c, int o, const pp_ipp_profile *pr)
{
  owner *w = owner_of (c, o);
  w->paths = pp_xcalloc (pr->nids ? pr->nids : 1, sizeof *w->paths);
  for (size_t i = 0; i < pr->nids; i++)
    {
      opath *p = &w->paths[w->npaths];
      p->len = pp_regenerate (w->n, pr->ids[i], &p->edge);
      if (p->len <= 0)
        return fail (c, "owner %d: path id %d out of range", o, (int) i);
      w->npaths++;
      p->at = pp_xcalloc (p->len, sizeof (int));
      p->sedge = pp_xcalloc (p->len, sizeof (int));
      for (int t = 0; t < p->len; t++)
        {
          p->at[t] = w->n->dag[p->edge[t]].dst;
          p->sedge[t] = map_edge (c, o, p->edge[t]);
        }
      p->from_entry = w->n->dag[p->edge[0]].kind == PP_DAG_REAL;
    }
  return 0;
}

/* Per owner: which supergraph node is which part, which edge which edge;
   checked against the owner's numbering.  */
static int
index_owners (ctx *c, const pp_ipp_profile *caller,
              const pp_ipp_profile *sites)
{
  const pp_ipp_supergraph *s = c->s;
  for (int o = -1; o < s->num_sites; o++)
    {
      owner *w = owner_of (c, o);
      w->n = o < 0 ? caller->n : sites[o].n;
      if (!w->n && (o < 0 || sites[o].nids))
        return fail (c, "owner %d: a profile without numbering", o);
      w->nn = w->n ? w->n->num_nodes : 0;
    }
  for (int x = 0; x < s->num_nodes; x++)
    {
      owner *w = owner_of (c, s->nodes[x].owner);
      if (s->nodes[x].node >= w->nn)
        {
          if (w->n)
            return fail (c, "supergraph node %d: owner %d has fewer nodes",
                         x, s->nodes[x].owner);
          w->nn = s->nodes[x].node + 1;
        }
    }
  for (int o = -1; o < s->num_sites; o++)
    {
      owner *w = owner_of (c, o);
      w->part_off = pp_xcalloc (w->nn + 1, sizeof (int));
      w->parts = pp_xcalloc (w->nn ? w->nn : 1, sizeof (int));
      w->emap = pp_xcalloc (w->n ? w->n->num_cfg_edges + 1 : 1, sizeof (int));
      for (int e = 0; w->n && e < w->n->num_cfg_edges; e++)
        w->emap[e] = -1;
    }
  for (int x = 0; x < s->num_nodes; x++)
    owner_of (c, s->nodes[x].owner)->part_off[s->nodes[x].node + 1]++;
  for (int o = -1; o < s->num_sites; o++)
    {
      owner *w = owner_of (c, o);
      for (int v = 0; v < w->nn; v++)
        w->part_off[v + 1] += w->part_off[v];
      w->parts = pp_xrealloc (w->parts, (w->part_off[w->nn] + 1)
                                             * sizeof (int));
    }
  for (int x = 0; x < s->num_nodes; x++)
    {
      const pp_ipp_node *nd = &s->nodes[x];
      owner *w = owner_of (c, nd->owner);
      int slot = w->part_off[nd->node] + nd->part;
      if (nd->part >= nparts (w, nd->node))
        return fail (c, "supergraph node %d: parts of its node not 0..k", x);
      w->parts[slot] = x;
    }
  for (int e = 0; e < s->num_edges; e++)
    {
      const pp_ipp_edge *ed = &s->edges[e];
      if (ed->kind == PP_IPP_BYPASS)
        continue;
      int o = ed->kind == PP_IPP_BODY ? ed->owner : ed->site;
      owner *w = owner_of (c, o);
      if (!w->n)
        continue;
      if (ed->edge < 0 || ed->edge >= w->n->num_cfg_edges)
        return fail (c, "supergraph edge %d: owner %d has fewer edges", e, o);
      w->emap[ed->edge] = e;
    }
  return 0;
}

/* Sites by the part node their call leaves, and the bypass edges.  */
static int
index_points (ctx *c)
{
  const pp_ipp_supergraph *s = c->s;
  int nn = s->num_nodes;
  c->site_off = pp_xcalloc (nn + 1, sizeof (int));
  c->site_list = pp_xcalloc (s->num_sites + 1, sizeof (int));
  c->bypass = pp_xcalloc (nn, sizeof (int));
  for (int i = 0; i < s->num_sites; i++)
    c->site_off[s->site_entry[i] + 1]++;
  for (int x = 0; x < nn; x++)
    {
      c->site_off[x + 1] += c->site_off[x];
      c->bypass[x] = -1;
    }
  int *fill = pp_xcalloc (nn, sizeof (int));
  for (int i = 0; i < s->num_sites; i++)
    {
      int x = s->site_entry[i];
      c->site_list[c->site_off[x] + fill[x]++] = i;
    }
  free (fill);
  for (int e = 0; e < s->num_edges; e++)
    if (s->edges[e].kind == PP_IPP_BYPASS)
      {
        int x = pp_graph_edge_src (s->graph, e);
        const pp_cfg_edge_info *ci = &c->sn->cfg[e];
        if (ci->role == PP_CFG_DAG)
          c->bypass[x] = ci->dag_edge;
        else if (ci->role == PP_CFG_BREAK)
          return fail (c, "bypass edge %d is not a DAG edge", e);
      }
  return 0;
}

/* The edges of P after edge T, compared as sequences.  */
static int
cmp_rest (const void *a, const void *b)
{
  const visit *x = a, *y = b;
  int lx = x->p->len - x->t, ly = y->p->len - y->t;
  for (int i = 1; i < lx && i < ly; i++)
    {
      int ex = x->p->edge[x->t + i], ey = y->p->edge[y->t + i];
      if (ex != ey)
        return ex < ey ? -1 : 1;
    }
  return (lx > ly) - (lx < ly);
}

/* For each site, the distinct rests of the parent's executed paths
   through the call's block: where paths starting in the copy go on.  */
static void
index_rests (ctx *c)
{
  const pp_ipp_supergraph *s = c->s;
  c->rest = pp_xcalloc (s->num_sites + 1, sizeof *c->rest);
  c->nrest = pp_xcalloc (s->num_sites + 1, sizeof *c->nrest);
  for (int i = 0; i < s->num_sites; i++)
    {
      const pp_ipp_node *at = &s->nodes[s->site_entry[i]];
      const owner *w = owner_of (c, at->owner);
      visit *r = pp_xcalloc (w->npaths + 1, sizeof *r);
      int nr = 0;
      for (int q = 0; q < w->npaths; q++)
        for (int t = 0; t < w->paths[q].len; t++)
          if (w->paths[q].at[t] == at->node)
            r[nr++] = (visit) { &w->paths[q], t };
      qsort (r, nr, sizeof *r, cmp_rest);
      int m = 0;
      for (int a = 0; a < nr; a++)
        if (m == 0 || cmp_rest (&r[m - 1], &r[a]) != 0)
          r[m++] = r[a];
      c->rest[i] = r;
      c->nrest[i] = m;
    }
}

static void
free_ctx (ctx *c)
{
  for (int o = -1; c->own && o < c->s->num_sites; o++)
    {
      owner *w = owner_of (c, o);
      for (int q = 0; q < w->npaths; q++)
        {
          free (w->paths[q].edge);
          free (w->paths[q].at);
          free (w->paths[q].sedge);
        }
      free (w->paths);
      free (w->emap);
      free (w->part_off);
      free (w->parts);
    }
  free (c->own);
  for (int i = 0; c->rest && i < c->s->num_sites; i++)
    free (c->rest[i]);
  free (c->rest);
  free (c->nrest);
  free (c->site_off);
  free (c->site_list);
  free (c->bypass);
  free (c->buf);
  free (c->set);
  free (c->used);
}

static int
cmp_id (const void *a, const void *b)
{
  pp_pathid x = *(const pp_pathid *) a, y = *(const pp_pathid *) b;
  return (x > y) - (x < y);
}

/* The roots: every executed caller path, and every callee path that
   starts inside its copy (thesis §3.4.4: paths restart at loop headers in
   the supergraph as in the callee).  */
static void
walk_roots (ctx *c)
{
  owner *w = owner_of (c, -1);
  for (int q = 0; q < w->npaths && !c->stop; q++)
    {
      int r = push (c, w->paths[q].sedge[0]);
      if (r < 0)
        return;
      if (r)
        continue;
      walk (c, -1, &w->paths[q], 0, 0, NULL);
      c->len = 0;
    }
  for (int i = 0; i < c->s->num_sites && !c->stop; i++)
    {
      w = owner_of (c, i);
      cont k = { NULL, i, 0, NULL, 0, 0 };
      for (int q = 0; q < w->npaths && !c->stop; q++)
        if (!w->paths[q].from_entry)
          {
            int r = push (c, w->paths[q].sedge[0]);
            if (r < 0)
              return;
            if (r)
              continue;
            walk (c, i, &w->paths[q], 0, 0, &k);
            c->len = 0;
          }
    }
}

int
pp_ipp_compose (const pp_ipp_supergraph *s, const pp_numbering *sn,
                const pp_ipp_profile *caller, const pp_ipp_profile *sites,
                size_t cap, pp_pathid **out, size_t *nout, char *err,
                size_t errlen)
{
  ctx c;
  memset (&c, 0, sizeof c);
  c.s = s;
  c.sn = sn;
  c.cap = cap;
  c.err = err;
  c.errlen = errlen;
  *out = NULL;
  *nout = 0;
  if (!s || !sn || !caller || (s->num_sites && !sites)
      || sn->num_nodes != s->num_nodes || sn->num_cfg_edges != s->num_edges)
    {
      snprintf (err, errlen, "the numbering is not the supergraph's");
      return -1;
    }
  c.own = pp_xcalloc (s->num_sites + 1, sizeof *c.own);
  if (index_owners (&c, caller, sites) == 0 && index_points (&c) == 0)
    for (int o = -1; o < s->num_sites && !c.stop; o++)
      load_paths (&c, o, o < 0 ? caller : &sites[o]);
  if (!c.stop)
    {
      index_rests (&c);
      walk_roots (&c);
    }
  int rc = c.stop;
  if (rc == 0 && c.count)
    {
      *out = pp_xcalloc (c.count, sizeof **out);
      for (size_t k = 0; k < c.setcap; k++)
        if (c.used[k])
          (*out)[(*nout)++] = c.set[k];
      qsort (*out, *nout, sizeof **out, cmp_id);
    }
  free_ctx (&c);
  return rc;
}
