/* -fprofile-paths=cct (with one metric too): a function whose calls GCC's early
   inliner took in whole becomes a leaf before GCC weighs it for inlining
   elsewhere.

   Instrumentation (context.cc) runs on the CFG as built, before any
   inlining: a function that calls small helpers gets a callee slot per
   call, a store of the slot before each call, a restore before each
   return and the three-operand entry marker.  When the early inliner
   has inlined every one of those helpers, nothing reads the stores, but
   they and the marker still count in the size and time GCC's IPA inliner
   gives the function, and its callers inline it no more where -O2 does
   (zstd's ZSTD_hash5Ptr, which calls MEM_readLE64 and ZSTD_hash5, stayed
   out of line in its hottest loop: 46 M instructions of its own).

   This pass, right after the early inliner, finds such a function: its
   own entry marker has calls to speak for, but no call that could enter a
   context is left (nor any user asm, which might call), and no body
   inlined into it has slots of its own.  It then drops every store of
   __pp_slot and turns the marker into a leaf's (context.cc), so that
   where GCC now inlines the function its body counts flat in the
   counters instrumentation gave it for this case (context-lower.cc).
   The unit's descriptors are made by then (before the IPA passes), so
   its num_sites stays: its records keep slots nothing uses.  */
#include "plugin.h"

#include "pp/rt_abi.h"

/* The entries' __builtin_return_address (0) and the like (their int
   argument is not the unsigned of the builtin's type, so that
   ppgcc_context_site_p takes them for calls).  */
static bool
frame_builtin_p (const gimple *stmt)
{
  tree fd = gimple_call_fndecl (stmt);
  return fd && (fndecl_built_in_p (fd, BUILT_IN_RETURN_ADDRESS)
                || fndecl_built_in_p (fd, BUILT_IN_FRAME_ADDRESS));
}

/* FUN's own entry marker when FUN is now a leaf as above, else NULL.  */
static gasm *
became_leaf (function *fun)
{
  gasm *own = NULL;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      {
        gimple *stmt = gsi_stmt (gsi);
        if (ppgcc_entry_marker_p (stmt))
          {
            gasm *a = as_a<gasm *> (stmt);
            if (gimple_asm_ninputs (a) != 3)
              continue; /* a leaf's body, inlined: counts flat */
            if (ppgcc_inlined_copy_p (stmt) || own)
              return NULL; /* a body with slots of its own */
            own = a;
          }
        else if ((ppgcc_context_site_p (stmt) && !frame_builtin_p (stmt))
                 || gimple_code (stmt) == GIMPLE_ASM)
          return NULL;
      }
  return own;
}

static unsigned int
make_leaf (function *fun)
{
  gasm *marker = became_leaf (fun);
  if (!marker)
    return 0;
  /* Its flat counters, made at instrumentation for a function that might
     become a leaf (context.cc): without them it stays as it is.  */
  tree desc = TREE_VALUE (gimple_asm_input_op (marker, 0));
  if (TREE_CODE (desc) != ADDR_EXPR
      || !ppgcc_has_inlined_counts (TREE_OPERAND (desc, 0)))
    return 0;

  tree slot = ppgcc_slot_var ();
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);)
      {
        gimple *g = gsi_stmt (gsi);
        if (gimple_assign_single_p (g) && gimple_assign_lhs (g) == slot)
          {
            unlink_stmt_vdef (g);
            gsi_remove (&gsi, true);
            release_defs (g);
          }
        else
          gsi_next (&gsi);
      }

  /* (desc, ret, s) -> (desc, s): the leaf's marker; the return address
     is read again where it is lowered.  */
  tree tok = TREE_VALUE (gimple_asm_output_op (marker, 0));
  tree s = TREE_VALUE (gimple_asm_input_op (marker, 2));
  gasm *leaf = ppgcc_entry_marker (tok, TREE_OPERAND (desc, 0), NULL_TREE, s);
  gimple_set_block (leaf, gimple_block (marker));
  gimple_stmt_iterator gsi = gsi_for_stmt (marker);
  gsi_replace (&gsi, leaf, false);
  if (TREE_CODE (tok) == SSA_NAME)
    SSA_NAME_DEF_STMT (tok) = leaf;
  /* Its descriptor, made already, keeps its num_sites: its records have
     slots nothing uses.  */
  return TODO_update_ssa_only_virtuals;
}

namespace {

const pass_data context_leaf_pass_data = {
  GIMPLE_PASS,
  "ppgcc_ctx_leaf", /* name */
  OPTGROUP_NONE,
  TV_NONE,
  PROP_cfg | PROP_ssa, /* properties_required */
  0,               /* properties_provided */
  0,               /* properties_destroyed */
  0,               /* todo_flags_start */
  0,               /* todo_flags_finish */
};

class context_leaf_pass : public gimple_opt_pass
{
public:
  context_leaf_pass (gcc::context *ctxt)
      : gimple_opt_pass (context_leaf_pass_data, ctxt)
  {
  }
  bool gate (function *) final override { return !seen_error (); }
  unsigned int execute (function *fun) final override
  {
    return make_leaf (fun);
  }
};

} // namespace

opt_pass *
ppgcc_new_context_leaf_pass ()
{
  return new context_leaf_pass (g);
}
