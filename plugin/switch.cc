/* Switchable profiling: -fprofile-paths-switch=clone.

   Arnold and Ryder's duplication (paper 003 §II-III: a profile flag that
   turns instrumentation on and off; check-based sampling as its software
   form).  The function body is copied before the probes go in: the copy
   stays plain.  A check of the flag __pp_on at the function entry and on
   every back edge, in both versions, sends control to the instrumented or
   to the plain body.  While profiling is off a function pays one
   predictable test per call and per loop iteration, and runs plain code.

   Path semantics: a path is counted when profiling was on where it started
   (the entry, or the loop header after a back edge).  Entering the
   instrumented body at a loop header from the plain one starts a path
   there: the register gets the value the back edge's own probe gives it
   (a restart, PLDI'97 §2.2).

   Functions with abnormal or EH edges, or whose paths are cut, keep one
   always-instrumented body; their path ends test the flag instead
   (-fprofile-paths-switch=check everywhere).  */
#include "plugin.h"

tree
ppgcc_profile_flag ()
{
  static tree decl;
  if (!decl)
    {
      tree type = build_qualified_type (integer_type_node,
                                        TYPE_QUAL_VOLATILE);
      decl = build_decl (BUILTINS_LOCATION, VAR_DECL,
                         get_identifier ("__pp_on"), type);
      DECL_EXTERNAL (decl) = 1;
      TREE_PUBLIC (decl) = 1;
      TREE_THIS_VOLATILE (decl) = 1;
      DECL_ARTIFICIAL (decl) = 1;
      /* The runtime's is hidden: each shared object has its own.  */
      DECL_VISIBILITY (decl) = VISIBILITY_HIDDEN;
      DECL_VISIBILITY_SPECIFIED (decl) = 1;
    }
  return decl;
}


/* Copies the function's body (every block of CFG but ENTRY and EXIT) into
   ST.plain, unreachable until ppgcc_switch_connect.  */
bool
ppgcc_switch_prepare (function *fun, const ppgcc_cfg &cfg,
                      const pp_numbering *n, ppgcc_switch &st)
{
  if (!ppgcc_copyable_cfg_p (fun, n, 0))
    return false;
  int nn = (int) cfg.blocks.size ();
  st.plain.assign (nn, nullptr);
  /* Temporaries live across blocks: the plain body enters the
     instrumented one at loop headers and back, where a temporary defined
     before the loop in the other body would not reach.  As variables,
     into-SSA joins them.  */
  std::unordered_set<tree> foreign;
  ppgcc_foreign_names (fun, foreign);
  ppgcc_localise_names (fun, foreign);
  std::unordered_map<tree, tree> names;
  basic_block after = EXIT_BLOCK_PTR_FOR_FN (fun)->prev_bb;
  for (int v = 0; v < nn; v++)
    {
      basic_block bb = cfg.blocks[v];
      if (bb == ENTRY_BLOCK_PTR_FOR_FN (fun)
          || bb == EXIT_BLOCK_PTR_FOR_FN (fun))
        continue;
      basic_block copy = ppgcc_copy_stmts (bb, after, names);
      after = copy;
      if (current_loops)
        add_bb_to_loop (copy, current_loops->tree_root);
      st.plain[v] = copy;
    }
  /* The edges, and the switches' case labels, which name blocks.  */
  for (size_t g = 0; g < cfg.edges.size (); g++)
    {
      edge e = cfg.edges[g];
      int s = pp_graph_edge_src (cfg.graph, (int) g);
      int d = pp_graph_edge_dst (cfg.graph, (int) g);
      if (!st.plain[s])
        continue;
      basic_block dest = st.plain[d] ? st.plain[d] : e->dest;
      edge c = make_edge (st.plain[s], dest, e->flags);
      c->probability = e->probability;
    }
  for (int v = 0; v < nn; v++)
    {
      if (!st.plain[v])
        continue;
      gimple_stmt_iterator gsi = gsi_last_bb (st.plain[v]);
      if (gsi_end_p (gsi))
        continue;
      gswitch *sw = dyn_cast<gswitch *> (gsi_stmt (gsi));
      if (!sw)
        continue;
      for (unsigned i = 0; i < gimple_switch_num_labels (sw); i++)
        {
          tree cl = gimple_switch_label (sw, i);
          basic_block target = label_to_block (fun, CASE_LABEL (cl));
          int t = -1;
          for (int w = 0; w < nn && t < 0; w++)
            if (cfg.blocks[w] == target)
              t = w;
          CASE_LABEL (cl) = gimple_block_label (st.plain[t]);
        }
    }
  /* Where the switches go in after the probes.  */
  for (size_t g = 0; g < cfg.edges.size (); g++)
    {
      const pp_cfg_edge_info *c = &n->cfg[g];
      if (c->role == PP_CFG_BREAK && c->back)
        st.back_edges.push_back ((int) g);
      if (pp_graph_edge_src (cfg.graph, (int) g) == n->entry)
        st.first = pp_graph_edge_dst (cfg.graph, (int) g);
    }
  if (current_loops)
    loops_state_set (LOOPS_NEED_FIXUP);
  return true;
}

