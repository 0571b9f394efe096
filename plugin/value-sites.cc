/* Value profiles of string operations: the sizes of memcpy, mempcpy,
   memmove, memset and bzero calls whose size is not a constant.

   GCC's -fprofile-use keeps, per such call, the sum of its sizes and its
   calls (HIST_TYPE_AVERAGE, read with -fprofile-values); its expansion of
   the call (stringop_block_profile, then the target's choice of
   algorithm) takes their quotient as the expected size, and a copy of a
   few dozen bytes goes inline instead of to the library.  pcre2's `match`
   copies a frame that way 2.3 M times on bench/run's workload: memcpy ran
   38.6 M instructions in the -fuse-path-profile build against 7.5 M in
   -fprofile-use's, more than the paths saved in `match` itself.  So the
   training build counts the same two words per call (rt_abi.h,
   __pp_fn_ext.values), and -fuse-path-profile hands them to GCC as that
   histogram, with the OR of the calls' destination addresses, from which
   GCC takes their alignment (HIST_TYPE_IOR): without it, pcre2's frame
   copy went inline as a loop with an unaligned prologue, not the
   -fprofile-use build's `rep movsq', and saved nothing.

   Both builds find the calls at the same point (the "cfg" pass, the CFG
   the profile's checksum matched) in the same order: graph nodes in
   order, statements in order.  A profile whose number of words differs
   is another version of the function's statements and gives none.  */
#include "plugin.h"

#include <algorithm>

/* Whether size S is a parameter of a function GCC may inline (a static
   or inline one): a wrapper such as zstd's XXH_memcpy (dest, src, size),
   whose every call passes a constant.  Once inlined, the call's size is
   that constant and -O2 expands it as a move; the site's probes (twenty
   statements) kept the wrapper out of line instead, with a library
   memcpy per call: 6.7 M more instructions on bench/run's zstd workload
   (callgrind), where GCC's -fprofile-generate, after early inlining,
   profiles no such call.  */
static bool
size_is_inlined_parameter (tree s)
{
  tree decl = current_function_decl;
  if (!decl || (TREE_PUBLIC (decl) && !DECL_DECLARED_INLINE_P (decl))
      || lookup_attribute ("noinline", DECL_ATTRIBUTES (decl)))
    return false;
  if (TREE_CODE (s) == SSA_NAME)
    return SSA_NAME_IS_DEFAULT_DEF (s) && SSA_NAME_VAR (s)
           && TREE_CODE (SSA_NAME_VAR (s)) == PARM_DECL;
  return TREE_CODE (s) == PARM_DECL;
}

/* Whether STMT is a string operation with a size to profile; its size
   operand in *SIZE.  */
static bool
stringop_size (gimple *stmt, tree *size)
{
  if (!is_gimple_call (stmt) || !gimple_call_builtin_p (stmt, BUILT_IN_NORMAL))
    return false;
  unsigned arg;
  switch (DECL_FUNCTION_CODE (gimple_call_fndecl (stmt)))
    {
    case BUILT_IN_MEMCPY:
    case BUILT_IN_MEMPCPY:
    case BUILT_IN_MEMMOVE:
    case BUILT_IN_MEMSET:
      arg = 2;
      break;
    case BUILT_IN_BZERO:
      arg = 1;
      break;
    default:
      return false;
    }
  if (gimple_call_num_args (stmt) <= arg)
    return false;
  tree s = gimple_call_arg (stmt, arg);
  if (TREE_CODE (s) == INTEGER_CST || !INTEGRAL_TYPE_P (TREE_TYPE (s))
      || size_is_inlined_parameter (s))
    return false;
  *size = s;
  return true;
}

std::vector<gimple *>
ppgcc_value_sites (const ppgcc_cfg &cfg)
{
  std::vector<gimple *> sites;
  tree size;
  for (basic_block bb : cfg.blocks)
    if (bb && bb->index >= NUM_FIXED_BLOCKS)
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
           gsi_next (&gsi))
        if (stringop_size (gsi_stmt (gsi), &size))
          sites.push_back (gsi_stmt (gsi));
  return sites;
}

/* WORD += V, or WORD |= V with CODE BIT_IOR_EXPR (atomically with
   -fprofile-update=atomic), before GSI.  */
