/* Calling contexts and metrics: -fprofile-paths=cct and
   -fprofile-paths-metric (PLDI'97 §3.1 and §4; the runtime side is
   runtime/cct.c, the interface include/pp/rt_abi.h).

   cct without metrics: PLDI'97 §4.2's callee slots, inline (the check is
   made after GCC has inlined, context-lower.cc: here the entry is one
   call to __pp_enter_slot).  At the entry of an instrumented function:
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

   With metrics, a function with calls enters through the runtime's
   shadow stack:
     tok = __pp_enter (&desc, __builtin_return_address (0),
                       __builtin_frame_address (0));
   at the entry, __pp_exit (tok) before each return, and stores its callee
   slots as above; at a path end __pp_metric_path (&acc[id * nmetrics],
   nmetrics), which charges the path with the metrics' change since it
   started less its callees' share (the runtime saves the caller's share
   at entry and restores it at exit, §3.1).  With one metric, the path end
   is inline once lowered (context-lower.cc: the TSC read in place), and a
   leaf in array mode enters by its callee slot as without metrics, its
   caller's share saved in a local (rt_abi.h).  The pass runs before
   inlining: a function with calls inlined later still enters its own
   context (site "inlined" under its caller's).  */
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

/* The size of a callee slot (struct __pp_cct_slot).  */
#define SLOT_BYTES 32

static tree
slot_ptr_type ()
{
  return build_pointer_type (ptr_u64 ());
}

/* The runtime's entry, the leaf marker's call and __pp_slot: made once
   and kept across GCC's garbage collections (ppgcc_context_gc_roots).
   Until the late lowering nothing in the functions refers to the first
   two (the entries are asm markers then), and a collection in a large
   unit freed them: sqlite3's lowering built a call to a freed decl.  */
static tree enter_slot_decl, leaf_marker_decl, slot_var_decl;
/* The metric path ends' (ppgcc_gen_metric_path, context-lower.cc).  */
static tree metric_path_decl, metric_path1_decl, metric_mark_decl,
    metric_fast_decl, metric_enter1_decl, metric_exit1_decl;

