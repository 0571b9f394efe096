/* Switchable profiling: -fprofile-paths-switch=entry (the default design).

   Function-level duplication, after Arnold and Ryder as paper 003 §II
   describes it ("duplicate instrumented copies of code and mechanisms for
   transferring control to the instrumented copies"), with the check of
   §III-C at method entries only.  For a function f the pass makes
   f.pp_on, a copy of f's body, and instruments the copy alone; f keeps its
   own body, plain, behind one test at its entry:

     if (__pp_on_entry != 0)        (predicted not taken)
       return f.pp_on (args...);    (a tail call at -O2)
     ... f's body, unchanged ...

   f.pp_on is local and never inlined, so f is as small as it was and GCC
   inlines and optimises it as in a plain build: while profiling is off a
   call pays one load and one predictable branch, and loops pay nothing.
   (The removed =clone put both bodies into f, which then stopped being
   inlined.)
   The copy is registered under f's name with f's CFG, checksum and
   numbering: both bodies have the same blocks and edges.

   Path semantics: a path is counted when profiling was on at the entry of
   the function activation it belongs to.  An activation entered while on
   counts all its paths, including those after the flag goes off; one
   entered while off counts none, even if the flag comes on before it
   returns (a long-running loop in f starts being profiled at f's next
   call).  Calls made from f.pp_on go to the callees' own entry tests,
   except calls of local functions, which follow their caller
   (switch-local.cc): a function g that is not public, whose address is
   not taken and that has no alias is called as g.pp_on from every copy;
   and if every caller of g has a copy, g loses its entry test, so that
   plain g is the original function again and GCC inlines it as in a
   plain build.  Such a g counts its paths exactly when its caller's
   activation does: when profiling was on at the entry of the nearest
   activation up the call stack of a function that kept its test (a
   public function, one whose address is taken, or one called from a
   function without a copy).  A local g with a caller without a copy
   keeps its test: called from a copy it counts, called from a plain body
   it counts when profiling is on at its own entry.

   Functions that cannot be forwarded their arguments or cannot be copied
   (variable arguments, a static chain, non-local labels, setjmp and other
   abnormal edges, noreturn, by-reference results and parameters, OpenMP
   regions, extern inline bodies), and public functions GCC may inline
   (ppgcc_may_be_inlined_p: the test and a copy that is never inlined
   would change what inlining does for their callers), keep one body and
   test the flag at each path end instead (=check).  The copy of a local
   g is made inlinable again once callers' copies call it
   (switch-local.cc).  */
#include "plugin.h"

bool
ppgcc_takes_label_address_p (function *fun)
{
  if (fun->has_forced_label_in_static)
    return true;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      {
        glabel *l = dyn_cast<glabel *> (gsi_stmt (gsi));
        if (!l)
          break;
        if (FORCED_LABEL (gimple_label_label (l)))
          return true;
      }
  return false;
}

/* Whether FUN's entry can forward its arguments to a copy of itself.  A
   function that takes the address of a label is not copied: a copy's
   labels are other addresses, and a program may keep one activation's
   label address and compare it with another's (an address stored while
   profiling was on would differ from one stored while off; under
   -fprofile-paths-ipp, two callers sharing one duplicate saw equal
   addresses where GCC's inlining gives each its own).  */
bool
ppgcc_forwardable_p (function *fun, bool label_tables)
{
  tree decl = fun->decl;
  /* With LABEL_TABLES, a function whose labels' addresses are only in
     tables of its computed gotos (switch-labels.cc) is copied, its
     computed gotos' abnormal edges with it.  */
  bool tables = label_tables && ppgcc_takes_label_address_p (fun)
                && ppgcc_label_tables_only_p (fun);
  ppgcc_allow_copy allow (fun, tables);
  if (stdarg_p (TREE_TYPE (decl)) || fun->static_chain_decl
      || fun->has_nonlocal_label || fun->calls_setjmp
      || (ppgcc_takes_label_address_p (fun) && !tables)
      || DECL_EXTERNAL (decl)
      || TREE_THIS_VOLATILE (decl) /* noreturn */
      || !tree_versionable_function_p (decl))
    return false;
  static const char *const unsupported[] = { "naked", "target_clones",
                                             "ifunc", "returns_twice" };
  for (const char *a : unsupported)
    if (lookup_attribute (a, DECL_ATTRIBUTES (decl)))
      return false;
  tree res = DECL_RESULT (decl);
  if (res && (DECL_BY_REFERENCE (res) || TREE_ADDRESSABLE (TREE_TYPE (res))
              || variably_modified_type_p (TREE_TYPE (res), NULL_TREE)))
    return false;
  for (tree p = DECL_ARGUMENTS (decl); p; p = DECL_CHAIN (p))
    if (DECL_BY_REFERENCE (p) || TREE_ADDRESSABLE (TREE_TYPE (p))
        || variably_modified_type_p (TREE_TYPE (p), NULL_TREE))
      return false;
  basic_block bb;
  FOR_ALL_BB_FN (bb, fun)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
        if ((e->flags & EDGE_ABNORMAL) && !tables)
          return false;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
           gsi_next (&gsi))
        if (is_gimple_omp (gsi_stmt (gsi)))
          return false;
    }
  return true;
}