/* E's source now ends with `if (__pp_on != 0)`: E is the true edge, and a
   false edge goes to OFF.  Returns the block of the test.  */
static basic_block
insert_switch (edge e, basic_block off, bool to_plain_likely)
{
  basic_block test = split_edge (e);
  gimple_stmt_iterator gsi = gsi_last_bb (test);
  tree t = create_tmp_reg (integer_type_node, "pp_on");
  gsi_insert_after (&gsi, gimple_build_assign (t, ppgcc_profile_flag ()),
                    GSI_NEW_STMT);
  gsi_insert_after (&gsi, gimple_build_cond (NE_EXPR, t, integer_zero_node,
                                             NULL_TREE, NULL_TREE),
                    GSI_NEW_STMT);
  edge on = single_succ_edge (test);
  on->flags &= ~EDGE_FALLTHRU;
  on->flags |= EDGE_TRUE_VALUE;
  edge plain = make_edge (test, off, EDGE_FALSE_VALUE);
  profile_probability p = to_plain_likely ? profile_probability::likely ()
                                          : profile_probability::unlikely ();
  plain->probability = p;
  on->probability = p.invert ();
  return test;
}

void
ppgcc_switch_connect (function *fun, const ppgcc_cfg &cfg,
                      const pp_probe *probes, int nprobes, tree regs[2],
                      ppgcc_switch &st)
{
  /* Function entry: the instrumented body, or the plain one.  */
  insert_switch (single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (fun)),
                 st.plain[st.first], true);
  for (int g : st.back_edges)
    {
      int h = pp_graph_edge_dst (cfg.graph, g);
      int l = pp_graph_edge_src (cfg.graph, g);
      basic_block header = cfg.blocks[h];
      /* Instrumented side: after the back edge's probe (the path end and
         the restart), which split the edge or went to the latch's end.  */
      edge e = cfg.edges[g];
      if (e->dest != header)
        e = single_succ_edge (e->dest);
      insert_switch (e, st.plain[h], true);
      /* Plain side: into the instrumented header, the registers restart
         as the back edge's probe restarts them.  */
      edge pe = find_edge (st.plain[l], st.plain[h]);
      basic_block restart = split_edge (pe);
      redirect_edge_and_branch (single_succ_edge (restart), header);
      gimple_stmt_iterator gsi = gsi_last_bb (restart);
      for (int i = 0; i < nprobes; i++)
        if (probes[i].where == PP_AT_EDGE && probes[i].edge == g)
          for (int r = 0; r < 2; r++)
            if (regs[r] && probes[i].op[r] == PP_REG_SET)
              gsi_insert_after (&gsi,
                                gimple_build_assign (
                                    regs[r], build_int_cstu (ppgcc_u64_type (),
                                                             probes[i].val[r])),
                                GSI_NEW_STMT);
      /* RESTART now leads to the instrumented header; the test goes
         before it, sending the plain path on to the plain header.  */
      insert_switch (single_pred_edge (restart), st.plain[h], true);
    }
  free_dominance_info (CDI_DOMINATORS);
  /* The plain body's loops are new: find them now, before into-SSA
     builds loop-closed form over the loop tree.  */
  if (current_loops)
    {
      loops_state_set (LOOPS_NEED_FIXUP);
      calculate_dominance_info (CDI_DOMINATORS);
      fix_loop_structure (NULL);
    }
}
