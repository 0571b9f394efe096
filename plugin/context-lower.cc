/* -fprofile-paths=cct: the context entries made at instrumentation
   (context.cc) lowered once GCC has inlined (a GIMPLE pass early in the
   optimisation passes, in SSA form); with one metric, also its path ends
   and its leaves' entries (lower_metric_path, lower_metric_enter).

   Instrumentation leaves each function's entry as one call,
     tok = __pp_enter_slot (&desc, ret, s);
   which is small to GCC's inliner (the check it stands for kept helpers
   out of line that a plain -O2 build inlines: lua's index2value, zstd's
   MEM_readLE64).  Here each such call becomes
   - in a body inlined into another function, of a function that calls
     nothing (a leaf): no context of its own, and no counts of its own
     (its blocks count in the enclosing function's paths), unless
     -fprofile-paths-inlined=flat: then its paths count flat, in
     an array of the function's (desc.ext->inlined: NUM_PATHS counters,
     then its inlined calls), which the runtime adds at each dump to the
     function's context under the thread's root (cct.c).  A leaf's body
     inlined in a hot loop (zstd's ZSTD_count, ZSTD_hash5Ptr) costs its
     counter increments only, as in a Ball-Larus build;
   - anywhere else, the inline callee-slot check (rt_abi.h):
       t = s->token;
       if (((uintptr) t[PP_CCT_FN] ^ (uintptr) &desc
            | (uintptr) s->key ^ (uintptr) ret) == 0)
         { t[s->calls_at]++; tok = t; }
       else
         tok = <miss>;
     the miss through runtime/cct_slot_x86_64.S from inline assembly on
     x86-64 (every register preserved), else the call itself.  */
#include "plugin.h"

#include "pp/rt_abi.h"

/* The slot's words (struct __pp_cct_slot).  */
#define SLOT_TOKEN 0
#define SLOT_KEY 8
#define SLOT_CALLS_AT 16

/* desc -> its leaf's flat counters (ppgcc_note_inlined_counts).  */
static hash_map<tree, tree> *inlined_counts;
/* The descs of those whose inlined bodies count no calls
   (PP_FN_FLAT_CALLS_FROM_PATHS).  */
static hash_set<tree> *flat_without_calls;

bool
ppgcc_has_inlined_counts (tree desc)
{
  return inlined_counts && inlined_counts->get (desc);
}

void
ppgcc_note_inlined_counts (tree desc, tree counts, bool no_calls)
{
  if (!inlined_counts)
    inlined_counts = new hash_map<tree, tree>;
  inlined_counts->put (desc, counts);
  if (no_calls)
    {
      if (!flat_without_calls)
        flat_without_calls = new hash_set<tree>;
      flat_without_calls->add (desc);
    }
}

static tree
ptr_u64 ()
{
  return build_pointer_type (ppgcc_u64_type ());
}

/* MEM[(TYPE *) PTR + OFF], volatile when VOL.  */
static tree
mem_at (tree type, tree ptr, HOST_WIDE_INT off, bool vol = false)
{
  tree m = build2 (MEM_REF, type, ptr,
                   build_int_cst (build_pointer_type (type), off));
  if (vol)
    {
      TREE_THIS_VOLATILE (m) = 1;
      TREE_SIDE_EFFECTS (m) = 1;
    }
  return m;
}

/* A new SSA name of TYPE = RHS (one operand) or RHS1 CODE RHS2, before
   GSI.  */
static tree
emit (gimple_stmt_iterator *gsi, tree type, tree_code code, tree a,
      tree b = NULL_TREE)
{
  tree lhs = make_ssa_name (type);
  gimple *g = b ? gimple_build_assign (lhs, code, a, b)
                : gimple_build_assign (lhs, code, a);
  gsi_insert_after (gsi, g, GSI_NEW_STMT);
  return lhs;
}

static tree
load (gimple_stmt_iterator *gsi, tree type, tree ptr, HOST_WIDE_INT off,
      bool vol = false)
{
  tree lhs = make_ssa_name (type);
  gsi_insert_after (gsi, gimple_build_assign (lhs, mem_at (type, ptr, off,
                                                           vol)),
                    GSI_NEW_STMT);
  return lhs;
}

/* *(u64 *) PTR += 1, after GSI.  */
static void
increment (gimple_stmt_iterator *gsi, tree ptr, HOST_WIDE_INT off)
{
  tree u64 = ppgcc_u64_type ();
  tree c = load (gsi, u64, ptr, off);
  tree c1 = emit (gsi, u64, PLUS_EXPR, c, build_int_cst (u64, 1));
  gsi_insert_after (gsi, gimple_build_assign (mem_at (u64, ptr, off), c1),
                    GSI_NEW_STMT);
}

/* The scope the inliner made for the call whose inlined body STMT is in
   (the innermost, when bodies are inlined into inlined bodies), whose
   origin is the inlined function; NULL_TREE in the function's own body.  */
static tree
inlined_instance (const gimple *stmt)
{
  for (tree b = gimple_block (stmt); b && TREE_CODE (b) == BLOCK;
       b = BLOCK_SUPERCONTEXT (b))
    if (BLOCK_ABSTRACT_ORIGIN (b)
        && TREE_CODE (BLOCK_ABSTRACT_ORIGIN (b)) == FUNCTION_DECL)
      return b;
  return NULL_TREE;
}

