/* A statement behind a test, the shape every two-armed probe takes once
   lowered: the cct entry's callee-slot check (context-lower.cc: the miss
   behind the slot's compare), a one-metric probe (the runtime's reading
   behind __pp_metric_fast, the TSC read in place otherwise) and
   switchable profiling's test at a call (switch-local.cc: a local
   callee's instrumented copy behind the profile flag).

     head:  ... the caller's test ...; if (A CODE B)
     true:  STMT                   (probability P)
     false: a new block, the caller's other arm
     join:  what followed STMT

   In SSA form or before it (switch-local.cc runs before).  */
#include "plugin.h"

ppgcc_guard
ppgcc_guard_split (gimple *stmt)
{
  ppgcc_guard g;
  basic_block bb = gimple_bb (stmt);
  gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
  gsi_prev (&gsi);
  g.to_stmt = gsi_end_p (gsi) ? split_block_after_labels (bb)
                              : split_block (bb, gsi_stmt (gsi));
  g.head = g.to_stmt->src;
  g.stmt_bb = g.to_stmt->dest;
  g.join = split_block (g.stmt_bb, stmt)->dest;
  g.other = NULL;
  g.other_out = NULL;
  g.stmt_out = single_succ_edge (g.stmt_bb);
  return g;
}

void
ppgcc_guard_branch (ppgcc_guard &g, tree_code code, tree a, tree b,
                    profile_probability p)
{
  gimple_stmt_iterator gsi = gsi_last_bb (g.head);
  gsi_insert_after (&gsi, gimple_build_cond (code, a, b, NULL_TREE, NULL_TREE),
                    GSI_NEW_STMT);
  g.to_stmt->flags &= ~EDGE_FALLTHRU;
  g.to_stmt->flags |= EDGE_TRUE_VALUE;
  g.to_stmt->probability = p;
  g.other = create_empty_bb (g.head);
  if (current_loops)
    add_bb_to_loop (g.other, g.head->loop_father);
  edge e = make_edge (g.head, g.other, EDGE_FALSE_VALUE);
  e->probability = p.invert ();
  g.other->count = g.head->count.apply_probability (e->probability);
  g.stmt_bb->count = g.head->count.apply_probability (p);
  g.other_out = make_single_succ_edge (g.other, g.join, EDGE_FALLTHRU);
}
