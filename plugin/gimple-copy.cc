/* Copying GIMPLE blocks before SSA form (superblocks, switchable clones).

   This plugin's pass runs before into-SSA, so GCC's duplicate_block, which
   wants SSA form, is no use; a copy here is the block's statements (labels
   aside: the CFG's edges are the jumps now).  The gimplifier's temporaries
   are SSA names already, though, each with its one definition: a copy
   defines fresh ones, which only works for temporaries used in the block
   that defines them.  Temporaries live across blocks can be made ordinary
   variables first (ppgcc_localise_names), which into-SSA then renames.  */
#include "plugin.h"


/* Whether operand I of STMT is the SSA name STMT defines (every other
   operand, a store's address included, holds uses).  */
static bool
defined_name_p (gimple *stmt, unsigned i)
{
  tree op = gimple_op (stmt, i);
  return !op || (TREE_CODE (op) == SSA_NAME && op == gimple_get_lhs (stmt));
}

namespace {

/* walk_tree callback: replaces the SSA names of the map in DATA.  */
tree
rename_use (tree *tp, int *walk_subtrees, void *data)
{
  auto *names = static_cast<std::unordered_map<tree, tree> *> (data);
  if (TREE_CODE (*tp) == SSA_NAME)
    {
      auto it = names->find (*tp);
      if (it != names->end ())
        *tp = it->second;
      *walk_subtrees = 0;
    }
  else if (TYPE_P (*tp))
    *walk_subtrees = 0;
  return NULL_TREE;
}

/* Where ppgcc_foreign_names is looking.  */
struct use_scan
{
  basic_block bb;
  std::unordered_set<tree> *out;
};

tree
note_foreign_use (tree *tp, int *walk_subtrees, void *data)
{
  auto *scan = static_cast<use_scan *> (data);
  if (TREE_CODE (*tp) == SSA_NAME)
    {
      gimple *def = SSA_NAME_DEF_STMT (*tp);
      if (!def || gimple_bb (def) != scan->bb)
        scan->out->insert (*tp);
      *walk_subtrees = 0;
    }
  else if (TYPE_P (*tp))
    *walk_subtrees = 0;
  return NULL_TREE;
}

} // namespace

void
ppgcc_rename_uses (gimple *stmt, std::unordered_map<tree, tree> &names)
{
  for (unsigned i = 0; i < gimple_num_ops (stmt); i++)
    if (!defined_name_p (stmt, i))
      walk_tree (gimple_op_ptr (stmt, i), rename_use, &names, NULL);
}

void
ppgcc_foreign_names (function *fun, std::unordered_set<tree> &out)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    {
      use_scan scan = { bb, &out };
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
           gsi_next (&gsi))
        {
          gimple *stmt = gsi_stmt (gsi);
          for (unsigned i = 0; i < gimple_num_ops (stmt); i++)
            if (!defined_name_p (stmt, i))
              walk_tree (gimple_op_ptr (stmt, i), note_foreign_use, &scan,
                         NULL);
        }
    }
}

void
ppgcc_localise_names (function *fun, const std::unordered_set<tree> &names)
{
  if (names.empty ())
    return;
  std::unordered_map<tree, tree> vars;
  for (tree name : names)
    vars[name] = create_tmp_reg (TREE_TYPE (name), "pp_tmp");
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      {
        gimple *stmt = gsi_stmt (gsi);
        tree lhs = gimple_get_lhs (stmt);
        ppgcc_rename_uses (stmt, vars);
        auto it = lhs && TREE_CODE (lhs) == SSA_NAME ? vars.find (lhs)
                                                      : vars.end ();
        if (it != vars.end ())
          gimple_set_lhs (stmt, it->second);
      }
}

basic_block
ppgcc_copy_stmts (basic_block bb, basic_block after,
                  std::unordered_map<tree, tree> &names)
{
  basic_block copy = create_empty_bb (after);
  gimple_stmt_iterator to = gsi_start_bb (copy);
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    {
      gimple *stmt = gsi_stmt (gsi);
      if (gimple_code (stmt) == GIMPLE_LABEL)
        continue;
      gimple *c = gimple_copy (stmt);
      ppgcc_rename_uses (c, names);
      tree lhs = gimple_get_lhs (stmt);
      if (lhs && TREE_CODE (lhs) == SSA_NAME)
        {
          tree fresh = make_ssa_name (TREE_TYPE (lhs), c);
          gimple_set_lhs (c, fresh);
          names[lhs] = fresh;
        }
      gsi_insert_after (&to, c, GSI_NEW_STMT);
      maybe_duplicate_eh_stmt (c, stmt);
    }
  return copy;
}

basic_block
ppgcc_copy_block (basic_block bb, edge e, basic_block after)
{
  std::unordered_map<tree, tree> names;
  basic_block copy = ppgcc_copy_stmts (bb, after, names);
  if (current_loops)
    add_bb_to_loop (copy, bb->loop_father);
  edge s;
  edge_iterator ei;
  FOR_EACH_EDGE (s, ei, bb->succs)
    make_edge (copy, s->dest, s->flags)->probability = s->probability;
  redirect_edge_and_branch (e, copy);
  return copy;
}

bool
ppgcc_copyable_cfg_p (function *fun, const pp_numbering *n, int edge_flags)
{
  if (n->num_cuts)
    return false;
  basic_block bb;
  FOR_ALL_BB_FN (bb, fun)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
        if (e->flags & (EDGE_COMPLEX | edge_flags))
          return false;
      /* asm goto names its targets by label.  */
      gimple_stmt_iterator gsi = gsi_last_bb (bb);
      if (!gsi_end_p (gsi))
        if (gasm *a = dyn_cast<gasm *> (gsi_stmt (gsi)))
          if (gimple_asm_nlabels (a))
            return false;
    }
  return true;
}

/* Versioning expects the unit's early debug information to exist: it
   tells the debug hooks that the original is "outlined"
   (dwarf2out_abstract_function, which asserts that the original has a
   DIE) and marks the original DECL_POSSIBLY_INLINED, which makes early
   debug take it for an abstract instance whose DIE is already there.
   While the unit is lowered, where switch-entry.cc copies functions, early
   debug has not run, and with -g every copy was an internal compiler
   error (dwarf2out.cc, gcc_assert (old_die != NULL)), in the pass and
   then in early debug.  So before early debug neither happens: early
   debug then gives the original its DIE and the copy a concrete one whose
   abstract origin is the original, as for any clone.  */
cgraph_node *
ppgcc_version_clone (cgraph_node *node, const char *suffix)
{
  bool before_early_debug = symtab->state == CONSTRUCTION;
  bool possibly_inlined = DECL_POSSIBLY_INLINED (node->decl);
  const gcc_debug_hooks *saved = debug_hooks;
  if (before_early_debug)
    debug_hooks = &do_nothing_debug_hooks;
  cgraph_node *copy = node->create_version_clone_with_body (
      vNULL, NULL, NULL, NULL, NULL, suffix, NULL_TREE, false);
  debug_hooks = saved;
  if (before_early_debug)
    DECL_POSSIBLY_INLINED (node->decl) = possibly_inlined;
  return copy;
}
