/* Calling contexts and metrics: -fprofile-paths=cct and
   -fprofile-paths-metric (PLDI'97 §3.1 and §4; the runtime side is
   runtime/cct.c, the interface include/pp/rt_abi.h).

   cct without metrics: PLDI'97 §4.2's callee slots, inline.  At the entry
   of an instrumented function:
     s = __pp_slot; t = s->token;
     if (t[-1] == &desc && s->key == __builtin_return_address (0))
       { t[s->calls_at]++; tok = t; }
     else
       tok = __pp_enter_slot (&desc, return address, s);
   TOK is this call's context record: path ends count in tok[id] instead
   of a static array.  Before each call site K of a function with calls:
   __pp_slot = its slot K in TOK's record; before each return of such a
   function: __pp_slot = s.  A function that calls nothing (a leaf) needs
   neither.  No runtime call on a hit, no frame pointer (rt_abi.h).

   With metrics, the runtime keeps a shadow stack:
     tok = __pp_enter (&desc, __builtin_return_address (0),
                       __builtin_frame_address (0));
   at the entry, __pp_exit (tok) before each return, and at a path end
   __pp_metric_path (&acc[id * nmetrics], nmetrics), which charges the
   path with the metrics' change since it started less its callees' share
   (the runtime saves the caller's share at entry and restores it at exit,
   §3.1).  The pass runs before inlining: a function inlined later still
   enters its own context (site "inlined" under its caller's).  */
#include "plugin.h"

#include "pp/rt_abi.h"

static tree
ptr_u64 ()
{
  return build_pointer_type (ppgcc_u64_type ());
}

static tree
runtime_fn (const char *name, tree type)
{
  tree decl = build_fn_decl (name, type);
  TREE_NOTHROW (decl) = 1;
  /* The runtime never calls back into this unit.  */
  DECL_ATTRIBUTES (decl) = tree_cons (get_identifier ("leaf"), NULL_TREE,
                                      DECL_ATTRIBUTES (decl));
  return decl;
}

static tree
enter_fn ()
{
  static tree decl;
  if (!decl)
    decl = runtime_fn ("__pp_enter",
                       build_function_type_list (ptr_u64 (), ptr_type_node,
                                                 ptr_type_node, ptr_type_node,
                                                 NULL_TREE));
  return decl;
}

/* The slot type's words (struct __pp_cct_slot): token, key, calls_at.  */
#define SLOT_TOKEN 0
#define SLOT_KEY 8
#define SLOT_CALLS_AT 16
#define SLOT_BYTES 32

static tree
slot_ptr_type ()
{
  return build_pointer_type (ptr_u64 ());
}

static tree
enter_slot_fn ()
{
  static tree decl;
  if (!decl)
    decl = runtime_fn ("__pp_enter_slot",
                       build_function_type_list (ptr_u64 (), ptr_type_node,
                                                 ptr_type_node,
                                                 slot_ptr_type (), NULL_TREE));
  return decl;
}

/* Whether STMT is a call that could enter another context: any call but
   to GCC's own builtins (which do not call back).  */
static bool
site_p (gimple *stmt)
{
  return is_gimple_call (stmt) && !gimple_call_internal_p (stmt)
         && !gimple_call_builtin_p (stmt, BUILT_IN_NORMAL);
}

/* Whether FUN calls nothing that could enter another context.  Its entry
   then pushes nothing and it needs no exit (__pp_enter_leaf).  */
static bool
leaf_p (function *fun)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      {
        gimple *stmt = gsi_stmt (gsi);
        if (site_p (stmt))
          return false;
        if (gimple_code (stmt) == GIMPLE_ASM)
          return false;
      }
  return true;
}

/* Context probes call the runtime and read the return and frame
   addresses at the entry, which makes a function too big for GCC to
   inline where a plain build inlines it.  For most functions that changes
   cost, not meaning; for an inline function that takes the address of one
   of its labels it changes meaning: each inlined copy has labels of its
   own, and GCC keeps inlining such a function as a matter of quality of
   implementation (its c-torture test 990208-1.c: one label address per
   caller), so under cct its callers compared equal label addresses and
   the program aborted.  Such a function is counted flat, in an array of
   its own as without cct; its calls stay in its caller's context, as they
   would once inlined.  */
