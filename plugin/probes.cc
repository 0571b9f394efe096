/* Inserting the probes of a plan (pp_plan) into GIMPLE.

   The pass runs before SSA is built, so the path register is a plain
   local temporary; into-SSA turns it into a register (and handles the
   abnormal edges of setjmp and non-local gotos for us).

   The rule every probe keeps, since GCC's alias analysis reasons from the
   addresses it sees: a count is stored through an address that lies
   inside its object, at a non-negative offset from that object's start,
   and an address the probes form that may lie outside is dereferenced
   only with a displacement that is not positive (GCC takes a pointer
   never to point below its object: from MEM[p + 16] it concludes that
   the object's first 16 bytes are untouched).  Per mode:
   - Ball-Larus, register as a counter address: biased (address_bias),
     so every path end's displacement is <= 0.
   - Ball-Larus, register as an id; PPP; cct's records; metrics: an
     ARRAY_REF or MEM_REF whose index is the path's id, inside the array
     at the path end (PPP's clamped to the sentinel slot by MIN_EXPR).
   - Hash cache: a slot index of the function's hash_cache_bits bits,
     inside the cache; misses go to the runtime.
   - ipp duplicates: MEM[regs + r * 8], r below the register count, into
     the caller's register array.
   - switch copies: the probes of the mode they copy.
   scripts/difftest checks each mode's counts against the Ball-Larus
   build's (and those against gcov's calls) at every -O, and
   testsuite/ppgcc.torture/inlined-counts.c is the shape that broke.  */
#include "plugin.h"
#include "pp/rt_abi.h"

static tree
u64_cst (uint64_t v)
{
  return build_int_cstu (ppgcc_u64_type (), v);
}

static std::vector<gimple *> count_stmts;

/* Whether the Ball-Larus register of the function being instrumented holds
   the address &counters[r] rather than the id r (plain array counting
   only, see ppgcc_insert_probes): a path end is then one
   `addq $1, off(%reg)'.  With an id, a position-independent program needs
   `lea counters(%rip)' before each path end's add, as rip-relative
   addressing takes no index register.  */
static bool reg_holds_address;

/* Where the register holds an address, it holds &counters[v + bias]
   for the path value v, and a path end counts through
   MEM[reg + (count_off - bias) * 8]: bias is the largest count_off of the
   function, so that displacement is never positive.  GCC's alias oracle
   takes a pointer never to point below the start of its object
   (indirect_ref_may_alias_decl_p), so from MEM[reg + 16] it concludes that
   counters[0] and [1] are untouched; but the register lies below the array
   on the paths whose end adds 16.  After inlining, loop store motion then
   kept one inlined copy's counters[0] in a register across a loop while
   another copy counted through the register into the same element, and
   counts were lost at -O1 and above (two inlined calls of a safe-division
   helper: 3 counted of 6; testsuite/ppgcc.paths/alias-bias.c).  With no
   positive displacement the oracle has no offset to reason from.  The
   register may still lie outside the array between path ends; it is only
   dereferenced at one, where it is inside.  */
static int64_t address_bias;

std::vector<gimple *>
ppgcc_take_count_stmts ()
{
  std::vector<gimple *> made;
  made.swap (count_stmts);
  return made;
}

static void
add_count_stmt (gimple_seq *seq, gimple *stmt)
{
  gimple_seq_add_stmt (seq, stmt);
  count_stmts.push_back (stmt);
}