/* CFG's blocks and edges, of FUN, moved to their copies in COPY: the
   versioning copies the block chain in order, and may add an empty block
   after the entry (where the new parameters would be set up), which then
   belongs to the entry edge.  False when the two CFGs differ.  */
bool
ppgcc_map_copy_cfg (function *fun, function *copy, ppgcc_cfg &cfg)
{
  basic_block entry = ENTRY_BLOCK_PTR_FOR_FN (copy);
  basic_block extra = nullptr;
  if (n_basic_blocks_for_fn (copy) == n_basic_blocks_for_fn (fun) + 1
      && single_succ_p (entry))
    {
      extra = single_succ (entry);
      if (!single_succ_p (extra) || !single_pred_p (extra)
          || !gsi_end_p (gsi_start_nondebug_bb (extra)))
        return false;
    }
  if (n_basic_blocks_for_fn (fun) != n_basic_blocks_for_fn (copy) - !!extra
      || n_edges_for_fn (fun) != n_edges_for_fn (copy) - !!extra)
    return false;
  std::unordered_map<basic_block, basic_block> to;
  basic_block a = ENTRY_BLOCK_PTR_FOR_FN (fun), b = entry;
  for (; a && b; a = a->next_bb, b = b->next_bb)
    {
      if (b == extra)
        b = b->next_bb;
      if (!b || EDGE_COUNT (a->succs) != EDGE_COUNT (b->succs))
        return false;
      to[a] = b;
    }
  if (a || b)
    return false;
  std::vector<edge> edges;
  for (edge e : cfg.edges)
    {
      basic_block src = to.at (e->src), dst = to.at (e->dest);
      if (extra && src == entry)
        src = extra;
      edge c = find_edge (src, dst);
      if (!c || (c->flags & EDGE_COMPLEX) != (e->flags & EDGE_COMPLEX))
        return false;
      edges.push_back (c);
    }
  for (basic_block &bb : cfg.blocks)
    bb = to.at (bb);
  cfg.edges = edges;
  return true;
}

/* The copy is a function of its own: no inlining back into f (f would
   grow again), no always_inline, not a constructor.  */
void
ppgcc_make_outlined (tree decl)
{
  tree attrs = NULL_TREE;
  for (tree a = DECL_ATTRIBUTES (decl); a; a = TREE_CHAIN (a))
    if (!is_attribute_p ("always_inline", get_attribute_name (a))
        && !is_attribute_p ("flatten", get_attribute_name (a)))
      attrs = tree_cons (TREE_PURPOSE (a), TREE_VALUE (a), attrs);
  DECL_ATTRIBUTES (decl) = tree_cons (get_identifier ("noinline"), NULL_TREE,
                                      nreverse (attrs));
  DECL_UNINLINABLE (decl) = 1;
  DECL_DECLARED_INLINE_P (decl) = 0;
  DECL_DISREGARD_INLINE_LIMITS (decl) = 0;
}

/* The profile flag as the dispatch reads it: __pp_on_entry, the runtime's
   alias of __pp_on without volatile.  A plain load: GCC folds it into the
   test (cmp with memory) and, where callees are inlined into a plain body
   with no call or store between, reuses one read for all their tests
   (so within one call-free stretch a change made by the sampling thread
   or a signal is seen at the next call; the API is a call).  */