static const ggc_root_tab context_roots[] = {
  { &enter_slot_decl, 1, sizeof (tree), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &leaf_marker_decl, 1, sizeof (tree), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &slot_var_decl, 1, sizeof (tree), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &metric_path_decl, 1, sizeof (tree), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &metric_path1_decl, 1, sizeof (tree), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &metric_mark_decl, 1, sizeof (tree), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &metric_fast_decl, 1, sizeof (tree), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &metric_enter1_decl, 1, sizeof (tree), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &metric_exit1_decl, 1, sizeof (tree), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  LAST_GGC_ROOT_TAB
};

const ggc_root_tab *
ppgcc_context_gc_roots ()
{
  return context_roots;
}

tree
ppgcc_enter_slot_decl ()
{
  tree &decl = enter_slot_decl;
  if (!decl)
    decl = runtime_fn ("__pp_enter_slot",
                       build_function_type_list (ptr_u64 (), ptr_type_node,
                                                 ptr_type_node,
                                                 slot_ptr_type (), NULL_TREE));
  return decl;
}

/* A function's entry marker until the lowering replaces it: an empty
   volatile asm, TOKEN = f (&DESC, S) for a leaf, TOKEN = f (&DESC, RET, S)
   for a function with calls (the operands of __pp_enter_slot; a leaf's
   return address is read where it is lowered).  S, the value of
   __pp_slot, is an operand of both: the lowered check reads it, and GCC's
   interprocedural analyses must see that it does, or a caller's store of
   the slot before a call looks dead to them (a static leaf called from a
   body GCC inlined missed its slot on every call).  To GCC's
   inliner an asm costs one instruction in size and time, where a call
   costs three or five in size and ten in time, in the callee and in
   every caller it would be inlined into: lua's index2value stayed out of
   line past max-inline-insns-auto (41 against 36 in size with Ball-Larus
   probes), its callers' entry calls taking away the "big speedup" that
   lets -O2 inline it.  The lowering turns a marker into a call to
   __pp_enter_leaf_unlowered or __pp_enter_slot (context-lower.cc).  Its
   text is an assembler error: a marker left unlowered fails the build,
   never the program.  */
const char *const ppgcc_entry_marker_asm
    = ".error \"ppgcc: a calling-context entry was not lowered\"";

static void
push_operand (vec<tree, va_gc> **ops, const char *constraint, tree value)
{
  tree c = build_string ((int) strlen (constraint) + 1, constraint);
  vec_safe_push (*ops, build_tree_list (build_tree_list (NULL_TREE, c),
                                        value));
}

gasm *
ppgcc_entry_marker (tree token, tree desc, tree ret, tree slot)
{
  vec<tree, va_gc> *outputs = NULL, *inputs = NULL;
  push_operand (&outputs, "=r", token);
  push_operand (&inputs, "X", build_fold_addr_expr (desc));
  if (ret)
    push_operand (&inputs, "X", ret);
  push_operand (&inputs, "X", slot);
  gasm *a = gimple_build_asm_vec (ppgcc_entry_marker_asm, inputs, outputs,
                                  NULL, NULL);
  gimple_asm_set_volatile (a, true);
  return a;
}

bool
ppgcc_entry_marker_p (const gimple *stmt)
{
  const gasm *a = dyn_cast<const gasm *> (stmt);
  return a && gimple_asm_noutputs (a) == 1
         && (gimple_asm_ninputs (a) == 2 || gimple_asm_ninputs (a) == 3)
         && !strcmp (gimple_asm_string (a), ppgcc_entry_marker_asm);
}

/* The one-metric probes (rt_abi.h) until the lowering: volatile asms as
   the entry marker is, for the same reason (a call in every path end of
   a leaf kept lua's index2value out of line), which clobber memory as
   the calls they stand for do (the returns' plain `mark -= saved` must
   stay after the path end's marker).  Each becomes its call in the
   lowering, then the inline form: saved = __pp_metric_enter1 (),
   __pp_metric_path1 (acc, tok), __pp_metric_exit1 (tok, saved).  */
static const char *const metric_marker_asm[4] = {
  ".error \"ppgcc: a metric entry was not lowered\"",
  ".error \"ppgcc: a metric path end was not lowered\"",
  ".error \"ppgcc: a metric exit was not lowered\"",
  ".error \"ppgcc: a metric return was not lowered\"",
};

static tree
metric_marker_decl (int kind)
{
  return kind == 0 ? ppgcc_metric_enter1_decl ()
         : kind == 1 ? ppgcc_metric_path1_decl ()
                     : ppgcc_metric_exit1_decl ();
}

/* The marker of KIND (0 entry, 1 path end, 2 exit) defining LHS (entry)
   from A, B and C (path end: index, token, accumulators; exit: token,
   saved).  */
static gasm *
metric_marker (int kind, tree lhs, tree a, tree b, tree c = NULL_TREE)
{
  vec<tree, va_gc> *outputs = NULL, *inputs = NULL, *clobbers = NULL;
  if (lhs)
    push_operand (&outputs, "=r", lhs);
  if (a)
    push_operand (&inputs, "X", a);
  if (b)
    push_operand (&inputs, "X", b);
  if (c)
    push_operand (&inputs, "X", c);
  vec_safe_push (clobbers, build_tree_list (NULL_TREE,
                                            build_string (7, "memory")));
  gasm *g = gimple_build_asm_vec (metric_marker_asm[kind], inputs, outputs,
                                  clobbers, NULL);
  gimple_asm_set_volatile (g, true);
  return g;
}

gcall *
ppgcc_metric_marker_call (const gimple *stmt)
{
  const gasm *a = dyn_cast<const gasm *> (stmt);
  if (!a)
    return NULL;
  for (int kind = 0; kind < 3; kind++)
    if (!strcmp (gimple_asm_string (a), metric_marker_asm[kind]))
      {
        auto_vec<tree, 2> args;
        for (unsigned i = 0; i < gimple_asm_ninputs (a); i++)
          args.safe_push (TREE_VALUE (gimple_asm_input_op (a, i)));
        gcall *c = gimple_build_call_vec (metric_marker_decl (kind), args);
        if (gimple_asm_noutputs (a))
          {
            tree lhs = TREE_VALUE (gimple_asm_output_op (a, 0));
            gimple_call_set_lhs (c, lhs);
            if (TREE_CODE (lhs) == SSA_NAME)
              SSA_NAME_DEF_STMT (lhs) = c;
          }
        gimple_set_location (c, gimple_location (a));
        gimple_set_block (c, gimple_block (a));
        return c;
      }
  return NULL;
}

tree
ppgcc_metric_give_back (const gimple *stmt)
{
  const gasm *a = dyn_cast<const gasm *> (stmt);
  if (!a || gimple_asm_ninputs (a) != 1
      || strcmp (gimple_asm_string (a), metric_marker_asm[3]))
    return NULL_TREE;
  return TREE_VALUE (gimple_asm_input_op (a, 0));
}

/* The call a leaf's marker is lowered through (context-lower.cc).  The
   runtime defines no such function.  */
tree
ppgcc_enter_leaf_marker_decl ()
{
  tree &decl = leaf_marker_decl;
  if (!decl)
    decl = runtime_fn ("__pp_enter_leaf_unlowered",
                       build_function_type_list (ptr_u64 (), ptr_type_node,
                                                 NULL_TREE));
  return decl;
}

/* Whether STMT is a call that could enter another context: any call but
   to GCC's own builtins (which do not call back).  */
bool
ppgcc_context_site_p (const gimple *stmt)
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
        if (ppgcc_context_site_p (stmt))
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
tree
ppgcc_slot_var ()
{
  tree &decl = slot_var_decl;
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

/* The slot stores of the setjmp-like sites, in front of which GCC 14
   (and 13.3) inserts only by splitting the CFG (gcc-compat.h): they wait
   until the probes, placed on the blocks and edges the numbering saw,
   are in (ppgcc_context_exits).  Always empty on GCC 12.  */
static std::vector<std::pair<gimple *, gimple_seq>> returns_twice_slots;

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
        if (!ppgcc_context_site_p (stmt))
          continue;
        gimple_seq seq = NULL;
        tree a = create_tmp_reg (ptr_u64 (), "pp_slota");
        gimple_seq_add_stmt (&seq, gimple_build_assign (
                                       a, POINTER_PLUS_EXPR, fn.token,
                                       size_int (first * 8
                                                 + k * SLOT_BYTES)));
        tree b = create_tmp_reg (slot_ptr, "pp_slot");
        gimple_seq_add_stmt (&seq, gimple_build_assign (b, NOP_EXPR, a));
        gimple_seq_add_stmt (&seq, gimple_build_assign (ppgcc_slot_var (), b));
        if (ppgcc_precedes_returns_twice_p (stmt))
          returns_twice_slots.push_back ({ stmt, seq });
        else
          gsi_insert_seq_before (&gsi, seq, GSI_SAME_STMT);
        k++;
      }
  return k;
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

tree
ppgcc_metric_path_decl ()
{
  tree &decl = metric_path_decl;
  if (!decl)
    decl = runtime_fn ("__pp_metric_path",
                       build_function_type_list (void_type_node, ptr_u64 (),
                                                 unsigned_type_node,
                                                 NULL_TREE));
  return decl;
}

tree
ppgcc_metric_path1_decl ()
{
  tree &decl = metric_path1_decl;
  if (!decl)
    decl = runtime_fn ("__pp_metric_path1",
                       build_function_type_list (void_type_node, ptr_u64 (),
                                                 ptr_u64 (), NULL_TREE));
  return decl;
}

tree
ppgcc_metric_enter1_decl ()
{
  tree &decl = metric_enter1_decl;
  if (!decl)
    decl = runtime_fn ("__pp_metric_enter1",
                       build_function_type_list (ppgcc_u64_type (),
                                                 NULL_TREE));
  return decl;
}

tree
ppgcc_metric_exit1_decl ()
{
  tree &decl = metric_exit1_decl;
  if (!decl)
    decl = runtime_fn ("__pp_metric_exit1",
                       build_function_type_list (void_type_node, ptr_u64 (),
                                                 ppgcc_u64_type (),
                                                 NULL_TREE));
  return decl;
}

/* An external hidden variable of the runtime (one per module, as the
   runtime is), initial-exec TLS when TLS.  */
static tree
runtime_var (const char *name, tree type, bool tls)
{
  tree decl = ppgcc_hidden_extern_var (name, type);
  if (tls)
    {
      tls_model model = decl_default_tls_model (decl);
      if (model < TLS_MODEL_INITIAL_EXEC)
        model = TLS_MODEL_INITIAL_EXEC;
      set_decl_tls_model (decl, model);
    }
  return decl;
}

tree
ppgcc_metric_mark_var ()
{
  tree &decl = metric_mark_decl;
  if (!decl)
    decl = runtime_var ("__pp_metric_mark",
                        build_array_type_nelts (ppgcc_u64_type (), 8), true);
  return decl;
}

tree
ppgcc_metric_fast_var ()
{
  tree &decl = metric_fast_decl;
  if (!decl)
    decl = runtime_var ("__pp_metric_fast", integer_type_node, false);
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

/* Whether every call FUN makes that could enter a context is a direct
   call to a small function defined in this unit: one GCC's early inliner
   may take in whole, which leaves FUN a leaf (context-leaf.cc).  */
static bool
may_become_leaf_p (function *fun)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      {
        gimple *stmt = gsi_stmt (gsi);
        if (gimple_code (stmt) == GIMPLE_ASM)
          return false;
        if (!ppgcc_context_site_p (stmt))
          continue;
        tree callee = gimple_call_fndecl (stmt);
        cgraph_node *node = callee ? cgraph_node::get (callee) : NULL;
        if (!node || !node->definition || callee == fun->decl
            || TREE_PUBLIC (callee))
          return false;
      }
  return true;
}

/* Where FN's bodies inlined elsewhere count, flat: its paths, its calls,
   then the runtime's copy of both (cct.c).  */
void
ppgcc_give_inlined_counts (ppgcc_fn &fn)
{
  fn.inlined = ppgcc_new_metrics (2 * (fn.num_paths + 1));
  /* Nothing refers to it until the descriptor is made: kept.  */
  varpool_node::get (fn.inlined)->force_output = true;
  ppgcc_note_inlined_counts (fn.desc, fn.inlined,
                             (fn.flags & PP_FN_FLAT_CALLS_FROM_PATHS) != 0);
}

void
ppgcc_context_entry (function *fun, ppgcc_fn &fn)
{
  gimple_seq seq = NULL;
  fn.token = create_tmp_reg (ptr_u64 (), "pp_ctx");
  /* With one metric, every function enters by its callee slot too, and
     keeps §3.1's saved share in a local instead of the runtime's shadow
     stack (rt_abi.h): bzip2's mainGtU, 2.5 M calls in a 1 MB
     compression, cost 156 instructions a call through __pp_enter and
     __pp_exit.  */
  bool metric_slots = ppgcc_opts.cct && ppgcc_opts.nmetrics == 1;
  if (ppgcc_opts.cct && (!ppgcc_opts.nmetrics || metric_slots))
    {
      /* Callee slots, inline (rt_abi.h).  A leaf's marker has only its
         descriptor: the return address and the slot are read where it is
         lowered, so that to GCC's inliner it is one small call (zstd's
         ZSTD_hash5Ptr stayed out of line, past max-inline-insns-auto, with
         the two more operands); a function with calls keeps the slot it
         restores at its returns.  */
      fn.leaf = leaf_p (fun);
      gimple *entry;
      if (fn.leaf)
        {
          tree s = create_tmp_reg (slot_ptr_type (), "pp_s");
          gimple_seq_add_stmt (&seq, gimple_build_assign (s,
                                                          ppgcc_slot_var ()));
          entry = ppgcc_entry_marker (fn.token, fn.desc, NULL_TREE, s);
        }
      else
        {
          tree ret = frame_builtin (&seq, BUILT_IN_RETURN_ADDRESS, "pp_ra");
          fn.saved_slot = create_tmp_reg (slot_ptr_type (), "pp_s");
          gimple_seq_add_stmt (&seq, gimple_build_assign (fn.saved_slot,
                                                          ppgcc_slot_var ()));
          entry = ppgcc_entry_marker (fn.token, fn.desc, ret,
                                      fn.saved_slot);
        }
      /* In the function's outermost scope: a copy GCC inlines elsewhere
         is then in the scope the inliner makes for the call
         (context-lower.cc tells the copies apart by it).  */
      gimple_set_block (entry, DECL_INITIAL (fun->decl));
      gimple_seq_add_stmt (&seq, entry);
      fn.enter_slot = true;
      /* A function whose every call may be inlined early has flat
         counters too, for when it is a leaf by then (context-leaf.cc).
         With a metric, only one without loops: its inlined bodies
         count flat and take no readings, their time is their caller's
         path's, as a sampler sees an inlined body.  Two time-stamp reads
         cost more than such a body (zstd's MEM_read32, inlined 55 M
         times in a 1 MB compression, is one load), and its figure was
         mostly theirs.  A leaf with a loop keeps its contexts and its
         readings (work10's spin: its cycles per context are what the
         mode is for).  */
      bool flat_ok = !(fn.flags & (PP_FN_HASHED | PP_FN_HPT));
      bool flat = (fn.leaf || may_become_leaf_p (fun))
                  && (!ppgcc_opts.nmetrics || fn.one_path_per_call);
      if (flat_ok && flat)
        {
          /* A leaf's calls are then its paths' sum: one counter less in
             every inlined body.  */
          if (fn.leaf && fn.one_path_per_call)
            fn.flags |= PP_FN_FLAT_CALLS_FROM_PATHS;
          ppgcc_give_inlined_counts (fn);
          /* With a metric, its copy out of line takes no readings either:
             its time is its caller's, as its inlined copies' is (and,
             when it keeps calls, its callees' are their own).  The
             readings made it too big to inline (zstd's ZSTD_hash5Ptr:
             past max-inline-insns-auto, 82 M instructions of a 1 MB
             compression out of line), and on a body of a few
             instructions two time-stamp reads measure mostly
             themselves.  */
          if (ppgcc_opts.nmetrics)
            {
              fn.nmetrics = 0;
              metric_slots = false;
            }
        }
      /* After the above: the slots follow the record's metrics.  */
      if (!fn.leaf)
        fn.num_sites = store_slots (fun, fn);
      if (metric_slots)
        {
          /* saved = now - mark; mark = now (context-lower.cc).  */
          fn.metric_saved = create_tmp_reg (ppgcc_u64_type (), "pp_msaved");
          gasm *m0 = metric_marker (0, fn.metric_saved, NULL_TREE,
                                    NULL_TREE);
          /* In the outermost scope as the entry marker: the lowering
             finds an inlined body's markers by the scope of its copy.  */
          gimple_set_block (m0, DECL_INITIAL (fun->decl));
          gimple_seq_add_stmt (&seq, m0);
        }
    }
  else
    {
      tree ret = frame_builtin (&seq, BUILT_IN_RETURN_ADDRESS, "pp_ra");
      tree frame = frame_builtin (&seq, BUILT_IN_FRAME_ADDRESS, "pp_fa");
      gcall *call = gimple_build_call (enter_fn (), 3,
                                       build_fold_addr_expr (fn.desc), ret,
                                       frame);
      gimple_call_set_lhs (call, fn.token);
      gimple_seq_add_stmt (&seq, call);
      /* Callee slots for the leaves it calls (metric_leaf above); the
         exit restores __pp_slot (the runtime's shadow stack keeps it).  */
      if (ppgcc_opts.cct)
        fn.num_sites = store_slots (fun, fn);
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
  /* One metric: the marker takes the path's index, the token and where
     the accumulators are (the offset of the record's own after its
     counters, or the flat array's address), so that the lowering forms
     the accumulator's address in each arm (an addressing mode of the
     token on the inline one) and GCC's inliner weighs one statement per
     path end, not four.  */
  if (fn.nmetrics == 1)
    {
      bool own = TREE_CODE (fn.metric_base) != ADDR_EXPR;
      tree where = own ? size_int (fn.num_paths * 8)
                       : unshare_expr (fn.metric_base);
      gasm *m1 = metric_marker (1, NULL_TREE, index, fn.token, where);
      gimple_set_block (m1, DECL_INITIAL (fn.decl));
      gimple_seq_add_stmt (seq, m1);
      return;
    }
  tree off = create_tmp_reg (sizetype, "pp_off");
  tree idx = create_tmp_reg (sizetype, "pp_idx");
  gimple_seq_add_stmt (seq, gimple_build_assign (idx, NOP_EXPR, index));
  gimple_seq_add_stmt (seq, gimple_build_assign (off, MULT_EXPR, idx,
                                                 size_int (fn.nmetrics * 8)));
  tree acc = create_tmp_reg (ptr_u64 (), "pp_acc");
  gimple_seq_add_stmt (seq, gimple_build_assign (acc, POINTER_PLUS_EXPR,
                                                 unshare_expr (fn.metric_base),
                                                 off));
  gimple_seq_add_stmt (seq,
                       gimple_build_call (ppgcc_metric_path_decl (), 2, acc,
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
  for (auto &site : returns_twice_slots)
    {
      gimple_stmt_iterator gsi = gsi_for_stmt (site.first);
      ppgcc_safe_insert_seq_before (&gsi, site.second);
    }
  returns_twice_slots.clear ();
  if (fn.metric_saved)
    {
      /* mark = mark - saved before each return: the path end there has
         just set the mark to now (rt_abi.h).  A function without metric
         accumulators (hash mode) has no such path end: its exit reads
         the metric, __pp_metric_exit1 (tok, saved) until lowered.  */
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, EXIT_BLOCK_PTR_FOR_FN (fun)->preds)
        {
          gimple_stmt_iterator gsi = gsi_last_nondebug_bb (e->src);
          if (gsi_end_p (gsi)
              || gimple_code (gsi_stmt (gsi)) != GIMPLE_RETURN)
            continue;
          if (!fn.nmetrics)
            {
              gasm *m2 = metric_marker (2, NULL_TREE, fn.token,
                                        fn.metric_saved);
              /* In the outermost scope as the entry marker, so that an
                 inlined copy's exit is found by its scope too.  */
              gimple_set_block (m2, DECL_INITIAL (fun->decl));
              gsi_insert_before (&gsi, m2, GSI_SAME_STMT);
              continue;
            }
          /* mark -= saved, one statement until the lowering (GCC's
             inliner weighed the load, subtraction and store as three:
             lua's luaV_mod stayed out of line).  */
          gasm *m3 = metric_marker (3, NULL_TREE, fn.metric_saved,
                                    NULL_TREE);
          gimple_set_block (m3, DECL_INITIAL (fun->decl));
          gsi_insert_before (&gsi, m3, GSI_SAME_STMT);
        }
    }
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
                         ? gimple_build_assign (ppgcc_slot_var (), fn.saved_slot)
                         : (gimple *) gimple_build_call (exit_fn (), 1,
                                                         fn.token);
      gsi_insert_before (&gsi, exit, GSI_SAME_STMT);
    }
}