/* REF++ (atomically with -fprofile-update=atomic).  */
static void
gen_increment (gimple_seq *seq, tree ref)
{
  tree u64 = ppgcc_u64_type ();
  if (ppgcc_opts.atomic)
    {
      tree addr = create_tmp_reg (build_pointer_type (u64), "pp_p");
      add_count_stmt (seq, gimple_build_assign (addr,
                                                build_fold_addr_expr (ref)));
      tree fadd = builtin_decl_explicit (BUILT_IN_ATOMIC_FETCH_ADD_8);
      add_count_stmt (seq, gimple_build_call (fadd, 3, addr, u64_cst (1),
                                              build_int_cst (integer_type_node,
                                                             MEMMODEL_RELAXED)));
      return;
    }
  tree old = create_tmp_reg (u64, "pp_c");
  tree inc = create_tmp_reg (u64, "pp_c");
  add_count_stmt (seq, gimple_build_assign (old, unshare_expr (ref)));
  add_count_stmt (seq, gimple_build_assign (inc, PLUS_EXPR, old,
                                            u64_cst (1)));
  add_count_stmt (seq, gimple_build_assign (unshare_expr (ref), inc));
}

static tree
array_ref (tree array, tree index)
{
  return build4 (ARRAY_REF, TREE_TYPE (TREE_TYPE (array)), array, index,
                 NULL_TREE, NULL_TREE);
}

/* __pp_hash_hit (&desc, ID): hash mode, and PPP misses.  */
static void
gen_hash_hit (gimple_seq *seq, tree id, const ppgcc_fn &fn)
{
  static tree hit_fn;
  if (!hit_fn)
    {
      tree type = build_function_type_list (void_type_node, ptr_type_node,
                                            ppgcc_u64_type (), NULL_TREE);
      hit_fn = build_fn_decl ("__pp_hash_hit", type);
      TREE_NOTHROW (hit_fn) = 1;
      DECL_ATTRIBUTES (hit_fn) = tree_cons (get_identifier ("leaf"), NULL_TREE,
                                            DECL_ATTRIBUTES (hit_fn));
    }
  gimple_seq_add_stmt (seq, gimple_build_call (hit_fn, 2,
                                               build_fold_addr_expr (fn.desc),
                                               id));
}

/* REG + OFF, or the constant OFF.  */
static tree
path_index (gimple_seq *seq, tree reg, bool uses_reg, uint64_t off)
{
  if (!uses_reg)
    return u64_cst (off);
  /* REG itself when OFF is 0: an addition of 0 is still a statement to
     the inliner's size and time estimates when it weighs the function.  */
  if (off == 0)
    return reg;
  tree index = create_tmp_reg (ppgcc_u64_type (), "pp_i");
  gimple_seq_add_stmt (seq, gimple_build_assign (index, PLUS_EXPR, reg,
                                                 u64_cst (off)));
  return index;
}

/* The miss arm of a PPP check: the side table counts by Ball-Larus id.
   On x86-64 through __pp_ppp_miss from inline assembly, which preserves
   every register: to the compiler the arm is then no call at all, so the
   instrumented function stays a leaf where it was one and keeps its values
   in caller-saved registers (a real call, even on a cold arm, made GCC
   save registers in the prologue of hot functions like bzip2's mainGtU).
   The red zone is stepped over before the call.  */
static void
gen_ppp_miss (gimple_seq *seq, tree bl, const ppgcc_fn &fn)
{
#if defined(__x86_64__)
  if (TYPE_PRECISION (ptr_type_node) == 64)
    {
      vec<tree, va_gc> *inputs = NULL, *clobbers = NULL;
      vec_safe_push (inputs, build_tree_list (build_tree_list (NULL_TREE,
                                                               build_string (2, "D")),
                                              build_fold_addr_expr (fn.desc)));
      vec_safe_push (inputs, build_tree_list (build_tree_list (NULL_TREE,
                                                               build_string (2, "S")),
                                              bl));
      vec_safe_push (clobbers, build_tree_list (NULL_TREE,
                                                build_string (3, "cc")));
      gasm *call = gimple_build_asm_vec ("lea -128(%%rsp), %%rsp\n\t"
                                         "call __pp_ppp_miss@PLT\n\t"
                                         "lea 128(%%rsp), %%rsp",
                                         inputs, NULL, clobbers, NULL);
      gimple_asm_set_volatile (call, true);
      gimple_seq_add_stmt (seq, call);
      return;
    }
#endif
  gen_hash_hit (seq, bl, fn);
}

