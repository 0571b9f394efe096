/* Switchable profiling, =entry: copying a threaded-code interpreter.

   An interpreter written for GCC's labels as values keeps its labels'
   addresses in a static table and jumps through it (lua's luaV_execute:
   `static const void *const disptab[] = { &&L_OP_MOVE, ... };` and
   `goto *disptab[op];`).  GCC refuses to copy such a function
   (copy_forbidden: "it saves address of local label in a static
   variable"): a copy reading the same table would jump into the
   original.  Left with one body (=check), lua's interpreter loop paid
   its path registers and a flag test at every path end while profiling
   was off: 52 M instructions of lua's 101 M over -O2.

   When the tables are the only way the function takes its labels'
   addresses, and its only use of a table is `x = table[i]; goto x;`, no
   label address leaves an activation (none is stored, compared or
   returned): the copy can have tables of its own, holding its own
   labels.  GCC's documentation allows a copy's labels to have other
   addresses ("&&foo for the same label might have different values if the
   containing function is inlined or cloned").  */
#include "plugin.h"

#include <algorithm>

namespace {

/* The function-local static variable *TP, when its initializer holds a
   label's address, else null.  */
tree
label_table (tree t, function *fun)
{
  if (!VAR_P (t) || !TREE_STATIC (t) || DECL_CONTEXT (t) != fun->decl
      || !DECL_INITIAL (t) || TREE_CODE (DECL_INITIAL (t)) != CONSTRUCTOR)
    return NULL_TREE;
  auto has_label = [] (tree *tp, int *, void *) -> tree {
    return TREE_CODE (*tp) == LABEL_DECL ? *tp : NULL_TREE;
  };
  return walk_tree_without_duplicates (&DECL_INITIAL (t), has_label, nullptr)
             ? t : NULL_TREE;
}

struct scan
{
  function *fun;
  bool label_address;             /* &&L in a statement */
  std::vector<tree> tables;       /* tables the statement reads */
  std::unordered_map<tree, int> *names;  /* SSA names' occurrences */
};

tree
scan_op (tree *tp, int *walk_subtrees, void *data)
{
  scan *s = static_cast<scan *> (data);
  if (TREE_CODE (*tp) == ADDR_EXPR
      && TREE_CODE (TREE_OPERAND (*tp, 0)) == LABEL_DECL)
    s->label_address = true;
  else if (tree t = label_table (*tp, s->fun))
    s->tables.push_back (t);
  else if (TREE_CODE (*tp) == SSA_NAME)
    (*s->names)[*tp]++;
  if (TYPE_P (*tp) || DECL_P (*tp))
    *walk_subtrees = 0;
  return NULL_TREE;
}

/* Whether STMT, which reads a label table, is the gimplifier's
   `goto *table[i]`: `_1 = table[i];` followed by `goto _1;` or, where
   GCC factored its computed gotos into one block, by `gotovar = _1;`
   (the compiler's variable, read only by that block's goto).  The
   temporary _1 is checked to have that one use once every statement was
   scanned (*LOADS).  */
bool
dispatch_load_p (gimple *stmt, const std::vector<tree> &tables,
                 std::vector<tree> *loads)
{
  if (tables.size () != 1 || !gimple_assign_single_p (stmt))
    return false;
  tree rhs = gimple_assign_rhs1 (stmt), lhs = gimple_assign_lhs (stmt);
  if (TREE_CODE (rhs) != ARRAY_REF || TREE_OPERAND (rhs, 0) != tables[0]
      || TREE_CODE (lhs) != SSA_NAME)
    return false;
  gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
  gsi_next_nondebug (&gsi);
  if (gsi_end_p (gsi))
    return false;
  gimple *next = gsi_stmt (gsi);
  loads->push_back (lhs);
  if (ggoto *g = dyn_cast<ggoto *> (next))
    return gimple_goto_dest (g) == lhs;
  if (!gimple_assign_single_p (next) || gimple_assign_rhs1 (next) != lhs)
    return false;
  tree v = gimple_assign_lhs (next);
  if (!VAR_P (v) || !DECL_ARTIFICIAL (v) || !DECL_NAME (v)
      || strncmp (IDENTIFIER_POINTER (DECL_NAME (v)), "gotovar", 7))
    return false;
  gsi_next_nondebug (&gsi);
  if (!gsi_end_p (gsi) || !single_succ_p (gimple_bb (next)))
    return false;
  gimple *g = last_nondebug_stmt (single_succ (gimple_bb (next)));
  return g && gimple_code (g) == GIMPLE_GOTO
         && gimple_goto_dest (g) == v;
}

/* FUN's label tables, each read only by a computed goto's load; false if
   FUN takes a label's address otherwise, or reads a table otherwise.  */
bool
find_tables (function *fun, std::vector<tree> *tables)
{
  std::unordered_map<tree, int> names;
  std::vector<tree> loads;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      {
        gimple *stmt = gsi_stmt (gsi);
        if (is_gimple_debug (stmt))
          continue;
        scan s = { fun, false, {}, &names };
        for (unsigned i = 0; i < gimple_num_ops (stmt); i++)
          if (gimple_op (stmt, i))
            walk_tree (gimple_op_ptr (stmt, i), scan_op, &s, nullptr);
        if (s.label_address)
          return false;
        if (s.tables.empty ())
          continue;
        if (!dispatch_load_p (stmt, s.tables, &loads))
          return false;
        if (tables
            && std::find (tables->begin (), tables->end (), s.tables[0])
                   == tables->end ())
          tables->push_back (s.tables[0]);
      }
  /* Each load's temporary: its definition and the one use.  */
  for (tree l : loads)
    if (names[l] != 2)
      return false;
  return true;
}

} // namespace

