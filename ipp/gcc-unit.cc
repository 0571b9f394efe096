/* Interprocedural path segments: -fprofile-paths-ipp=inline|clone
   (thesis §3.4, IPPP; §3.5.2, its "alternative scheme").  doc/ipp.md has
   the design; this file instruments the unit.

   Run once, when every function of the unit is lowered and none is in
   SSA form yet (PLUGIN_ALL_IPA_PASSES_START), so that a caller and its
   callees can be looked at together:

   1. gcc-sites.cc chooses the calls to expand and builds each caller's
      supergraph (ipp/supergraph.c), which is numbered as the caller's paths:
      its paths are its segments.  Interesting paths for PPP and residual
      profiling come from the profiles of the caller and the callees
      (ipp/compose.c, §3.4.4 steps 6-7).
   2. The callee part of the supergraph runs in a duplicate of the callee
      to which the caller hands its path registers and which hands them
      back (§3.4.5, Fig 3.14):  tmp = r; callee.dup (args, &tmp); r = tmp.
      - clone: one duplicate per callee, shared by all its call sites (by
        at most -fprofile-paths-ipp-contexts of them: then another).
        Each site is a context: the duplicate keeps one register set per
        context (each edge adds every context's increment, as the thesis
        says), counts only for the running context (its number is the
        last argument), and hands back that context's registers.  Code
        does not grow with the number of contexts, only the increments.
      - inline: one duplicate per call site, with that site's increments
        only, always_inline (GCC puts it in place at every -O level):
        selective inlining, whose code grows with each site.
      At depth > 1 a callee copy that holds deeper expanded calls is a
      duplicate of its own (one context: its registers are handed on).
      Both schemes number the same supergraph with the same plan: their
      counts are identical.
   The caller's record is its supergraph (PP_FN_IPP): ppprof shows each
   path as the caller's path, the callee's, and the caller's continuation.
   Functions without expanded calls are instrumented as usual.  */
#include "gcc-ipp.h"

#include "pp/rt_abi.h"

#include <algorithm>
#include <set>