/* A PPP check whose two arms are built once the check has a block of its
   own (see split_ppp_checks), keyed by the temporary it compares.  */
struct ppp_check
{
  tree counts; /* what a hit counts in: ppp_counts, or hash_counts */
  tree index;  /* the clamped PPP index, or the hash cache slot */
  tree bl;     /* the Ball-Larus id, for a miss */
};
typedef std::vector<std::pair<tree, ppp_check> > ppp_checks;

static void gen_hash_cache_count (gimple_seq *seq, tree id,
                                  const ppgcc_fn &fn, ppp_checks &checks);

/* A path end with preferential path profiling (thesis §3.2.3, §3.6
   "Additional checks"): the PPP id, clamped to the sentinel (a conditional
   move, not a branch), indexes the read-only Ball-Larus ids, which tell an
   interesting path from an alias or an untested one:
     j = MIN (ppp - base, size); t = ppp_ids[j];
     if (t == bl)   <- split later: ppp_counts[j]++ / miss (bl)
   Where both ids are constants here the outcome is known: no check (and
   where GCC later finds them constant, it folds the check itself).  */
static void
gen_ppp_count (gimple_seq *seq, const pp_probe &p, tree regs[2],
               const ppgcc_fn &fn, ppp_checks &checks)
{
  tree u64 = ppgcc_u64_type ();
  tree bl = path_index (seq, regs[0], p.count_uses_reg, p.count_off);
  uint64_t off = p.ppp_count_off - fn.ppp_base;
  if (!p.ppp_count_uses_reg && !p.count_uses_reg)
    {
      if (off < fn.ppp_size && fn.slot_ids[off] == p.count_off)
        gen_increment (seq, array_ref (fn.ppp_counts, u64_cst (off)));
      else if (fn.hash_keys)
        gen_hash_cache_count (seq, bl, fn, checks);
      else
        gen_ppp_miss (seq, bl, fn);
      return;
    }
  tree j;
  if (p.ppp_count_uses_reg)
    {
      tree ppp = path_index (seq, regs[1], true, off);
      j = create_tmp_reg (u64, "pp_j");
      gimple_seq_add_stmt (seq, gimple_build_assign (j, MIN_EXPR, ppp,
                                                     u64_cst (fn.ppp_size)));
    }
  else
    j = u64_cst (off < fn.ppp_size ? off : fn.ppp_size);
  tree t = create_tmp_reg (u64, "pp_t");
  gimple_seq_add_stmt (seq, gimple_build_assign (t, array_ref (fn.ppp_ids,
                                                               j)));
  gimple_seq_add_stmt (seq, gimple_build_cond (EQ_EXPR, t, bl, NULL_TREE,
                                               NULL_TREE));
  checks.push_back ({ t, { fn.ppp_counts, j, bl } });
}

/* A hash-mode path end, its inline first probe (rt_abi.h):
     h = PP_HASH_CACHE_SLOT (id, bits); t = hash_keys[h];
     if (t == id + 1)   <- split later: hash_counts[h]++ / miss (id)
   A hot path is counted in a few instructions without a call; the miss
   arm is the PPP one (on x86-64 it keeps every register).  */