static tree
entry_flag ()
{
  static tree decl;
  ppgcc_switch_mark_unit ();
  if (!decl)
    decl = ppgcc_hidden_extern_var ("__pp_on_entry", integer_type_node);
  return decl;
}

/* `pp_on = FLAG; pp_bit = pp_on & 1;` after *GSI; pp_bit.  The flag is 0
   or 1.  Testing its bit rather than the whole flag keeps GCC from
   knowing the loaded value to be 0 on the plain side, where it then kept
   the value in a register to reuse as a zero: a load and a `test' per
   entry, against one `testb' of memory.  */
tree
ppgcc_switch_flag_bit (gimple_stmt_iterator *gsi, tree flag)
{
  tree t = create_tmp_reg (TREE_TYPE (flag), "pp_on");
  gsi_insert_after (gsi, gimple_build_assign (t, flag), GSI_NEW_STMT);
  tree b = create_tmp_reg (TREE_TYPE (flag), "pp_bit");
  gsi_insert_after (gsi, gimple_build_assign (b, BIT_AND_EXPR, t,
                                              build_one_cst (TREE_TYPE (t))),
                    GSI_NEW_STMT);
  return b;
}

/* FUN's new first block: `if (__pp_on & 1)` to a call of ON with FUN's
   parameters, whose value FUN returns.  */
static void
add_dispatch (function *fun, tree on)
{
  tree decl = fun->decl;
  basic_block test = split_edge (single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (fun)));
  gimple_stmt_iterator gsi = gsi_last_bb (test);
  tree t = ppgcc_switch_flag_bit (&gsi, entry_flag ());
  gsi_insert_after (&gsi, gimple_build_cond (NE_EXPR, t, integer_zero_node,
                                             NULL_TREE, NULL_TREE),
                    GSI_NEW_STMT);
  edge off = single_succ_edge (test);
  off->flags &= ~EDGE_FALLTHRU;
  off->flags |= EDGE_FALSE_VALUE;

  basic_block call_bb = create_empty_bb (test);
  if (current_loops)
    add_bb_to_loop (call_bb, test->loop_father);
  edge e = make_edge (test, call_bb, EDGE_TRUE_VALUE);
  e->probability = profile_probability::very_unlikely ();
  off->probability = e->probability.invert ();
  call_bb->count = test->count.apply_probability (e->probability);
  make_single_succ_edge (call_bb, EXIT_BLOCK_PTR_FOR_FN (fun), 0);

  /* A parameter whose address is taken lives in memory: its value goes
     through a temporary.  */
  gsi = gsi_start_bb (call_bb);
  auto_vec<tree> args;
  for (tree p = DECL_ARGUMENTS (decl); p; p = DECL_CHAIN (p))
    {
      tree a = p;
      if (is_gimple_reg_type (TREE_TYPE (p)) && !is_gimple_val (p))
        {
          a = create_tmp_reg (TREE_TYPE (p), "pp_arg");
          gsi_insert_after (&gsi, gimple_build_assign (a, p), GSI_NEW_STMT);
        }
      args.safe_push (a);
    }
  gcall *call = gimple_build_call_vec (on, args);
  location_t loc = DECL_SOURCE_LOCATION (decl);
  gimple_set_location (call, loc);
  tree rtype = TREE_TYPE (TREE_TYPE (decl));
  tree ret = NULL_TREE;
  if (!VOID_TYPE_P (rtype))
    {
      if (is_gimple_reg_type (rtype))
        ret = create_tmp_reg (rtype, "pp_ret");
      else
        {
          ret = DECL_RESULT (decl);
          gimple_call_set_return_slot_opt (call, true);
        }
      gimple_call_set_lhs (call, ret);
    }
  gsi_insert_after (&gsi, call, GSI_NEW_STMT);
  greturn *r = gimple_build_return (ret);
  gimple_set_location (r, loc);
  gsi_insert_after (&gsi, r, GSI_NEW_STMT);
  free_dominance_info (CDI_DOMINATORS);
  if (current_loops)
    loops_state_set (LOOPS_NEED_FIXUP);
}

/* Public functions' plain copies (f.pp_off), by the function.  */
static std::unordered_map<tree, tree> &
plain_copies ()
{
  static std::unordered_map<tree, tree> copies;
  return copies;
}

tree
ppgcc_switch_plain_copy (tree decl)
{
  auto it = plain_copies ().find (decl);
  return it == plain_copies ().end () ? NULL_TREE : it->second;
}