/* Whether STMT comes from a body inlined into this function: its scope
   is inside the scope the inliner made for the call, whose origin is the
   inlined function.  */
bool
ppgcc_inlined_copy_p (const gimple *stmt)
{
  return inlined_instance (stmt) != NULL_TREE;
}

#if defined(__x86_64__)
/* An asm calling TRAMPOLINE (runtime/cct_slot_x86_64.S), which preserves
   every register but %rax and the flags, with CALL's arguments in %rdi,
   %rsi and %rdx, defining LHS (or NULL_TREE) from %rax; the red zone is
   stepped over first.  To the compiler the arm is then no call: a leaf
   stays a leaf and saves nothing in its prologue for it.  */
static gasm *
preserving_call (const char *trampoline, gcall *call, tree lhs)
{
  static const char *const regs[] = { "D", "S", "d" };
  vec<tree, va_gc> *inputs = NULL, *outputs = NULL, *clobbers = NULL;
  for (unsigned i = 0; i < gimple_call_num_args (call) && i < 3; i++)
    vec_safe_push (inputs,
                   build_tree_list (build_tree_list (NULL_TREE,
                                                     build_string (2,
                                                                   regs[i])),
                                    gimple_call_arg (call, i)));
  if (lhs)
    vec_safe_push (outputs,
                   build_tree_list (build_tree_list (NULL_TREE,
                                                     build_string (3, "=a")),
                                    lhs));
  else
    vec_safe_push (clobbers, build_tree_list (NULL_TREE,
                                              build_string (4, "rax")));
  vec_safe_push (clobbers, build_tree_list (NULL_TREE, build_string (3, "cc")));
  vec_safe_push (clobbers, build_tree_list (NULL_TREE,
                                            build_string (7, "memory")));
  char text[160];
  snprintf (text, sizeof text,
            "lea -128(%%%%rsp), %%%%rsp\n\tcall %s@PLT\n\t"
            "lea 128(%%%%rsp), %%%%rsp", trampoline);
  gasm *a = gimple_build_asm_vec (ggc_strdup (text), inputs, outputs,
                                  clobbers, NULL);
  gimple_asm_set_volatile (a, true);
  gimple_set_location (a, gimple_location (call));
  gimple_set_block (a, gimple_block (call));
  return a;
}
#endif

/* The miss arm, CALL's replacement defining LHS: on x86-64 a preserving
   call of __pp_enter_slot_x86, else the call itself.  */
static gimple *
miss_arm (gcall *call, tree lhs)
{
#if defined(__x86_64__)
  if (TYPE_PRECISION (ptr_type_node) == 64)
    return preserving_call ("__pp_enter_slot_x86", call, lhs);
#endif
  gcall *c = as_a<gcall *> (gimple_copy (call));
  gimple_call_set_lhs (c, lhs);
  return c;
}

/* A leaf's marker tok = __pp_enter_leaf_unlowered (desc) (context.cc)
   made the three-operand __pp_enter_slot call in its place: the return address and the slot read
   there.  */
static gcall *
full_marker (gcall *call)
{
  gimple_stmt_iterator gsi = gsi_for_stmt (call);
  tree ret = make_ssa_name (ptr_type_node);
  gcall *ra = gimple_build_call (builtin_decl_explicit (BUILT_IN_RETURN_ADDRESS),
                                 1, integer_zero_node);
  gimple_call_set_lhs (ra, ret);
  gsi_insert_before (&gsi, ra, GSI_SAME_STMT);
  tree slot = ppgcc_slot_var ();
  tree s = make_ssa_name (TREE_TYPE (slot));
  gsi_insert_before (&gsi, gimple_build_assign (s, slot), GSI_SAME_STMT);
  gcall *full = gimple_build_call (ppgcc_enter_slot_decl (), 3,
                                   gimple_call_arg (call, 0), ret, s);
  gimple_call_set_lhs (full, gimple_call_lhs (call));
  gimple_set_location (full, gimple_location (call));
  gsi_insert_before (&gsi, full, GSI_SAME_STMT);
  unlink_stmt_vdef (call);
  gsi_remove (&gsi, true);
  return full;
}

/* The inline check around CALL (tok = __pp_enter_slot (desc, ret, s)).
   The slot's words are read in the reverse of the order the runtime
   fills them (calls_at, token, key), volatile so that GCC keeps it: a
   signal handler that refills the slot between two of the reads makes
   the key, read last, miss (runtime/cct.c, slot_fill).  */