static void
gen_hash_cache_count (gimple_seq *seq, tree id, const ppgcc_fn &fn,
                      ppp_checks &checks)
{
  tree u64 = ppgcc_u64_type ();
  tree m = create_tmp_reg (u64, "pp_h");
  gimple_seq_add_stmt (seq, gimple_build_assign (m, MULT_EXPR, id,
                                                 u64_cst (PP_HASH_CACHE_MULT)));
  tree h = create_tmp_reg (u64, "pp_h");
  gimple_seq_add_stmt (seq, gimple_build_assign (
                                h, RSHIFT_EXPR, m,
                                build_int_cst (integer_type_node,
                                               64 - (int) fn.hash_cache_bits)));
  tree key = create_tmp_reg (u64, "pp_k");
  gimple_seq_add_stmt (seq, gimple_build_assign (key, PLUS_EXPR, id,
                                                 u64_cst (1)));
  tree t = create_tmp_reg (u64, "pp_t");
  gimple_seq_add_stmt (seq, gimple_build_assign (t, array_ref (fn.hash_keys,
                                                               h)));
  gimple_seq_add_stmt (seq, gimple_build_cond (EQ_EXPR, t, key, NULL_TREE,
                                               NULL_TREE));
  checks.push_back ({ t, { fn.hash_counts, h, id } });
}

/* REG op= VAL for register R (0: Ball-Larus, 1: PPP).  */
static void
gen_reg_op (gimple_seq *seq, tree regs[2], int r, pp_reg_op op,
            pp_pathid val, const ppgcc_fn &fn)
{
  if (!regs[r] || op == PP_REG_NONE)
    return;
  if (r == 0 && reg_holds_address)
    {
      /* &counters[v + bias], or reg + v * 8 (modulo 2^64: an increment
         may be "negative"; see address_bias).  In the count statements,
         for derive.cc.  */
      tree rhs = op == PP_REG_SET
                 ? build_fold_addr_expr (array_ref (
                     fn.counters, build_int_cst (ssizetype,
                                                 (int64_t) val
                                                     + address_bias)))
                 : build2 (POINTER_PLUS_EXPR, TREE_TYPE (regs[0]), regs[0],
                           build_int_cstu (sizetype, val * 8));
      add_count_stmt (seq, gimple_build_assign (regs[0], rhs));
    }
  else if (op == PP_REG_ADD)
    gimple_seq_add_stmt (seq, gimple_build_assign (regs[r], PLUS_EXPR,
                                                   regs[r], u64_cst (val)));
  else
    gimple_seq_add_stmt (seq, gimple_build_assign (regs[r], u64_cst (val)));
}

/* The local trip counter of each promoted loop (pp_plan_loops) of the
   function being instrumented, by loop number.  */
static std::vector<tree> loop_trips;

static tree
trip_counter (int loop)
{
  if ((size_t) loop >= loop_trips.size ())
    loop_trips.resize (loop + 1, NULL_TREE);
  if (!loop_trips[loop])
    loop_trips[loop] = create_tmp_var (ppgcc_u64_type (), "pp_trips");
  return loop_trips[loop];
}

static void gen_count (gimple_seq *seq, const pp_probe &p, tree regs[2],
                       const ppgcc_fn &fn, ppp_checks &checks);

/* Leaving a promoted loop: its trips, when it went round, stored in the
   memory counters (see pp_probe), in an arm split off later, then the
   register as the replaced probes would have left it:
     t = trips; if (t != 0)   <- split later:
       counters[reg + first]++; counters[steady] += t - 1; reg = restart;
     reg += off;  */
typedef std::vector<std::pair<tree, gimple_seq> > flag_checks;

