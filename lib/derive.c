/* Derived counts (include/pp/ppd_derive.h).

   The plugin leaves without probes a local function with one Ball-Larus
   path all of whose calls it saw in instrumented functions of the unit
   (plugin/derive.cc).  Such a function runs its one path once per call,
   so its count is the number of executions of its call sites' blocks,
   which the callers' path counts give exactly (a block lies at most once
   on a Ball-Larus path: pp_counts_from_paths).  A caller may itself be
   derived (MEM_read64 from ZSTD_hash5 from ZSTD_hash5Ptr): it is derived
   first.  A cycle of derived functions, one-path functions that always
   call each other, never returns: it counts nothing, as probes would.

   68% of zstd's path executions were such helpers', their
   inlined copies each bumping a counter that told nothing the callers'
   paths do not.  */
#include "pp/ppd_derive.h"

#include "pp/core.h"
#include "pp/rt_abi.h"
#include "pp/sat.h"
#include "pp/spec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum
{
  NOT_SEEN,
  DERIVING,
  DONE
};

typedef struct
{
  int state;
  pp_spec *spec;          /* its metadata, parsed when needed */
  uint64_t *node_count;   /* as a caller: each node's count in its paths */
} fn_state;

typedef struct
{
  ppd_profile *p;
  fn_state *fns;
  char *err;
  size_t errlen;
} derive_ctx;

static int
fail (derive_ctx *c, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (c->err, c->errlen, fmt, ap);
  va_end (ap);
  return -1;
}

static const pp_spec_function *
spec_of (derive_ctx *c, uint32_t i)
{
  fn_state *s = &c->fns[i];
  const ppd_fn *f = &c->p->fns[i];
  if (!s->spec)
    {
      char err[256];
      s->spec = pp_spec_parse_string (f->meta, f->meta_len, NULL, err,
                                      sizeof err);
      if (!s->spec || s->spec->num_fns != 1)
        {
          fail (c, "metadata of function '%s': %s", f->name,
                s->spec ? "not one function" : err);
          return NULL;
        }
    }
  return &s->spec->fns[0];
}

/* The function named NAME with CFG CHECKSUM: the current record rather
   than an older build's (PP_FN_OLDER); -1 when none.  */
static long
find_fn (const ppd_profile *p, const char *name, uint32_t checksum)
{
  long older = -1;
  for (uint32_t i = 0; i < p->nfns; i++)
    if (p->fns[i].checksum == checksum && !strcmp (p->fns[i].name, name))
      {
        if (!(p->fns[i].flags & PP_FN_OLDER))
          return i;
        older = i;
      }
  return older;
}

/* Each node's count in function I's paths (its pairs final).  */
static const uint64_t *
node_counts (derive_ctx *c, uint32_t i)
{
  fn_state *s = &c->fns[i];
  if (s->node_count)
    return s->node_count;
  const ppd_fn *f = &c->p->fns[i];
  const pp_spec_function *sf = spec_of (c, i);
  if (!sf)
    return NULL;
  if (!sf->graph)
    {
      fail (c, "metadata of function '%s': no graph", f->name);
      return NULL;
    }
  char err[256];
  pp_options opt = { sf->max_paths, sf->cut_rule };
  pp_numbering *n = pp_number (sf->graph, &opt, err, sizeof err);
  if (!n || n->num_paths != f->num_paths)
    {
      fail (c, "function '%s': %s", f->name,
            n ? "numbering differs from the compiler's" : err);
      pp_numbering_free (n);
      return NULL;
    }
  size_t nn = (size_t) pp_graph_num_nodes (sf->graph);
  size_t ne = (size_t) pp_graph_num_edges (sf->graph);
  uint64_t *ids = malloc ((f->npairs + 1) * sizeof *ids);
  uint64_t *counts = malloc ((f->npairs + 1) * sizeof *counts);
  uint64_t *edge_count = malloc ((ne + 1) * sizeof *edge_count);
  char *known = malloc (ne + 1);
  s->node_count = malloc ((nn + 1) * sizeof *s->node_count);
  int rc = -1;
  if (ids && counts && edge_count && known && s->node_count)
    {
      for (uint64_t k = 0; k < f->npairs; k++)
        {
          ids[k] = f->pairs[k].id;
          counts[k] = f->pairs[k].count;
        }
      rc = pp_counts_from_paths (n, sf->graph, ids, counts, f->npairs,
                                 s->node_count, edge_count, known);
      if (rc < 0)
        fail (c, "function '%s': a path id out of range", f->name);
    }
  else
    fail (c, "out of memory");
  free (ids);
  free (counts);
  free (edge_count);
  free (known);
  pp_numbering_free (n);
  if (rc < 0)
    {
      free (s->node_count);
      s->node_count = NULL;
    }
  return s->node_count;
}

