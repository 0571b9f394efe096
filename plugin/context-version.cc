/* A one-metric function in two versions, chosen once at its entry by the
   runtime's __pp_metric_fast (rt_abi.h): one whose readings all take the
   inline TSC, one whose readings all call the runtime.

   context-lower.cc lowers each reading (a path end, a leaf's entry, a
   hash-mode exit) behind its own test, `if (__pp_metric_fast == 0)
   <call> else <rdtsc>`: two instructions per reading, and the call arm's
   clobbers and arguments shape the register allocation of the inline one.
   Measured on lua (callgrind, three ref scripts): a build without any
   such test ran 80 M of 1,635 M instructions fewer.  The flag is set once,
   when the program registers its metrics (metric.c), so the test can be
   made once per call instead: the body is copied whole (blocks, loops,
   SSA names), the entry tests the flag and enters one copy, and in each
   copy every reading's test is folded to its arm, leaving the other to
   CFG cleanup.  Where the program's one metric is the TSC, the copy with
   the calls is never entered.

   Left as it is (a test per reading): a function whose blocks cannot be
   copied (a computed goto's dispatch, as in lua's luaV_execute; abnormal
   or EH edges; setjmp), one optimised for size, and one of more than
   max_blocks blocks: pcre2's match() (4,494 blocks once GCC has inlined
   into it, two readings a call) ran 6% more instructions as two copies,
   pcre2grep 2.4% more in all; sqlite3VdbeExec (2,588 blocks) gained
   0.2% of sqlite3's.  */
#include "plugin.h"

#include "cfgloopmanip.h"

/* Bodies above this many blocks keep their tests (above).  */
static const unsigned max_blocks = 2000;

/* Whether COND is a reading's test (`f = __pp_metric_fast; if (f == 0)`,
   context-lower.cc fast_arm).  */
static bool
metric_source_test_p (gimple *stmt)
{
  gcond *cond = safe_dyn_cast<gcond *> (stmt);
  if (!cond || gimple_cond_code (cond) != EQ_EXPR
      || !integer_zerop (gimple_cond_rhs (cond))
      || TREE_CODE (gimple_cond_lhs (cond)) != SSA_NAME)
    return false;
  gassign *load = dyn_cast<gassign *> (
      SSA_NAME_DEF_STMT (gimple_cond_lhs (cond)));
  return load && gimple_assign_single_p (load)
         && gimple_assign_rhs1 (load) == ppgcc_metric_fast_var ();
}

/* Whether FUN's body can be copied whole: no block with an abnormal or EH
   edge, no setjmp, no label whose address is taken.  */
static bool
copyable (function *fun, vec<basic_block> &bbs)
{
  if (fun->calls_setjmp || fun->has_nonlocal_label
      || fun->has_forced_label_in_static)
    return false;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
        if (e->flags & (EDGE_ABNORMAL | EDGE_EH))
          return false;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
           gsi_next (&gsi))
        if (glabel *l = dyn_cast<glabel *> (gsi_stmt (gsi)))
          if (FORCED_LABEL (gimple_label_label (l)))
            return false;
      bbs.safe_push (bb);
    }
  return can_copy_bbs_p (bbs.address (), bbs.length ());
}

/* Copies LOOP's structure and its subloops' into TARGET (copy_bbs puts
   each block's copy in its loop's copy).  */
static void
copy_loop_tree (class loop *root)
{
  auto_vec<class loop *> top;
  for (class loop *l = root->inner; l; l = l->next)
    top.safe_push (l);
  for (class loop *l : top)
    duplicate_subloops (l, duplicate_loop (l, root));
}

bool
ppgcc_version_on_metric_source (function *fun)
{
  if (optimize_function_for_size_p (fun))
    return false;
  if ((unsigned) n_basic_blocks_for_fn (fun) > max_blocks + NUM_FIXED_BLOCKS)
    return false;
  auto_vec<basic_block> bbs;
  if (!copyable (fun, bbs))
    return false;
  auto_vec<int> tests;
  for (basic_block bb : bbs)
    if (metric_source_test_p (last_stmt (bb)))
      tests.safe_push (bb->index);
  if (tests.is_empty ())
    return false;

  free_dominance_info (CDI_DOMINATORS);
  /* The choice goes on the entry edge, in a block of its own; the first
     block's PHIs (a loop at the top) take their entry values from it.  */
  basic_block choice = split_edge (single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN
                                                     (fun)));
  edge to_fast = single_succ_edge (choice);
  basic_block first = to_fast->dest;

  initialize_original_copy_tables ();
  class loop *root = current_loops ? loops_for_fn (fun)->tree_root : NULL;
  if (root)
    {
      set_loop_copy (root, root);
      copy_loop_tree (root);
    }
  unsigned n = bbs.length ();
  auto_vec<basic_block> copies (n);
  copies.quick_grow (n);
  copy_bbs (bbs.address (), n, copies.address (), NULL, 0, NULL, root,
            EXIT_BLOCK_PTR_FOR_FN (fun)->prev_bb, false);
  add_phi_args_after_copy (copies.address (), n, NULL);

  basic_block first_slow = get_bb_copy (first);
  edge to_slow = make_edge (choice, first_slow, EDGE_TRUE_VALUE);
  to_fast->flags = (to_fast->flags & ~EDGE_FALLTHRU) | EDGE_FALSE_VALUE;
  for (gphi_iterator po = gsi_start_phis (first),
                     pc = gsi_start_phis (first_slow);
       !gsi_end_p (po); gsi_next (&po), gsi_next (&pc))
    add_phi_arg (pc.phi (), PHI_ARG_DEF_FROM_EDGE (po.phi (), to_fast),
                 to_slow,
                 gimple_phi_arg_location_from_edge (po.phi (), to_fast));

  /* The slow copy is as unlikely as each reading's call arm was.  */
  to_slow->probability = profile_probability::very_unlikely ();
  to_fast->probability = to_slow->probability.invert ();
  scale_bbs_frequencies (copies.address (), n, to_slow->probability);

  gimple_stmt_iterator gsi = gsi_last_bb (choice);
  tree f = make_ssa_name (integer_type_node);
  gsi_insert_after (&gsi, gimple_build_assign (f, ppgcc_metric_fast_var ()),
                    GSI_NEW_STMT);
  gsi_insert_after (&gsi, gimple_build_cond (EQ_EXPR, f, integer_zero_node,
                                             NULL_TREE, NULL_TREE),
                    GSI_NEW_STMT);

  for (int index : tests)
    {
      basic_block fast = BASIC_BLOCK_FOR_FN (fun, index);
      gcond *c = as_a<gcond *> (last_stmt (fast));
      gimple_cond_make_false (c);
      update_stmt (c);
      c = as_a<gcond *> (last_stmt (get_bb_copy (fast)));
      gimple_cond_make_true (c);
      update_stmt (c);
    }
  free_original_copy_tables ();
  if (current_loops)
    loops_state_set (fun, LOOPS_NEED_FIXUP);
  return true;
}
