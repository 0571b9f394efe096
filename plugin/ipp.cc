/* Interprocedural path segments: -fprofile-paths-ipp=inline|clone
   (thesis §3.4, IPPP; §3.5.2, its "alternative scheme").

   Run once, when every function of the unit is lowered and none is in
   SSA form yet (PLUGIN_ALL_IPA_PASSES_START), so that a caller and its
   callees can be looked at together:

   1. Call sites (thesis §3.5.2 stage II): from the intraprocedural
      Ball-Larus profile in use, a call lies on a depth-1 segment when a
      path of the caller that ran passes through its block and the callee
      ran (and is defined in this unit, and can be duplicated).  An
      indirect call counts with each function of the unit of a matching
      type whose address is taken and that ran (at most two, validated at
      run time, §3.4.6).  Sites are taken hottest first within a code
      growth limit; the others get a note (-fopt-info-paths).
   2. Each caller with sites is numbered as its supergraph (lib/ipp.c,
      §3.4.4 steps 4-5): its paths are its segments.  Interesting paths
      for PPP and residual profiling come from the profiles of the caller
      and the callees (steps 6-7).
   3. The callee part of the supergraph runs in a duplicate of the callee
      to which the caller hands its path registers and which hands them
      back (§3.4.5, Fig 3.14):  r -> tmp; callee.dup (args, &tmp); tmp -> r.
      - clone: one duplicate per callee, shared by all its call sites.
        Each site is a context: the duplicate keeps one register set per
        context (each edge adds every context's increment, as the thesis
        says), counts only for the running context (its number is the
        last argument), and hands back that context's registers.  Code
        does not grow with the number of contexts, only the increments.
      - inline: one duplicate per call site, with that site's increments
        only, marked for inlining (GCC's inliner then puts it in place in
        the caller, at every -O level): selective inlining, whose code
        grows with each site.
      Both number the same supergraph with the same plan: their counts
      are identical.
   The caller's record is its supergraph (PP_FN_IPP): ppprof shows each
   path as the caller's path, the callee's, and the caller's continuation.
   Functions without sites are instrumented as usual.  */
#include "plugin.h"

#include "pp/ipp.h"
#include "pp/rt_abi.h"
#include "tree-inline.h"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <set>

namespace {

/* A function of the unit, as it was before anything changed.  */
struct unit_fn
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
  ~unit_fn () { pp_numbering_free (n); }
};

/* A call chosen for expansion.  */
struct call_point
{
  gcall *call;
  int node;                        /* its block's graph node */
  int point;                       /* rank among its block's points */
  int order;                       /* statement index in the block */
  std::vector<unit_fn *> targets;
  bool indirect;
  uint64_t weight;                 /* executions of its block */
};

struct dup_fn;

struct caller_fn
{
  unit_fn *f;
  std::vector<call_point> points;
  std::vector<pp_ipp_site> sites;
  std::vector<int> site_point;     /* site -> point */
  std::vector<unit_fn *> site_target; /* site -> callee */
  std::vector<dup_fn *> site_dup;  /* site -> duplicate */
  std::vector<unsigned> site_ctx;  /* site -> its context in the dup */
  pp_ipp_supergraph *sg = nullptr;
  pp_numbering *sn = nullptr;
  /* After the call points are cut out: the block of each part (by graph
     node, part), the plain call's edge of each indirect point.  */
  std::map<std::pair<int, int>, basic_block> part_block;
  std::vector<edge> bypass;        /* by point */
  tree regs[2] = { NULL_TREE, NULL_TREE };
  tree tmp = NULL_TREE;            /* the registers handed to a callee */
  ppgcc_fn fn;
  ~caller_fn ()
  {
    pp_numbering_free (sn);
    pp_ipp_free (sg);
  }
};

/* A duplicate of a callee, and the call sites it serves.  */
struct dup_fn
{
  unit_fn *callee;
  tree decl = NULL_TREE;
  function *fun = nullptr;
  ppgcc_cfg cfg;                   /* callee's graph -> the dup's CFG */
  tree regs_parm = NULL_TREE, ctx_parm = NULL_TREE;
  std::vector<std::pair<caller_fn *, int> > contexts; /* (caller, site) */
};

std::vector<std::unique_ptr<unit_fn> > unit;
std::map<cgraph_node *, unit_fn *> by_node;
std::vector<std::unique_ptr<caller_fn> > callers;
std::vector<std::unique_ptr<dup_fn> > dups;

const char *
fn_name (tree decl)
{
  return IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (decl));
}

tree
regs_type ()
{
  return build_array_type_nelts (ppgcc_u64_type (), 2);
}

/* Whether F's body can be duplicated and spliced in: forwardable (no
   varargs, static chain, setjmp, abnormal edges, ...), prototyped, and
   without EH edges (a segment would have nowhere to go).  */
