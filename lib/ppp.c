/* Preferential path profiling: thesis Fig 3.10 (ComputePPPIncrements).

   Nodes are taken in reverse topological order.  At a node v, the
   interesting paths through an out-edge e are grouped by their prefix (the
   part from ENTRY to v).  A prefix q induces the interval of partial ids of
   its paths through e; the weight e needs for q is cis(q) - min (Eq. 3.1),
   where cis(q) is the size of q's intervals on the out-edges of v already
   done.  The join keeps the largest of these weights.  Then the partial ids
   of the paths through e grow by W(e) and cis(q) becomes max + 1.

   A prefix is represented by its Ball-Larus partial sum (§3.6): two prefixes
   ending at the same node with the same BL sum would give the same BL id to
   two paths with a common suffix, so the sum identifies the prefix.  */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A path's passage over one DAG edge.  */
typedef struct
{
  int path;
  int local;        /* dense number of the prefix among those at the node */
  pp_pathid prefix; /* BL sum of the edges before this one */
} passage;

/* Numbers the distinct prefixes at one node densely, so that the per-edge
   loops index small arrays instead of hashing.  Open addressing, cleared
   by generation.  */
typedef struct
{
  pp_pathid *key;
  int *val;
  unsigned *gen;
  size_t cap;
  unsigned now;
} local_index;

static void
local_reserve (local_index *x, size_t entries)
{
  if (x->cap >= 2 * entries && x->cap)
    return;
  free (x->key);
  free (x->val);
  free (x->gen);
  x->cap = 64;
  while (x->cap < 2 * entries)
    x->cap *= 2;
  x->key = pp_xcalloc (x->cap, sizeof *x->key);
  x->val = pp_xcalloc (x->cap, sizeof *x->val);
  x->gen = pp_xcalloc (x->cap, sizeof *x->gen);
  x->now = 0;
}

static int
local_id (local_index *x, pp_pathid key, int *count)
{
  uint64_t h = key * 0x9e3779b97f4a7c15ull;
  size_t i = (size_t) (h ^ (h >> 29)) & (x->cap - 1);
  while (x->gen[i] == x->now && x->key[i] != key)
    i = (i + 1) & (x->cap - 1);
  if (x->gen[i] != x->now)
    {
      x->gen[i] = x->now;
      x->key[i] = key;
      x->val[i] = (*count)++;
    }
  return x->val[i];
}

/* Regeneration over a compact copy of the DAG (weight and target only):
   interesting paths can be thousands of edges long, and the full edge
   records would not stay in cache.  Same walk as pp_regenerate.  */
typedef struct
{
  pp_pathid val;
  int dst;
} compact_edge;

static int
regenerate_compact (const pp_numbering *n, const compact_edge *ce,
                    pp_pathid id, int **out)
{
  int cap = 64, len = 0;
  int *path = pp_xrealloc (NULL, cap * sizeof *path);
  pp_pathid rest = id;
  for (int v = n->entry; v != n->exit;)
    {
      const int *o = n->out[v];
      int lo = 0, hi = n->num_out[v], take = -1;
      while (lo < hi)
        {
          int mid = lo + (hi - lo) / 2;
          if (ce[o[mid]].val <= rest)
            take = o[mid], lo = mid + 1;
          else
            hi = mid;
        }
      if (take < 0)
        break;
      if (len == cap)
        path = pp_xrealloc (path, (cap *= 2) * sizeof *path);
      path[len++] = take;
      rest -= ce[take].val;
      v = ce[take].dst;
    }
  *out = path;
  return len;
}

static int
cmp_ids (const void *a, const void *b)
{
  pp_pathid x = *(const pp_pathid *) a, y = *(const pp_pathid *) b;
  return x < y ? -1 : x > y;
}