static void
expand_check (gcall *call)
{
  tree tok = gimple_call_lhs (call);
  /* A leaf's call is never recursive (it calls nothing that could be an
     ancestor's callee), so its slot's calls_at is always PP_CCT_CALLS:
     not read, one load less per call.  */
  bool leaf = gimple_call_num_args (call) == 1;
  if (leaf)
    call = full_marker (call);
  tree desc = gimple_call_arg (call, 0), ret = gimple_call_arg (call, 1);
  tree s = gimple_call_arg (call, 2);
  ppgcc_guard g = ppgcc_guard_split (call);

  tree uptr = pointer_sized_int_node;
  gimple_stmt_iterator gsi = gsi_last_bb (g.head);
  tree at = leaf ? NULL_TREE : load (&gsi, ssizetype, s, SLOT_CALLS_AT, true);
  tree t = load (&gsi, ptr_u64 (), s, SLOT_TOKEN, true);
  tree k = load (&gsi, ptr_type_node, s, SLOT_KEY, true);
  tree f = load (&gsi, ptr_type_node, t, 8 * PP_CCT_FN);
  tree x = emit (&gsi, uptr, BIT_XOR_EXPR, emit (&gsi, uptr, NOP_EXPR, f),
                 emit (&gsi, uptr, NOP_EXPR, desc));
  tree y = emit (&gsi, uptr, BIT_XOR_EXPR, emit (&gsi, uptr, NOP_EXPR, k),
                 emit (&gsi, uptr, NOP_EXPR, ret));
  tree z = emit (&gsi, uptr, BIT_IOR_EXPR, x, y);
  ppgcc_guard_branch (g, NE_EXPR, z, build_int_cst (uptr, 0),
                      profile_probability::very_unlikely ());

  /* The hit: t[s->calls_at]++ (a leaf's t[PP_CCT_CALLS]++).  */
  gsi = gsi_start_bb (g.other);
  if (leaf)
    {
      gsi_insert_before (&gsi, gimple_build_nop (), GSI_NEW_STMT);
      gimple_stmt_iterator nop = gsi;
      increment (&gsi, t, 8 * PP_CCT_CALLS);
      gsi_remove (&nop, true);
    }
  else
    {
      tree off = make_ssa_name (sizetype);
      gsi_insert_before (&gsi, gimple_build_assign (off, NOP_EXPR, at),
                         GSI_NEW_STMT);
      tree boff = emit (&gsi, sizetype, MULT_EXPR, off, size_int (8));
      tree cp = emit (&gsi, ptr_u64 (), POINTER_PLUS_EXPR, t, boff);
      increment (&gsi, cp, 0);
    }

  /* The miss, then the token of either at the join.  */
  tree miss_tok = make_ssa_name (TREE_TYPE (tok));
  gimple_stmt_iterator cg = gsi_for_stmt (call);
  gimple *miss = miss_arm (call, miss_tok);
  SSA_NAME_DEF_STMT (miss_tok) = miss;
  gsi_insert_before (&cg, miss, GSI_SAME_STMT);
  unlink_stmt_vdef (call);
  gsi_remove (&cg, true);
  gphi *phi = create_phi_node (tok, g.join);
  add_phi_arg (phi, t, g.other_out, UNKNOWN_LOCATION);
  add_phi_arg (phi, miss_tok, g.stmt_out, UNKNOWN_LOCATION);
}

/* The store of the callee slot before CALL's inlined body, when nothing
   between them but plain statements in the same block (and the entry's
   __builtin_return_address): dead once the
   body counts flat (a leaf calls nothing that would read it).  The next
   call of this function stores its own, and its return the caller's; a
   signal handler in between finds the slot stored before, of this
   function or of its caller.  */
static void
remove_slot_store (gcall *call)
{
  tree slot = ppgcc_slot_var ();
  gimple_stmt_iterator gsi = gsi_for_stmt (call);
  for (gsi_prev (&gsi); !gsi_end_p (gsi); gsi_prev (&gsi))
    {
      gimple *g = gsi_stmt (gsi);
      if (is_gimple_debug (g))
        continue;
      if (gimple_assign_single_p (g) && gimple_assign_lhs (g) == slot)
        {
          unlink_stmt_vdef (g);
          gsi_remove (&gsi, true);
          return;
        }
      /* (Its argument is an int, not the unsigned the builtin's type
         says: gimple_call_builtin_p would not match it.)  */
      tree fd = is_gimple_call (g) ? gimple_call_fndecl (g) : NULL_TREE;
      if (fd && fndecl_built_in_p (fd, BUILT_IN_RETURN_ADDRESS))
        continue;
      if (!is_gimple_assign (g) || gimple_has_volatile_ops (g))
        return;
    }
}

/* Removes every store through TOK, the token of a leaf's body inlined
   here, or through a pointer made from it: the body's path counts (and
   any other count it makes) go; the loads and additions that fed them
   are dead then, and GCC's DCE takes them with the path register's
   updates.  */
static void
drop_counting (tree tok)
{
  hash_set<tree> derived;
  auto_vec<tree> work;
  derived.add (tok);
  work.safe_push (tok);
  auto_vec<gimple *> stores;
  while (!work.is_empty ())
    {
      tree p = work.pop ();
      imm_use_iterator it;
      gimple *u;
      FOR_EACH_IMM_USE_STMT (u, it, p)
        {
          tree lhs = NULL_TREE;
          if (gphi *phi = dyn_cast<gphi *> (u))
            lhs = gimple_phi_result (phi);
          else if (is_gimple_assign (u)
                   && TREE_CODE (gimple_assign_lhs (u)) == SSA_NAME
                   && POINTER_TYPE_P (TREE_TYPE (gimple_assign_lhs (u)))
                   && (gimple_assign_rhs_code (u) == POINTER_PLUS_EXPR
                       || gimple_assign_rhs_code (u) == SSA_NAME
                       || CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (u))))
            lhs = gimple_assign_lhs (u);
          if (lhs)
            {
              if (!derived.add (lhs))
                work.safe_push (lhs);
              continue;
            }
          if (!gimple_store_p (u) || !gimple_assign_single_p (u))
            continue;
          tree b = get_base_address (gimple_assign_lhs (u));
          if (b && TREE_CODE (b) == MEM_REF && TREE_OPERAND (b, 0) == p
              && !stores.contains (u))
            stores.safe_push (u);
        }
    }
  for (gimple *st : stores)
    {
      gimple_stmt_iterator g = gsi_for_stmt (st);
      unlink_stmt_vdef (st);
      gsi_remove (&g, true);
    }
}

