/* The inliner sees each function's size without its probes.

   GCC decides what to inline from each function's summary
   (ipa-fnsummary): the size of its statements, the way
   estimate_num_insns counts them.  The probes go in before GCC inlines,
   so they count there too: a small helper that -O2 inlines everywhere
   (lua's index2value, luaH_getshortstr) grew past the limits of the early
   inliner (early-inlining-insns) and of the IPA inliner
   (max-inline-insns-single / -auto), stayed out of line, and each call
   then cost its call, its prologue and its own path end.  Raising the
   limits for a whole unit by its probes' share inlined other functions
   that -O2 leaves out of line (bzip2's mainGtU).

   So after GCC summarises a function small enough to be inlined at more
   than one call (at most max-inline-insns-single without its probes),
   the size of its probe statements is taken out of the summary, and the
   inliner weighs the function as the plain build's would be.  Twice: after each local summary (what the
   early inliner weighs, pass local-fnsummary), and once the IPA summaries
   are computed again for the IPA inliner (pass fnsummary).  Probe
   statements are those that read or write the probes' own variables
   (names starting "__pp_") or temporaries ("pp_"), and calls to the
   runtime ("__pp_").  The size comes off the unconditional entry of the
   summary first, then off the others in order, none below zero; the
   overall size is then summed again (ipa_update_overall_fn_summary).
   Their estimated time (the time weights of their statements by their
   blocks' frequencies) comes off the same way: left in, it made inlining
   look less worth it in some places and pushed the greedy inliner's
   order elsewhere.  */
#include "plugin.h"

static bool
named_pp (tree t, const char *prefix)
{
  tree id = NULL_TREE;
  if (!t)
    return false;
  if (TREE_CODE (t) == SSA_NAME)
    id = SSA_NAME_IDENTIFIER (t);
  else if (DECL_P (t))
    id = DECL_NAME (t);
  return id && !strncmp (IDENTIFIER_POINTER (id), prefix, strlen (prefix));
}

static tree
probe_operand_cb (tree *tp, int *walk_subtrees, void *)
{
  tree t = *tp;
  if (TYPE_P (t))
    {
      *walk_subtrees = 0;
      return NULL_TREE;
    }
  if (named_pp (t, "__pp_") || named_pp (t, "pp_"))
    return t;
  return NULL_TREE;
}

/* Whether STMT belongs to the probes.  */
static bool
probe_stmt_p (gimple *stmt)
{
  if (is_gimple_debug (stmt))
    return false;
  if (is_gimple_call (stmt))
    {
      tree fn = gimple_call_fndecl (stmt);
      return fn && named_pp (fn, "__pp_");
    }
  if (!is_gimple_assign (stmt) && gimple_code (stmt) != GIMPLE_COND)
    return false;
  for (unsigned i = 0; i < gimple_num_ops (stmt); i++)
    {
      tree op = gimple_op (stmt, i);
      if (op && walk_tree (&op, probe_operand_cb, NULL, NULL))
        return true;
    }
  return false;
}

/* The probes' size and time in FUN, as the summary counts statements
   (time weighted by the block's frequency relative to the entry).  */
static int
probe_size (function *fun, sreal *time)
{
  int size = 0;
  *time = 0;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    {
      sreal freq = bb->count.to_sreal_scale (ENTRY_BLOCK_PTR_FOR_FN (fun)->count);
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
           gsi_next (&gsi))
        if (probe_stmt_p (gsi_stmt (gsi)))
          {
            size += estimate_num_insns (gsi_stmt (gsi), &eni_size_weights);
            *time += freq * estimate_num_insns (gsi_stmt (gsi),
                                                &eni_time_weights);
          }
    }
  return size;
}