static void
update_before (gimple_stmt_iterator *gsi, tree word, tree v,
               tree_code code = PLUS_EXPR)
{
  tree u64 = ppgcc_u64_type ();
  gimple_seq seq = NULL;
  if (ppgcc_opts.atomic)
    {
      tree addr = create_tmp_reg (build_pointer_type (u64), "pp_vp");
      gimple_seq_add_stmt (&seq, gimple_build_assign (
                                     addr, build_fold_addr_expr (word)));
      tree fadd = builtin_decl_explicit (code == PLUS_EXPR
                                         ? BUILT_IN_ATOMIC_FETCH_ADD_8
                                         : BUILT_IN_ATOMIC_FETCH_OR_8);
      gimple_seq_add_stmt (&seq, gimple_build_call (
                                     fadd, 3, addr, v,
                                     build_int_cst (integer_type_node,
                                                    MEMMODEL_RELAXED)));
    }
  else
    {
      tree old = create_tmp_reg (u64, "pp_v");
      tree sum = create_tmp_reg (u64, "pp_v");
      gimple_seq_add_stmt (&seq, gimple_build_assign (old,
                                                      unshare_expr (word)));
      gimple_seq_add_stmt (&seq, gimple_build_assign (sum, code, old, v));
      gimple_seq_add_stmt (&seq, gimple_build_assign (unshare_expr (word),
                                                      sum));
    }
  gsi_insert_seq_before (gsi, seq, GSI_SAME_STMT);
}

/* The majority vote of a site's sizes (PPD_VALUE_MAJORITY and _VOTES,
   include/pp/ppd.h; Boyer and Moore's): a size V equal to the candidate
   adds one to its votes; another takes one away, or, with no votes left,
   becomes the candidate with one.  The candidate is compared before the
   call, and only a size that differs goes to a block of its own, out of
   line:
       if (MAJORITY != V)
         { c = VOTES; MAJORITY = c ? MAJORITY : V; VOTES = c ? c - 2 : 0; }
       VOTES += 1;
   so a call of the usual size runs a load, a compare, a branch and an
   add to memory.  Done branch-free (both cases computed, selected), it
   took about ten instructions a call more: pcre2's frame copy, 2.3 M
   calls on bench/run's workload.  Not atomic, even with
   -fprofile-update=atomic: a race loses a vote, and the vote only
   decides which size the recompile tests first.  GSI (at the call)
   ends up at the call again, in the block after the test.  */
static void
vote_before (gimple_stmt_iterator *gsi, tree majority, tree votes, tree v)
{
  tree u64 = ppgcc_u64_type ();
  tree m = create_tmp_reg (u64, "pp_m");
  gsi_insert_before (gsi, gimple_build_assign (m, unshare_expr (majority)),
                     GSI_SAME_STMT);
  gsi_insert_before (gsi, gimple_build_cond (NE_EXPR, m, v, NULL_TREE,
                                             NULL_TREE),
                     GSI_SAME_STMT);
  /* The test ends its block: the call and what follows move to the next
     one, the differing size's block goes between.  */
  gimple_stmt_iterator cond = *gsi;
  gsi_prev (&cond);
  edge e = split_block (gsi_bb (cond), gsi_stmt (cond));
  basic_block test_bb = e->src, join_bb = e->dest;
  basic_block other_bb = create_empty_bb (test_bb);
  if (current_loops)
    {
      add_bb_to_loop (other_bb, test_bb->loop_father);
      loops_state_set (LOOPS_NEED_FIXUP);
    }
  e->flags = EDGE_FALSE_VALUE;
  e->probability = profile_probability::very_likely ();
  edge t = make_edge (test_bb, other_bb, EDGE_TRUE_VALUE);
  t->probability = e->probability.invert ();
  make_single_succ_edge (other_bb, join_bb, EDGE_FALLTHRU);
  other_bb->count = t->count ();
  if (dom_info_available_p (CDI_DOMINATORS))
    {
      set_immediate_dominator (CDI_DOMINATORS, other_bb, test_bb);
      set_immediate_dominator (CDI_DOMINATORS, join_bb, test_bb);
    }

  gimple_seq seq = NULL;
  tree c = create_tmp_reg (u64, "pp_n"), none = create_tmp_reg (boolean_type_node, "pp_z");
  tree m2 = create_tmp_reg (u64, "pp_m"), c2 = create_tmp_reg (u64, "pp_n");
  tree less = create_tmp_reg (u64, "pp_n");
  gimple_seq_add_stmt (&seq, gimple_build_assign (c, unshare_expr (votes)));
  gimple_seq_add_stmt (&seq, gimple_build_assign (none, EQ_EXPR, c,
                                                  build_int_cstu (u64, 0)));
  gimple_seq_add_stmt (&seq, gimple_build_assign (m2, COND_EXPR, none, v, m));
  gimple_seq_add_stmt (&seq, gimple_build_assign (less, MINUS_EXPR, c,
                                                  build_int_cstu (u64, 2)));
  gimple_seq_add_stmt (&seq, gimple_build_assign (c2, COND_EXPR, none,
                                                  build_int_cstu (u64, 0),
                                                  less));
  gimple_seq_add_stmt (&seq, gimple_build_assign (unshare_expr (majority),
                                                  m2));
  gimple_seq_add_stmt (&seq, gimple_build_assign (unshare_expr (votes), c2));
  gimple_stmt_iterator o = gsi_start_bb (other_bb);
  gsi_insert_seq_after (&o, seq, GSI_NEW_STMT);

  *gsi = gsi_start_bb (join_bb);
  update_before (gsi, unshare_expr (votes), build_int_cstu (u64, 1));
}