static void
gen_loop_flush (gimple_seq *seq, const pp_probe &p, tree regs[2],
                const ppgcc_fn &fn, flag_checks &flags)
{
  tree u64 = ppgcc_u64_type ();
  tree t = create_tmp_reg (u64, "pp_t");
  gimple_seq_add_stmt (seq, gimple_build_assign (t,
                                                 trip_counter (p.loop_flush)));
  gimple_seq_add_stmt (seq, gimple_build_cond (NE_EXPR, t,
                                               build_zero_cst (u64),
                                               NULL_TREE, NULL_TREE));
  gimple_seq arm = NULL;
  pp_probe first = {};
  first.count = 1;
  first.count_uses_reg = p.loop_first_uses_reg;
  first.count_off = p.loop_first;
  ppp_checks none;
  gen_count (&arm, first, regs, fn, none);
  gcc_checking_assert (none.empty ());
  tree ref = array_ref (unshare_expr (fn.counters), u64_cst (p.loop_steady));
  tree more = create_tmp_reg (u64, "pp_c");
  gimple_seq_add_stmt (&arm, gimple_build_assign (more, PLUS_EXPR, t,
                                                  u64_cst (-1ull)));
  tree old = create_tmp_reg (u64, "pp_c");
  tree sum = create_tmp_reg (u64, "pp_c");
  gimple_seq_add_stmt (&arm, gimple_build_assign (old, unshare_expr (ref)));
  gimple_seq_add_stmt (&arm, gimple_build_assign (sum, PLUS_EXPR, old,
                                                  more));
  gimple_seq_add_stmt (&arm, gimple_build_assign (ref, sum));
  if (p.loop_reg)
    gen_reg_op (&arm, regs, 0, PP_REG_SET, p.loop_restart, fn);
  flags.push_back ({ t, arm });
  if (p.loop_reg && p.loop_off)
    gen_reg_op (seq, regs, 0, PP_REG_ADD, p.loop_off, fn);
}

/* counter[index]++ for a probe that ends a path.  */
static void
gen_count (gimple_seq *seq, const pp_probe &p, tree regs[2],
           const ppgcc_fn &fn, ppp_checks &checks)
{
  if (fn.ppp_ids)
    {
      gen_ppp_count (seq, p, regs, fn, checks);
      return;
    }
  if (reg_holds_address && p.count_uses_reg)
    {
      tree u64 = ppgcc_u64_type ();
      int64_t disp = ((int64_t) p.count_off - address_bias) * 8;
      gcc_checking_assert (disp <= 0);
      gen_increment (seq, build2 (MEM_REF, u64, regs[0],
                                  build_int_cst (build_pointer_type (u64),
                                                 disp)));
      return;
    }
  tree index = path_index (seq, regs[0], p.count_uses_reg, p.count_off);
  tree counters = fn.count_base ? fn.count_base : fn.counters;
  if (!counters && fn.hash_keys)
    gen_hash_cache_count (seq, index, fn, checks);
  else if (!counters)
    gen_hash_hit (seq, index, fn); /* the runtime counts (thread-safe) */
  else
    gen_increment (seq, array_ref (unshare_expr (counters), index));
  if (fn.metric_base)
    ppgcc_gen_metric_path (seq, index, fn);
}

/* A path end that tests the profile flag first (-fprofile-paths-switch=
   check): `if (__pp_on != 0)` ends SEQ; the count it guards is kept in
   FLAG_CHECKS under the tested temporary, for split_flag_checks.  */

static gimple_seq
gen_probe (const pp_probe &p, tree regs[2], const ppgcc_fn &fn,
           ppp_checks &checks, flag_checks &flags)
{
  gimple_seq seq = NULL;
  if (p.loop_step)
    {
      tree c = trip_counter (p.loop_step);
      gimple_seq_add_stmt (&seq, gimple_build_assign (c, PLUS_EXPR, c,
                                                      u64_cst (1)));
    }
  if (p.loop_flush)
    gen_loop_flush (&seq, p, regs, fn, flags);
  if (p.count && (fn.switch_check || fn.count_guard))
    {
      gimple_seq count = NULL;
      gen_count (&count, p, regs, fn, checks);
      tree guard = fn.count_guard ? fn.count_guard : ppgcc_profile_flag ();
      tree t = create_tmp_reg (TREE_TYPE (guard), "pp_on");
      gimple_seq_add_stmt (&seq, gimple_build_assign (t, guard));
      gimple_seq_add_stmt (&seq, gimple_build_cond (NE_EXPR, t,
                                                    build_zero_cst (
                                                      TREE_TYPE (t)),
                                                    NULL_TREE, NULL_TREE));
      flags.push_back ({ t, count });
    }
  else if (p.count)
    gen_count (&seq, p, regs, fn, checks);
  for (int r = 0; r < 2; r++)
    gen_reg_op (&seq, regs, r, p.op[r], p.val[r], fn);
  if (p.loop_init)
    gimple_seq_add_stmt (&seq, gimple_build_assign (trip_counter (p.loop_init),
                                                    u64_cst (0)));
  return seq;
}