static int
derive_fn (derive_ctx *c, uint32_t i)
{
  fn_state *s = &c->fns[i];
  if (s->state != NOT_SEEN)
    return 0;
  s->state = DERIVING;
  ppd_fn *f = &c->p->fns[i];
  uint64_t total = 0;
  /* Without metadata (a program whose .pp_meta was stripped) nothing can
     be derived: the function reads as never run, and readers say the
     profile has no metadata.  */
  const pp_spec_function *sf = f->meta_len ? spec_of (c, i) : NULL;
  if (f->meta_len && !sf)
    return -1;
  for (int k = 0; sf && k < sf->num_callers; k++)
    {
      const pp_spec_caller *call = &sf->callers[k];
      long j = find_fn (c->p, call->function, call->checksum);
      if (j < 0)
        continue; /* the caller's record is gone (another build's) */
      if (c->p->fns[j].flags & PP_FN_DERIVED)
        {
          if (c->fns[j].state == DERIVING)
            continue; /* a cycle: see above */
          if (derive_fn (c, (uint32_t) j) < 0)
            return -1;
        }
      const uint64_t *counts = node_counts (c, (uint32_t) j);
      if (!counts)
        return -1;
      int v = pp_graph_find_node (c->fns[j].spec->fns[0].graph, call->node);
      if (v < 0)
        return fail (c, "metadata of function '%s': caller '%s' has no "
                        "node '%s'", f->name, call->function, call->node);
      total = pp_add_sat (total, counts[v]);
    }
  free (f->pairs);
  f->pairs = NULL;
  f->npairs = 0;
  if (total)
    {
      if (!(f->pairs = malloc (sizeof *f->pairs)))
        return fail (c, "out of memory");
      f->pairs[0] = (ppd_pair){ 0, total };
      f->npairs = 1;
    }
  /* The runtime's sum_max (the most executions of one function in each
     run, summed) left this function out: at least its total now.  */
  if (total > c->p->sum_max)
    c->p->sum_max = total;
  f->flags &= ~PP_FN_DERIVED;
  s->state = DONE;
  return 0;
}

/* Path ID of F counts COUNT: its pair replaced, inserted in id order, or
   removed (pairs hold non-zero counts).  */
static int
set_count (derive_ctx *c, ppd_fn *f, pp_pathid id, uint64_t count)
{
  uint64_t k = 0;
  while (k < f->npairs && f->pairs[k].id < id)
    k++;
  int present = k < f->npairs && f->pairs[k].id == id;
  if (present && count)
    f->pairs[k].count = count;
  else if (present)
    {
      memmove (&f->pairs[k], &f->pairs[k + 1],
               (f->npairs - k - 1) * sizeof *f->pairs);
      f->npairs--;
    }
  else if (count)
    {
      ppd_pair *grown = realloc (f->pairs, (f->npairs + 1) * sizeof *grown);
      if (!grown)
        return fail (c, "out of memory");
      f->pairs = grown;
      memmove (&f->pairs[k + 1], &f->pairs[k],
               (f->npairs - k) * sizeof *f->pairs);
      f->pairs[k] = (ppd_pair){ id, count };
      f->npairs++;
    }
  return 0;
}