bool
ppgcc_context_free_p (function *fun)
{
  if (!DECL_DECLARED_INLINE_P (fun->decl)
      || !ppgcc_may_be_inlined_p (fun->decl))
    return false;
  return ppgcc_takes_label_address_p (fun);
}

/* The runtime's __pp_slot (rt_abi.h), thread-local: the callee slot of
   the call being made.  Initial-exec (or local-exec, in an executable):
   one instruction to reach it, as the runtime's own.  */
static tree
slot_var ()
{
  static tree decl;
  if (!decl)
    {
      decl = build_decl (BUILTINS_LOCATION, VAR_DECL,
                         get_identifier ("__pp_slot"), slot_ptr_type ());
      DECL_EXTERNAL (decl) = 1;
      TREE_PUBLIC (decl) = 1;
      DECL_ARTIFICIAL (decl) = 1;
      DECL_VISIBILITY (decl) = VISIBILITY_HIDDEN;
      DECL_VISIBILITY_SPECIFIED (decl) = 1;
      tls_model model = decl_default_tls_model (decl);
      if (model < TLS_MODEL_INITIAL_EXEC)
        model = TLS_MODEL_INITIAL_EXEC;
      set_decl_tls_model (decl, model);
    }
  return decl;
}

/* Before each call site K of FUN: __pp_slot = its callee slot in this
   call's context record (PLDI'97 §4.2), for the callee's inline entry.
   Returns the number of sites.  */
static uint32_t
store_slots (function *fun, const ppgcc_fn &fn)
{
  uint64_t first = PP_CCT_SLOTS_OF (fn.flags, fn.num_paths, fn.nmetrics);
  tree slot_ptr = slot_ptr_type ();
  uint32_t k = 0;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      {
        gimple *stmt = gsi_stmt (gsi);
        if (!site_p (stmt))
          continue;
        gimple_seq seq = NULL;
        tree a = create_tmp_reg (ptr_u64 (), "pp_slota");
        gimple_seq_add_stmt (&seq, gimple_build_assign (
                                       a, POINTER_PLUS_EXPR, fn.token,
                                       size_int (first * 8
                                                 + k * SLOT_BYTES)));
        tree b = create_tmp_reg (slot_ptr, "pp_slot");
        gimple_seq_add_stmt (&seq, gimple_build_assign (b, NOP_EXPR, a));
        gimple_seq_add_stmt (&seq, gimple_build_assign (slot_var (), b));
        gsi_insert_seq_before (&gsi, seq, GSI_SAME_STMT);
        k++;
      }
  return k;
}

/* MEM[(TYPE *) PTR + OFF].  */
static tree
mem_at (tree type, tree ptr, HOST_WIDE_INT off)
{
  return build2 (MEM_REF, type, ptr,
                 build_int_cst (build_pointer_type (type), off));
}

/* On x86-64, the inline entry's miss arm CALL becomes inline assembly
   that calls __pp_enter_slot_x86 (runtime/cct_slot_x86_64.S), which
   preserves every register: to the compiler the arm is no call, so a
   leaf stays a leaf and saves no registers in its prologue for it (as
   probes.cc's PPP miss).  The red zone is stepped over first.  */
static void
miss_without_call (gcall *call)
{
#if defined(__x86_64__)
  if (TYPE_PRECISION (ptr_type_node) != 64)
    return;
  static const char *const regs[] = { "D", "S", "d" };
  vec<tree, va_gc> *inputs = NULL, *outputs = NULL, *clobbers = NULL;
  for (unsigned i = 0; i < 3; i++)
    vec_safe_push (inputs,
                   build_tree_list (build_tree_list (NULL_TREE,
                                                     build_string (2, regs[i])),
                                    gimple_call_arg (call, i)));
  vec_safe_push (outputs,
                 build_tree_list (build_tree_list (NULL_TREE,
                                                   build_string (3, "=a")),
                                  gimple_call_lhs (call)));
  vec_safe_push (clobbers, build_tree_list (NULL_TREE, build_string (3, "cc")));
  vec_safe_push (clobbers, build_tree_list (NULL_TREE,
                                            build_string (7, "memory")));
  gasm *a = gimple_build_asm_vec ("lea -128(%%rsp), %%rsp\n\t"
                                  "call __pp_enter_slot_x86@PLT\n\t"
                                  "lea 128(%%rsp), %%rsp",
                                  inputs, outputs, clobbers, NULL);
  gimple_asm_set_volatile (a, true);
  gimple_stmt_iterator gsi = gsi_for_stmt (call);
  gsi_replace (&gsi, a, false);
#else
  (void) call;
#endif
}

