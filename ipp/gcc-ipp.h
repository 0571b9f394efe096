/* Interprocedural path segments (-fprofile-paths-ipp): what the site
   selection (gcc-sites.cc) hands to the instrumentation (gcc-unit.cc).
   Private to ipp/: the plugin's core knows ipp/ only by ppgcc-ipp.h, and
   ipp/ knows the plugin only by plugin/ipp-adapter.h (with GCC's headers
   through plugin/gcc-compat.h).  */
#ifndef PPGCC_IPP_H
#define PPGCC_IPP_H

#include "plugin/gcc-compat.h"
#include "plugin/ipp-adapter.h"
#include "ppgcc-ipp.h"
#include "pp/ipp.h"

#include <array>
#include <map>
#include <memory>

/* A function of the unit, as it was before anything changed.  */
struct ipp_unit_fn
{
  cgraph_node *node = nullptr;
  function *fun = nullptr;
  std::string name;
  ppgcc_cfg cfg;
  pp_numbering *n = nullptr;
  uint32_t checksum = 0;
  std::vector<pp_pathid> run_ids;   /* executed paths (the profile's) */
  std::vector<uint64_t> run_counts;
  std::vector<uint64_t> node_count; /* block executions */
  uint64_t executions = 0;          /* path executions */
  bool dupable = false;             /* can be duplicated */
  uint64_t size = 0;                /* statements */
  /* The profile's record of its segments (a -fprofile-paths-ipp build's,
     thesis §3.5.2 stage II): its expanded calls are taken again, and the
     segments it ran are the interesting ones.  */
  const ppd_fn *segments = nullptr;
  ~ipp_unit_fn () { pp_numbering_free (n); }
};

/* A call chosen for expansion: in the caller's own body (parent -1) or,
   at depth > 1, in the copy of the callee of site PARENT.  */
struct ipp_point
{
  int parent;
  int depth;                       /* 1: in the caller */
  ipp_unit_fn *owner;              /* the function whose body holds it */
  gcall *call;                     /* in OWNER's plain body */
  int node;                        /* its block's graph node in OWNER */
  int point;                       /* rank among the block's points */
  int order;                       /* rank among the block's calls */
  std::vector<ipp_unit_fn *> targets;
  bool indirect;
  uint64_t weight;                 /* executions of its block */
  int first_site = -1;             /* its sites: first_site + target */
};

struct ipp_dup;

/* Where call points are cut and callee duplicates called: the caller's
   body, or a duplicate made for one site (which holds deeper points).  */
struct ipp_body
{
  function *fun = nullptr;
  const std::vector<basic_block> *blocks = nullptr; /* graph node -> block */
  tree regs[2] = { NULL_TREE, NULL_TREE };
  tree tmp = NULL_TREE;            /* the registers handed to a callee */
  std::map<std::pair<int, int>, basic_block> part_block; /* (node, part) */
  std::map<int, edge> bypass;      /* by point: the plain call's edge */
};

struct ipp_caller
{
  ipp_unit_fn *f;
  std::vector<ipp_point> points;   /* parents before children */
  std::vector<pp_ipp_site> sites;
  std::vector<int> site_point;     /* site -> point */
  std::vector<ipp_unit_fn *> site_target;
  std::vector<ipp_dup *> site_dup;
  std::vector<unsigned> site_ctx;  /* site -> its context in the dup */
  std::vector<bool> site_parent;   /* the site holds deeper points */
  pp_ipp_supergraph *sg = nullptr;
  pp_numbering *sn = nullptr;
  ppgcc_fn fn;
  ipp_body body;
  ~ipp_caller ()
  {
    pp_numbering_free (sn);
    pp_ipp_free (sg);
  }
};

/* A duplicate of a callee and the sites (contexts) it serves.  */
struct ipp_dup
{
  ipp_unit_fn *callee;
  tree decl = NULL_TREE;
  function *fun = nullptr;
  ppgcc_cfg cfg;                   /* callee's graph -> the dup's CFG */
  tree regs_parm = NULL_TREE, ctx_parm = NULL_TREE;
  std::vector<std::pair<ipp_caller *, int> > contexts; /* (caller, site) */
  std::vector<std::array<tree, 2> > regs;  /* by context */
  std::vector<tree> guard;                 /* by context (shared only) */
  ipp_body body;                   /* per-site duplicates with points */
};

/* The unit as gcc-sites.cc finds it.  */
struct ipp_unit
{
  std::vector<std::unique_ptr<ipp_unit_fn> > fns;
  std::map<cgraph_node *, ipp_unit_fn *> by_node;
  std::vector<std::unique_ptr<ipp_caller> > callers;
};

/* gcc-sites.cc: the unit's functions and profiles; the call points of
   each caller (all depths), within the growth limit; the supergraphs.  */
void ppgcc_ipp_collect (ipp_unit &u);
void ppgcc_ipp_choose (ipp_unit &u);
void ppgcc_ipp_supergraphs (ipp_unit &u);
/* The RANK-th call statement of BB, or null.  */
gcall *ppgcc_ipp_nth_call (basic_block bb, int rank);

#endif
