/* Profile inference by minimum-cost flow (include/pp/flow_infer.h).

   Timer samples give each block a rate that is wrong in both
   directions: a block after a mispredicted branch or a cache miss takes
   the samples of the cycles it waited, a block of two fast instructions
   is missed.  Measured on bzip2's mainQSort3 (bench/sampled's training,
   gcov's exact line counts beside the sampled rates): the ratio of true
   count to rate ran from 1.2 to 8 between lines of one loop, so a
   branch's probability taken from its successors' rates can be off by
   as much.  Counts that obey flow conservation are the counts closest to
   the readings that a run could have had; POPL'22's profi finds them as a
   minimum-cost circulation, and so does this file.

   The network: each block b is two nodes, in(b) and out(b).  Between
   them, when b has a reading r: an arc of capacity r and cost -DEC (each
   unit of count up to r saves what lowering it would cost) and one of
   unbounded capacity and cost INC (raising it above r); without a
   reading one free arc.  Each CFG edge is an arc out(src) -> in(dst) of
   cost EDGE; a virtual node joins every exit back to the entry.  The
   negative arcs are saturated first, which leaves a surplus r at out(b)
   and a deficit r at in(b); successive shortest paths (Dijkstra on
   reduced costs, non-negative throughout) then route each surplus to the
   nearest deficit: forward along the CFG (the readings agree) or back
   through its own block (the reading is lowered).

   The costs are profi's defaults: raising a count 10, lowering one 20,
   raising a block read as zero 11 (a timer misses short code that ran),
   the entry block raised 40 and lowered 10 (its count is the function's
   calls, which every block scales with).  */
#include "pp/flow_infer.h"

#include <stdlib.h>
#include <string.h>

enum
{
  cost_inc = 10,
  cost_dec = 20,
  cost_zero_inc = 11,
  cost_entry_inc = 40,
  cost_entry_dec = 10,
  cost_edge = 1
};

#define FI_INF (INT64_MAX / 4)

typedef struct
{
  int to, next; /* head of the arc; the next arc out of its tail */
  int64_t cap;  /* residual capacity */
  int64_t cost;
} fi_arc;

typedef struct
{
  fi_arc *arc;
  int narcs, cap;
  int *head; /* first arc out of each node, -1 */
} fi_net;

/* Adds the arc U -> V and its residual twin (index ^ 1); the arc's
   index, or -1 out of memory.  */
static int
add_arc (fi_net *g, int u, int v, int64_t cap, int64_t cost)
{
  if (g->narcs + 2 > g->cap)
    {
      int c = g->cap * 2 + 64;
      fi_arc *a = realloc (g->arc, (size_t) c * sizeof *a);
      if (!a)
        return -1;
      g->arc = a;
      g->cap = c;
    }
  int k = g->narcs;
  g->arc[k] = (fi_arc){ v, g->head[u], cap, cost };
  g->head[u] = k;
  g->arc[k + 1] = (fi_arc){ u, g->head[v], 0, -cost };
  g->head[v] = k + 1;
  g->narcs += 2;
  return k;
}

/* A binary heap of (distance, node), stale entries skipped on pop.  */
typedef struct
{
  int64_t d;
  int v;
} fi_item;

typedef struct
{
  fi_item *a;
  size_t n, cap;
} fi_heap;

static int
heap_push (fi_heap *h, int64_t d, int v)
{
  if (h->n == h->cap)
    {
      size_t c = h->cap * 2 + 64;
      fi_item *a = realloc (h->a, c * sizeof *a);
      if (!a)
        return -1;
      h->a = a;
      h->cap = c;
    }
  size_t i = h->n++;
  while (i > 0 && h->a[(i - 1) / 2].d > d)
    {
      h->a[i] = h->a[(i - 1) / 2];
      i = (i - 1) / 2;
    }
  h->a[i] = (fi_item){ d, v };
  return 0;
}

static fi_item
heap_pop (fi_heap *h)
{
  fi_item top = h->a[0], last = h->a[--h->n];
  size_t i = 0;
  for (;;)
    {
      size_t c = 2 * i + 1;
      if (c >= h->n)
        break;
      if (c + 1 < h->n && h->a[c + 1].d < h->a[c].d)
        c++;
      if (h->a[c].d >= last.d)
        break;
      h->a[i] = h->a[c];
      i = c;
    }
  if (h->n)
    h->a[i] = last;
  return top;
}

/* Routes every node's surplus (EXCESS > 0) to the deficits (< 0) at least
   cost.  0, or -1 out of memory.  */