static tree
word (tree array, uint64_t i)
{
  return build4 (ARRAY_REF, TREE_TYPE (TREE_TYPE (array)), array,
                 size_int (i), NULL_TREE, NULL_TREE);
}

void
ppgcc_value_probes (const std::vector<gimple *> &sites, ppgcc_fn &fn)
{
  if (sites.empty ())
    return;
  const unsigned w = PPD_VALUE_WORDS;
  fn.num_values = w * sites.size ();
  fn.values = ppgcc_new_counters (fn.num_values);
  tree u64 = ppgcc_u64_type ();
  for (size_t k = 0; k < sites.size (); k++)
    {
      tree size;
      stringop_size (sites[k], &size);
      gimple_stmt_iterator gsi = gsi_for_stmt (sites[k]);
      tree v = create_tmp_reg (u64, "pp_size");
      gsi_insert_before (&gsi, gimple_build_assign (v, fold_convert (u64,
                                                                     size)),
                         GSI_SAME_STMT);
      update_before (&gsi, word (fn.values, w * k + PPD_VALUE_SUM), v);
      update_before (&gsi, word (fn.values, w * k + PPD_VALUE_CALLS),
                     build_int_cstu (u64, 1));
      vote_before (&gsi, word (fn.values, w * k + PPD_VALUE_MAJORITY),
                   word (fn.values, w * k + PPD_VALUE_VOTES), v);
      tree dest = gimple_call_arg (sites[k], 0);
      tree p = create_tmp_reg (TREE_TYPE (dest), "pp_dest");
      tree a = create_tmp_reg (u64, "pp_addr");
      gsi_insert_before (&gsi, gimple_build_assign (p, unshare_expr (dest)),
                         GSI_SAME_STMT);
      gsi_insert_before (&gsi, gimple_build_assign (a, fold_convert (u64, p)),
                         GSI_SAME_STMT);
      update_before (&gsi, word (fn.values, w * k + PPD_VALUE_ADDRESSES), a,
                     BIT_IOR_EXPR);
    }
}

