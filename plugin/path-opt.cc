/* -fuse-path-profile without -fprofile-paths: optimise with the profile.

   The path profile was taken at this very pass position, on this CFG (the
   checksum says so), so its block and edge counts map onto the CFG exactly
   (lib/counts.c).  They are installed as GCC's own profile, as if read by
   -fprofile-use: block counts of "precise" quality, edge probabilities
   from the counts, the function's profile status PROFILE_READ.  GCC's
   profile-driven passes (inlining, block reordering, hot/cold splitting,
   unrolling, tracer) then see real counts.  */
#include "plugin.h"

#include "pp/ppd.h"


#include <vector>

/* GCC's hot/cold thresholds come from the run summary of the profile
   (profile_info, normally read from the .gcda files); with a path profile
   there is none, so it is made from the profile: as sum_max the largest
   number of path executions of one function, a bound on the largest block
   count.  */
static void
ensure_summary ()
{
  if (profile_info)
    return;
  profile_info = XCNEW (gcov_summary);
  profile_info->runs = 1;
  profile_info->sum_max = (gcov_type) ppgcc_profile_max_executions ();
}

/* Out-edge probabilities of graph node V from the edge counts; edges whose
   count the profile does not determine share what the others leave.  */
static void
set_probabilities (const ppgcc_cfg &cfg, const std::vector<int> &outs,
                   uint64_t count, const std::vector<uint64_t> &edge_count,
                   const std::vector<char> &known)
{
  uint64_t known_sum = 0;
  int nunknown = 0;
  for (int g : outs)
    {
      if (known[g])
        known_sum += edge_count[g];
      else
        nunknown++;
    }
  uint64_t rest = count > known_sum ? count - known_sum : 0;
  for (int g : outs)
    {
      edge e = cfg.edges[g];
      if (count == 0)
        e->probability = profile_probability::guessed_always ()
                             .apply_scale (1, outs.size ());
      else if (known[g])
        e->probability = profile_probability::probability_in_gcov_type (
            MIN (edge_count[g], count), count);
      else
        e->probability = profile_probability::probability_in_gcov_type (
            rest / nunknown, count);
    }
}

/* Installs the path counts (IDS, COUNTS under numbering N of CFG) as
   GCC's profile of FUN.  */
void
ppgcc_install_path_counts (function *fun, const ppgcc_cfg &cfg,
                           const pp_numbering *n,
                const std::vector<pp_pathid> &ids,
                const std::vector<uint64_t> &counts)
{
  int nn = pp_graph_num_nodes (cfg.graph), ne = pp_graph_num_edges (cfg.graph);
  ppgcc_counts c;
  if (!ppgcc_cfg_counts (cfg, n, ids, counts, c))
    return;
  std::vector<std::vector<int> > outs (nn);
  for (int g = 0; g < ne; g++)
    outs[pp_graph_edge_src (cfg.graph, g)].push_back (g);
  /* gcov_type is signed: counts above its range saturate.  */
  profile_count max = profile_count::zero ();
  for (int v = 0; v < nn; v++)
    {
      uint64_t bc = MIN (c.node[v], (uint64_t) profile_count::max_count);
      cfg.blocks[v]->count = profile_count::from_gcov_type ((gcov_type) bc);
      max = max.max (cfg.blocks[v]->count);
      set_probabilities (cfg, outs[v], c.node[v], c.edge, c.known);
    }
  /* Kept up to date by the profile pass, which -O0 does not run.  */
  fun->cfg->count_max = max;
  profile_status_for_fn (fun) = PROFILE_READ;
  if (cgraph_node *node = cgraph_node::get (fun->decl))
    node->count = ENTRY_BLOCK_PTR_FOR_FN (fun)->count;
}

/* Whether this unit installed any profile: then, once the IPA pass that
   reads .gcda files ("profile") is past, GCC is told that its counts are
   feedback (-fbranch-probabilities), which its IPA passes expect of real
   counts (the inliner asserts it).  Set before that pass, the flag would
   make it look for .gcda files.  */
static bool installed_any;

std::vector<tree> ppgcc_no_crossjumping;

/* A function that keeps differences of its label addresses in static
   storage (a table of `&&l1 - &&l0`, the offsets of a computed goto) must
   stay in one section: split into hot and cold parts, the difference of
   labels in two sections cannot be assembled ("can't resolve .text.hot -
   .L2").  GCC 12 partitions such functions all the same, with
   -fprofile-use as without it, as soon as a block is cold; with the
   path profile's exact zero counts a block that did not run is.  DECL
   gets an option set of its own, without -freorder-blocks-and-partition
   unless PARTITION, without -fcrossjumping and -fgcse unless DISPATCH_OK
   (and with the feedback flag, like the rest of the unit).  */
static void
own_options (tree decl, bool partition, bool dispatch_ok)
{
  tree own = DECL_FUNCTION_SPECIFIC_OPTIMIZATION (decl);
  cl_optimization_restore (&global_options, &global_options_set,
                           TREE_OPTIMIZATION (own ? own
                                                  : optimization_default_node));
  if (!partition)
    global_options.x_flag_reorder_blocks_and_partition = 0;
  if (!dispatch_ok)
    {
      global_options.x_flag_crossjumping = 0;
      global_options.x_flag_gcse = 0;
    }
  global_options.x_flag_branch_probabilities = 1;
  DECL_FUNCTION_SPECIFIC_OPTIMIZATION (decl)
      = build_optimization_node (&global_options, &global_options_set);
  cl_optimization_restore (&global_options, &global_options_set,
                           TREE_OPTIMIZATION (optimization_current_node));
}