bool
dupable_p (unit_fn &f)
{
  tree decl = f.fun->decl;
  if (!ppgcc_forwardable_p (f.fun) || !prototype_p (TREE_TYPE (decl))
      || DECL_EXTERNAL (decl))
    return false;
  /* =inline puts per-site copies in place by always_inline: never for a
     function the user keeps out of line or compiles differently.  */
  if (ppgcc_opts.ipp == ppgcc_options::IPP_INLINE)
    {
      static const char *const keep_out[] = { "noinline", "noipa", "target",
                                              "optimize", "cold" };
      if (DECL_UNINLINABLE (decl))
        return false;
      for (const char *a : keep_out)
        if (lookup_attribute (a, DECL_ATTRIBUTES (decl)))
          return false;
    }
  basic_block bb;
  FOR_ALL_BB_FN (bb, f.fun)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
        if (e->flags & EDGE_COMPLEX)
          return false;
    }
  return true;
}

uint64_t
count_stmts (function *fun)
{
  uint64_t n = 0;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_nondebug_bb (bb);
         !gsi_end_p (gsi); gsi_next_nondebug (&gsi))
      n++;
  return n;
}

/* The unit's functions, their CFGs and numberings, and what the profile
   in use says they ran.  */
void
collect_unit ()
{
  bool missing;
  bool have_profile = ppgcc_profile_in_use (&missing);
  cgraph_node *node;
  FOR_EACH_FUNCTION_WITH_GIMPLE_BODY (node)
    {
      function *fun = DECL_STRUCT_FUNCTION (node->decl);
      if (!fun || !fun->cfg || ppgcc_skip_function (fun))
        continue;
      auto f = std::make_unique<unit_fn> ();
      f->node = node;
      f->fun = fun;
      f->name = fn_name (node->decl);
      push_cfun (fun);
      ppgcc_build_cfg (fun, f->cfg);
      char err[256];
      pp_options opt = { 0 };
      f->n = pp_number (f->cfg.graph, &opt, err, sizeof err);
      f->checksum = pp_graph_checksum (f->cfg.graph);
      f->size = count_stmts (fun);
      f->dupable = f->n && dupable_p (*f);
      if (f->n && have_profile)
        {
          bool mismatch;
          const ppd_fn *p = ppgcc_profile_function (fun, f->name.c_str (),
                                                    f->checksum, &mismatch);
          if (p && !(p->flags & PP_FN_IPP))
            {
              ppgcc_executed_paths (p, f->n, f->run_ids, f->run_counts);
              ppgcc_counts c;
              if (ppgcc_cfg_counts (f->cfg, f->n, f->run_ids, f->run_counts,
                                    c))
                f->node_count = c.node;
              for (uint64_t k : f->run_counts)
                f->executions += k;
            }
        }
      pop_cfun ();
      by_node[node] = f.get ();
      unit.push_back (std::move (f));
    }
}

/* Whether CALL passes DECL's parameters and takes its result as they
   are: the duplicate is called with the same arguments.  */
bool
call_matches_p (gcall *call, tree decl)
{
  tree parm = DECL_ARGUMENTS (decl);
  for (unsigned i = 0; i < gimple_call_num_args (call);
       i++, parm = DECL_CHAIN (parm))
    if (!parm || !useless_type_conversion_p (TREE_TYPE (parm),
                                             TREE_TYPE (gimple_call_arg (call,
                                                                         i))))
      return false;
  if (parm)
    return false;
  tree lhs = gimple_call_lhs (call);
  return !lhs || useless_type_conversion_p (TREE_TYPE (lhs),
                                            TREE_TYPE (TREE_TYPE (decl)));
}

/* The unit function a direct call reaches, when it can be expanded.  */
unit_fn *
direct_target (gcall *call)
{
  tree decl = gimple_call_fndecl (call);
  if (!decl)
    return nullptr;
  cgraph_node *cn = cgraph_node::get (decl);
  if (!cn)
    return nullptr;
  cn = cn->ultimate_alias_target ();
  auto it = by_node.find (cn);
  if (it == by_node.end ())
    return nullptr;
  unit_fn *t = it->second;
  if (!t->dupable || t->run_ids.empty ()
      || !call_matches_p (call, t->node->decl))
    return nullptr;
  return t;
}

/* Validated targets of an indirect call: unit functions of a matching
   type whose address is taken and that ran, the two most run.  */
std::vector<unit_fn *>
indirect_targets (gcall *call)
{
  std::vector<unit_fn *> out;
  for (auto &u : unit)
    if (u->node->address_taken && u->dupable && !u->run_ids.empty ()
        && call_matches_p (call, u->node->decl))
      out.push_back (u.get ());
  std::stable_sort (out.begin (), out.end (),
                    [] (const unit_fn *a, const unit_fn *b) {
                      return a->executions > b->executions;
                    });
  if (out.size () > 2)
    out.resize (2);
  return out;
}

bool
expandable_call_p (gimple *stmt)
{
  gcall *call = dyn_cast<gcall *> (stmt);
  return call && !gimple_call_internal_p (call) && !stmt_ends_bb_p (call)
         && !(gimple_call_flags (call) & (ECF_RETURNS_TWICE | ECF_NORETURN))
         && !gimple_call_chain (call);
}

void
note_skip (gcall *call, const char *why)
{
  if (ppgcc_opts.opt_info)
    inform (gimple_location (call), "ppgcc: call not expanded into a path "
            "segment: %s", why);
}