/* Gives each PPP check (and hash cache check) the control flow it stands
   for: the block is split after the condition, the hit arm counts by PPP
   id (cache slot), the miss arm (laid out as unlikely) hands the
   Ball-Larus id to the side table; a PPP check's miss arm, where the
   function has a cache for its misses (ppgcc_choose_counting), first
   probes that cache, a check split in turn.  Checks are
   found by their compared temporary, so copies made for several edges are
   split too.  */
static void
split_ppp_checks (function *fun, const ppp_checks &checks,
                  const ppgcc_fn &fn)
{
  if (checks.empty ())
    return;
  ppp_checks inner; /* the cache checks of PPP miss arms */
  std::vector<gcond *> conds;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      if (gcond *c = dyn_cast<gcond *> (gsi_stmt (gsi)))
        for (const auto &ch : checks)
          if (gimple_cond_lhs (c) == ch.first)
            conds.push_back (c);
  for (gcond *c : conds)
    {
      const ppp_check *ch = nullptr;
      for (const auto &x : checks)
        if (gimple_cond_lhs (c) == x.first)
          ch = &x.second;
      basic_block head = gimple_bb (c);
      edge fall = split_block (head, c);
      basic_block join = fall->dest;
      remove_edge (fall);
      basic_block hit = create_empty_bb (head);
      basic_block miss = create_empty_bb (hit);
      if (current_loops)
        {
          add_bb_to_loop (hit, head->loop_father);
          add_bb_to_loop (miss, head->loop_father);
        }
      edge e = make_edge (head, hit, EDGE_TRUE_VALUE);
      e->probability = profile_probability::very_likely ();
      e = make_edge (head, miss, EDGE_FALSE_VALUE);
      e->probability = profile_probability::very_unlikely ();
      make_single_succ_edge (hit, join, EDGE_FALLTHRU);
      make_single_succ_edge (miss, join, EDGE_FALLTHRU);
      gimple_seq hit_seq = NULL, miss_seq = NULL;
      gen_increment (&hit_seq, array_ref (ch->counts, ch->index));
      if (ch->counts == fn.ppp_counts && fn.hash_keys)
        gen_hash_cache_count (&miss_seq, ch->bl, fn, inner);
      else
        gen_ppp_miss (&miss_seq, ch->bl, fn);
      gimple_stmt_iterator gsi = gsi_start_bb (hit);
      gsi_insert_seq_after (&gsi, hit_seq, GSI_NEW_STMT);
      gsi = gsi_start_bb (miss);
      gsi_insert_seq_after (&gsi, miss_seq, GSI_NEW_STMT);
    }
  if (current_loops)
    loops_state_set (LOOPS_NEED_FIXUP);
  free_dominance_info (CDI_DOMINATORS);
  free_dominance_info (CDI_POST_DOMINATORS);
  split_ppp_checks (fun, inner, fn);
}

/* Gives each flag test its arm: the block is split after the test, and
   the count goes into a block of its own taken when the flag is set.  A
   sequence copied onto several edges is found by its tested temporary and
   gets a copy of the count each time.  */