/* Whether GCC may inline DECL into its callers in a plain build:
   always_inline, or (when optimising, not noinline) within FACTOR times
   the limit of its kind by GCC's own size estimate.  */
bool
ppgcc_may_be_inlined_p (tree decl, int factor)
{
  if (DECL_DISREGARD_INLINE_LIMITS (decl))
    return true;
  if (!opt_for_fn (decl, optimize) || DECL_UNINLINABLE (decl)
      || lookup_attribute ("noinline", DECL_ATTRIBUTES (decl))
      || lookup_attribute ("noipa", DECL_ATTRIBUTES (decl))
      || (DECL_NAME (decl) && MAIN_NAME_P (DECL_NAME (decl))))
    return false;
  int limit = DECL_DECLARED_INLINE_P (decl)
                  ? opt_for_fn (decl, param_max_inline_insns_single)
                  : opt_for_fn (decl, param_max_inline_insns_auto);
  return estimate_num_insns_fn (decl, &eni_size_weights) <= limit * factor;
}

function *
ppgcc_switch_entry (function *fun, ppgcc_cfg &cfg)
{
  if (!ppgcc_forwardable_p (fun, true))
    return nullptr;
  bool tables = ppgcc_takes_label_address_p (fun);
  cgraph_node *node = cgraph_node::get_create (fun->decl);
  /* The copy takes over the call graph edges of the calls it copies: f
     gets them now, and rebuilds them after this pass ("build_cgraph_edges"
     follows it), as the copy does in ppgcc_switch_entry_probes.  */
  cgraph_edge::rebuild_edges ();
  cgraph_node *on;
  {
    ppgcc_allow_copy allow (fun, tables);
    on = ppgcc_version_clone (node, "pp_on");
  }
  /* A public function also gets f.pp_off, its plain body without the
     dispatch, local to the unit: switch-local.cc sends the unit's calls
     of f there behind a flag test at the call, so that GCC inlines
     f.pp_off where a plain build inlines f (a test at f's entry made
     small callees such as lua's luaV_mod too big to inline; the probes in
     f's one body under =check, luaS_hash).  Calls from other units keep
     f's own test.  A copy no call of the unit needs is removed by GCC.
     Only for a function GCC may inline: otherwise the unit's calls cost
     what f's entry test costs, and a second plain body would change
     GCC's other choices (a static function called once from f, inlined
     into f, would have two callers).  Whether GCC will inline f is told
     from its size here, before the early optimisations, at twice GCC's
     limit: lua's luaV_mod, inlined at -O2, is 18 here against 15.  */
  cgraph_node *off = on && TREE_PUBLIC (fun->decl) && !tables
                         && ppgcc_may_be_inlined_p (fun->decl, 2)
                     ? ppgcc_version_clone (node, "pp_off") : nullptr;
  gcc_checking_assert (cfun == fun);
  node->remove_callees ();
  node->remove_all_references ();
  if (!on)
    return nullptr;
  function *copy = DECL_STRUCT_FUNCTION (on->decl);
  if (!ppgcc_map_copy_cfg (fun, copy, cfg)
      || (tables && !ppgcc_copy_label_tables (fun, copy)))
    {
      on->remove ();
      if (off)
        off->remove ();
      return nullptr;
    }
  ppgcc_make_outlined (on->decl);
  add_dispatch (fun, on->decl);
  if (off)
    {
      push_cfun (DECL_STRUCT_FUNCTION (off->decl));
      cgraph_edge::rebuild_edges ();
      pop_cfun ();
      plain_copies ()[fun->decl] = off->decl;
      /* Until switch-local.cc gives it its callers (it clears this), else
         the unit's analysis removes it as unreachable.  */
      off->force_output = true;
    }
  return copy;
}

void
ppgcc_switch_entry_probes (function *copy, const ppgcc_cfg &cfg,
                           const pp_probe *probes, int nprobes,
                           const ppgcc_fn &fn, tree regs[2])
{
  push_cfun (copy);
  ppgcc_insert_probes (copy, cfg, probes, nprobes, fn, regs);
  /* The lowering passes after this one do not run on the copy: its call
     graph edges are built here.  */
  cgraph_edge::rebuild_edges ();
  pop_cfun ();
}