namespace {

tree
regs_type ()
{
  return build_array_type_nelts (ppgcc_u64_type (), 2);
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

/* Whether CALLEE is one GCC inlines (declared inline, or of at most
   -fprofile-paths-ipp-inline-stmts statements, 64 by default): =clone
   gives such a callee each site's own duplicate, inlined, as =inline
   does, rather than one shared by its contexts: a shared one stays out
   of line and updates every context's registers at each probe (bzip2's
   bsW, which -O2 inlines at about ten instructions: 519 a call as a
   shared duplicate with 63 contexts; lua's index2value, not declared
   inline: 105 M instructions of bench/run's callgrind workload as a
   shared one, the whole IPPP build 916 M against 769 M with copies per
   site of callees up to 64 statements).  */
static bool
inlined_callee_p (const ipp_unit_fn *callee)
{
  return DECL_DECLARED_INLINE_P (callee->node->decl)
         || callee->size <= ppgcc_opts.ipp_inline_stmts;
}

/* A duplicate of CALLEE's plain body: local, with the registers'
   address (and, shared, the context) as its last parameters.  */
std::unique_ptr<ipp_dup>
make_dup (ipp_unit_fn *callee, bool shared)
{
  auto d = std::make_unique<ipp_dup> ();
  d->callee = callee;
  /* Copies are numbered: clone names are not made unique everywhere
     (two copies of one callee would clash).  */
  static unsigned serial;
  std::string suffix = (shared ? "pp_ipp" : "pp_ipp_in")
                       + std::to_string (serial++);
  push_cfun (callee->fun);
  cgraph_node *node = ppgcc_version_clone (callee->node, suffix.c_str ());
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
  /* A shared one is made out of line once it has its contexts
     (make_dups).  */
  if (!shared && (ppgcc_opts.ipp == ppgcc_options::IPP_INLINE
                  || inlined_callee_p (callee)))
    {
      /* Selective inlining: in place at its one call, at any -O (at -O0
         only always_inline is inlined).  */
      DECL_UNINLINABLE (decl) = 0;
      DECL_DECLARED_INLINE_P (decl) = 1;
      DECL_DISREGARD_INLINE_LIMITS (decl) = 1;
      DECL_ATTRIBUTES (decl) = tree_cons (get_identifier ("always_inline"),
                                          NULL_TREE, DECL_ATTRIBUTES (decl));
    }
  d->body.fun = d->fun;
  d->body.blocks = &d->cfg.blocks;
  return d;
}

/* Duplicates for every site: per site with =inline, and for a site that
   holds deeper points; else one per callee, shared.  A caller with a
   site left without one keeps its plain paths.  */
void
make_dups (ipp_unit &u, std::vector<std::unique_ptr<ipp_dup> > &dups)
{
  /* The shared duplicate of each callee that still takes contexts, and
     how many it has: past -fprofile-paths-ipp-contexts a new one starts
     (each context costs every probe of the duplicate an increment).  */
  std::map<ipp_unit_fn *, ipp_dup *> shared_dup;
  std::map<ipp_dup *, unsigned long long> taken;
  for (auto it = u.callers.begin (); it != u.callers.end ();)
    {
      ipp_caller &cf = **it;
      bool ok = true;
      for (size_t s = 0; s < cf.sites.size (); s++)
        {
          ipp_unit_fn *t = cf.site_target[s];
          bool shared = ppgcc_opts.ipp == ppgcc_options::IPP_CLONE
                        && !cf.site_parent[s] && !inlined_callee_p (t);
          ipp_dup *d = shared ? shared_dup[t] : nullptr;
          if (d && ppgcc_opts.ipp_contexts
              && taken[d] >= ppgcc_opts.ipp_contexts)
            d = nullptr;
          if (!d)
            {
              std::unique_ptr<ipp_dup> nd = make_dup (t, shared);
              d = nd.get ();
              if (nd)
                dups.push_back (std::move (nd));
              if (shared)
                shared_dup[t] = d;
            }
          cf.site_dup.push_back (d);
          ok &= d != nullptr;
          if (d)
            taken[d]++;
        }
      if (!ok)
        {
          warning (0, "ppgcc: %qs keeps intraprocedural paths: a callee "
                   "could not be duplicated", cf.f->name.c_str ());
          it = u.callers.erase (it);
          continue;
        }
      for (size_t s = 0; s < cf.sites.size (); s++)
        {
          ipp_dup *d = cf.site_dup[s];
          cf.site_ctx.push_back ((unsigned) d->contexts.size ());
          d->contexts.push_back ({ &cf, (int) s });
        }
      ++it;
    }
  /* Shared by several contexts: never put back into a caller (its body
     would then be copied per context after all).  A shared duplicate
     that serves one site is left to GCC's inliner, as a plain local
     function called once.  */
  for (auto &d : dups)
    if (d->ctx_parm && d->contexts.size () > 1)
      ppgcc_make_outlined (d->decl);
}

/* The interesting supergraph paths of CF (thesis §3.4.4 step 6): from the
   intraprocedural profiles of the caller and its callees, every segment
   whose parts ran (ipp/compose.c; thesis §3.5.2 stage II, which
   over-approximates what a whole-program path would give).  False, after
   a warning, when there would be too many.  */
bool
caller_interesting (ipp_caller &cf, std::vector<pp_pathid> &ids)
{
  /* A profile of these very segments (stage II): exactly those that
     ran (stage III).  */
  if (const ppd_fn *rec = cf.f->segments)
    {
      ppgcc_hottest_paths (rec, cf.sn, ids);
      std::sort (ids.begin (), ids.end ());
      return true;
    }
  pp_ipp_profile caller = { cf.f->n, cf.f->run_ids.data (),
                            cf.f->run_ids.size () };
  std::vector<pp_ipp_profile> sites;
  for (ipp_unit_fn *t : cf.site_target)
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

std::string
site_annotations (const ipp_caller &cf)
{
  std::string m;
  char buf[512];
  for (size_t s = 0; s < cf.sites.size (); s++)
    {
      const pp_ipp_site &st = cf.sites[s];
      const pp_graph *owner = st.parent < 0 ? cf.f->cfg.graph
                                            : cf.sites[st.parent].callee;
      snprintf (buf, sizeof buf,
                "# ipp site %zu parent %d node %s point %d order %d "
                "callee %s checksum 0x%08x%s\n",
                s, st.parent, pp_graph_node_name (owner, st.node), st.point,
                cf.points[cf.site_point[s]].order, st.callee_name,
                pp_graph_checksum (st.callee),
                st.indirect ? " indirect" : "");
      m += buf;
    }
  return m;
}

/* A view's graph is the supergraph's, not its own.  */
struct view_cfg : ppgcc_cfg
{
  ~view_cfg () { graph = nullptr; }
};

/* The caller's record: the supergraph numbered, its counting chosen
   (before any code changes: whether it has a PPP register decides what
   the calls hand over).  */
void
number_caller (ipp_caller &cf)
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
  cf.body.fun = fun;
  cf.body.blocks = &cf.f->cfg.blocks;
  cf.body.regs[0] = create_tmp_var (ppgcc_u64_type (), "pp_path");
  cf.body.regs[1] = fn.ppp_ids ? create_tmp_var (ppgcc_u64_type (), "pp_ppp")
                               : NULL_TREE;
  pop_cfun ();
  ppgcc_fns.push_back (fn);
}

tree
regs_ref (const ipp_dup &d, int r)
{
  tree ptr = TREE_TYPE (d.regs_parm);
  return build2 (MEM_REF, ppgcc_u64_type (), d.regs_parm,
                 build_int_cst (ptr, r * 8));
}

/* The duplicate's own setup: each context's registers loaded from the
   caller's at entry (in a block of their own, before any probe), and
   with several contexts, the flags saying which one runs.  A duplicate
   with deeper points hands its (one) context's registers on.  */
void
prepare_dup (ipp_dup &d)
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
      const ipp_caller &cf = *d.contexts[c].first;
      std::array<tree, 2> r = { NULL_TREE, NULL_TREE };
      for (int k = 0; k < 2; k++)
        if (cf.body.regs[k])
          {
            r[k] = create_tmp_var (ppgcc_u64_type (), k ? "pp_ppp"
                                                         : "pp_path");
            gsi_insert_after (&gsi, gimple_build_assign (r[k],
                                                         regs_ref (d, k)),
                              GSI_NEW_STMT);
          }
      d.regs.push_back (r);
      tree g = NULL_TREE;
      if (d.contexts.size () > 1)
        {
          g = create_tmp_var (boolean_type_node, "pp_ctx_on");
          gsi_insert_after (&gsi, gimple_build_assign (
                                      g, EQ_EXPR, d.ctx_parm,
                                      build_int_cst (unsigned_type_node, c)),
                            GSI_NEW_STMT);
        }
      d.guard.push_back (g);
    }
  if (d.contexts.size () == 1)
    {
      d.body.regs[0] = d.regs[0][0];
      d.body.regs[1] = d.regs[0][1];
    }
  pop_cfun ();
}