static void
split_flag_checks (function *fun, const flag_checks &flags)
{
  if (flags.empty ())
    return;
  std::vector<std::pair<gcond *, gimple_seq> > found;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      if (gcond *c = dyn_cast<gcond *> (gsi_stmt (gsi)))
        for (const auto &f : flags)
          if (gimple_cond_lhs (c) == f.first)
            found.push_back ({ c, f.second });
  for (const auto &f : found)
    {
      basic_block head = gimple_bb (f.first);
      edge fall = split_block (head, f.first);
      basic_block join = fall->dest;
      fall->flags &= ~EDGE_FALLTHRU;
      fall->flags |= EDGE_FALSE_VALUE;
      basic_block on = create_empty_bb (head);
      if (current_loops)
        add_bb_to_loop (on, head->loop_father);
      edge e = make_edge (head, on, EDGE_TRUE_VALUE);
      e->probability = profile_probability::likely ();
      fall->probability = e->probability.invert ();
      make_single_succ_edge (on, join, EDGE_FALLTHRU);
      gimple_stmt_iterator gsi = gsi_start_bb (on);
      gsi_insert_seq_after (&gsi, gimple_seq_copy (f.second), GSI_NEW_STMT);
    }
  if (current_loops)
    loops_state_set (LOOPS_NEED_FIXUP);
  free_dominance_info (CDI_DOMINATORS);
}

static bool
returns_twice_call_p (gimple *stmt)
{
  return is_gimple_call (stmt)
         && (gimple_call_flags (stmt) & ECF_RETURNS_TWICE);
}

/* Whether BB is GCC's abnormal dispatcher: the block every call that may
   longjmp or goto non-locally has its abnormal edge to, and whose abnormal
   edges go on to the setjmp, __builtin_setjmp receiver and non-local label
   blocks.  */
static bool
abnormal_dispatcher_p (basic_block bb)
{
  gimple_stmt_iterator gsi = gsi_start_nondebug_after_labels_bb (bb);
  return !gsi_end_p (gsi)
         && gimple_call_internal_p (gsi_stmt (gsi), IFN_ABNORMAL_DISPATCHER);
}

/* The dispatcher's probe, SEQ, which counts its one path (the dispatcher
   alone: all its edges are abnormal, so the count's index is a constant).
   The dispatcher must stay a block with nothing but
   .ABNORMAL_DISPATCHER: the inliner finds it that way
   (get_abnormal_succ_dispatcher) to give the calls it inlines their
   abnormal edges, and without them GCC keeps a local's old value across a
   __builtin_longjmp (GCC's pr60003.c); a flag test there
   (-fprofile-paths-switch) would even split the block, leaving the
   abnormal edges on a block that is no dispatcher.  So the count goes to
   the start of each target entered only from the dispatcher (a
   __builtin_setjmp receiver, after the receiver, which restores the frame;
   a non-local label): each jump reaches one of them.  A target also
   entered normally (the block of a setjmp call) cannot tell a jump from a
   fall-through: there the jump is not counted.  */
static void
insert_for_dispatcher (basic_block bb, gimple_seq seq)
{
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, bb->succs)
    {
      basic_block dest = e->dest;
      if (!single_pred_p (dest) || dest == EXIT_BLOCK_PTR_FOR_FN (cfun))
        continue;
      gimple_stmt_iterator gsi = gsi_after_labels (dest);
      if (!gsi_end_p (gsi)
          && gimple_call_builtin_p (gsi_stmt (gsi),
                                    BUILT_IN_SETJMP_RECEIVER))
        {
          gsi_insert_seq_after (&gsi, gimple_seq_copy (seq), GSI_SAME_STMT);
          continue;
        }
      gsi_insert_seq_before (&gsi, gimple_seq_copy (seq), GSI_SAME_STMT);
    }
}

/* A probe that ends the paths of a block: before its last statement when
   that one transfers control (a call that may not return or may jump
   abnormally, a computed goto, ...), else at its end.  A returns_twice call
   (setjmp) must stay first in its block, so there the probe goes on the
   block's normal out-edges instead (setjmp's own abnormal edge is only the
   model of a later longjmp, which the receiver's restart covers).  The
   abnormal dispatcher gets no code at all (insert_for_dispatcher).  */
