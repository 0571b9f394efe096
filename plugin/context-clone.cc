/* -fpath-context-clone: a copy of a function per calling context.

   An edge profile, and GCC's inliner, give every inlined copy of a callee
   the callee's average behaviour, scaled to the call: a comparator that is
   almost always true from one caller and almost always false from another
   is 50/50 in both copies.  A context profile (-fprofile-paths=cct, the
   program's .ppc: paths per calling context, PLDI'97 §4) has each
   context's own paths; context-profile.cc reads it beside the unit's
   path profile.

   Contexts are told apart by caller: the paths of F in every context
   whose parent is a context of G are G's context of F (the call sites of
   one caller summed; a site is a return address of the training binary,
   which this compile cannot map to a call).  For each caller whose
   branches in F go otherwise than F's average (a branch of F that is hot
   in the context, taken at least DIVERGENCE more or less often than on
   average), F gets a copy made right after F is lowered, on the very CFG
   the paths were numbered on, with that context's path counts as its
   profile; F keeps the other contexts' paths.  Once the unit is lowered,
   each such caller's calls of F are made calls of its copy.  GCC's
   inliner then weighs each copy by its own counts, and the copies it
   inlines carry their context's probabilities into the caller.

   The copies are GCC's version clones (gimple-copy.cc): the same
   statements, static variables shared, so the program computes what it
   did.  A function that cannot be copied (ppgcc_forwardable_p: variadic,
   setjmp, nonlocal labels, label addresses, ...) keeps one body.  */
#include "plugin.h"

#include <map>

namespace {

/* A context's branch differs when some hot branch of it goes one way
   this much more (or less) often than in the function's average.  */
const double divergence = 0.2;
/* A branch is hot in a context when its block runs at least this share
   of the context's most executed block.  */
const double hot_block_share = 0.05;
/* Contexts colder than this share of the profile's largest function
   (path executions) get no copy, nor functions bigger than
   max_copy_insns (GCC's size estimate); at most max_copies per
   function.  */
const double cold_share = 0.001;
const int max_copy_insns = 400;
const size_t max_copies = 4;

/* The copies made: by caller name, F's decl to its copy's decl; and each
   copy's original name, so that calls in a copy of a caller go by the
   caller's contexts too.  */
std::map<std::string, std::map<tree, tree> > copies_for_caller;
std::map<tree, std::string> copy_origin;

/* Whether the context's counts C take some hot branch at least
   `divergence` more or less often than the average AVG does.  */
bool
diverges (const ppgcc_cfg &cfg, const ppgcc_counts &c,
          const ppgcc_counts &avg)
{
  int ne = pp_graph_num_edges (cfg.graph);
  uint64_t top = 0;
  for (uint64_t x : c.node)
    top = MAX (top, x);
  for (int g = 0; g < ne; g++)
    {
      int v = pp_graph_edge_src (cfg.graph, g);
      if (EDGE_COUNT (cfg.blocks[v]->succs) < 2 || !c.node[v] || !avg.node[v]
          || (double) c.node[v] < hot_block_share * (double) top)
        continue;
      double pc = (double) c.edge[g] / (double) c.node[v];
      double pa = (double) avg.edge[g] / (double) avg.node[v];
      if (pc - pa >= divergence || pa - pc >= divergence)
        return true;
    }
  return false;
}

/* A copy of FUN (CFG numbered N) with the counts of context C.  */
tree
make_copy (function *fun, const ppgcc_cfg &cfg, const pp_numbering *n,
           const ppgcc_context &c)
{
  cgraph_node *node = cgraph_node::get_create (fun->decl);
  /* As switch-entry.cc: F gets call graph edges for the copy to take
     over, and loses them again ("build_cgraph_edges" follows this pass).  */
  cgraph_edge::rebuild_edges ();
  static unsigned serial;
  std::string suffix = "pp_ctx" + std::to_string (serial++);
  cgraph_node *copy = ppgcc_version_clone (node, suffix.c_str ());
  node->remove_callees ();
  node->remove_all_references ();
  if (!copy)
    return NULL_TREE;
  function *cf = DECL_STRUCT_FUNCTION (copy->decl);
  ppgcc_cfg ccfg;
  ccfg.blocks = cfg.blocks;
  ccfg.edges = cfg.edges;
  ccfg.graph = cfg.graph;
  bool mapped = ppgcc_map_copy_cfg (fun, cf, ccfg);
  if (mapped)
    {
      std::vector<uint64_t> counts = c.counts;
      ppgcc_profile_scale_counts (counts);
      push_cfun (cf);
      ppgcc_install_path_counts (cf, ccfg, n, c.ids, counts);
      /* The lowering passes after this one do not run on the copy.  */
      cgraph_edge::rebuild_edges ();
      pop_cfun ();
    }
  ccfg.graph = nullptr; /* CFG's, not ours to free */
  /* Nothing calls the copy until ppgcc_context_redirect: kept until then
     through the removal of unreachable functions that ends the unit's
     analysis.  */
  copy->force_output = 1;
  /* Identical code folding would merge the copies back into F, and
     their profiles into one (ipa_merge_profiles).  */
  DECL_ATTRIBUTES (copy->decl) = tree_cons (get_identifier ("no_icf"),
                                            NULL_TREE,
                                            DECL_ATTRIBUTES (copy->decl));
  if (!mapped)
    {
      copy->remove ();
      return NULL_TREE;
    }
  return copy->decl;
}

} // namespace