/* A volatile MEM[(TYPE *) PTR + OFF].  */
static tree
volatile_at (tree type, tree ptr, HOST_WIDE_INT off)
{
  tree m = mem_at (type, ptr, off);
  TREE_THIS_VOLATILE (m) = 1;
  TREE_SIDE_EFFECTS (m) = 1;
  return m;
}

/* The inline entry (rt_abi.h), around its __pp_enter_slot call:
     t = s->token;
     if (((uintptr) t[PP_CCT_FN] ^ (uintptr) &desc
          | (uintptr) s->key ^ (uintptr) ret) == 0)
       { t[s->calls_at]++; tok = t; }
     else
       tok = __pp_enter_slot (&desc, ret, s);
   Made once the probes are in: the call's block is split around it.  */
static void
inline_slot_entry (const ppgcc_fn &fn)
{
  gcall *call = fn.enter_slot;
  basic_block bb = gimple_bb (call);
  gimple_stmt_iterator gsi = gsi_for_stmt (call);
  gsi_prev (&gsi);
  edge slow = gsi_end_p (gsi) ? split_block_after_labels (bb)
                              : split_block (bb, gsi_stmt (gsi));
  basic_block head = slow->src, cb = slow->dest;
  basic_block join = split_block (cb, call)->dest;

  tree uptr = pointer_sized_int_node;
  tree ret = gimple_call_arg (call, 1);
  tree s = gimple_call_arg (call, 2);
  /* The slot's words in the order the runtime fills them backwards
     (calls_at, token, key; volatile, so that GCC keeps that order): a
     signal handler that fills it between two of these loads makes the
     key, read last, miss (runtime/cct.c, slot_fill).  */
  gimple_seq seq = NULL;
  tree at = create_tmp_reg (ssizetype, "pp_at");
  gimple_seq_add_stmt (&seq, gimple_build_assign (
                                 at, volatile_at (ssizetype, s,
                                                  SLOT_CALLS_AT)));
  tree t = create_tmp_reg (ptr_u64 (), "pp_t");
  gimple_seq_add_stmt (&seq, gimple_build_assign (
                                 t, volatile_at (ptr_u64 (), s, SLOT_TOKEN)));
  tree f = create_tmp_reg (ptr_type_node, "pp_f");
  gimple_seq_add_stmt (&seq, gimple_build_assign (
                                 f, mem_at (ptr_type_node, t,
                                            8 * PP_CCT_FN)));
  tree k = create_tmp_reg (ptr_type_node, "pp_k");
  gimple_seq_add_stmt (&seq, gimple_build_assign (
                                 k, volatile_at (ptr_type_node, s,
                                                 SLOT_KEY)));
  tree fi = create_tmp_reg (uptr, "pp_fi");
  gimple_seq_add_stmt (&seq, gimple_build_assign (fi, NOP_EXPR, f));
  tree di = create_tmp_reg (uptr, "pp_di");
  gimple_seq_add_stmt (&seq, gimple_build_assign (
                                 di, NOP_EXPR, gimple_call_arg (call, 0)));
  tree x = create_tmp_reg (uptr, "pp_x");
  gimple_seq_add_stmt (&seq, gimple_build_assign (x, BIT_XOR_EXPR, fi, di));
  tree ki = create_tmp_reg (uptr, "pp_ki");
  gimple_seq_add_stmt (&seq, gimple_build_assign (ki, NOP_EXPR, k));
  tree ri = create_tmp_reg (uptr, "pp_ri");
  gimple_seq_add_stmt (&seq, gimple_build_assign (ri, NOP_EXPR, ret));
  tree y = create_tmp_reg (uptr, "pp_y");
  gimple_seq_add_stmt (&seq, gimple_build_assign (y, BIT_XOR_EXPR, ki, ri));
  tree z = create_tmp_reg (uptr, "pp_z");
  gimple_seq_add_stmt (&seq, gimple_build_assign (z, BIT_IOR_EXPR, x, y));
  gimple_seq_add_stmt (&seq, gimple_build_cond (NE_EXPR, z,
                                                build_int_cst (uptr, 0),
                                                NULL_TREE, NULL_TREE));
  gsi = gsi_last_bb (head);
  gsi_insert_seq_after (&gsi, seq, GSI_NEW_STMT);

  slow->flags &= ~EDGE_FALLTHRU;
  slow->flags |= EDGE_TRUE_VALUE;
  slow->probability = profile_probability::unlikely ();
  basic_block hit = create_empty_bb (head);
  if (current_loops)
    add_bb_to_loop (hit, head->loop_father);
  edge e = make_edge (head, hit, EDGE_FALSE_VALUE);
  e->probability = slow->probability.invert ();
  hit->count = head->count.apply_probability (e->probability);
  cb->count = head->count.apply_probability (slow->probability);
  make_single_succ_edge (hit, join, EDGE_FALLTHRU);
  /* split_block kept the dominators; the new diamond moves join's to head
     (-fchecking verifies them).  */
  if (dom_info_available_p (CDI_DOMINATORS))
    {
      set_immediate_dominator (CDI_DOMINATORS, hit, head);
      set_immediate_dominator (CDI_DOMINATORS, join, head);
    }

  /* t[s->calls_at]++: the token's calls word, or its recursive one.  */
  seq = NULL;
  tree off = create_tmp_reg (sizetype, "pp_off");
  gimple_seq_add_stmt (&seq, gimple_build_assign (off, NOP_EXPR, at));
  tree boff = create_tmp_reg (sizetype, "pp_boff");
  gimple_seq_add_stmt (&seq, gimple_build_assign (boff, MULT_EXPR, off,
                                                  size_int (8)));
  tree cp = create_tmp_reg (ptr_u64 (), "pp_cp");
  gimple_seq_add_stmt (&seq, gimple_build_assign (cp, POINTER_PLUS_EXPR, t,
                                                  boff));
  tree c = create_tmp_reg (ppgcc_u64_type (), "pp_calls");
  gimple_seq_add_stmt (&seq, gimple_build_assign (
                                 c, mem_at (ppgcc_u64_type (), cp, 0)));
  tree c1 = create_tmp_reg (ppgcc_u64_type (), "pp_calls");
  gimple_seq_add_stmt (&seq, gimple_build_assign (
                                 c1, PLUS_EXPR, c,
                                 build_int_cst (ppgcc_u64_type (), 1)));
  gimple_seq_add_stmt (&seq, gimple_build_assign (
                                 mem_at (ppgcc_u64_type (), cp, 0), c1));
  gimple_seq_add_stmt (&seq, gimple_build_assign (fn.token, t));
  gsi = gsi_start_bb (hit);
  gsi_insert_seq_after (&gsi, seq, GSI_NEW_STMT);
  miss_without_call (call);
}