/* CALL, in a leaf's body inlined here, counted flat in COUNTS (its
   NUM_PATHS counters, then its calls): tok = &COUNTS, COUNTS[n]++ unless
   NO_CALLS (the runtime sums the paths instead).  Unless FLAT
   (-fprofile-paths-inlined=flat) the body counts nothing of its own: its
   blocks are its caller's, counted in the caller's paths.  In zstd's
   match finder an inlined one-load helper's count and calls cost as much
   as the caller's own path counts: cct-metric, zstd -12 of 1 MB and back,
   537.95 M instructions with the flat counts, 473.9 M without; xz -6
   3,854.8 M and 3,564.4 M.  */
static void
lower_flat (gcall *call, tree counts, uint64_t num_paths, bool no_calls,
            bool flat)
{
  remove_slot_store (call);
  tree tok = gimple_call_lhs (call);
  gimple_stmt_iterator gsi = gsi_for_stmt (call);
  tree base = build_fold_addr_expr (
      build4 (ARRAY_REF, ppgcc_u64_type (), counts, size_zero_node,
              NULL_TREE, NULL_TREE));
  gimple *def = gimple_build_assign (tok, base);
  gsi_insert_before (&gsi, def, GSI_SAME_STMT);
  gsi_prev (&gsi);
  if (flat && !no_calls)
    increment (&gsi, build_fold_addr_expr (counts), 8 * num_paths);
  gimple_stmt_iterator cg = gsi_for_stmt (call);
  unlink_stmt_vdef (call);
  gsi_remove (&cg, true);
  if (!flat)
    drop_counting (tok);
}

/* The entry marker at GSI, an asm until now (context.cc), as the call
   the lowering expands: tok = __pp_enter_leaf_unlowered (desc) for a
   leaf (its slot operand is read again there), else
   tok = __pp_enter_slot (desc, ret, s).  */
static gcall *
marker_call (gimple_stmt_iterator *gsi, tree enter, tree leaf_marker)
{
  gasm *a = as_a<gasm *> (gsi_stmt (*gsi));
  tree tok = TREE_VALUE (gimple_asm_output_op (a, 0));
  gcall *c;
  if (gimple_asm_ninputs (a) == 2)
    c = gimple_build_call (leaf_marker, 1,
                           TREE_VALUE (gimple_asm_input_op (a, 0)));
  else
    c = gimple_build_call (enter, 3, TREE_VALUE (gimple_asm_input_op (a, 0)),
                           TREE_VALUE (gimple_asm_input_op (a, 1)),
                           TREE_VALUE (gimple_asm_input_op (a, 2)));
  gimple_set_block (c, gimple_block (a));
  if (TREE_CODE (tok) == SSA_NAME)
    {
      gimple_call_set_lhs (c, tok);
      SSA_NAME_DEF_STMT (tok) = c;
    }
  gsi_replace (gsi, c, false);
  return c;
}

/* *(u64 *) (PTR + OFF) += D, after GSI.  */
static void
add_to (gimple_stmt_iterator *gsi, tree ptr, HOST_WIDE_INT off, tree d)
{
  tree u64 = ppgcc_u64_type ();
  tree c = load (gsi, u64, ptr, off);
  tree c1 = emit (gsi, u64, PLUS_EXPR, c, d);
  gsi_insert_after (gsi, gimple_build_assign (mem_at (u64, ptr, off), c1),
                    GSI_NEW_STMT);
}

/* __pp_metric_mark[0].  */
static tree
metric_mark ()
{
  return build4 (ARRAY_REF, ppgcc_u64_type (), ppgcc_metric_mark_var (),
                 size_zero_node, NULL_TREE, NULL_TREE);
}

#if defined(__x86_64__)
/* Around SLOW: `if (__pp_metric_fast == 0) SLOW` (unlikely), the fast
   arm in the guard's other block, returned (cfg-guard.cc).  */
static ppgcc_guard
fast_arm (gimple *slow)
{
  ppgcc_guard g = ppgcc_guard_split (slow);
  gimple_stmt_iterator gsi = gsi_last_bb (g.head);
  tree f = make_ssa_name (integer_type_node);
  gsi_insert_after (&gsi, gimple_build_assign (f, ppgcc_metric_fast_var ()),
                    GSI_NEW_STMT);
  ppgcc_guard_branch (g, EQ_EXPR, f, integer_zero_node,
                      profile_probability::very_unlikely ());
  return g;
}