static void
discount_probes (cgraph_node *node, function *fun)
{
  if (!ipa_fn_summaries || !ipa_size_summaries || !node)
    return;
  ipa_fn_summary *s = ipa_fn_summaries->get (node);
  ipa_size_summary *ss = ipa_size_summaries->get (node);
  if (!s || !ss || s->size_time_table.is_empty ())
    return;
  sreal time;
  int size = probe_size (fun, &time);
  if (size <= 0)
    return;
  /* Only a function the limits could let in weighs without its probes:
     at most max-inline-insns-single (70 at -O2) without them.  A larger
     one is inlined only where it is called once, whatever its probes;
     discounted, it shrank the unit that inline-unit-growth is a share of,
     and mujs (one unit, at that limit even at -O2) then had no room for
     its small helpers: stackidx stayed out of line.  bench/run against
     discounting every function (cg inputs): mujs 731.1 -> 719.9 M
     instructions, its binary 612,522 -> 630,170 bytes of text+data; the
     seven others within 0.1 M.  */
  if (ss->size - size > opt_for_fn (node->decl, param_max_inline_insns_single))
    return;
  int left = size * ipa_fn_summary::size_scale;
  /* Every condition may hold but "not inlined": an entry false then (the
     return, the call's own overhead) is dropped where the function is
     inlined, and a discount taken from it would be lost there.  stackidx
     in mujs lost 2 of its 5 probe units that way, and js_iscallable,
     with stackidx inlined, then missed max-inline-insns-auto in js_call
     (5.6 M instructions of calls in the cg input).  */
  const clause_t inlined
      = ~(clause_t) ((1 << ipa_predicate::false_condition)
                     | (1 << ipa_predicate::not_inlined_condition));
  for (unsigned i = 0; i < s->size_time_table.length (); i++)
    {
      size_time_entry &e = s->size_time_table[i];
      if (!e.exec_predicate.evaluate (inlined))
        continue;
      int take = MIN (left, e.size);
      if (take > 0)
        {
          e.size -= take;
          left -= take;
        }
      sreal take_time = time < e.time ? time : e.time;
      if (take_time > 0)
        {
          e.time -= take_time;
          time -= take_time;
        }
    }
  int taken = size - left / ipa_fn_summary::size_scale;
  ss->self_size = MAX (ss->self_size - taken, 0);
  ipa_update_overall_fn_summary (node);
  ss->self_size = ss->size;
  if (dump_file)
    fprintf (dump_file, "ppgcc: %s: probes' size %d taken out of the "
             "summary (%d left)\n", node->dump_name (), taken, ss->size);
}

namespace
{
const pass_data early_pass_data = {
  GIMPLE_PASS,
  "ppgcc_inline_size",
  OPTGROUP_NONE,
  TV_NONE,
  PROP_cfg,
  0,
  0,
  0,
  0,
};

class early_pass : public gimple_opt_pass
{
public:
  early_pass (gcc::context *ctxt) : gimple_opt_pass (early_pass_data, ctxt) {}
  opt_pass *clone () final override { return new early_pass (m_ctxt); }
  bool gate (function *) final override { return !seen_error (); }
  unsigned int execute (function *fun) final override
  {
    discount_probes (cgraph_node::get (fun->decl), fun);
    return 0;
  }
};

const pass_data ipa_pass_data = {
  IPA_PASS,
  "ppgcc_ipa_inline_size",
  OPTGROUP_NONE,
  TV_NONE,
  0,
  0,
  0,
  0,
  0,
};

class ipa_pass : public ipa_opt_pass_d
{
public:
  ipa_pass (gcc::context *ctxt)
      : ipa_opt_pass_d (ipa_pass_data, ctxt, NULL, NULL, NULL, NULL, NULL,
                        NULL, 0, NULL, NULL)
  {
  }
  bool gate (function *) final override { return !seen_error (); }
  unsigned int execute (function *) final override
  {
    cgraph_node *node;
    FOR_EACH_DEFINED_FUNCTION (node)
      {
        if (node->alias || node->thunk || node->inlined_to)
          continue;
        /* IPA-CP's and IPA-SRA's clones (".constprop", ".isra") have no
           body yet: GCC gives them one after inlining.  Their summaries
           are copies made before this pass; their probes are those of
           the body they are cloned from.  Left as they were, a split
           part's ISRA clone (lua's hashint.part.0.isra) weighed 3 more
           than -O2's, and hashint stayed out of line in luaH_getint.  */
        cgraph_node *body = node;
        while (body && !gimple_has_body_p (body->decl))
          body = body->clone_of;
        if (!body)
          continue;
        function *fun = DECL_STRUCT_FUNCTION (body->decl);
        if (!fun || !fun->cfg)
          continue;
        push_cfun (fun);
        discount_probes (node, fun);
        pop_cfun ();
      }
    return 0;
  }
};
} // namespace

opt_pass *
ppgcc_new_early_inline_size_pass ()
{
  return new early_pass (g);
}

opt_pass *
ppgcc_new_ipa_inline_size_pass ()
{
  return new ipa_pass (g);
}