bool
ppgcc_label_tables_only_p (function *fun)
{
  return fun->has_forced_label_in_static && !fun->has_nonlocal_label
         && !fun->calls_setjmp && find_tables (fun, nullptr);
}

ppgcc_allow_copy::ppgcc_allow_copy (function *fun, bool allow)
    : fun (allow ? fun : nullptr)
{
  if (!this->fun)
    return;
  fun->has_forced_label_in_static = 0;
  /* (copy_forbidden caches its answer.)  */
  fun->cannot_be_copied_set = 0;
}

ppgcc_allow_copy::~ppgcc_allow_copy ()
{
  if (!fun)
    return;
  fun->has_forced_label_in_static = 1;
  fun->cannot_be_copied_set = 0;
}

bool
ppgcc_copy_label_tables (function *fun, function *copy)
{
  std::vector<tree> tables;
  if (!find_tables (fun, &tables))
    return false;
  /* The copy's labels: block by block, in order (the versioning copies
     the block chain in order; an empty block it may add after the entry
     has no label).  */
  std::unordered_map<tree, tree> label_of;
  basic_block extra = nullptr;
  if (n_basic_blocks_for_fn (copy) == n_basic_blocks_for_fn (fun) + 1
      && single_succ_p (ENTRY_BLOCK_PTR_FOR_FN (copy)))
    extra = single_succ (ENTRY_BLOCK_PTR_FOR_FN (copy));
  basic_block a = ENTRY_BLOCK_PTR_FOR_FN (fun)->next_bb;
  basic_block b = ENTRY_BLOCK_PTR_FOR_FN (copy)->next_bb;
  for (; a != EXIT_BLOCK_PTR_FOR_FN (fun); a = a->next_bb, b = b->next_bb)
    {
      if (b == extra)
        b = b->next_bb;
      if (b == EXIT_BLOCK_PTR_FOR_FN (copy))
        return false;
      gimple_stmt_iterator ga = gsi_start_bb (a), gb = gsi_start_bb (b);
      for (; !gsi_end_p (ga); gsi_next (&ga), gsi_next (&gb))
        {
          glabel *la = dyn_cast<glabel *> (gsi_stmt (ga));
          if (!la)
            break;
          glabel *lb = gsi_end_p (gb) ? nullptr
                                      : dyn_cast<glabel *> (gsi_stmt (gb));
          tree x = gimple_label_label (la), y = lb ? gimple_label_label (lb)
                                                   : NULL_TREE;
          if (!y || FORCED_LABEL (x) != FORCED_LABEL (y)
              || DECL_NAME (x) != DECL_NAME (y))
            return false;
          label_of[x] = y;
        }
    }
  std::unordered_map<tree, tree> table_of;
  for (tree t : tables)
    {
      if (DECL_RTL_SET_P (t))
        return false;
      tree init = unshare_expr (DECL_INITIAL (t));
      bool ok = true;
      auto remap = [&] (tree *tp) {
        if (TREE_CODE (*tp) != LABEL_DECL)
          return;
        auto it = label_of.find (*tp);
        if (it == label_of.end ())
          ok = false;
        else
          *tp = it->second;
      };
      auto walk = [] (tree *tp, int *walk_subtrees, void *data) -> tree {
        (*static_cast<decltype (remap) *> (data)) (tp);
        if (TYPE_P (*tp) || DECL_P (*tp))
          *walk_subtrees = 0;
        return NULL_TREE;
      };
      walk_tree (&init, walk, &remap, nullptr);
      if (!ok)
        return false;
      tree nt = copy_node (t);
      DECL_CONTEXT (nt) = copy->decl;
      DECL_INITIAL (nt) = init;
      SET_DECL_ASSEMBLER_NAME (nt, NULL_TREE);
      add_local_decl (copy, nt);
      varpool_node::finalize_decl (nt);
      table_of[t] = nt;
    }
  /* A load at a constant index may have been folded while the body was
     copied, into the address of the original's label (`goto
     *table[1]` became `&&L`: at -O0 and -O1, a generated program's
     copy jumped into the original function and recursed without end).
     Such addresses become the copy's label's.  */
  auto own_label = [] (tree *tp, int *walk_subtrees, void *data) -> tree {
    auto *labels = static_cast<std::unordered_map<tree, tree> *> (data);
    if (TREE_CODE (*tp) == ADDR_EXPR
        && TREE_CODE (TREE_OPERAND (*tp, 0)) == LABEL_DECL)
      {
        auto it = labels->find (TREE_OPERAND (*tp, 0));
        if (it != labels->end ())
          *tp = build_fold_addr_expr (it->second);
      }
    if (TYPE_P (*tp) || DECL_P (*tp))
      *walk_subtrees = 0;
    return NULL_TREE;
  };
  FOR_EACH_BB_FN (b, copy)
    for (gimple_stmt_iterator gsi = gsi_start_bb (b); !gsi_end_p (gsi);
         gsi_next (&gsi))
      {
        gimple *stmt = gsi_stmt (gsi);
        if (gimple_assign_single_p (stmt))
          {
            tree rhs = gimple_assign_rhs1 (stmt);
            if (TREE_CODE (rhs) == ARRAY_REF)
              {
                auto it = table_of.find (TREE_OPERAND (rhs, 0));
                if (it != table_of.end ())
                  TREE_OPERAND (rhs, 0) = it->second;
              }
          }
        if (!is_gimple_debug (stmt))
          for (unsigned i = 0; i < gimple_num_ops (stmt); i++)
            if (gimple_op (stmt, i))
              walk_tree (gimple_op_ptr (stmt, i), own_label, &label_of,
                         nullptr);
      }
  copy->has_forced_label_in_static = 1;
  copy->cannot_be_copied_set = 0;
  return true;
}
