/* Tail calls kept tail calls: a return of its own for each block that
   ends in a call whose value is returned, before the CFG is numbered.

   GCC's lowering sends every `return' of a function through one return
   block, so `return f (x);' is `D.1 = f (x); goto <ret>;' and the path
   count of every path ending there went into that shared block: after the
   call.  A call followed by a count is no tail call: GCC neither turns
   self-recursion into a loop (tailr) nor emits a jump for the call
   (tailc).  -O2 builds of mujs make 298 such jumps, its Ball-Larus build
   made 43; mujs's dumpstringnode, which -O2 makes a loop, stayed a
   recursive call the IPA inliner then inlined 63 times over (10 KB).

   Here each such block gets its own `return', so its paths end in it,
   and the probes count them before the call (ppgcc_insert_probes): the
   path is complete once the call starts, since nothing in the caller
   runs after it.  A path that ends in a tail call is therefore counted
   even when the callee does not come back (exit, longjmp), as the
   optimised program, whose frame is gone at the jump, would have it.
   Builds with metrics keep the count after the call: a path's metric is
   read at its end and includes its calls.

   Done in -fuse-path-profile's compiles too (the same pass position), so
   the numbered CFG and its checksum are the same in both.  */
#include "plugin.h"

/* Statements that make no code and that GCC's tail calls look past:
   debug statements, GIMPLE_PREDICT (the early-return hint lowering leaves
   after a `return f (x);') and clobbers (the end of an addressable
   local's life: mujs's Sp_charAt, whose buffer dies at its return).  */
static bool
no_code_stmt_p (gimple *s)
{
  return is_gimple_debug (s) || gimple_code (s) == GIMPLE_PREDICT
         || gimple_clobber_p (s);
}

/* Whether BB holds nothing but labels, statements that make no code and a
   return of nothing or of a variable, and can lose predecessors: none of
   its labels is taken by address or reached non-locally.  The return, or
   NULL.  */
static greturn *
bare_return_block (basic_block bb)
{
  greturn *ret = NULL;
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    {
      gimple *s = gsi_stmt (gsi);
      if (glabel *l = dyn_cast<glabel *> (s))
        {
          tree label = gimple_label_label (l);
          if (FORCED_LABEL (label) || DECL_NONLOCAL (label))
            return NULL;
          continue;
        }
      if (no_code_stmt_p (s))
        continue;
      if (ret)
        return NULL;
      ret = dyn_cast<greturn *> (s);
      if (!ret)
        return NULL;
    }
  if (!ret)
    return NULL;
  tree v = gimple_return_retval (ret);
  if (v && !VAR_P (v) && TREE_CODE (v) != RESULT_DECL)
    return NULL;
  return ret;
}

/* The statement before GSI's that makes code.  */
static void
prev_code_stmt (gimple_stmt_iterator *gsi)
{
  do
    gsi_prev (gsi);
  while (!gsi_end_p (*gsi) && no_code_stmt_p (gsi_stmt (*gsi)));
}

/* The last statement of BB that makes code.  */
static gimple_stmt_iterator
last_code_stmt (basic_block bb)
{
  gimple_stmt_iterator gsi = gsi_last_bb (bb);
  if (!gsi_end_p (gsi) && no_code_stmt_p (gsi_stmt (gsi)))
    prev_code_stmt (&gsi);
  return gsi;
}

/* The call at GSI when it returns what RETVAL returns (nothing, or its
   value into RETVAL), else NULL.  */
static gcall *
tail_call_candidate_at (gimple_stmt_iterator gsi, tree retval)
{
  gcall *call = dyn_cast<gcall *> (gsi_stmt (gsi));
  if (!call || gimple_call_internal_p (call)
      || (gimple_call_flags (call) & (ECF_RETURNS_TWICE | ECF_NORETURN)))
    return NULL;
  tree lhs = gimple_call_lhs (call);
  if (!retval)
    return lhs ? NULL : call;
  return lhs && operand_equal_p (lhs, retval, 0) ? call : NULL;
}

/* The call before BB's return, when BB ends in a return of what that
   call returns: where the count of the paths ending in BB goes.  */
gcall *
ppgcc_tail_call_before_return (basic_block bb)
{
  gimple_stmt_iterator gsi = last_code_stmt (bb);
  if (gsi_end_p (gsi))
    return NULL;
  greturn *ret = dyn_cast<greturn *> (gsi_stmt (gsi));
  if (!ret)
    return NULL;
  prev_code_stmt (&gsi);
  if (gsi_end_p (gsi) || !is_gimple_call (gsi_stmt (gsi)))
    return NULL;
  gcall *call = tail_call_candidate_at (gsi, gimple_return_retval (ret));
  return call;
}

void
ppgcc_split_tail_returns (function *fun)
{
  auto_vec<basic_block> returns;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, EXIT_BLOCK_PTR_FOR_FN (fun)->preds)
    if (EDGE_COUNT (e->src->preds) > 1 && bare_return_block (e->src))
      returns.safe_push (e->src);
  bool changed = false;
  for (basic_block r : returns)
    {
      tree retval = gimple_return_retval (bare_return_block (r));
      for (unsigned i = 0; i < EDGE_COUNT (r->preds);)
        {
          edge in = EDGE_PRED (r, i);
          basic_block b = in->src;
          gimple_stmt_iterator last = last_code_stmt (b);
          gcall *call = (in->flags & EDGE_COMPLEX) || !single_succ_p (b)
                            || gsi_end_p (last)
                          ? NULL
                          : tail_call_candidate_at (last, retval);
          if (!call)
            {
              i++;
              continue;
            }
          /* After B's trailing statements, R's clobbers then its return
             (a return ends B).  */
          gimple_stmt_iterator at = gsi_last_bb (b);
          for (gimple_stmt_iterator g = gsi_start_bb (r); !gsi_end_p (g);
               gsi_next (&g))
            if (gimple_clobber_p (gsi_stmt (g)))
              gsi_insert_after (&at, gimple_copy (gsi_stmt (g)),
                                GSI_NEW_STMT);
          greturn *copy = gimple_build_return (retval);
          gimple_set_location (copy, gimple_location (call));
          gsi_insert_after (&at, copy, GSI_NEW_STMT);
          remove_edge (in);
          make_single_succ_edge (b, EXIT_BLOCK_PTR_FOR_FN (fun), 0);
          changed = true;
        }
      /* Every block that came here has its own return now.  */
      if (EDGE_COUNT (r->preds) == 0)
        delete_basic_block (r);
    }
  if (changed)
    {
      /* The return blocks lost predecessors.  */
      free_dominance_info (CDI_DOMINATORS);
      free_dominance_info (CDI_POST_DOMINATORS);
      if (current_loops)
        loops_state_set (LOOPS_NEED_FIXUP);
    }
}