/* The call points of each caller that ran (thesis §3.5.2 stage II),
   within the growth limit, hottest first.  */
void
choose_points ()
{
  struct candidate
  {
    unit_fn *caller;
    call_point p;
  };
  std::vector<candidate> all;
  uint64_t unit_size = 0;
  for (auto &u : unit)
    {
      unit_size += u->size;
      if (u->node_count.empty ())
        continue;
      for (size_t v = 0; v < u->cfg.blocks.size (); v++)
        {
          basic_block bb = u->cfg.blocks[v];
          if (!u->node_count[v] || bb->index < NUM_FIXED_BLOCKS)
            continue;
          int order = 0;
          for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
               gsi_next (&gsi), order++)
            {
              gimple *stmt = gsi_stmt (gsi);
              if (!is_gimple_call (stmt))
                continue;
              gcall *call = as_a<gcall *> (stmt);
              call_point p = { call, (int) v, 0, order, {}, false,
                               u->node_count[v] };
              if (!expandable_call_p (call))
                continue;
              if (gimple_call_fndecl (call))
                {
                  unit_fn *t = direct_target (call);
                  if (!t)
                    {
                      cgraph_node *cn = cgraph_node::get (
                          gimple_call_fndecl (call));
                      if (cn && by_node.count (cn->ultimate_alias_target ()))
                        note_skip (call, "the callee cannot be duplicated, "
                                   "or did not run");
                      continue;
                    }
                  p.targets.push_back (t);
                }
              else
                {
                  p.targets = indirect_targets (call);
                  p.indirect = true;
                  if (p.targets.empty ())
                    {
                      note_skip (call, "no function of this unit that ran "
                                 "matches the indirect call");
                      continue;
                    }
                }
              all.push_back ({ u.get (), p });
            }
        }
    }
  /* Hottest first; at equal heat, calls of functions that call nothing
     expandable themselves (the innermost segments).  */
  std::set<unit_fn *> has_candidates;
  for (const candidate &c : all)
    has_candidates.insert (c.caller);
  auto leaf = [&] (const candidate &c) {
    for (unit_fn *t : c.p.targets)
      if (has_candidates.count (t))
        return false;
    return true;
  };
  std::stable_sort (all.begin (), all.end (),
                    [&] (const candidate &a, const candidate &b) {
                      if (a.p.weight != b.p.weight)
                        return a.p.weight > b.p.weight;
                      return leaf (a) && !leaf (b);
                    });
  uint64_t budget = unit_size * ppgcc_opts.ipp_growth / 100, used = 0;
  std::set<unit_fn *> duplicated;
  std::map<unit_fn *, caller_fn *> caller_of;
  for (candidate &c : all)
    {
      /* Depth 1: a segment runs from a caller into one callee; a callee
         that is expanded keeps no expansion of its own in its duplicate,
         so a function is either expanded into its callers or expands its
         own calls (the hotter site decides).  */
      bool chained = duplicated.count (c.caller) != 0;
      for (unit_fn *t : c.p.targets)
        chained |= caller_of.count (t) != 0;
      if (chained)
        {
          note_skip (c.p.call, "depth 1: the caller is expanded into its "
                     "own caller, or the callee expands its calls");
          continue;
        }
      uint64_t cost = 0;
      for (unit_fn *t : c.p.targets)
        if (ppgcc_opts.ipp == ppgcc_options::IPP_INLINE
            || !duplicated.count (t))
          cost += t->size;
      if (used + cost > budget)
        {
          note_skip (c.p.call, "code growth limit "
                     "(-fprofile-paths-ipp-growth)");
          continue;
        }
      used += cost;
      for (unit_fn *t : c.p.targets)
        {
          duplicated.insert (t);
          if (ppgcc_opts.opt_info)
            inform (gimple_location (c.p.call), "ppgcc: call of %qs "
                    "expanded into the path segments of %qs%s",
                    t->name.c_str (), c.caller->name.c_str (),
                    c.p.indirect ? " (indirect: validated at run time)"
                                 : "");
        }
      caller_fn *&cf = caller_of[c.caller];
      if (!cf)
        {
          callers.push_back (std::make_unique<caller_fn> ());
          cf = callers.back ().get ();
          cf->f = c.caller;
        }
      cf->points.push_back (c.p);
    }
  /* Statement order within each block: the points' ranks.  */
  for (auto &cf : callers)
    {
      std::sort (cf->points.begin (), cf->points.end (),
                 [] (const call_point &a, const call_point &b) {
                   return a.node != b.node ? a.node < b.node
                                           : a.order < b.order;
                 });
      for (size_t i = 0; i < cf->points.size (); i++)
        cf->points[i].point = i && cf->points[i - 1].node
                                       == cf->points[i].node
                              ? cf->points[i - 1].point + 1 : 0;
    }
}

/* The supergraph of each caller and its numbering; a caller whose
   supergraph cannot be numbered keeps its plain instrumentation.  */