static void
insert_at_block_end (basic_block bb, gimple_seq seq)
{
  if (abnormal_dispatcher_p (bb))
    {
      insert_for_dispatcher (bb, seq);
      return;
    }
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

/* A probe on edge E.  On an edge into the exit from a block that returns
   what its last call returns: before that call, which then stays a tail
   call (tail-returns.cc).  Not with metrics (FN's metric_base): a path's
   metric is read at its end, and has always included its calls.  */
static void
insert_on_edge (edge e, gimple_seq seq, const ppgcc_fn &fn)
{
  if (e->dest == EXIT_BLOCK_PTR_FOR_FN (cfun) && !fn.metric_base)
    if (gcall *call = ppgcc_tail_call_before_return (e->src))
      {
        gimple_stmt_iterator gsi = gsi_for_stmt (call);
        gsi_insert_seq_before (&gsi, seq, GSI_SAME_STMT);
        return;
      }
  gsi_insert_seq_on_edge (e, seq);
}

void
ppgcc_insert_probes (function *fun, const ppgcc_cfg &cfg,
                     const pp_probe *probes, int nprobes, const ppgcc_fn &fn,
                     tree regs[2])
{
  /* The Ball-Larus register, and the PPP one when there are PPP arrays
     (thesis §3.6 "Register usage": both change on the same chords).  */
  reg_holds_address = !regs[0] && fn.counters && !fn.count_base
                      && !fn.ppp_ids && !fn.hash_keys && !fn.metric_base
                      && !ppgcc_opts.atomic;
  if (reg_holds_address)
    {
      regs[0] = create_tmp_var (build_pointer_type (ppgcc_u64_type ()),
                                "pp_path");
      /* ppgcc_new_counters marks the array DECL_NONALIASED (nothing
         points into it).  Now something does: left set, the alias oracle
         lets the count through one inlined copy's register be reordered
         past another copy's, and a count is lost (bzip2's bsW at -O2;
         testsuite/ppgcc.paths/inlined-loop.c).  */
      DECL_NONALIASED (fn.counters) = 0;
      address_bias = INT64_MIN;
      for (int i = 0; i < nprobes; i++)
        {
          if (probes[i].count && probes[i].count_uses_reg)
            address_bias = MAX (address_bias, (int64_t) probes[i].count_off);
          if (probes[i].loop_flush && probes[i].loop_first_uses_reg)
            address_bias = MAX (address_bias,
                                (int64_t) probes[i].loop_first);
        }
      if (address_bias == INT64_MIN)
        address_bias = 0;
    }
  else if (!regs[0])
    {
      regs[0] = create_tmp_var (ppgcc_u64_type (), "pp_path");
      regs[1] = fn.ppp_ids ? create_tmp_var (ppgcc_u64_type (), "pp_ppp")
                           : NULL_TREE;
    }
  ppp_checks checks;
  flag_checks flags;
  /* Block-end probes first: on an edge they must come before the edge's
     own probe (count, then restart the register).  */
  for (int i = 0; i < nprobes; i++)
    if (probes[i].where == PP_AT_BLOCK_END && cfg.blocks[probes[i].block])
      insert_at_block_end (cfg.blocks[probes[i].block],
                           gen_probe (probes[i], regs, fn, checks, flags));
  for (int i = 0; i < nprobes; i++)
    if (probes[i].where == PP_AT_EDGE && cfg.edges[probes[i].edge])
      insert_on_edge (cfg.edges[probes[i].edge],
                      gen_probe (probes[i], regs, fn, checks, flags), fn);
  gsi_commit_edge_inserts ();
  /* Flag tests first: a PPP check they guard is in their arm, and is
     split there.  */
  split_flag_checks (fun, flags);
  split_ppp_checks (fun, checks, fn);
  reg_holds_address = false;
  address_bias = 0;
  loop_trips.clear ();
}