/* At GSI: *M = __pp_metric_mark[0], then the TSC, returned.  The asm
   takes the mark as an operand, so that it is read before the TSC: a
   signal handler's probes between the two then make the path longer,
   never negative (the handler's exit moves the mark on).  */
static tree
read_tsc (gimple_stmt_iterator *gsi, tree *m)
{
  tree u64 = ppgcc_u64_type ();
  *m = make_ssa_name (u64);
  gsi_insert_after (gsi, gimple_build_assign (*m, metric_mark ()),
                    GSI_NEW_STMT);
  tree now = make_ssa_name (u64);
  vec<tree, va_gc> *inputs = NULL, *outputs = NULL, *clobbers = NULL;
  vec_safe_push (inputs, build_tree_list (build_tree_list (NULL_TREE,
                                                           build_string (2,
                                                                         "r")),
                                          *m));
  vec_safe_push (outputs,
                 build_tree_list (build_tree_list (NULL_TREE,
                                                   build_string (3, "=a")),
                                  now));
  vec_safe_push (clobbers, build_tree_list (NULL_TREE,
                                            build_string (4, "rdx")));
  gasm *a = gimple_build_asm_vec ("rdtsc\n\tsalq $32, %%rdx\n\t"
                                  "orq %%rdx, %%rax",
                                  inputs, outputs, clobbers, NULL);
  gimple_asm_set_volatile (a, true);
  SSA_NAME_DEF_STMT (now) = a;
  gsi_insert_after (gsi, a, GSI_NEW_STMT);
  return now;
}

/* After GSI: a copy of V that GCC cannot see through (an empty asm), so
   that `acc += now - m` stays a subtraction and an add to memory (GCC's
   reassociation made it a load, two operations and a store).  */
static tree
opaque (gimple_stmt_iterator *gsi, tree v)
{
  tree r = make_ssa_name (TREE_TYPE (v));
  vec<tree, va_gc> *inputs = NULL, *outputs = NULL;
  vec_safe_push (outputs,
                 build_tree_list (build_tree_list (NULL_TREE,
                                                   build_string (3, "=r")),
                                  r));
  vec_safe_push (inputs, build_tree_list (build_tree_list (NULL_TREE,
                                                           build_string (2,
                                                                         "0")),
                                          v));
  gasm *a = gimple_build_asm_vec ("", inputs, outputs, NULL, NULL);
  SSA_NAME_DEF_STMT (r) = a;
  gsi_insert_after (gsi, a, GSI_NEW_STMT);
  return r;
}
#endif

/* IDX as R + *C: an index `r + C` (the count's offset in the path
   register, 64 bits wide, so the sum wraps as sizetype does) gives C * 8
   to the accumulator's displacement; else the sum stays a register of its
   own, one `lea` more at each of lua's dispatches (and the slow arm's
   argument kept it alive above the test).  */
static tree
split_index (tree idx, HOST_WIDE_INT *c)
{
  *c = 0;
  if (TREE_CODE (idx) == SSA_NAME
      && TYPE_PRECISION (TREE_TYPE (idx)) == TYPE_PRECISION (sizetype))
    if (gassign *d = dyn_cast<gassign *> (SSA_NAME_DEF_STMT (idx)))
      if (gimple_assign_rhs_code (d) == PLUS_EXPR
          && TREE_CODE (gimple_assign_rhs1 (d)) == SSA_NAME
          && TREE_CODE (gimple_assign_rhs2 (d)) == INTEGER_CST
          && tree_fits_shwi_p (gimple_assign_rhs2 (d))
          && IN_RANGE (tree_to_shwi (gimple_assign_rhs2 (d)),
                       -((HOST_WIDE_INT) 1 << 28), (HOST_WIDE_INT) 1 << 28))
        {
          *c = tree_to_shwi (gimple_assign_rhs2 (d));
          return gimple_assign_rhs1 (d);
        }
  return idx;
}

/* The address of the accumulators' array shifted by C entries, after
   GSI: TOK + WHERE + C * 8 for a record's own, WHERE + C * 8 for a flat
   array's.  */
static tree
accumulators_at (gimple_stmt_iterator *gsi, tree tok, tree where,
                 HOST_WIDE_INT c)
{
  if (TREE_CODE (where) == INTEGER_CST)
    return emit (gsi, ptr_u64 (), POINTER_PLUS_EXPR, tok,
                 size_binop (PLUS_EXPR, fold_convert (sizetype, where),
                             size_int (c * 8)));
  if (!c)
    return unshare_expr (where);
  return emit (gsi, ptr_u64 (), POINTER_PLUS_EXPR, unshare_expr (where),
               size_int (c * 8));
}

/* A one-metric path end's accumulator, after GSI: from its marker's
   (context.cc) index IDX, token TOK and WHERE, the byte offset of the
   record's own accumulators from TOK, or the flat array's address.  */
static tree
accumulator (gimple_stmt_iterator *gsi, tree idx, tree tok, tree where)
{
  HOST_WIDE_INT c;
  idx = split_index (idx, &c);
  tree i = emit (gsi, sizetype, NOP_EXPR, idx);
  tree off = emit (gsi, sizetype, MULT_EXPR, i, size_int (8));
  if (TREE_CODE (where) == INTEGER_CST)
    return emit (gsi, ptr_u64 (), POINTER_PLUS_EXPR, tok,
                 emit (gsi, sizetype, PLUS_EXPR, off,
                       size_binop (PLUS_EXPR, fold_convert (sizetype, where),
                                   size_int (c * 8))));
  if (c)
    off = emit (gsi, sizetype, PLUS_EXPR, off, size_int (c * 8));
  return emit (gsi, ptr_u64 (), POINTER_PLUS_EXPR, unshare_expr (where), off);
}