void
build_supergraphs ()
{
  for (auto it = callers.begin (); it != callers.end ();)
    {
      caller_fn &cf = **it;
      for (size_t i = 0; i < cf.points.size (); i++)
        for (unit_fn *t : cf.points[i].targets)
          {
            pp_ipp_site s = { -1, cf.points[i].node, cf.points[i].point,
                              t->cfg.graph, t->name.c_str (),
                              cf.points[i].indirect };
            cf.sites.push_back (s);
            cf.site_point.push_back ((int) i);
            cf.site_target.push_back (t);
          }
      char err[256];
      cf.sg = pp_ipp_build (cf.f->cfg.graph, cf.sites.data (),
                            (int) cf.sites.size (), err, sizeof err);
      pp_options opt = { 0 };
      if (cf.sg)
        cf.sn = pp_number (cf.sg->graph, &opt, err, sizeof err);
      if (!cf.sn)
        {
          warning (0, "ppgcc: %qs keeps intraprocedural paths: %s",
                   cf.f->name.c_str (), err);
          it = callers.erase (it);
          continue;
        }
      ++it;
    }
}

/* Appends a parameter of TYPE to the duplicate DECL.  */
tree
add_parm (tree decl, tree type, const char *name)
{
  tree parm = build_decl (DECL_SOURCE_LOCATION (decl), PARM_DECL,
                          get_identifier (name), type);
  DECL_ARG_TYPE (parm) = type;
  DECL_CONTEXT (parm) = decl;
  DECL_ARTIFICIAL (parm) = 1;
  TREE_USED (parm) = 1;
  DECL_ARGUMENTS (decl) = chainon (DECL_ARGUMENTS (decl), parm);
  tree old = TREE_TYPE (decl), args = NULL_TREE;
  for (tree a = TYPE_ARG_TYPES (old); a && a != void_list_node;
       a = TREE_CHAIN (a))
    args = tree_cons (NULL_TREE, TREE_VALUE (a), args);
  args = chainon (nreverse (tree_cons (NULL_TREE, type, args)),
                  void_list_node);
  tree type2 = build_function_type (TREE_TYPE (old), args);
  TREE_TYPE (decl) = build_type_attribute_variant (type2,
                                                   TYPE_ATTRIBUTES (old));
  return parm;
}

/* A duplicate of CALLEE's plain body: local, with the registers'
   address (and, shared, the context) as its last parameters.  */
dup_fn *
make_dup (unit_fn *callee, bool shared)
{
  auto d = std::make_unique<dup_fn> ();
  d->callee = callee;
  /* Per-site copies are numbered: clone names are not made unique
     everywhere (at -O0 two copies of one callee would clash).  */
  static unsigned serial;
  std::string suffix = shared ? "pp_ipp"
                              : "pp_ipp_in" + std::to_string (serial++);
  push_cfun (callee->fun);
  cgraph_node *node = callee->node->create_version_clone_with_body (
      vNULL, NULL, NULL, NULL, NULL, suffix.c_str (), NULL_TREE, false);
  pop_cfun ();
  if (!node)
    return nullptr;
  d->decl = node->decl;
  d->fun = DECL_STRUCT_FUNCTION (d->decl);
  d->cfg.blocks = callee->cfg.blocks;
  d->cfg.edges = callee->cfg.edges;
  if (!ppgcc_map_copy_cfg (callee->fun, d->fun, d->cfg))
    {
      node->remove ();
      return nullptr;
    }
  d->regs_parm = add_parm (d->decl, build_pointer_type (ppgcc_u64_type ()),
                           "pp_regs");
  if (shared)
    d->ctx_parm = add_parm (d->decl, unsigned_type_node, "pp_ctx");
  tree decl = d->decl;
  if (shared)
    {
      /* Shared by its contexts: never put back into a caller.  */
      DECL_ATTRIBUTES (decl) = tree_cons (get_identifier ("noinline"),
                                          NULL_TREE, DECL_ATTRIBUTES (decl));
      DECL_UNINLINABLE (decl) = 1;
      DECL_DECLARED_INLINE_P (decl) = 0;
      DECL_DISREGARD_INLINE_LIMITS (decl) = 0;
    }
  else
    {
      /* Selective inlining: in place at its one call, at any -O (at -O0
         only always_inline is inlined).  */
      DECL_UNINLINABLE (decl) = 0;
      DECL_DECLARED_INLINE_P (decl) = 1;
      DECL_DISREGARD_INLINE_LIMITS (decl) = 1;
      DECL_ATTRIBUTES (decl) = tree_cons (get_identifier ("always_inline"),
                                          NULL_TREE, DECL_ATTRIBUTES (decl));
    }
  dups.push_back (std::move (d));
  return dups.back ().get ();
}

/* Duplicates for every site: one per callee (clone) or per site
   (inline).  A site whose duplicate cannot be made drops its caller's
   expansion altogether (the supergraph would not match).  */
void
make_dups ()
{
  bool shared = ppgcc_opts.ipp == ppgcc_options::IPP_CLONE;
  std::map<unit_fn *, dup_fn *> shared_dup;
  for (auto &cf : callers)
    for (size_t s = 0; s < cf->sites.size (); s++)
      {
        unit_fn *t = cf->site_target[s];
        dup_fn *d = shared ? shared_dup[t] : nullptr;
        if (!d)
          {
            d = make_dup (t, shared);
            if (shared)
              shared_dup[t] = d;
          }
        cf->site_dup.push_back (d);
        cf->site_ctx.push_back (d ? (unsigned) d->contexts.size () : 0);
        if (d)
          d->contexts.push_back ({ cf.get (), (int) s });
      }
}