void
ppgcc_context_clones (function *fun, const char *name, const ppgcc_cfg &cfg,
                      const pp_numbering *n, std::vector<pp_pathid> &ids,
                      std::vector<uint64_t> &counts)
{
  if (!ppgcc_opts.context_clone || !opt_for_fn (fun->decl, optimize))
    return;
  std::vector<ppgcc_context> ctx
      = ppgcc_contexts_by_caller (name, ppgcc_function_file (fun),
                     ppgcc_cfg_checksum (cfg), n->num_paths);
  /* One caller: its context is the function's own, but for the tests.  */
  if (ctx.size () < 2 - ppgcc_opts.context_clone_all
      || !ppgcc_forwardable_p (fun)
      || estimate_num_insns_fn (fun->decl, &eni_size_weights)
             > max_copy_insns)
    return;
  ppgcc_counts avg;
  if (!ppgcc_cfg_counts (cfg, n, ids, counts, avg))
    return;
  uint64_t cold = (uint64_t) (cold_share
                              * (double) ppgcc_profile_max_executions ());
  /* The copies; the last context to diverge keeps F itself when no
     other context ran F.  */
  std::vector<const ppgcc_context *> chosen;
  for (const ppgcc_context &c : ctx)
    {
      ppgcc_counts cc;
      if (ppgcc_opts.context_clone_all
          || (chosen.size () < max_copies && c.executions > cold
              && ppgcc_cfg_counts (cfg, n, c.ids, c.counts, cc)
              && diverges (cfg, cc, avg)))
        chosen.push_back (&c);
    }
  if (chosen.size () == ctx.size () && !ppgcc_opts.context_clone_all)
    chosen.pop_back ();
  std::map<pp_pathid, uint64_t> rest;
  for (size_t k = 0; k < ids.size (); k++)
    rest[ids[k]] += counts[k];
  for (const ppgcc_context *c : chosen)
    {
      tree copy = make_copy (fun, cfg, n, *c);
      if (!copy)
        continue;
      copies_for_caller[c->caller][fun->decl] = copy;
      copy_origin[copy] = name;
      for (size_t k = 0; k < c->ids.size (); k++)
        {
          uint64_t &r = rest[c->ids[k]];
          r = r > c->counts[k] ? r - c->counts[k] : 0;
        }
      if (ppgcc_opts.opt_info)
        inform (DECL_SOURCE_LOCATION (fun->decl),
                "ppgcc: %qs: a copy for its calls from %qs (%llu of its "
                "path executions)", name, c->caller.c_str (),
                (unsigned long long) c->executions);
    }
  if (copies_for_caller.empty ())
    return;
  ids.clear ();
  counts.clear ();
  for (auto &kv : rest)
    if (kv.second)
      {
        ids.push_back (kv.first);
        counts.push_back (kv.second);
      }
}

void
ppgcc_context_redirect ()
{
  if (copies_for_caller.empty ())
    return;
  for (auto &kv : copy_origin)
    if (cgraph_node *c = cgraph_node::get (kv.first))
      c->force_output = 0;
  cgraph_node *node;
  FOR_EACH_FUNCTION_WITH_GIMPLE_BODY (node)
    {
      auto o = copy_origin.find (node->decl);
      std::string caller
          = o != copy_origin.end ()
                ? o->second
                : IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (node->decl));
      auto it = copies_for_caller.find (caller);
      if (it == copies_for_caller.end ())
        continue;
      function *fun = DECL_STRUCT_FUNCTION (node->decl);
      if (!fun || !fun->cfg)
        continue;
      basic_block bb;
      FOR_EACH_BB_FN (bb, fun)
        for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
             gsi_next (&gsi))
          {
            gcall *call = dyn_cast<gcall *> (gsi_stmt (gsi));
            tree callee = call ? gimple_call_fndecl (call) : NULL_TREE;
            auto c = callee ? it->second.find (callee) : it->second.end ();
            if (c == it->second.end ())
              continue;
            cgraph_node *copy = cgraph_node::get (c->second);
            if (!copy)
              continue;
            gimple_call_set_fndecl (call, c->second);
            if (cgraph_edge *e = node->get_edge (call))
              e->redirect_callee (copy);
          }
    }
}