int
pp_ppp (pp_numbering *n, const pp_pathid *ids, int nids, int64_t *ppp_ids,
        char *err, size_t errlen)
{
  for (int d = 0; d < n->num_dag_edges; d++)
    {
      n->dag[d].ppp_set = 0;
      n->dag[d].ppp = 0;
    }
  n->ppp_done = 1;
  n->ppp_min = n->ppp_max = 0;
  n->delta = 0;

  /* Distinct interesting paths, sorted.  */
  pp_pathid *uniq = pp_xcalloc (nids, sizeof *uniq);
  memcpy (uniq, ids, nids * sizeof *uniq);
  qsort (uniq, nids, sizeof *uniq, cmp_ids);
  int np = 0;
  for (int i = 0; i < nids; i++)
    {
      if (uniq[i] >= n->num_paths)
        {
          snprintf (err, errlen, "path id %llu is out of range (%llu paths)",
                    (unsigned long long) uniq[i],
                    (unsigned long long) n->num_paths);
          free (uniq);
          return -1;
        }
      if (np == 0 || uniq[np - 1] != uniq[i])
        uniq[np++] = uniq[i];
    }

  /* Passages grouped by DAG edge (counting sort).  */
  int ne = n->num_dag_edges;
  int **paths = pp_xcalloc (np ? np : 1, sizeof *paths);
  int *plen = pp_xcalloc (np ? np : 1, sizeof *plen);
  int *first = pp_xcalloc (ne + 1, sizeof *first);
  size_t total = 0;
  compact_edge *ce = pp_xcalloc (ne ? ne : 1, sizeof *ce);
  for (int d = 0; d < ne; d++)
    ce[d] = (compact_edge){ n->dag[d].val, n->dag[d].dst };
  for (int p = 0; p < np; p++)
    {
      plen[p] = regenerate_compact (n, ce, uniq[p], &paths[p]);
      for (int k = 0; k < plen[p]; k++)
        first[paths[p][k] + 1]++;
      total += plen[p];
    }
  for (int d = 0; d < ne; d++)
    first[d + 1] += first[d];
  passage *pass = pp_xcalloc (total ? total : 1, sizeof *pass);
  int *fill = pp_xcalloc (ne ? ne : 1, sizeof *fill);
  for (int p = 0; p < np; p++)
    {
      pp_pathid prefix = 0;
      for (int k = 0; k < plen[p]; k++)
        {
          int d = paths[p][k];
          pass[first[d] + fill[d]++] = (passage){ p, 0, prefix };
          prefix += ce[d].val;
        }
    }
  free (fill);
  free (ce);

  int64_t *pid = pp_xcalloc (np ? np : 1, sizeof *pid);
  /* cis (cumulative interval size) of each prefix at the node.  */
  local_index li = { 0 };
  int64_t *cis = NULL;
  int local_cap = 0, fail = 0;
  for (int i = n->num_topo - 1; i >= 0 && !fail; i--)
    {
      int v = n->topo[i];
      int *o0 = n->out[v], *o1 = o0 + n->num_out[v];
      if (o0 == o1 || first[*o0] == first[o1[-1] + 1])
        continue;
      /* Out-edges of v are consecutive DAG edges (built per source), so
         their passages form one range.  */
      passage *va = pass + first[*o0], *vb = pass + first[o1[-1] + 1];
      local_reserve (&li, vb - va);
      li.now++;
      int nlocal = 0;
      for (passage *x = va; x < vb; x++)
        x->local = local_id (&li, x->prefix, &nlocal);
      if (nlocal > local_cap)
        {
          local_cap = nlocal;
          cis = pp_xrealloc (cis, local_cap * sizeof *cis);
        }
      memset (cis, 0, nlocal * sizeof *cis);
      for (int *o = n->out[v]; *o >= 0 && !fail; o++)
        {
          int d = *o;
          const passage *a = pass + first[d], *b = pass + first[d + 1];
          if (a == b)
            continue;
          /* The join (Eq. 3.1 and Fig 3.10 lines 5-11): the largest
             cis(q) - min pid over the prefixes q, i.e. the largest
             cis(q) - pid(p) over the passages.  */
          int64_t w = INT64_MIN;
          for (const passage *x = a; x < b; x++)
            {
              int64_t need;
              if (__builtin_sub_overflow (cis[x->local], pid[x->path], &need))
                fail = 1;
              if (need > w)
                w = need;
            }
          n->dag[d].ppp = w;
          n->dag[d].ppp_set = 1;
          /* Partial ids grow by W(e); cis(q) becomes max pid + 1 (every pid
             of q is now at least the old cis(q), so a running max
             suffices).  */
          for (const passage *x = a; x < b; x++)
            {
              int64_t *id = &pid[x->path];
              if (__builtin_add_overflow (*id, w, id) || *id == INT64_MAX)
                fail = 1;
              else if (*id + 1 > cis[x->local])
                cis[x->local] = *id + 1;
            }
        }
    }
  if (fail)
    snprintf (err, errlen, "PPP weights overflow 64 bits");
  else if (np > 0)
    {
      n->ppp_min = n->ppp_max = pid[0];
      for (int p = 1; p < np; p++)
        {
          if (pid[p] < n->ppp_min)
            n->ppp_min = pid[p];
          if (pid[p] > n->ppp_max)
            n->ppp_max = pid[p];
        }
      n->delta = ((double) (n->ppp_max - n->ppp_min) + 1.0) / np;
    }
  if (!fail && ppp_ids)
    for (int i = 0; i < nids; i++)
      {
        pp_pathid *hit = bsearch (&ids[i], uniq, np, sizeof *uniq, cmp_ids);
        ppp_ids[i] = pid[hit - uniq];
      }
  free (cis);
  free (li.key);
  free (li.val);
  free (li.gen);
  for (int p = 0; p < np; p++)
    free (paths[p]);
  free (paths);
  free (plen);
  free (first);
  free (pass);
  free (pid);
  free (uniq);
  return fail ? -1 : 0;
}