static int
route_surplus (fi_net *g, int nodes, int64_t *excess)
{
  int rc = -1;
  int64_t *pot = calloc ((size_t) nodes, sizeof *pot),
          *dist = malloc ((size_t) nodes * sizeof *dist);
  int *via = malloc ((size_t) nodes * sizeof *via);
  char *done = malloc ((size_t) nodes);
  fi_heap h = { 0 };
  if (!pot || !dist || !via || !done)
    goto out;
  for (;;)
    {
      h.n = 0;
      int any = 0;
      for (int v = 0; v < nodes; v++)
        {
          dist[v] = FI_INF;
          via[v] = -1;
          done[v] = 0;
          if (excess[v] > 0)
            {
              dist[v] = 0;
              any = 1;
              if (heap_push (&h, 0, v) != 0)
                goto out;
            }
        }
      if (!any)
        break;
      int t = -1;
      while (h.n)
        {
          fi_item it = heap_pop (&h);
          int u = it.v;
          if (done[u] || it.d != dist[u])
            continue;
          done[u] = 1;
          if (excess[u] < 0)
            {
              t = u;
              break;
            }
          for (int k = g->head[u]; k >= 0; k = g->arc[k].next)
            {
              const fi_arc *a = &g->arc[k];
              if (a->cap <= 0 || done[a->to])
                continue;
              int64_t d = dist[u] + a->cost + pot[u] - pot[a->to];
              if (d < dist[a->to])
                {
                  dist[a->to] = d;
                  via[a->to] = k;
                  if (heap_push (&h, d, a->to) != 0)
                    goto out;
                }
            }
        }
      if (t < 0)
        break; /* surplus nothing can take: cannot happen (each surplus
                  has its own block's deficit behind it), kept as is */
      /* keep reduced costs non-negative: the nodes settled before T by
         their distance, the others by T's */
      for (int v = 0; v < nodes; v++)
        pot[v] += done[v] && dist[v] < dist[t] ? dist[v] : dist[t];
      int64_t delta = -excess[t];
      int s = t;
      while (via[s] >= 0)
        {
          const fi_arc *a = &g->arc[via[s]];
          if (a->cap < delta)
            delta = a->cap;
          s = g->arc[via[s] ^ 1].to;
        }
      if (excess[s] < delta)
        delta = excess[s];
      for (int v = t; via[v] >= 0; v = g->arc[via[v] ^ 1].to)
        {
          g->arc[via[v]].cap -= delta;
          g->arc[via[v] ^ 1].cap += delta;
        }
      excess[s] -= delta;
      excess[t] += delta;
    }
  rc = 0;
out:
  free (h.a);
  free (pot);
  free (dist);
  free (via);
  free (done);
  return rc;
}

int
pp_flow_infer (int n, int entry, const int64_t *reading,
               const unsigned char *exits, size_t nedges,
               const pp_fi_edge *edges, int64_t *block, int64_t *edge)
{
  memset (block, 0, (size_t) n * sizeof *block);
  if (nedges)
    memset (edge, 0, nedges * sizeof *edge);
  if (n <= 0 || entry < 0 || entry >= n)
    return 0;
  int nodes = 2 * n + 1, virt = 2 * n, rc = -1;
  fi_net g = { 0 };
  g.head = malloc ((size_t) nodes * sizeof *g.head);
  int64_t *excess = calloc ((size_t) nodes, sizeof *excess);
  int *bounded = malloc ((size_t) n * sizeof *bounded),
      *open = malloc ((size_t) n * sizeof *open),
      *edge_arc = malloc ((nedges ? nedges : 1) * sizeof *edge_arc);
  unsigned char *has_succ = calloc ((size_t) n, 1);
  if (!g.head || !excess || !bounded || !open || !edge_arc || !has_succ)
    goto out;
  for (int v = 0; v < nodes; v++)
    g.head[v] = -1;
  for (int b = 0; b < n; b++)
    {
      int64_t r = reading[b];
      int inc = b == entry ? cost_entry_inc : r == 0 ? cost_zero_inc : cost_inc,
          dec = b == entry ? cost_entry_dec : cost_dec;
      bounded[b] = -1;
      if (r > 0)
        {
          if (r > FI_INF / 4)
            r = FI_INF / 4;
          if ((bounded[b] = add_arc (&g, 2 * b, 2 * b + 1, r, -dec)) < 0)
            goto out;
          /* saturated: the reading kept until the flow says otherwise */
          g.arc[bounded[b]].cap = 0;
          g.arc[bounded[b] + 1].cap = r;
          excess[2 * b + 1] += r;
          excess[2 * b] -= r;
        }
      if ((open[b] = add_arc (&g, 2 * b, 2 * b + 1, FI_INF,
                              r < 0 ? 0 : inc))
          < 0)
        goto out;
    }
  for (size_t e = 0; e < nedges; e++)
    {
      int s = edges[e].src, d = edges[e].dst;
      edge_arc[e] = -1;
      if (s < 0 || s >= n || d < 0 || d >= n)
        continue;
      has_succ[s] = 1;
      if ((edge_arc[e] = add_arc (&g, 2 * s + 1, 2 * d, FI_INF, cost_edge)) < 0)
        goto out;
    }
  if (add_arc (&g, virt, 2 * entry, FI_INF, 0) < 0)
    goto out;
  for (int b = 0; b < n; b++)
    if ((!has_succ[b] || (exits && exits[b]))
        && add_arc (&g, 2 * b + 1, virt, FI_INF, 0) < 0)
      goto out;
  if (route_surplus (&g, nodes, excess) != 0)
    goto out;
  /* an arc's flow is its twin's residual capacity */
  for (int b = 0; b < n; b++)
    block[b] = g.arc[open[b] + 1].cap
               + (bounded[b] >= 0 ? g.arc[bounded[b] + 1].cap : 0);
  for (size_t e = 0; e < nedges; e++)
    edge[e] = edge_arc[e] >= 0 ? g.arc[edge_arc[e] + 1].cap : 0;
  rc = 0;
out:
  if (rc != 0)
    {
      memset (block, 0, (size_t) n * sizeof *block);
      if (nedges)
        memset (edge, 0, nedges * sizeof *edge);
    }
  free (g.arc);
  free (g.head);
  free (excess);
  free (bounded);
  free (open);
  free (edge_arc);
  free (has_succ);
  return rc;
}