#if defined(__x86_64__)
/* CALL, a one-metric probe, as `if (__pp_metric_fast == 0) SLOW`, SLOW
   the preserving call of TRAMPOLINE defining LHS (or nothing); the other
   arm reads the mark into *M and then the TSC, returned, *GSI after it.
   *G: the guard, for the caller's PHIs.  */
static tree
tsc_arm (gcall *call, const char *trampoline, tree lhs, ppgcc_guard *g,
         gimple_stmt_iterator *gsi, tree *m)
{
  gimple_stmt_iterator cg = gsi_for_stmt (call);
  gasm *slow = preserving_call (trampoline, call, lhs);
  if (lhs)
    SSA_NAME_DEF_STMT (lhs) = slow;
  gsi_insert_before (&cg, slow, GSI_SAME_STMT);
  unlink_stmt_vdef (call);
  gsi_remove (&cg, true);
  *g = fast_arm (slow);
  *gsi = gsi_start_bb (g->other);
  return read_tsc (gsi, m);
}
#endif

/* A one-metric path end, __pp_metric_path1 (idx, tok, where) until here
   (context.cc): on x86-64 rt_abi.h's inline form,
     if (__pp_metric_fast)
       { m = __pp_metric_mark[0]; now = rdtsc; __pp_metric_mark[0] = now;
         acc[idx] += now - m;
         tok[PP_CCT_EXCL (0)] += now - m;  (a flat function's only) }
     else
       __pp_metric_path1_at (idx, tok, acc);   (a preserving call)
   elsewhere __pp_metric_path1 (&acc[idx], tok).  The inline arm forms
   the accumulator's address alone (an addressing mode of the token's
   register; the slow arm hands the runtime the index and the array, so
   that GCC has no address to share between the arms and hoist above the
   test).  A record's exclusive total is the sum of its paths' (the
   runtime adds them up when it writes the profile), so the path end of
   a function with a record of its own adds to its accumulator only.
   Measured on bzip2 (1 MB, -9): 18.6 M path ends at about 75
   instructions each through the call; inline, 13 with the count, the
   exclusive total, the TSC's copy and the address apart, 10 without.  */
static void
lower_metric_path (gcall *call)
{
  tree idx = gimple_call_arg (call, 0), tok = gimple_call_arg (call, 1);
  tree where = gimple_call_arg (call, 2);
#if defined(__x86_64__)
  if (TYPE_PRECISION (ptr_type_node) == 64)
    {
      /* The slow arm's arguments, made before the guard splits the block
         (the index as 64 bits: the trampoline takes whole registers).  */
      gimple_seq seq = NULL;
      gimple_stmt_iterator ss = gsi_last (seq);
      HOST_WIDE_INT c;
      tree r = split_index (idx, &c);
      tree idx64 = emit (&ss, ppgcc_u64_type (), NOP_EXPR, r);
      tree base = accumulators_at (&ss, tok, where, c);
      gcall *at = gimple_build_call (ppgcc_metric_path1_decl (), 3, idx64,
                                     tok, base);
      gimple_set_location (at, gimple_location (call));
      gimple_set_block (at, gimple_block (call));
      gimple_seq_add_stmt (&seq, at);
      gimple_stmt_iterator c2 = gsi_for_stmt (call);
      gimple_move_vops (at, call);
      gsi_replace_with_seq (&c2, seq, true);
      ppgcc_guard g;
      gimple_stmt_iterator gsi;
      tree m;
      tree now = tsc_arm (at, "__pp_metric_path1_at_x86", NULL_TREE, &g,
                          &gsi, &m);
      /* The slow arm's arguments into its own block.  */
      gimple_stmt_iterator sg = gsi_after_labels (g.stmt_bb);
      for (tree v : { base, idx64 })
        if (TREE_CODE (v) == SSA_NAME)
          {
            gimple *def = SSA_NAME_DEF_STMT (v);
            gimple_stmt_iterator dg = gsi_for_stmt (def);
            gsi_move_before (&dg, &sg);
            sg = gsi_for_stmt (def);
          }
      gsi_insert_after (&gsi, gimple_build_assign (metric_mark (), now),
                        GSI_NEW_STMT);
      tree d = opaque (&gsi, emit (&gsi, ppgcc_u64_type (), MINUS_EXPR, now,
                                   m));
      add_to (&gsi, accumulator (&gsi, idx, tok, where), 0, d);
      if (TREE_CODE (where) != INTEGER_CST)
        add_to (&gsi, tok, 8 * PP_CCT_EXCL (0), d);
      return;
    }
#endif
  gimple_seq seq = NULL;
  gimple_stmt_iterator ss = gsi_last (seq);
  tree acc = accumulator (&ss, idx, tok, where);
  gcall *c = gimple_build_call (ppgcc_metric_path1_decl (), 2, acc, tok);
  gimple_set_location (c, gimple_location (call));
  gimple_set_block (c, gimple_block (call));
  gimple_seq_add_stmt (&seq, c);
  gimple_stmt_iterator cg = gsi_for_stmt (call);
  gimple_move_vops (c, call);
  gsi_replace_with_seq (&cg, seq, true);
}