/* walk_tree callback: a subtraction with a label's address under it.  */
static tree
label_difference (tree *tp, int *walk_subtrees, void *)
{
  tree t = *tp;
  if (TYPE_P (t))
    {
      *walk_subtrees = 0;
      return NULL_TREE;
    }
  if (TREE_CODE (t) == MINUS_EXPR || TREE_CODE (t) == POINTER_DIFF_EXPR)
    for (int k = 0; k < 2; k++)
      {
        tree op = TREE_OPERAND (t, k);
        while (CONVERT_EXPR_P (op) || TREE_CODE (op) == NON_LVALUE_EXPR)
          op = TREE_OPERAND (op, 0);
        if (TREE_CODE (op) == ADDR_EXPR
            && TREE_CODE (TREE_OPERAND (op, 0)) == LABEL_DECL)
          return t;
      }
  return NULL_TREE;
}

/* Whether a static variable of function DECL holds the difference of
   two of its labels.  A table of label addresses (lua's dispatch table of
   `&&L_OP_MOVE', ...) assembles across sections: such functions keep
   their hot/cold split, as -fprofile-use's builds do.  Unsplit, lua's
   luaV_execute had its dispatch merged back by cross-jumping (3 indirect
   jumps against 36 split): 9 M more instructions on bench/run's lua.  */
static bool
has_static_label_difference (tree decl)
{
  varpool_node *v;
  FOR_EACH_VARIABLE (v)
    if (DECL_CONTEXT (v->decl) == decl && DECL_INITIAL (v->decl)
        && DECL_INITIAL (v->decl) != error_mark_node
        && walk_tree (&DECL_INITIAL (v->decl), label_difference, NULL, NULL))
      return true;
  return false;
}

namespace {

const pass_data feedback_flag_pass_data = {
  SIMPLE_IPA_PASS,
  "ppgcc_feedback", /* name */
  OPTGROUP_NONE,
  TV_NONE,
  0, 0, 0, 0, 0,
};

class feedback_flag_pass : public simple_ipa_opt_pass
{
public:
  feedback_flag_pass (gcc::context *ctxt)
      : simple_ipa_opt_pass (feedback_flag_pass_data, ctxt)
  {
  }
  bool gate (function *) final override { return installed_any; }
  unsigned int execute (function *) final override
  {
    /* In the default optimization node too: switching to a function and
       back restores the options from it (zstd's target attributes).  */
    global_options.x_flag_branch_probabilities = 1;
    optimization_default_node
        = build_optimization_node (&global_options, &global_options_set);
    optimization_current_node = optimization_default_node;
    cgraph_node *node;
    FOR_EACH_FUNCTION (node)
      {
        function *fn = DECL_STRUCT_FUNCTION (node->decl);
        if (fn && fn->has_forced_label_in_static
            && has_static_label_difference (node->decl))
          own_options (node->decl, false, true);
      }
    /* A sampled interpreter's dispatch: -fprofile-use partitions its
       handlers into hot and cold, and cross-jumping merges no code across
       the partitions; sampled counts (not precise) partition nothing, and
       cross-jumping merged lua's duplicated dispatch back (luaV_execute
       with 6 indirect jumps against 106 in a build without counts): the
       recompile from lua's samples ran 5-7 M instructions more of 620 M.
       Nor global CSE, as GCC's manual advises for computed gotos: with
       sampled counts its PRE left an address computation in every copy
       of lua's dispatch (`lea 0x40(%rbx),%rcx`) and the jump table's
       address out of a register.  */
    for (tree decl : ppgcc_no_crossjumping)
      own_options (decl, true, false);
    ppgcc_no_crossjumping.clear ();
    ppgcc_value_transforms ();
    return 0;
  }
};

} // namespace

opt_pass *
ppgcc_new_feedback_pass ()
{
  return new feedback_flag_pass (g);
}

void
ppgcc_use_profile (function *fun)
{
  int sampled = ppgcc_sample_use (fun);
  if (sampled >= 0)
    {
      installed_any |= sampled > 0;
      return;
    }
  const char *fname = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fun->decl));
  ppgcc_cfg cfg;
  char err[256];
  pp_numbering *n = ppgcc_number_cfg (fun, cfg, err, sizeof err);
  if (!n)
    return;
  bool mismatch;
  const ppd_fn *p = ppgcc_profile_function (fun, fname,
                                            ppgcc_cfg_checksum (cfg),
                                            &mismatch);
  if (p)
    {
      /* Before any copy is made: copies take the histograms along.  */
      ppgcc_value_histograms (fun, ppgcc_value_sites (cfg), p);
      std::vector<pp_pathid> ids;
      std::vector<uint64_t> counts;
      ppgcc_executed_paths (p, n, ids, counts);
      /* The contexts that get copies of their own take their paths
         along (context-clone.cc).  */
      ppgcc_context_clones (fun, fname, cfg, n, ids, counts);
      ppgcc_profile_scale_counts (counts);
      ensure_summary ();
      ppgcc_cfg cfg2;
      pp_numbering *n2;
      bool changed = ppgcc_form_superblocks (fun, cfg, n, ids, counts, cfg2,
                                             &n2);
      if (!changed)
        ppgcc_install_path_counts (fun, cfg, n, ids, counts);
      else if (n2)
        ppgcc_install_path_counts (fun, cfg2, n2, ids, counts);
      installed_any = true;
      if (n2)
        pp_numbering_free (n2);
    }
  pp_numbering_free (n);
}
