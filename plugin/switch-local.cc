/* Switchable profiling, -fprofile-paths-switch=entry: local callees follow
   their caller.

   A small IPA pass after "visibility", before SSA and the early inliner,
   when every function of the unit has its body (lowered, with a CFG) and
   its call graph edges.  The entry pass (switch-entry.cc) gave each
   copyable function f an instrumented copy f.pp_on and a dispatch at f's
   entry.  Here:

   1. In every copy f.pp_on, a direct call of a function g that has a copy
      g.pp_on and is local to the unit (not public, address not taken,
      no aliases, not `used', not a constructor: local_p below)
      now calls g.pp_on.

   2. Such a g loses its dispatch: plain g is again exactly the original
      function, and GCC inlines it into its plain callers as in a plain
      build (a called-once static is inlined again, and no entry test
      pushes a small one over the inlining limits).  A caller without a
      copy (it keeps one body, =check, or is not instrumented) tests the
      flag at each of its calls of g instead, as g's dispatch would have
      at g's entry:
        if (__pp_on_entry == 0) lhs = g (args); else lhs = g.pp_on (args);
      and g inlines into the plain arm.  With the test left in g, lua's
      index2value (called from the public lua_* functions, which are
      =check) stayed out of line: profiling off cost lua 15% more
      instructions than -O2.  A call that ends its block (it may throw)
      is not split: g keeps its dispatch then.

   Semantics: an activation of such a g runs its copy, and counts its
   paths, exactly when the activation of its caller runs its copy, that is
   when profiling was on at the entry of the nearest activation up the
   call stack of a function that still has a dispatch (a public one, or
   one whose address is taken); the flag at g's own entry does not
   matter.  */
#include "plugin.h"