tree
reg_slot (tree base, int i)
{
  return build4 (ARRAY_REF, ppgcc_u64_type (), base, size_int (i), NULL_TREE,
                 NULL_TREE);
}

/* The call of site SITE's duplicate in place of CALL: its arguments, the
   body's registers' address, the site's context.  */
gcall *
dup_call (const ipp_caller &cf, const ipp_body &b, gcall *call, int site,
          tree lhs)
{
  const ipp_dup *d = cf.site_dup[site];
  auto_vec<tree> args;
  for (unsigned i = 0; i < gimple_call_num_args (call); i++)
    args.safe_push (gimple_call_arg (call, i));
  args.safe_push (build_fold_addr_expr (b.tmp));
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

/* The registers around the call at GSI: handed over, taken back.  */
void
hand_over (const ipp_body &b, gimple_stmt_iterator *gsi)
{
  for (int r = 0; r < 2; r++)
    if (b.regs[r])
      gsi_insert_before (gsi, gimple_build_assign (reg_slot (b.tmp, r),
                                                   b.regs[r]),
                         GSI_SAME_STMT);
  for (int r = 1; r >= 0; r--)
    if (b.regs[r])
      gsi_insert_after (gsi, gimple_build_assign (b.regs[r],
                                                  reg_slot (b.tmp, r)),
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

/* Cuts call point P out of its block in body B and puts the duplicates'
   calls in: before | call | after, where `before` is the supergraph's
   part P.point of the block and `after` the next part.  An indirect call
   becomes a test per target, each calling its duplicate, and the plain
   call for the other targets (the bypass).  */
void
cut_point (const ipp_caller &cf, ipp_body &b, size_t index, gcall *call)
{
  const ipp_point &p = cf.points[index];
  basic_block before = p.point == 0 ? (*b.blocks)[p.node]
                                    : b.part_block[{ p.node, p.point }];
  if (p.point == 0)
    b.part_block[{ p.node, 0 }] = before;
  gcc_assert (gimple_bb (call) == before);
  gimple_stmt_iterator gsi = gsi_for_stmt (call);
  gsi_prev (&gsi);
  edge e1 = gsi_end_p (gsi) ? split_block_after_labels (before)
                            : split_block (before, gsi_stmt (gsi));
  basic_block cb = e1->dest;
  edge e2 = split_block (cb, call);
  basic_block after = e2->dest;
  b.part_block[{ p.node, p.point + 1 }] = after;
  if (!p.indirect)
    {
      gimple_stmt_iterator g = gsi_for_stmt (call);
      gcall *nc = dup_call (cf, b, call, p.first_site, gimple_call_lhs (call));
      gsi_replace (&g, nc, false);
      g = gsi_for_stmt (nc);
      hand_over (b, &g);
      return;
    }
  /* The result, defined on several arms now, goes through a variable.  */
  tree lhs = gimple_call_lhs (call), via = lhs;
  if (lhs && TREE_CODE (lhs) == SSA_NAME)
    {
      via = create_tmp_var (TREE_TYPE (lhs), "pp_ret");
      gimple_call_set_lhs (call, via);
      gimple_stmt_iterator g = gsi_after_labels (after);
      gsi_insert_before (&g, gimple_build_assign (lhs, via), GSI_NEW_STMT);
    }
  tree fnptr = gimple_call_fn (call);
  basic_block test_after = before;
  edge into = e1;
  for (size_t k = 0; k < p.targets.size (); k++)
    {
      basic_block test = new_block (test_after);
      basic_block arm = new_block (test);
      redirect_edge_succ (into, test);
      tree addr = build_fold_addr_expr_with_type (p.targets[k]->node->decl,
                                                  TREE_TYPE (fnptr));
      gimple_stmt_iterator g = gsi_start_bb (test);
      gsi_insert_after (&g, gimple_build_cond (EQ_EXPR, fnptr, addr,
                                               NULL_TREE, NULL_TREE),
                        GSI_NEW_STMT);
      edge yes = make_edge (test, arm, EDGE_TRUE_VALUE);
      yes->probability = profile_probability::likely ();
      edge no = make_edge (test, cb, EDGE_FALSE_VALUE);
      no->probability = yes->probability.invert ();
      gcall *nc = dup_call (cf, b, call, p.first_site + (int) k, via);
      g = gsi_start_bb (arm);
      gsi_insert_after (&g, nc, GSI_NEW_STMT);
      hand_over (b, &g);
      make_single_succ_edge (arm, after, EDGE_FALLTHRU);
      into = no;
      test_after = arm;
    }
  b.bypass[(int) index] = e2;
}

/* The body holding point P: the caller's, or its parent site's
   duplicate.  */
ipp_body &
body_of (ipp_caller &cf, const ipp_point &p)
{
  return p.parent < 0 ? cf.body : cf.site_dup[p.parent]->body;
}

/* Cuts every call point of CF in its body.  The calls are found first
   (in a duplicate, by rank among its block's calls), then cut in order:
   an earlier cut moves a block's later calls into its next part.  */
void
cut_call_points (ipp_caller &cf)
{
  std::vector<gcall *> calls;
  for (const ipp_point &p : cf.points)
    calls.push_back (p.parent < 0
                         ? p.call
                         : ppgcc_ipp_nth_call ((*body_of (cf, p).blocks)[p.node],
                                     p.order));
  for (size_t i = 0; i < cf.points.size (); i++)
    {
      ipp_body &b = body_of (cf, cf.points[i]);
      gcc_assert (calls[i]);
      push_cfun (b.fun);
      if (!b.tmp)
        {
          b.tmp = create_tmp_var (regs_type (), "pp_regs");
          TREE_ADDRESSABLE (b.tmp) = 1;
        }
      cut_point (cf, b, i, calls[i]);
      free_dominance_info (CDI_DOMINATORS);
      if (current_loops)
        loops_state_set (LOOPS_NEED_FIXUP);
      pop_cfun ();
    }
}

/* Where the probes of CF's supergraph that belong to OWNER go: its nodes
   (the parts of cut blocks included) and edges in body B, whose plain
   CFG is EDGES; OWNER -1 is the caller, else site OWNER, whose call and
   return edges are its duplicate's too.  */
void
owner_view (const ipp_caller &cf, int owner, const ipp_body &b,
            const std::vector<edge> &edges, ppgcc_cfg &view)
{
  const pp_ipp_supergraph *sg = cf.sg;
  view.blocks.assign (sg->num_nodes, nullptr);
  view.edges.assign (sg->num_edges, nullptr);
  for (int v = 0; v < sg->num_nodes; v++)
    {
      const pp_ipp_node &nd = sg->nodes[v];
      if (nd.owner != owner)
        continue;
      auto it = b.part_block.find ({ nd.node, nd.part });
      view.blocks[v] = it != b.part_block.end () ? it->second
                                                 : (*b.blocks)[nd.node];
    }
  for (int e = 0; e < sg->num_edges; e++)
    {
      const pp_ipp_edge &ed = sg->edges[e];
      if (ed.kind == PP_IPP_BODY && ed.owner == owner)
        view.edges[e] = edges[ed.edge];
      else if (ed.kind == PP_IPP_BYPASS && ed.owner == owner)
        view.edges[e] = b.bypass.at (cf.site_point[ed.site]);
      else if ((ed.kind == PP_IPP_CALL || ed.kind == PP_IPP_RETURN)
               && owner >= 0 && ed.site == owner)
        view.edges[e] = edges[ed.edge];
    }
}

/* Every probe of CF's plan where it belongs: the caller's, then each
   site's in its duplicate, under the site's context.  */
void
insert_probes (ipp_caller &cf)
{
  pp_probe *probes;
  int nprobes = pp_plan (cf.sn, cf.sg->graph, &probes);
  {
    view_cfg view;
    owner_view (cf, -1, cf.body, cf.f->cfg.edges, view);
    push_cfun (cf.f->fun);
    tree regs[2] = { cf.body.regs[0], cf.body.regs[1] };
    ppgcc_insert_probes (cf.f->fun, view, probes, nprobes, cf.fn, regs);
    cgraph_edge::rebuild_edges ();
    pop_cfun ();
  }
  for (size_t s = 0; s < cf.sites.size (); s++)
    {
      ipp_dup &d = *cf.site_dup[s];
      unsigned c = cf.site_ctx[s];
      view_cfg view;
      owner_view (cf, (int) s, d.body, d.cfg.edges, view);
      ppgcc_fn fn = cf.fn;
      fn.switch_check = false;
      fn.count_guard = d.guard[c];
      tree regs[2] = { d.regs[c][0], d.regs[c][1] };
      push_cfun (d.fun);
      ppgcc_insert_probes (d.fun, view, probes, nprobes, fn, regs);
      pop_cfun ();
    }
  free (probes);
}

/* Hands the running context's registers back before each return.  */
void
finish_dup (ipp_dup &d)
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
          for (size_t c = 0; c < d.regs.size (); c++)
            {
              if (!d.regs[c][k])
                continue;
              if (!val)
                {
                  val = d.regs[c][k];
                  continue;
                }
              tree sel = create_tmp_var (ppgcc_u64_type (), "pp_sel");
              gsi_insert_before (&gsi, gimple_build_assign (
                                           sel, COND_EXPR, d.guard[c],
                                           d.regs[c][k], val),
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
  ipp_unit u;
  std::vector<std::unique_ptr<ipp_dup> > dups;
  ppgcc_ipp_collect (u);
  ppgcc_ipp_choose (u);
  ppgcc_ipp_supergraphs (u);
  /* Duplicates from the plain bodies, before anything changes.  */
  make_dups (u, dups);
  for (auto &cf : u.callers)
    number_caller (*cf);
  for (auto &d : dups)
    if (!d->contexts.empty ())
      prepare_dup (*d);
  for (auto &cf : u.callers)
    cut_call_points (*cf);
  /* Functions without expanded calls, as the "cfg" pass would have done
     them.  */
  std::set<ipp_unit_fn *> is_caller;
  for (auto &cf : u.callers)
    is_caller.insert (cf->f);
  for (auto &f : u.fns)
    if (!is_caller.count (f.get ()))
      {
        push_cfun (f->fun);
        ppgcc_instrument_function (f->fun);
        cgraph_edge::rebuild_edges ();
        pop_cfun ();
      }
  for (auto &cf : u.callers)
    insert_probes (*cf);
  for (auto &d : dups)
    if (!d->contexts.empty ())
      finish_dup (*d);
    else if (cgraph_node *n = cgraph_node::get (d->decl))
      n->remove ();
}