static tree
exit_fn ()
{
  static tree decl;
  if (!decl)
    decl = runtime_fn ("__pp_exit",
                       build_function_type_list (void_type_node, ptr_u64 (),
                                                 NULL_TREE));
  return decl;
}

static tree
metric_path_fn ()
{
  static tree decl;
  if (!decl)
    decl = runtime_fn ("__pp_metric_path",
                       build_function_type_list (void_type_node, ptr_u64 (),
                                                 unsigned_type_node,
                                                 NULL_TREE));
  return decl;
}

/* VAR = __builtin_NAME (0).  */
static tree
frame_builtin (gimple_seq *seq, built_in_function code, const char *name)
{
  tree var = create_tmp_reg (ptr_type_node, name);
  gcall *call = gimple_build_call (builtin_decl_explicit (code), 1,
                                   integer_zero_node);
  gimple_call_set_lhs (call, var);
  gimple_seq_add_stmt (seq, call);
  return var;
}

void
ppgcc_context_entry (function *fun, ppgcc_fn &fn)
{
  gimple_seq seq = NULL;
  tree ret = frame_builtin (&seq, BUILT_IN_RETURN_ADDRESS, "pp_ra");
  fn.token = create_tmp_reg (ptr_u64 (), "pp_ctx");
  if (ppgcc_opts.cct && !ppgcc_opts.nmetrics)
    {
      /* Callee slots, inline (rt_abi.h).  */
      fn.leaf = leaf_p (fun);
      fn.saved_slot = create_tmp_reg (slot_ptr_type (), "pp_s");
      gimple_seq_add_stmt (&seq, gimple_build_assign (fn.saved_slot,
                                                      slot_var ()));
      gcall *call = gimple_build_call (enter_slot_fn (), 3,
                                       build_fold_addr_expr (fn.desc), ret,
                                       fn.saved_slot);
      gimple_call_set_lhs (call, fn.token);
      gimple_seq_add_stmt (&seq, call);
      fn.enter_slot = call;
      if (!fn.leaf)
        fn.num_sites = store_slots (fun, fn);
    }
  else
    {
      tree frame = frame_builtin (&seq, BUILT_IN_FRAME_ADDRESS, "pp_fa");
      gcall *call = gimple_build_call (enter_fn (), 3,
                                       build_fold_addr_expr (fn.desc), ret,
                                       frame);
      gimple_call_set_lhs (call, fn.token);
      gimple_seq_add_stmt (&seq, call);
    }
  bool slots = ppgcc_opts.cct && !(fn.flags & PP_FN_HASHED);
  if (slots)
    {
      /* The record's counters, as an array the probes index.  */
      tree atype = build_array_type_nelts (ppgcc_u64_type (), fn.num_paths);
      fn.count_base = build2 (MEM_REF, atype, fn.token,
                              build_int_cst (ptr_u64 (), 0));
    }
  if (fn.nmetrics)
    {
      if (slots)
        {
          fn.metric_base = create_tmp_reg (ptr_u64 (), "pp_acc");
          gimple_seq_add_stmt (&seq, gimple_build_assign (
                                         fn.metric_base, POINTER_PLUS_EXPR,
                                         fn.token,
                                         size_int (fn.num_paths * 8)));
        }
      else
        /* &metrics[0]: an invariant GIMPLE operand (a converted
           &metrics is not one).  */
        fn.metric_base = build_fold_addr_expr (
            build4 (ARRAY_REF, ppgcc_u64_type (), fn.metrics,
                    size_zero_node, NULL_TREE, NULL_TREE));
    }
  /* Pending on the entry edge, ahead of the probes' own code there (the
     path register's start), which is queued after it.  */
  gsi_insert_seq_on_edge (single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (fun)),
                          seq);
}