/* Function I's derived restarts (PP_FN_DERIVED_RESTARTS): each named
   node's restart path gets the count its breaks imply, replacing what
   the record holds for it (nothing, unless it was derived before: a
   merge of derived and raw records must not count it twice).  */
static int
derive_restarts (derive_ctx *c, uint32_t i)
{
  ppd_fn *f = &c->p->fns[i];
  const pp_spec_function *sf = f->meta_len ? spec_of (c, i) : NULL;
  if (f->meta_len && !sf)
    return -1;
  if (sf && sf->num_derived_restarts && !sf->graph)
    return fail (c, "metadata of function '%s': no graph", f->name);
  pp_numbering *n = NULL;
  if (sf && sf->num_derived_restarts)
    {
      char err[256];
      pp_options opt = { sf->max_paths, sf->cut_rule };
      n = pp_number (sf->graph, &opt, err, sizeof err);
      if (!n || n->num_paths != f->num_paths)
        {
          fail (c, "function '%s': %s", f->name,
                n ? "numbering differs from the compiler's" : err);
          pp_numbering_free (n);
          return -1;
        }
    }
  int rc = 0;
  for (int k = 0; n && k < sf->num_derived_restarts && rc == 0; k++)
    {
      const char *name = sf->derived_restarts[k];
      int v = pp_graph_find_node (sf->graph, name);
      pp_pathid *ids = malloc ((f->npairs + 1) * sizeof *ids);
      uint64_t *counts = malloc ((f->npairs + 1) * sizeof *counts);
      uint64_t total = 0;
      if (!ids || !counts)
        rc = fail (c, "out of memory");
      for (uint64_t j = 0; rc == 0 && j < f->npairs; j++)
        {
          ids[j] = f->pairs[j].id;
          counts[j] = f->pairs[j].count;
        }
      if (rc == 0 && v < 0)
        rc = fail (c, "metadata of function '%s': derived_restart names no "
                      "node '%s'", f->name, name);
      else if (rc == 0
               && pp_derive_restart_count (n, sf->graph, v, ids, counts,
                                           f->npairs, &total) < 0)
        rc = fail (c, "function '%s': restart at '%s' cannot be derived "
                      "(a path id out of range, or a graph it does not "
                      "fit)", f->name, name);
      free (ids);
      free (counts);
      if (rc == 0)
        rc = set_count (c, f, pp_restart_path_id (n, v), total);
    }
  pp_numbering_free (n);
  if (rc == 0)
    f->flags &= ~PP_FN_DERIVED_RESTARTS;
  return rc;
}

int
ppd_derive_counts (ppd_profile *p, char *err, size_t errlen)
{
  uint32_t i;
  for (i = 0; i < p->nfns; i++)
    if (p->fns[i].flags & (PP_FN_DERIVED | PP_FN_DERIVED_RESTARTS))
      break;
  if (i == p->nfns)
    return 0;
  derive_ctx c = { p, calloc (p->nfns, sizeof *c.fns), err, errlen };
  if (!c.fns)
    {
      snprintf (err, errlen, "out of memory");
      return -1;
    }
  int rc = 0;
  /* Restarts first: a derived helper's callers' node counts include
     them.  */
  for (uint32_t j = i; j < p->nfns && rc == 0; j++)
    if (p->fns[j].flags & PP_FN_DERIVED_RESTARTS)
      rc = derive_restarts (&c, j);
  for (; i < p->nfns && rc == 0; i++)
    if (p->fns[i].flags & PP_FN_DERIVED)
      rc = derive_fn (&c, i);
  for (i = 0; i < p->nfns; i++)
    {
      pp_spec_free (c.fns[i].spec);
      free (c.fns[i].node_count);
    }
  free (c.fns);
  return rc;
}