tree
reg_slot (tree base, int i)
{
  return build4 (ARRAY_REF, ppgcc_u64_type (), base, size_int (i), NULL_TREE,
                 NULL_TREE);
}

/* The call of a site's duplicate in place of CALL (a copy of it when
   KEEP): registers handed over before, taken back after.  */
gcall *
dup_call (caller_fn &cf, gcall *call, int site, tree lhs)
{
  dup_fn *d = cf.site_dup[site];
  auto_vec<tree> args;
  for (unsigned i = 0; i < gimple_call_num_args (call); i++)
    args.safe_push (gimple_call_arg (call, i));
  args.safe_push (build_fold_addr_expr (cf.tmp));
  if (d->ctx_parm)
    args.safe_push (build_int_cst (unsigned_type_node, cf.site_ctx[site]));
  gcall *nc = gimple_build_call_vec (d->decl, args);
  gimple_call_set_lhs (nc, lhs);
  gimple_set_location (nc, gimple_location (call));
  gimple_set_block (nc, gimple_block (call));
  gimple_call_set_return_slot_opt (nc, gimple_call_return_slot_opt_p (call));
  gimple_call_set_nothrow (nc, gimple_call_nothrow_p (call));
  return nc;
}

void
hand_over (caller_fn &cf, gimple_stmt_iterator *gsi)
{
  for (int r = 0; r < 2; r++)
    if (cf.regs[r])
      gsi_insert_before (gsi, gimple_build_assign (reg_slot (cf.tmp, r),
                                                   cf.regs[r]),
                         GSI_SAME_STMT);
}

void
take_back (caller_fn &cf, gimple_stmt_iterator *gsi)
{
  for (int r = 1; r >= 0; r--)
    if (cf.regs[r])
      gsi_insert_after (gsi, gimple_build_assign (cf.regs[r],
                                                  reg_slot (cf.tmp, r)),
                        GSI_SAME_STMT);
}

/* A new block after AFTER, in its loop.  */
basic_block
new_block (basic_block after)
{
  basic_block bb = create_empty_bb (after);
  if (current_loops)
    add_bb_to_loop (bb, after->loop_father);
  return bb;
}

/* Cuts the caller's blocks at its call points and puts the duplicates'
   calls in: B | call | rest, where B is the part before the call (the
   supergraph's part j) and rest the part after it (part j+1).  An
   indirect call point becomes a test per target, each calling its
   duplicate, and the plain call for the other targets (the bypass).  */
void
cut_call_points (caller_fn &cf)
{
  function *fun = cf.f->fun;
  push_cfun (fun);
  cf.regs[0] = create_tmp_var (ppgcc_u64_type (), "pp_path");
  cf.regs[1] = NULL_TREE; /* set by instrument_caller when PPP */
  cf.tmp = create_tmp_var (regs_type (), "pp_regs");
  TREE_ADDRESSABLE (cf.tmp) = 1;
  cf.bypass.assign (cf.points.size (), nullptr);
  int first_site = 0;
  for (size_t i = 0; i < cf.points.size (); i++)
    {
      call_point &p = cf.points[i];
      int nsites = (int) p.targets.size ();
      basic_block before = p.point == 0
                               ? cf.f->cfg.blocks[p.node]
                               : cf.part_block[{ p.node, p.point }];
      if (p.point == 0)
        cf.part_block[{ p.node, 0 }] = before;
      gcall *call = p.call;
      gcc_assert (gimple_bb (call) == before);
      gimple_stmt_iterator gsi = gsi_for_stmt (call);
      gsi_prev (&gsi);
      edge e1 = gsi_end_p (gsi) ? split_block_after_labels (before)
                                : split_block (before, gsi_stmt (gsi));
      basic_block cb = e1->dest;
      edge e2 = split_block (cb, call);
      basic_block after = e2->dest;
      cf.part_block[{ p.node, p.point + 1 }] = after;
      if (!p.indirect)
        {
          gimple_stmt_iterator g = gsi_for_stmt (call);
          gcall *nc = dup_call (cf, call, first_site, gimple_call_lhs (call));
          gsi_replace (&g, nc, false);
          g = gsi_for_stmt (nc);
          hand_over (cf, &g);
          take_back (cf, &g);
        }
      else
        {
          /* The result, defined on several arms now, goes through a
             variable.  */
          tree lhs = gimple_call_lhs (call), via = lhs;
          if (lhs && TREE_CODE (lhs) == SSA_NAME)
            {
              via = create_tmp_var (TREE_TYPE (lhs), "pp_ret");
              gimple_call_set_lhs (call, via);
              gimple_stmt_iterator g = gsi_after_labels (after);
              gsi_insert_before (&g, gimple_build_assign (lhs, via),
                                 GSI_NEW_STMT);
            }
          tree fnptr = gimple_call_fn (call);
          basic_block test_after = before;
          edge into = e1;
          for (int k = 0; k < nsites; k++)
            {
              basic_block test = new_block (test_after);
              basic_block arm = new_block (test);
              redirect_edge_succ (into, test);
              tree target = cf.points[i].targets[k]->node->decl;
              tree addr = build_fold_addr_expr_with_type (
                  target, TREE_TYPE (fnptr));
              gimple_stmt_iterator g = gsi_start_bb (test);
              gsi_insert_after (&g, gimple_build_cond (EQ_EXPR, fnptr, addr,
                                                       NULL_TREE, NULL_TREE),
                                GSI_NEW_STMT);
              edge yes = make_edge (test, arm, EDGE_TRUE_VALUE);
              yes->probability = profile_probability::likely ();
              edge no = make_edge (test, cb, EDGE_FALSE_VALUE);
              no->probability = yes->probability.invert ();
              gcall *nc = dup_call (cf, call, first_site + k, via);
              g = gsi_start_bb (arm);
              gsi_insert_after (&g, nc, GSI_NEW_STMT);
              hand_over (cf, &g);
              take_back (cf, &g);
              make_single_succ_edge (arm, after, EDGE_FALLTHRU);
              into = no;
              test_after = arm;
            }
          cf.bypass[i] = e2;
        }
      first_site += nsites;
    }
  free_dominance_info (CDI_DOMINATORS);
  if (current_loops)
    loops_state_set (LOOPS_NEED_FIXUP);
  pop_cfun ();
}