namespace {

/* The dispatch switch-entry.cc put at FUN's entry: the first block
   `pp_on = __pp_on_entry; pp_bit = pp_on & 1; if (pp_bit != 0)`, whose
   true edge goes to a block calling the copy.  The copy's declaration, or
   null; *COND the test, *LOAD the flag's load (followed by the bit's).  */
tree
find_dispatch (function *fun, gcond **cond, gassign **load)
{
  if (!fun->cfg || !single_succ_p (ENTRY_BLOCK_PTR_FOR_FN (fun)))
    return NULL_TREE;
  basic_block test = single_succ (ENTRY_BLOCK_PTR_FOR_FN (fun));
  gimple_stmt_iterator gsi = gsi_last_bb (test);
  if (gsi_end_p (gsi))
    return NULL_TREE;
  gcond *c = dyn_cast<gcond *> (gsi_stmt (gsi));
  gsi_prev (&gsi);
  if (!c || gsi_end_p (gsi))
    return NULL_TREE;
  gassign *bit = dyn_cast<gassign *> (gsi_stmt (gsi));
  gsi_prev (&gsi);
  if (!bit || gsi_end_p (gsi) || gimple_assign_rhs_code (bit) != BIT_AND_EXPR
      || gimple_assign_lhs (bit) != gimple_cond_lhs (c))
    return NULL_TREE;
  gassign *l = dyn_cast<gassign *> (gsi_stmt (gsi));
  gsi_prev (&gsi);
  if (!l || !gsi_end_p (gsi) || !gimple_assign_single_p (l)
      || gimple_assign_lhs (l) != gimple_assign_rhs1 (bit)
      || gimple_cond_code (c) != NE_EXPR
      || !integer_zerop (gimple_cond_rhs (c)))
    return NULL_TREE;
  tree flag = gimple_assign_rhs1 (l);
  if (TREE_CODE (flag) != VAR_DECL || !DECL_NAME (flag)
      || strcmp (IDENTIFIER_POINTER (DECL_NAME (flag)), "__pp_on_entry"))
    return NULL_TREE;
  edge on_e = EDGE_SUCC (test, 0);
  if (!(on_e->flags & EDGE_TRUE_VALUE))
    on_e = EDGE_SUCC (test, 1);
  for (gimple_stmt_iterator g = gsi_start_bb (on_e->dest); !gsi_end_p (g);
       gsi_next (&g))
    if (gcall *call = dyn_cast<gcall *> (gsi_stmt (g)))
      {
        tree fn = gimple_call_fndecl (call);
        if (!fn)
          return NULL_TREE;
        *cond = c;
        *load = l;
        return fn;
      }
  return NULL_TREE;
}

/* Whether G is only called directly, from this unit: not public, address
   not taken, no aliases, not `used', not a constructor.  This is
   cgraph_node::only_called_directly_p except for force_output, which -O0
   (-fno-toplevel-reorder) sets on every function: the semantics do not
   depend on -O.  */
bool
local_p (cgraph_node *g)
{
  tree d = g->decl;
  return !TREE_PUBLIC (d) && !DECL_EXTERNAL (d) && !DECL_PRESERVE_P (d)
         && !lookup_attribute ("used", DECL_ATTRIBUTES (d))
         && !DECL_STATIC_CONSTRUCTOR (d) && !DECL_STATIC_DESTRUCTOR (d)
         && !DECL_VIRTUAL_P (d) && !g->address_taken && !g->has_aliases_p ()
         && !g->externally_visible && !g->used_from_other_partition
         && !g->ifunc_resolver;
}

/* FUN without its dispatch: the test made false, its dead branch and the
   flag's load removed, the call graph edges rebuilt.  */
void
drop_dispatch (function *fun, gcond *cond, gassign *load)
{
  push_cfun (fun);
  gimple_cond_make_false (cond);
  gimple_stmt_iterator gsi = gsi_for_stmt (load);
  gsi_remove (&gsi, true);  /* the load */
  gsi_remove (&gsi, true);  /* its bit */
  free_dominance_info (CDI_DOMINATORS);
  cleanup_tree_cfg ();
  cgraph_edge::rebuild_edges ();
  pop_cfun ();
}

/* Whether E's call can take the flag test in front of it: a plain call
   statement in the middle or at the end of a block, with no abnormal or
   EH edge out of it.  */
bool
splittable_call_p (cgraph_edge *e)
{
  gcall *call = e->call_stmt;
  if (!call || gimple_call_internal_p (call)
      || (gimple_call_flags (call) & (ECF_RETURNS_TWICE | ECF_NORETURN)))
    return false;
  function *fun = DECL_STRUCT_FUNCTION (e->caller->decl);
  if (!fun || !fun->cfg || !gimple_bb (call))
    return false;
  /* (stmt_can_make_abnormal_goto reads cfun.)  */
  push_cfun (fun);
  bool ok = !stmt_can_throw_internal (fun, call)
            && !stmt_can_make_abnormal_goto (call);
  pop_cfun ();
  return ok;
}

/* CALL of G, in FUN, a caller without a copy, as
     tmp = FLAG & 1; if (tmp == 0) lhs = G (args); else lhs = ON (args);
   (with PLAIN in place of G in the first arm when given).
   (before SSA: both arms write the same lhs).  The caller's call graph
   edges are rebuilt after.  */
void
dispatch_at_call (function *fun, gcall *call, cgraph_node *on, tree flag,
                  tree plain = NULL_TREE)
{
  push_cfun (fun);
  ppgcc_guard g = ppgcc_guard_split (call);
  gimple_stmt_iterator gsi = gsi_last_bb (g.head);
  tree tmp = ppgcc_switch_flag_bit (&gsi, flag);
  ppgcc_guard_branch (g, EQ_EXPR, tmp, build_zero_cst (TREE_TYPE (tmp)),
                      profile_probability::likely ());
  basic_block onb = g.other, join = g.join;
  gcall *copy = as_a<gcall *> (gimple_copy (call));
  gimple_call_set_fndecl (copy, on->decl);
  if (plain)
    gimple_call_set_fndecl (call, plain);
  /* The gimplifier's temporaries are SSA names already: one definition
     each, so the two calls write a variable, copied to it at the join.  */
  tree lhs = gimple_call_lhs (call);
  if (lhs && TREE_CODE (lhs) == SSA_NAME)
    {
      tree v = create_tmp_var (TREE_TYPE (lhs), "pp_ret");
      gimple_call_set_lhs (call, v);
      gimple_call_set_lhs (copy, v);
      gimple_stmt_iterator j = gsi_after_labels (join);
      gimple *a = gimple_build_assign (lhs, v);
      SSA_NAME_DEF_STMT (lhs) = a;
      gsi_insert_before (&j, a, GSI_SAME_STMT);
    }
  gsi = gsi_start_bb (onb);
  gsi_insert_after (&gsi, copy, GSI_NEW_STMT);
  free_dominance_info (CDI_DOMINATORS);
  pop_cfun ();
}

/* The copy ON of local G inlined like G: G's attributes (always_inline,
   noinline, ...) and inline flags back in place of ppgcc_make_outlined's.
   A caller whose behaviour relies on G being inlined (the union of
   DR#236) then behaves the same in its copy.  */
void
restore_inlining (tree on, tree g)
{
  DECL_ATTRIBUTES (on) = DECL_ATTRIBUTES (g);
  DECL_UNINLINABLE (on) = DECL_UNINLINABLE (g);
  DECL_DECLARED_INLINE_P (on) = DECL_DECLARED_INLINE_P (g);
  DECL_DISREGARD_INLINE_LIMITS (on) = DECL_DISREGARD_INLINE_LIMITS (g);
}

unsigned int
follow_callers ()
{
  std::unordered_map<cgraph_node *, cgraph_node *> copy_of;
  std::unordered_map<cgraph_node *, std::pair<gcond *, gassign *>> test_of;
  std::unordered_set<cgraph_node *> copies;
  cgraph_node *node;
  FOR_EACH_DEFINED_FUNCTION (node)
    {
      if (!node->has_gimple_body_p () || node->alias || node->thunk)
        continue;
      function *fun = DECL_STRUCT_FUNCTION (node->decl);
      gcond *cond;
      gassign *load;
      tree on = fun ? find_dispatch (fun, &cond, &load) : NULL_TREE;
      cgraph_node *on_node = on ? cgraph_node::get (on) : nullptr;
      if (!on_node || !on_node->has_gimple_body_p ())
        continue;
      copy_of[node] = on_node;
      test_of[node] = { cond, load };
      copies.insert (on_node);
    }

  /* 1: calls in the copies.  */
  for (cgraph_node *on : copies)
    {
      bool changed = false;
      for (cgraph_edge *e = on->callees; e; e = e->next_callee)
        {
          auto it = copy_of.find (e->callee);
          if (it == copy_of.end () || !local_p (e->callee))
            continue;
          cgraph_node *target = it->second;
          e->redirect_callee (target);
          gimple_call_set_fndecl (e->call_stmt, target->decl);
          changed = true;
        }
      if (changed)
        {
          push_cfun (DECL_STRUCT_FUNCTION (on->decl));
          cgraph_edge::rebuild_edges ();
          pop_cfun ();
        }
    }

  /* 2: dispatches no caller needs, once callers without a copy test the
     flag themselves.  */
  for (auto &p : copy_of)
    {
      cgraph_node *g = p.first;
      if (!local_p (g))
        continue;
      bool all = true;
      std::vector<cgraph_edge *> uncopied;
      for (cgraph_edge *e = g->callers; e && all; e = e->next_caller)
        if (!copy_of.count (e->caller) || copies.count (e->caller))
          {
            /* (A copy's calls of G went to G's copy in 1.)  */
            all = !copies.count (e->caller) && splittable_call_p (e);
            uncopied.push_back (e);
          }
      if (all)
        {
          tree flag = gimple_assign_rhs1 (test_of[g].second);
          std::vector<std::pair<cgraph_node *, gcall *>> calls;
          for (cgraph_edge *e : uncopied)
            calls.push_back ({ e->caller, e->call_stmt });
          std::unordered_set<cgraph_node *> callers;
          for (auto &c : calls)
            {
              dispatch_at_call (DECL_STRUCT_FUNCTION (c.first->decl),
                                c.second, p.second, flag);
              callers.insert (c.first);
            }
          for (cgraph_node *c : callers)
            {
              push_cfun (DECL_STRUCT_FUNCTION (c->decl));
              cgraph_edge::rebuild_edges ();
              pop_cfun ();
            }
          drop_dispatch (DECL_STRUCT_FUNCTION (g->decl), test_of[g].first,
                         test_of[g].second);
        }
      /* Where g keeps its dispatch, its copy inlined into it would double
         it: only a small g (GCC may inline it anyway) gets that.  */
      if (all || ppgcc_may_be_inlined_p (g->decl))
        restore_inlining (p.second->decl, g->decl);
    }

  /* 3: the unit's calls of a public g that has a plain copy g.pp_off
     (switch-entry.cc) test the flag themselves, as g's entry would, and
     call g.pp_off or g.pp_on: g.pp_off inlines where a plain build
     inlines g.  Every call, from plain bodies and copies alike, keeps
     g's semantics: counted when profiling is on at the call.  */
  for (auto &p : copy_of)
    {
      cgraph_node *g = p.first;
      tree plain = ppgcc_switch_plain_copy (g->decl);
      cgraph_node *plain_node = plain ? cgraph_node::get (plain) : nullptr;
      if (!plain_node)
        continue;
      /* (Kept until now by switch-entry.cc; unused, GCC removes it.)  */
      plain_node->force_output = false;
      if (local_p (g))
        continue;
      tree flag = gimple_assign_rhs1 (test_of[g].second);
      std::vector<std::pair<cgraph_node *, gcall *>> calls;
      for (cgraph_edge *e = g->callers; e; e = e->next_caller)
        if (splittable_call_p (e))
          calls.push_back ({ e->caller, e->call_stmt });
      std::unordered_set<cgraph_node *> callers;
      for (auto &c : calls)
        {
          dispatch_at_call (DECL_STRUCT_FUNCTION (c.first->decl), c.second,
                            p.second, flag, plain);
          callers.insert (c.first);
        }
      for (cgraph_node *c : callers)
        {
          push_cfun (DECL_STRUCT_FUNCTION (c->decl));
          cgraph_edge::rebuild_edges ();
          pop_cfun ();
        }
      if (ppgcc_may_be_inlined_p (g->decl))
        restore_inlining (p.second->decl, g->decl);
    }
  return 0;
}

const pass_data switch_local_pass_data = {
  SIMPLE_IPA_PASS,
  "ppgcc_switch_local", /* name */
  OPTGROUP_NONE,
  TV_NONE,
  0, /* properties_required */
  0, /* properties_provided */
  0, /* properties_destroyed */
  0, /* todo_flags_start */
  0, /* todo_flags_finish */
};

class switch_local_pass : public simple_ipa_opt_pass
{
public:
  switch_local_pass (gcc::context *ctxt)
      : simple_ipa_opt_pass (switch_local_pass_data, ctxt)
  {
  }
  bool gate (function *) final override { return !seen_error (); }
  unsigned int execute (function *) final override
  {
    return follow_callers ();
  }
};

} // namespace

opt_pass *
ppgcc_new_switch_local_pass ()
{
  return new switch_local_pass (g);
}
