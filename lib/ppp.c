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
  pp_pathid prefix; /* BL sum of the edges before this one */
} passage;

/* An open-addressing map from prefix to an int64 pair, cleared by
   generation so that each node starts empty without a memset.  */
typedef struct
{
  pp_pathid *key;
  int64_t *a, *b;
  unsigned *gen;
  unsigned cap, now;
} prefix_map;

static void
map_init (prefix_map *m, unsigned min_entries)
{
  m->cap = 16;
  while (m->cap < 2 * min_entries)
    m->cap *= 2;
  m->key = pp_xcalloc (m->cap, sizeof *m->key);
  m->a = pp_xcalloc (m->cap, sizeof *m->a);
  m->b = pp_xcalloc (m->cap, sizeof *m->b);
  m->gen = pp_xcalloc (m->cap, sizeof *m->gen);
  m->now = 1;
}

static void
map_free (prefix_map *m)
{
  free (m->key);
  free (m->a);
  free (m->b);
  free (m->gen);
}

/* Slot for KEY; *FRESH says whether it was empty (and is now claimed).  */
static unsigned
map_slot (prefix_map *m, pp_pathid key, int *fresh)
{
  unsigned mask = m->cap - 1;
  unsigned i = (unsigned) ((key * 0x9e3779b97f4a7c15ull) >> 40) & mask;
  while (m->gen[i] == m->now && m->key[i] != key)
    i = (i + 1) & mask;
  *fresh = m->gen[i] != m->now;
  if (*fresh)
    {
      m->gen[i] = m->now;
      m->key[i] = key;
    }
  return i;
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
  for (int p = 0; p < np; p++)
    {
      plen[p] = pp_regenerate (n, uniq[p], &paths[p]);
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
          pass[first[d] + fill[d]++] = (passage){ p, prefix };
          prefix += n->dag[d].val;
        }
    }
  free (fill);

  int64_t *pid = pp_xcalloc (np ? np : 1, sizeof *pid);
  prefix_map cis, span;
  map_init (&cis, np);
  map_init (&span, np);
  int fail = 0;
  for (int i = n->num_topo - 1; i >= 0 && !fail; i--)
    {
      int v = n->topo[i];
      cis.now++;
      for (int *o = n->out[v]; *o >= 0 && !fail; o++)
        {
          int d = *o;
          if (first[d] == first[d + 1])
            continue;
          /* Interval of each prefix on this edge: span.a = min, b = max.  */
          span.now++;
          for (int k = first[d]; k < first[d + 1]; k++)
            {
              int fresh;
              unsigned j = map_slot (&span, pass[k].prefix, &fresh);
              int64_t x = pid[pass[k].path];
              if (fresh || x < span.a[j])
                span.a[j] = x;
            }
          /* The join: the largest weight any prefix needs.  */
          int64_t w = 0;
          int have = 0;
          for (int k = first[d]; k < first[d + 1]; k++)
            {
              int fresh;
              unsigned j = map_slot (&span, pass[k].prefix, &fresh);
              unsigned c = map_slot (&cis, pass[k].prefix, &fresh);
              if (fresh)
                cis.a[c] = 0;
              int64_t need;
              if (__builtin_sub_overflow (cis.a[c], span.a[j], &need))
                fail = 1;
              if (!have || need > w)
                w = need, have = 1;
            }
          n->dag[d].ppp = w;
          n->dag[d].ppp_set = 1;
          for (int k = first[d]; k < first[d + 1]; k++)
            if (__builtin_add_overflow (pid[pass[k].path], w,
                                        &pid[pass[k].path]))
              fail = 1;
          /* New cumulative interval size of each prefix: max + 1.  */
          span.now++;
          for (int k = first[d]; k < first[d + 1]; k++)
            {
              int fresh;
              unsigned j = map_slot (&span, pass[k].prefix, &fresh);
              int64_t x = pid[pass[k].path];
              if (fresh || x > span.b[j])
                span.b[j] = x;
            }
          for (int k = first[d]; k < first[d + 1]; k++)
            {
              int fresh;
              unsigned j = map_slot (&span, pass[k].prefix, &fresh);
              unsigned c = map_slot (&cis, pass[k].prefix, &fresh);
              cis.a[c] = span.b[j] + 1;
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
  map_free (&cis);
  map_free (&span);
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