/* Where the probes of the supergraph go in the caller: its own nodes and
   edges, the parts of cut blocks, the bypass edges; the rest is in the
   duplicates.  */
void
caller_view (caller_fn &cf, ppgcc_cfg &view)
{
  const pp_ipp_supergraph *sg = cf.sg;
  view.blocks.assign (sg->num_nodes, nullptr);
  view.edges.assign (sg->num_edges, nullptr);
  for (int v = 0; v < sg->num_nodes; v++)
    {
      const pp_ipp_node &nd = sg->nodes[v];
      if (nd.owner != -1)
        continue;
      auto it = cf.part_block.find ({ nd.node, nd.part });
      view.blocks[v] = it != cf.part_block.end () ? it->second
                                                  : cf.f->cfg.blocks[nd.node];
    }
  for (int e = 0; e < sg->num_edges; e++)
    {
      const pp_ipp_edge &ed = sg->edges[e];
      if (ed.kind == PP_IPP_BODY && ed.owner == -1)
        view.edges[e] = cf.f->cfg.edges[ed.edge];
      else if (ed.kind == PP_IPP_BYPASS && ed.owner == -1)
        view.edges[e] = cf.bypass[cf.site_point[ed.site]];
    }
}

/* The same for site S's part, in its duplicate D.  */
void
dup_view (const caller_fn &cf, int s, const dup_fn &d, ppgcc_cfg &view)
{
  const pp_ipp_supergraph *sg = cf.sg;
  view.blocks.assign (sg->num_nodes, nullptr);
  view.edges.assign (sg->num_edges, nullptr);
  for (int v = 0; v < sg->num_nodes; v++)
    if (sg->nodes[v].owner == s && sg->nodes[v].part == 0)
      view.blocks[v] = d.cfg.blocks[sg->nodes[v].node];
  for (int e = 0; e < sg->num_edges; e++)
    {
      const pp_ipp_edge &ed = sg->edges[e];
      if ((ed.kind == PP_IPP_BODY && ed.owner == s)
          || ((ed.kind == PP_IPP_CALL || ed.kind == PP_IPP_RETURN)
              && ed.site == s))
        view.edges[e] = d.cfg.edges[ed.edge];
    }
}

/* A view's graph is the supergraph's, not its own.  */
struct view_cfg : ppgcc_cfg
{
  ~view_cfg () { graph = nullptr; }
};

std::string
site_annotations (const caller_fn &cf)
{
  std::string m;
  char buf[512];
  for (size_t s = 0; s < cf.sites.size (); s++)
    {
      const pp_ipp_site &st = cf.sites[s];
      snprintf (buf, sizeof buf,
                "# ipp site %zu node %s point %d callee %s checksum 0x%08x%s\n",
                s, pp_graph_node_name (cf.f->cfg.graph, st.node), st.point,
                st.callee_name, pp_graph_checksum (st.callee),
                st.indirect ? " indirect" : "");
      m += buf;
    }
  return m;
}

/* The interesting supergraph paths of CF (thesis §3.4.4 step 6): from the
   intraprocedural profiles of the caller and its callees, every segment
   whose parts ran (lib/ipp_compose.c; thesis §3.5.2 stage II, which
   over-approximates what a whole-program path would give).  False, after
   a warning, when there would be too many.  */