void
ppgcc_value_histograms (function *fun, const std::vector<gimple *> &sites,
                        const ppd_fn *p)
{
  const unsigned w = PPD_VALUE_WORDS;
  if (!p->nvalues || p->nvalues != w * sites.size ())
    return;
  for (size_t k = 0; k < sites.size (); k++)
    {
      const uint64_t *site = p->values + w * k;
      uint64_t sum = site[PPD_VALUE_SUM], calls = site[PPD_VALUE_CALLS];
      uint64_t addresses = site[PPD_VALUE_ADDRESSES];
      if (!calls)
        continue;
      tree size;
      stringop_size (sites[k], &size);
      /* GCC's counters are signed (stream_out_histogram_value asserts
         them non-negative): the average of saturated words is kept by
         halving both.  */
      while (sum > (uint64_t) INT64_MAX || calls > (uint64_t) INT64_MAX)
        {
          sum /= 2;
          calls = calls / 2 ? calls / 2 : 1;
        }
      histogram_value h = gimple_alloc_histogram_value (fun, HIST_TYPE_AVERAGE,
                                                        sites[k], size);
      h->n_counters = 2;
      h->hvalue.counters = XNEWVEC (gcov_type, 2);
      h->hvalue.counters[0] = (gcov_type) sum;
      h->hvalue.counters[1] = (gcov_type) calls;
      gimple_add_histogram_value (fun, sites[k], h);
      /* The majority size, when the vote ended with one: at least half of
         the calls plus half its votes had that size (exactly so when the
         vote never changed its candidate).  GCC's own profile keeps the
         few most frequent sizes (HIST_TYPE_TOPN_VALUES); ppgcc gives the
         one, as a value of that histogram.  */
      uint64_t votes = site[PPD_VALUE_VOTES];
      if (votes && calls)
        {
          uint64_t all = site[PPD_VALUE_CALLS];
          uint64_t most = all / 2 + votes / 2;
          /* As CALLS was scaled.  */
          while (all > calls)
            {
              all /= 2;
              most /= 2;
            }
          h = gimple_alloc_histogram_value (fun, HIST_TYPE_TOPN_VALUES,
                                            sites[k], size);
          h->n_counters = 4;
          h->hvalue.counters = XNEWVEC (gcov_type, 4);
          h->hvalue.counters[0] = (gcov_type) calls;
          h->hvalue.counters[1] = 1;
          h->hvalue.counters[2] = (gcov_type) site[PPD_VALUE_MAJORITY];
          h->hvalue.counters[3] = (gcov_type) std::min (most, calls);
          gimple_add_histogram_value (fun, sites[k], h);
        }
      if (!addresses)
        continue;
      h = gimple_alloc_histogram_value (fun, HIST_TYPE_IOR, sites[k],
                                        gimple_call_arg (sites[k], 0));
      h->n_counters = 1;
      h->hvalue.counters = XNEWVEC (gcov_type, 1);
      h->hvalue.counters[0] = (gcov_type) addresses;
      gimple_add_histogram_value (fun, sites[k], h);
    }
}

/* The majority histograms of FUN's statements, scaled to the counts of
   their blocks now (inlined copies, superblock copies and clones have a
   share of the training's calls): GCC's transformation checks that a
   histogram's calls are its block's count, and without
   -fprofile-correction a mismatch is an error.  One without a count is
   dropped.  */
static void
fit_majorities (function *fun)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      {
        gimple *stmt = gsi_stmt (gsi);
        histogram_value h
            = gimple_histogram_value_of_type (fun, stmt,
                                              HIST_TYPE_TOPN_VALUES);
        if (!h)
          continue;
        profile_count c = bb->count.ipa ();
        gcov_type all = h->hvalue.counters[0];
        if (!c.initialized_p () || all <= 0)
          {
            gimple_remove_histogram_value (fun, stmt, h);
            continue;
          }
        gcov_type now = c.to_gcov_type ();
        h->hvalue.counters[3]
            = (gcov_type) ((double) h->hvalue.counters[3] * now / all);
        h->hvalue.counters[0] = now;
      }
}

void
ppgcc_value_transforms ()
{
  cgraph_node *node;
  FOR_EACH_DEFINED_FUNCTION (node)
    {
      function *fun = DECL_STRUCT_FUNCTION (node->decl);
      if (!fun || !VALUE_HISTOGRAMS (fun) || !node->has_gimple_body_p ()
          || !fun->cfg || !gimple_in_ssa_p (fun))
        continue;
      push_cfun (fun);
      fit_majorities (fun);
      bool changed = gimple_value_profile_transformations ();
      free_dominance_info (CDI_DOMINATORS);
      free_dominance_info (CDI_POST_DOMINATORS);
      if (changed)
        {
          /* As -fprofile-use's reader does after the same
             transformations: the calls' operands, the split blocks, the
             copies' virtual operands and the call graph's edges.  */
          basic_block bb;
          FOR_EACH_BB_FN (bb, fun)
            for (gimple_stmt_iterator gsi = gsi_start_bb (bb);
                 !gsi_end_p (gsi); gsi_next (&gsi))
              if (is_gimple_call (gsi_stmt (gsi)))
                update_stmt (gsi_stmt (gsi));
          cleanup_tree_cfg ();
          update_ssa (TODO_update_ssa);
          cgraph_edge::rebuild_edges ();
        }
      pop_cfun ();
    }
}