/* A metric leaf's entry, saved = __pp_metric_enter1 () (context.cc): on
   x86-64
     if (__pp_metric_fast)
       { m = __pp_metric_mark[0]; now = rdtsc;
         saved = now - m; __pp_metric_mark[0] = now; }
     else
       saved = __pp_metric_enter1 ();  (a preserving call)
   elsewhere the call.  */
static void
lower_metric_enter (gcall *call)
{
#if defined(__x86_64__)
  tree saved = gimple_call_lhs (call);
  if (TYPE_PRECISION (ptr_type_node) != 64 || !saved
      || TREE_CODE (saved) != SSA_NAME)
    return;
  tree slow_saved = make_ssa_name (TREE_TYPE (saved));
  ppgcc_guard g;
  gimple_stmt_iterator gsi;
  tree m;
  tree now = tsc_arm (call, "__pp_metric_enter1_x86", slow_saved, &g, &gsi,
                      &m);
  gsi_insert_after (&gsi, gimple_build_assign (metric_mark (), now),
                    GSI_NEW_STMT);
  tree fast_saved = emit (&gsi, ppgcc_u64_type (), MINUS_EXPR, now, m);
  gphi *phi = create_phi_node (saved, g.join);
  add_phi_arg (phi, fast_saved, g.other_out, UNKNOWN_LOCATION);
  add_phi_arg (phi, slow_saved, g.stmt_out, UNKNOWN_LOCATION);
#else
  (void) call;
#endif
}

/* The exit of a function without metric accumulators (hash mode),
   __pp_metric_exit1 (tok, saved) (context.cc): on x86-64
     if (__pp_metric_fast)
       { m = __pp_metric_mark[0]; now = rdtsc;
         tok[PP_CCT_EXCL (0)] += now - m; __pp_metric_mark[0] = now - saved; }
     else
       __pp_metric_exit1 (tok, saved);  (a preserving call)
   elsewhere the call.  */
static void
lower_metric_exit (gcall *call)
{
#if defined(__x86_64__)
  if (TYPE_PRECISION (ptr_type_node) != 64)
    return;
  tree tok = gimple_call_arg (call, 0), saved = gimple_call_arg (call, 1);
  ppgcc_guard g;
  gimple_stmt_iterator gsi;
  tree m;
  tree now = tsc_arm (call, "__pp_metric_exit1_x86", NULL_TREE, &g, &gsi, &m);
  tree u64 = ppgcc_u64_type ();
  add_to (&gsi, tok, 8 * PP_CCT_EXCL (0), emit (&gsi, u64, MINUS_EXPR, now, m));
  gsi_insert_after (&gsi, gimple_build_assign (metric_mark (),
                                               emit (&gsi, u64, MINUS_EXPR,
                                                     now, saved)),
                    GSI_NEW_STMT);
#else
  (void) call;
#endif
}

/* The flat counters CALL, an entry, is lowered to: a leaf's marker in a
   body inlined here, of a leaf given them (a function with calls left
   has slots); else NULL_TREE.  */
static tree
flat_counts (gcall *c)
{
  tree d = gimple_call_arg (c, 0);
  if (gimple_call_num_args (c) != 1 || !inlined_counts
      || TREE_CODE (d) != ADDR_EXPR || !ppgcc_inlined_copy_p (c))
    return NULL_TREE;
  tree *counts = inlined_counts->get (TREE_OPERAND (d, 0));
  return counts ? *counts : NULL_TREE;
}