void
ppgcc_gen_metric_path (gimple_seq *seq, tree index, const ppgcc_fn &fn)
{
  tree off = create_tmp_reg (sizetype, "pp_off");
  tree idx = create_tmp_reg (sizetype, "pp_idx");
  gimple_seq_add_stmt (seq, gimple_build_assign (idx, NOP_EXPR, index));
  gimple_seq_add_stmt (seq, gimple_build_assign (off, MULT_EXPR, idx,
                                                 size_int (fn.nmetrics * 8)));
  tree acc = create_tmp_reg (ptr_u64 (), "pp_acc");
  gimple_seq_add_stmt (seq, gimple_build_assign (acc, POINTER_PLUS_EXPR,
                                                 unshare_expr (fn.metric_base),
                                                 off));
  gimple_seq_add_stmt (seq, gimple_build_call (metric_path_fn (), 2, acc,
                                               build_int_cst (unsigned_type_node,
                                                              fn.nmetrics)));
}

void
ppgcc_context_exits (function *fun, const ppgcc_fn &fn)
{
  /* Every return: after the path end's probe there (committed already),
     before the return itself.  Calls that do not return, and longjmp,
     leave no exit: with metrics the runtime recovers by the frame
     address; with slots none is needed (the caller stores its slot
     before its next call).  */
  if (fn.enter_slot)
    inline_slot_entry (fn);
  if (fn.leaf)
    return;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, EXIT_BLOCK_PTR_FOR_FN (fun)->preds)
    {
      gimple_stmt_iterator gsi = gsi_last_nondebug_bb (e->src);
      if (gsi_end_p (gsi) || gimple_code (gsi_stmt (gsi)) != GIMPLE_RETURN)
        continue;
      gimple *exit = fn.enter_slot
                         ? gimple_build_assign (slot_var (), fn.saved_slot)
                         : (gimple *) gimple_build_call (exit_fn (), 1,
                                                         fn.token);
      gsi_insert_before (&gsi, exit, GSI_SAME_STMT);
    }
}