bool
caller_interesting (caller_fn &cf, std::vector<pp_pathid> &ids)
{
  pp_ipp_profile caller = { cf.f->n, cf.f->run_ids.data (),
                            cf.f->run_ids.size () };
  std::vector<pp_ipp_profile> sites;
  for (unit_fn *t : cf.site_target)
    sites.push_back ({ t->n, t->run_ids.data (), t->run_ids.size () });
  pp_pathid *out = nullptr;
  size_t nout = 0;
  char err[256] = "";
  const size_t cap = 1u << 20;
  int r = pp_ipp_compose (cf.sg, cf.sn, &caller, sites.data (), cap, &out,
                          &nout, err, sizeof err);
  if (r != 0)
    {
      warning (0, "ppgcc: %qs: no interesting path segments (%s); "
               "Ball-Larus numbering of its supergraph instead",
               cf.f->name.c_str (),
               r > 0 ? "more than 2^20 combinations" : err);
      free (out);
      return false;
    }
  ids.assign (out, out + nout);
  free (out);
  return true;
}

/* The caller's record and probes: the supergraph numbered and planned
   once; the caller's share of the probes in the caller.  */
void
instrument_caller (caller_fn &cf)
{
  function *fun = cf.f->fun;
  const char *fname = cf.f->name.c_str ();
  ppgcc_fn &fn = cf.fn;
  fn.name = fname;
  fn.checksum = pp_graph_checksum (cf.sg->graph);
  view_cfg meta_view;
  meta_view.graph = cf.sg->graph;
  push_cfun (fun);
  fn.meta = ppgcc_metadata (fun, meta_view, fn.checksum)
            + site_annotations (cf);
  fn.num_paths = cf.sn->num_paths;
  fn.flags = PP_FN_IPP | (cf.sn->num_cuts ? PP_FN_TRUNCATED : 0);
  fn.desc = ppgcc_new_desc ();
  std::vector<pp_pathid> ids;
  bool trained = ppgcc_opts.mode != PPGCC_MODE_BL
                 && caller_interesting (cf, ids);
  ppgcc_choose_counting (fun, fname, cf.sn, fn, ids, trained);
  if (fn.ppp_ids)
    cf.regs[1] = create_tmp_var (ppgcc_u64_type (), "pp_ppp");
  pop_cfun ();
  /* The PPP register is handed over too: calls made before it existed
     get their copies now.  */
  if (cf.regs[1])
    {
      push_cfun (fun);
      basic_block bb;
      FOR_EACH_BB_FN (bb, fun)
        for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
             gsi_next (&gsi))
          {
            gassign *a = dyn_cast<gassign *> (gsi_stmt (gsi));
            if (!a || !gimple_assign_single_p (a))
              continue;
            tree lhs = gimple_assign_lhs (a), rhs = gimple_assign_rhs1 (a);
            if (lhs == cf.regs[0] && TREE_CODE (rhs) == ARRAY_REF
                && TREE_OPERAND (rhs, 0) == cf.tmp)
              gsi_insert_after (&gsi, gimple_build_assign (
                                          cf.regs[1], reg_slot (cf.tmp, 1)),
                                GSI_NEW_STMT);
            else if (rhs == cf.regs[0] && TREE_CODE (lhs) == ARRAY_REF
                     && TREE_OPERAND (lhs, 0) == cf.tmp)
              gsi_insert_before (&gsi, gimple_build_assign (
                                           reg_slot (cf.tmp, 1), cf.regs[1]),
                                 GSI_SAME_STMT);
          }
      pop_cfun ();
    }
  ppgcc_fns.push_back (fn);
}

void
insert_caller_probes (caller_fn &cf, const pp_probe *probes, int nprobes)
{
  view_cfg view;
  caller_view (cf, view);
  push_cfun (cf.f->fun);
  ppgcc_insert_probes (cf.f->fun, view, probes, nprobes, cf.fn, cf.regs);
  cgraph_edge::rebuild_edges ();
  pop_cfun ();
}

/* The duplicate's own setup: each context's registers loaded from the
   caller's at entry (in a block of their own, before any probe), and
   with several contexts, the flags saying which one runs.  */
struct dup_state
{
  std::vector<std::array<tree, 2> > regs; /* by context */
  std::vector<tree> guard;                /* by context (shared only) */
};

tree
regs_ref (const dup_fn &d, int r)
{
  tree ptr = TREE_TYPE (d.regs_parm);
  return build2 (MEM_REF, ppgcc_u64_type (), d.regs_parm,
                 build_int_cst (ptr, r * 8));
}

void
prepare_dup (dup_fn &d, dup_state &st)
{
  function *fun = d.fun;
  push_cfun (fun);
  edge in = single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (fun));
  basic_block head = split_edge (in);
  /* The callee's entry edge, as mapped, now leaves the new block.  */
  for (edge &e : d.cfg.edges)
    if (e && e->src == ENTRY_BLOCK_PTR_FOR_FN (fun))
      e = single_succ_edge (head);
  gimple_stmt_iterator gsi = gsi_start_bb (head);
  for (size_t c = 0; c < d.contexts.size (); c++)
    {
      caller_fn &cf = *d.contexts[c].first;
      std::array<tree, 2> r = { NULL_TREE, NULL_TREE };
      for (int k = 0; k < 2; k++)
        if (cf.regs[k])
          {
            r[k] = create_tmp_var (ppgcc_u64_type (), k ? "pp_ppp"
                                                         : "pp_path");
            gsi_insert_after (&gsi, gimple_build_assign (r[k],
                                                         regs_ref (d, k)),
                              GSI_NEW_STMT);
          }
      st.regs.push_back (r);
      tree g = NULL_TREE;
      if (d.contexts.size () > 1)
        {
          g = create_tmp_var (boolean_type_node, "pp_ctx_on");
          gsi_insert_after (&gsi, gimple_build_assign (
                                      g, EQ_EXPR, d.ctx_parm,
                                      build_int_cst (unsigned_type_node, c)),
                            GSI_NEW_STMT);
        }
      st.guard.push_back (g);
    }
  pop_cfun ();
}