static unsigned int
lower_entries (function *fun)
{
  tree enter = ppgcc_enter_slot_decl ();
  tree leaf_marker = ppgcc_enter_leaf_marker_decl ();
  tree path1 = ppgcc_metric_path1_decl ();
  tree enter1 = ppgcc_metric_enter1_decl ();
  auto_vec<gcall *> calls, metric_ends, metric_entries, metric_exits;
  bool gave_back = false;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      if (tree saved = ppgcc_metric_give_back (gsi_stmt (gsi)))
        {
          /* A return's mark -= saved (context.cc), in place: the path end
             before it, lowered below, keeps its order (both touch the
             mark).  */
          tree u64 = ppgcc_u64_type ();
          gimple *marker = gsi_stmt (gsi);
          gimple_seq seq = NULL;
          gimple_stmt_iterator ss = gsi_last (seq);
          tree m = make_ssa_name (u64);
          gsi_insert_after (&ss, gimple_build_assign (m, metric_mark ()),
                            GSI_NEW_STMT);
          tree m1 = emit (&ss, u64, MINUS_EXPR, m, saved);
          gsi_insert_after (&ss, gimple_build_assign (metric_mark (), m1),
                            GSI_NEW_STMT);
          unlink_stmt_vdef (marker);
          gsi_replace_with_seq (&gsi, seq, true);
          gave_back = true;
        }
      else if (ppgcc_entry_marker_p (gsi_stmt (gsi)))
        calls.safe_push (marker_call (&gsi, enter, leaf_marker));
      else if (gcall *mc = ppgcc_metric_marker_call (gsi_stmt (gsi)))
        {
          gimple_move_vops (mc, gsi_stmt (gsi));
          gsi_replace (&gsi, mc, false);
          tree d = gimple_call_fndecl (mc);
          if (d == path1)
            metric_ends.safe_push (mc);
          else if (d == enter1)
            metric_entries.safe_push (mc);
          else
            metric_exits.safe_push (mc);
        }
      else if (gcall *c = dyn_cast<gcall *> (gsi_stmt (gsi)))
        if (gimple_call_fndecl (c) == enter
            || gimple_call_fndecl (c) == leaf_marker)
          calls.safe_push (c);
  if (calls.is_empty () && metric_ends.is_empty ()
      && metric_entries.is_empty () && metric_exits.is_empty ())
    {
      if (!gave_back)
        return 0;
      mark_virtual_operands_for_renaming (fun);
      return TODO_update_ssa_only_virtuals;
    }
  /* The leaves' bodies inlined here that count flat, by the scope the
     inliner made for each: with a metric, their readings go (context.cc,
     ppgcc_context_entry): no path end is measured, the entry's saved
     share is 0, and their time stays in the enclosing path.  */
  hash_set<tree> flat_scopes;
  for (gcall *c : calls)
    if (tree counts = flat_counts (c))
      {
        (void) counts;
        flat_scopes.add (inlined_instance (c));
      }
  /* Removes V's markers in those scopes; an entry's saved share
     becomes 0.  The exits too: with readings at calls only (no path
     ends, metric-at=calls) an inlined copy's return would otherwise
     charge its caller's time to the copy's flat counters.  */
  auto drop_flat = [&] (auto_vec<gcall *> &v)
    {
      unsigned i = 0;
      while (i < v.length ())
        if (flat_scopes.contains (inlined_instance (v[i])))
          {
            gcall *mc = v[i];
            gimple_stmt_iterator g = gsi_for_stmt (mc);
            tree saved = gimple_call_lhs (mc);
            unlink_stmt_vdef (mc);
            if (saved)
              gsi_replace (&g, gimple_build_assign (
                                   saved, build_int_cst (TREE_TYPE (saved),
                                                         0)),
                           false);
            else
              gsi_remove (&g, true);
            v.unordered_remove (i);
          }
        else
          i++;
    };
  if (!flat_scopes.is_empty ())
    {
      drop_flat (metric_ends);
      drop_flat (metric_entries);
      drop_flat (metric_exits);
    }
  for (gcall *c : metric_exits)
    lower_metric_exit (c);
  for (gcall *c : metric_ends)
    lower_metric_path (c);
  for (gcall *c : metric_entries)
    lower_metric_enter (c);
  for (gcall *c : calls)
    {
      /* A token nothing uses (a hash-mode function counts its paths
         elsewhere) may have lost its name: the entry still counts the
         call, and a leaf's marker must not be left (pcre2's
         _pcre2_script_run_8 failed to link).  */
      if (!gimple_call_lhs (c))
        {
          gimple_call_set_lhs (c, make_ssa_name (ptr_u64 (), c));
          update_stmt (c);
        }
      if (tree counts = flat_counts (c))
        {
          tree type = TREE_TYPE (counts);
          uint64_t n = tree_to_uhwi (array_type_nelts (type)) + 1;
          tree d = TREE_OPERAND (gimple_call_arg (c, 0), 0);
          /* NUM_PATHS counters, their calls, then the runtime's copy.  */
          lower_flat (c, counts, (n - 2) / 2,
                      flat_without_calls && flat_without_calls->contains (d),
                      ppgcc_opts.inlined_flat);
        }
      else
        expand_check (c);
    }
  free_dominance_info (CDI_DOMINATORS);
  mark_virtual_operands_for_renaming (fun);
  if (!metric_ends.is_empty () || !metric_entries.is_empty ()
      || !metric_exits.is_empty ())
    {
      /* The readings' vops first: the copy renames what it copies.  */
      update_ssa (TODO_update_ssa_only_virtuals);
      if (ppgcc_version_on_metric_source (fun))
        return TODO_update_ssa | TODO_cleanup_cfg;
      return TODO_cleanup_cfg;
    }
  return TODO_update_ssa_only_virtuals | TODO_cleanup_cfg;
}

namespace {

const pass_data lower_entries_pass_data = {
  GIMPLE_PASS,
  "ppgcc_ctx",     /* name */
  OPTGROUP_NONE,
  TV_NONE,
  PROP_cfg | PROP_ssa, /* properties_required */
  0,               /* properties_provided */
  0,               /* properties_destroyed */
  0,               /* todo_flags_start */
  0,               /* todo_flags_finish */
};

class lower_entries_pass : public gimple_opt_pass
{
public:
  lower_entries_pass (gcc::context *ctxt)
      : gimple_opt_pass (lower_entries_pass_data, ctxt)
  {
  }
  bool gate (function *) final override { return !seen_error (); }
  unsigned int execute (function *fun) final override
  {
    return lower_entries (fun);
  }
};

} // namespace

opt_pass *
ppgcc_new_lower_entries_pass ()
{
  return new lower_entries_pass (g);
}
