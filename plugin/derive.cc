/* Derived counts: one-path local functions without probes.

   A local function with one Ball-Larus path runs that path once per call.
   When every call to it is a direct call from an instrumented function of
   the unit, its count is the number of executions of those call sites'
   blocks, which the callers' path counts give exactly: its probe tells
   nothing they do not.  In zstd 68% of path executions were
   such helpers' (MEM_read32, ZSTD_hash5, intrinsics inlined everywhere),
   and their probes kept ZSTD_hash5Ptr and ZSTD_count out of line where
   -O2 inlines them.

   Each function records, while it is instrumented, its calls to local
   functions with the graph node of each (ppgcc_record_local_calls).  Once
   the whole unit is lowered and GCC's call graph is built, before any
   inlining (PLUGIN_ALL_IPA_PASSES_START), ppgcc_derive_counts takes the
   probes out of each candidate whose callers are all known and adds a
   `caller` line per call site to its metadata; its descriptor says
   PP_FN_DERIVED and has no counters.  Readers derive the count
   (lib/derive.c).

   A call whose caller's path never finishes (a callee, not declared
   noreturn, exits or longjmps past the caller after the call) is not
   counted, as the caller's path is not: the helper's count then agrees
   with its callers' paths rather than with the probe it would have had.  */
#include "plugin.h"

#include "pp/rt_abi.h"

#include <map>

/* Calls to functions that are not public may be calls to a derived one:
   remembered with their node, before the probes change the blocks.  */
void
ppgcc_record_local_calls (const ppgcc_cfg &cfg, ppgcc_fn &fn)
{
  for (size_t v = 0; v < cfg.blocks.size (); v++)
    {
      basic_block bb = cfg.blocks[v];
      if (!bb)
        continue;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
           gsi_next (&gsi))
        {
          gimple *stmt = gsi_stmt (gsi);
          if (!is_gimple_call (stmt))
            continue;
          tree callee = gimple_call_fndecl (stmt);
          if (callee && !TREE_PUBLIC (callee))
            fn.local_calls.push_back (
                { stmt, pp_graph_node_name (cfg.graph, (int) v) });
        }
    }
}

/* Whether FUN, numbered N and counting as FN says, could be derived: one
   path counted in its own array by plain probes, local, no setjmp.  Its
   callers decide (ppgcc_derive_counts).  */
bool
ppgcc_derive_candidate_p (function *fun, const pp_numbering *n,
                          const ppgcc_fn &fn)
{
  tree decl = fun->decl;
  return ppgcc_opts.derive && n->num_paths == 1 && !n->num_cuts
         && fn.counters && !fn.ppp_ids && !fn.count_guard && !fn.metrics
         && !ppgcc_opts.cct && !ppgcc_opts.nmetrics
         && ppgcc_opts.switching == ppgcc_options::SWITCH_NONE
         && ppgcc_opts.ipp == ppgcc_options::IPP_NONE
         && !TREE_PUBLIC (decl) && !DECL_EXTERNAL (decl)
         && !DECL_STATIC_CONSTRUCTOR (decl) && !DECL_STATIC_DESTRUCTOR (decl)
         && !DECL_PRESERVE_P (decl) && !fun->calls_setjmp
         && !fun->has_nonlocal_label;
}

/* The `caller` lines of FN's metadata when every call to it is a known
   call site of an instrumented function (BY_DECL: ppgcc_fns by
   function), else false.  */
static bool
caller_lines (const ppgcc_fn &fn, const std::map<tree, size_t> &by_decl,
              std::string &lines)
{
  cgraph_node *node = cgraph_node::get (fn.decl);
  ipa_ref *ref = NULL;
  /* Its address taken, an alias of it: calls that are no edges.  (Not
     force_output: at -O0 every static function has it, to be emitted;
     `used' ones are no candidates.)  */
  if (!node || !gimple_has_body_p (fn.decl) || node->address_taken
      || node->iterate_referring (0, ref) || node->alias
      || node->ifunc_resolver
      || lookup_attribute ("externally_visible", DECL_ATTRIBUTES (fn.decl)))
    return false;
  char buf[32];
  for (cgraph_edge *e = node->callers; e; e = e->next_caller)
    {
      auto it = by_decl.find (e->caller->decl);
      if (e->caller->decl == fn.decl || it == by_decl.end ()
          || !e->call_stmt)
        return false;
      const ppgcc_fn &caller = ppgcc_fns[it->second];
      const std::string *block = nullptr;
      for (const auto &call : caller.local_calls)
        if (call.first == e->call_stmt)
          block = &call.second;
      if (!block)
        return false;
      snprintf (buf, sizeof buf, " 0x%08x ", caller.checksum);
      lines += "caller " + caller.name + buf + *block + "\n";
    }
  return true;
}

/* Takes FN's count out, with what GCC's call graph recorded of it (the
   counters' loads and stores, the atomic add's call).  */
static void
remove_count (ppgcc_fn &fn)
{
  cgraph_node *node = cgraph_node::get (fn.decl);
  push_cfun (DECL_STRUCT_FUNCTION (fn.decl));
  for (gimple *stmt : fn.count_stmts)
    {
      node->remove_stmt_references (stmt);
      if (cgraph_edge *e = node->get_edge (stmt))
        cgraph_edge::remove (e);
      gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
      gsi_remove (&gsi, true);
    }
  pop_cfun ();
  fn.count_stmts.clear ();
  fn.counters = NULL_TREE;
  fn.flags |= PP_FN_DERIVED;
}

void
ppgcc_derive_counts ()
{
  std::map<tree, size_t> by_decl;
  for (size_t i = 0; i < ppgcc_fns.size (); i++)
    if (ppgcc_fns[i].decl)
      by_decl[ppgcc_fns[i].decl] = i;
  for (ppgcc_fn &fn : ppgcc_fns)
    {
      std::string lines;
      if (!fn.derive_candidate || fn.count_stmts.empty ()
          || !caller_lines (fn, by_decl, lines))
        continue;
      remove_count (fn);
      fn.meta += lines;
      if (ppgcc_opts.opt_info)
        inform (DECL_SOURCE_LOCATION (fn.decl),
                "ppgcc: %s: one path, counted from the paths of its "
                "callers (no probe)", fn.name.c_str ());
    }
  for (ppgcc_fn &fn : ppgcc_fns)
    {
      fn.count_stmts.clear ();
      fn.local_calls.clear ();
    }
}