/* Hands the running context's registers back before each return.  */
void
finish_dup (dup_fn &d, const dup_state &st)
{
  function *fun = d.fun;
  push_cfun (fun);
  std::vector<greturn *> rets;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    {
      gimple_stmt_iterator gsi = gsi_last_bb (bb);
      if (!gsi_end_p (gsi))
        if (greturn *r = dyn_cast<greturn *> (gsi_stmt (gsi)))
          rets.push_back (r);
    }
  for (greturn *ret : rets)
    {
      gimple_stmt_iterator gsi = gsi_for_stmt (ret);
      for (int k = 0; k < 2; k++)
        {
          tree val = NULL_TREE;
          for (size_t c = 0; c < st.regs.size (); c++)
            {
              if (!st.regs[c][k])
                continue;
              if (!val)
                {
                  val = st.regs[c][k];
                  continue;
                }
              tree sel = create_tmp_var (ppgcc_u64_type (), "pp_sel");
              gsi_insert_before (&gsi, gimple_build_assign (
                                           sel, COND_EXPR, st.guard[c],
                                           st.regs[c][k], val),
                                 GSI_SAME_STMT);
              val = sel;
            }
          if (val)
            gsi_insert_before (&gsi, gimple_build_assign (regs_ref (d, k), val),
                             GSI_SAME_STMT);
        }
    }
  cgraph_edge::rebuild_edges ();
  pop_cfun ();
}

} // namespace

void
ppgcc_ipp_instrument_unit ()
{
  if (ppgcc_opts.ipp_depth > 1)
    warning (0, "ppgcc: %<-fprofile-paths-ipp-depth=%llu%>: depth 1 only "
             "for now", ppgcc_opts.ipp_depth);
  collect_unit ();
  choose_points ();
  build_supergraphs ();
  make_dups ();
  /* A caller with a site left without a duplicate keeps its plain
     paths.  */
  for (auto it = callers.begin (); it != callers.end ();)
    {
      bool ok = true;
      for (dup_fn *d : (*it)->site_dup)
        ok &= d != nullptr;
      if (!ok)
        {
          warning (0, "ppgcc: %qs keeps intraprocedural paths: a callee "
                   "could not be duplicated", (*it)->f->name.c_str ());
          for (auto &d : dups)
            {
              auto &cx = d->contexts;
              cx.erase (std::remove_if (cx.begin (), cx.end (),
                                        [&] (const std::pair<caller_fn *,
                                                             int> &c) {
                                          return c.first == it->get ();
                                        }),
                        cx.end ());
            }
          it = callers.erase (it);
        }
      else
        ++it;
    }

  std::set<unit_fn *> is_caller;
  for (auto &cf : callers)
    {
      is_caller.insert (cf->f);
      cut_call_points (*cf);
      instrument_caller (*cf);
    }
  /* Plain functions, as the "cfg" pass would have done them.  */
  for (auto &u : unit)
    if (!is_caller.count (u.get ()))
      {
        push_cfun (u->fun);
        ppgcc_instrument_function (u->fun);
        cgraph_edge::rebuild_edges ();
        pop_cfun ();
      }
  /* Every caller's plan: its part in the caller, each site's part in the
     site's duplicate under the site's context.  */
  std::map<dup_fn *, dup_state> states;
  for (auto &d : dups)
    if (!d->contexts.empty ())
      prepare_dup (*d, states[d.get ()]);
  for (auto &cf : callers)
    {
      pp_probe *probes;
      int nprobes = pp_plan (cf->sn, cf->sg->graph, &probes);
      insert_caller_probes (*cf, probes, nprobes);
      for (size_t s = 0; s < cf->sites.size (); s++)
        {
          dup_fn &d = *cf->site_dup[s];
          dup_state &st = states[&d];
          unsigned c = cf->site_ctx[s];
          view_cfg view;
          dup_view (*cf, (int) s, d, view);
          ppgcc_fn fn = cf->fn;
          fn.switch_check = false;
          fn.count_guard = st.guard[c];
          tree regs[2] = { st.regs[c][0], st.regs[c][1] };
          push_cfun (d.fun);
          ppgcc_insert_probes (d.fun, view, probes, nprobes, fn, regs);
          pop_cfun ();
        }
      free (probes);
    }
  for (auto &d : dups)
    if (!d->contexts.empty ())
      finish_dup (*d, states[d.get ()]);
    else if (cgraph_node *n = cgraph_node::get (d->decl))
      n->remove ();
  callers.clear ();
  dups.clear ();
  by_node.clear ();
  unit.clear ();
}
