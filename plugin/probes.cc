/* Inserting the probes of a plan (pp_plan) into GIMPLE.

   The pass runs before SSA is built, so the path register is a plain
   local temporary; into-SSA turns it into a register (and handles the
   abnormal edges of setjmp and non-local gotos for us).  */
#include "plugin.h"

static tree
u64_cst (uint64_t v)
{
  return build_int_cstu (ppgcc_u64_type (), v);
}

/* counter[index]++ for a probe that ends a path.  */
static void
gen_count (gimple_seq *seq, tree reg, bool uses_reg, uint64_t off,
           const ppgcc_fn &fn)
{
  tree u64 = ppgcc_u64_type ();
  tree index;
  if (uses_reg)
    {
      index = create_tmp_reg (u64, "pp_i");
      gimple_seq_add_stmt (seq, gimple_build_assign (index, PLUS_EXPR, reg,
                                                     u64_cst (off)));
    }
  else
    index = u64_cst (off);

  if (!fn.counters)
    {
      /* Hash mode: the runtime counts (thread-safe).  */
      static tree hit_fn;
      if (!hit_fn)
        {
          tree type = build_function_type_list (void_type_node,
                                                ptr_type_node, u64,
                                                NULL_TREE);
          hit_fn = build_fn_decl ("__pp_hash_hit", type);
          TREE_NOTHROW (hit_fn) = 1;
          DECL_ATTRIBUTES (hit_fn)
              = tree_cons (get_identifier ("leaf"), NULL_TREE,
                           DECL_ATTRIBUTES (hit_fn));
        }
      tree desc_addr = build_fold_addr_expr (fn.desc);
      gimple_seq_add_stmt (seq, gimple_build_call (hit_fn, 2, desc_addr,
                                                   index));
      return;
    }

  tree ref = build4 (ARRAY_REF, u64, fn.counters, index, NULL_TREE,
                     NULL_TREE);
  if (ppgcc_opts.atomic)
    {
      tree addr = create_tmp_reg (build_pointer_type (u64), "pp_p");
      gimple_seq_add_stmt (seq, gimple_build_assign (addr,
                                                     build_fold_addr_expr (ref)));
      tree fadd = builtin_decl_explicit (BUILT_IN_ATOMIC_FETCH_ADD_8);
      gimple_seq_add_stmt (seq, gimple_build_call (fadd, 3, addr, u64_cst (1),
                                                   build_int_cst (integer_type_node,
                                                                  MEMMODEL_RELAXED)));
      return;
    }
  tree old = create_tmp_reg (u64, "pp_c");
  tree inc = create_tmp_reg (u64, "pp_c");
  gimple_seq_add_stmt (seq, gimple_build_assign (old, unshare_expr (ref)));
  gimple_seq_add_stmt (seq, gimple_build_assign (inc, PLUS_EXPR, old,
                                                 u64_cst (1)));
  gimple_seq_add_stmt (seq, gimple_build_assign (unshare_expr (ref), inc));
}

static gimple_seq
gen_probe (const pp_probe &p, tree reg, const ppgcc_fn &fn)
{
  gimple_seq seq = NULL;
  if (p.count)
    gen_count (&seq, reg, p.count_uses_reg, p.count_off, fn);
  if (p.op[0] == PP_REG_ADD)
    gimple_seq_add_stmt (&seq, gimple_build_assign (reg, PLUS_EXPR, reg,
                                                    u64_cst (p.val[0])));
  else if (p.op[0] == PP_REG_SET)
    gimple_seq_add_stmt (&seq, gimple_build_assign (reg, u64_cst (p.val[0])));
  return seq;
}

static bool
returns_twice_call_p (gimple *stmt)
{
  return is_gimple_call (stmt)
         && (gimple_call_flags (stmt) & ECF_RETURNS_TWICE);
}

/* A probe that ends the paths of a block: before its last statement when
   that one transfers control (a call that may not return or may jump
   abnormally, a computed goto, ...), else at its end.  A returns_twice call
   (setjmp) must stay first in its block, so there the probe goes on the
   block's normal out-edges instead (setjmp's own abnormal edge is only the
   model of a later longjmp, which the receiver's restart covers).  */
static void
insert_at_block_end (basic_block bb, gimple_seq seq)
{
  gimple_stmt_iterator gsi = gsi_last_nondebug_bb (bb);
  if (gsi_end_p (gsi))
    {
      gsi = gsi_after_labels (bb);
      gsi_insert_seq_before (&gsi, seq, GSI_SAME_STMT);
      return;
    }
  gimple *last = gsi_stmt (gsi);
  if (returns_twice_call_p (last))
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
        if (!(e->flags & EDGE_COMPLEX))
          gsi_insert_seq_on_edge (e, gimple_seq_copy (seq));
      return;
    }
  if (stmt_ends_bb_p (last) || is_gimple_call (last))
    gsi_insert_seq_before (&gsi, seq, GSI_SAME_STMT);
  else
    gsi_insert_seq_after (&gsi, seq, GSI_SAME_STMT);
}

void
ppgcc_insert_probes (function *fun, const ppgcc_cfg &cfg,
                     const pp_probe *probes, int nprobes, const ppgcc_fn &fn)
{
  tree reg = create_tmp_var (ppgcc_u64_type (), "pp_path");
  /* Block-end probes first: on an edge they must come before the edge's
     own probe (count, then restart the register).  */
  for (int i = 0; i < nprobes; i++)
    if (probes[i].where == PP_AT_BLOCK_END)
      insert_at_block_end (cfg.blocks[probes[i].block],
                           gen_probe (probes[i], reg, fn));
  for (int i = 0; i < nprobes; i++)
    if (probes[i].where == PP_AT_EDGE)
      gsi_insert_seq_on_edge (cfg.edges[probes[i].edge],
                              gen_probe (probes[i], reg, fn));
  gsi_commit_edge_inserts ();
  (void) fun;
}
