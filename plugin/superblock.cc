/* Path-based superblock formation (thesis §2.3.1; §5.5.2, after Young and
   Smith's path-profile-guided trace selection).

   The hot paths of a function, taken from the path profile rather than
   from edge probabilities, become traces; each block of a trace that has a
   side entrance is tail-duplicated, so that the trace is entered only at
   its head: a superblock.  GCC then lays out and schedules each superblock
   as straight-line code.  Because the profile is a path profile, the
   counts of the duplicated code are exact, not a split by probabilities:
   every profiled path is followed through the new CFG, renumbered, and the
   counts are recomputed from the paths (lib/counts.c).

   What is left alone: loop headers and blocks where paths start afresh
   (duplicating them would make loops with several entries), blocks GCC
   cannot duplicate, blocks that call a function, the joins of selects in
   innermost loops with one exit (left to GCC's if-conversion and
   vectoriser), the return block of a function declared inline, loop
   latches that join hot paths, and functions with
   abnormal or EH edges, irreducible loops or cut paths.  Growth is bounded by -fpath-superblock-growth (a
   percentage of the function's size); paths colder than the
   -fpath-superblock-hot share of the function's executions are not
   traces, and functions with fewer than that share of the hottest
   function's path executions get none.  */
#include "plugin.h"


#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace {

struct former
{
  function *fun;
  const ppgcc_cfg &cfg;
  const pp_numbering *n;
  std::unordered_map<edge, int> orig_edge;         /* to the first CFG's */
  std::unordered_map<basic_block, int> orig_node;  /* likewise */
  std::unordered_set<tree> foreign;                /* ppgcc_foreign_names */
  long size = 0, grown = 0, budget = 0;
  int superblocks = 0, duplicated = 0;
  std::vector<bool> select_join_in_counted_loop;   /* by first-CFG block */
  /* The profiled paths' executions along each first-CFG edge, and into
     each first-CFG block.  */
  std::vector<uint64_t> edge_runs, block_runs;

  former (function *f, const ppgcc_cfg &c, const pp_numbering *num)
      : fun (f), cfg (c), n (num)
  {
    for (size_t g = 0; g < cfg.edges.size (); g++)
      orig_edge[cfg.edges[g]] = (int) g;
    for (size_t v = 0; v < cfg.blocks.size (); v++)
      orig_node[cfg.blocks[v]] = (int) v;
    ppgcc_foreign_names (f, foreign);
    /* Before any copy: the loop tree does not know the copies.  */
    for (size_t v = 0; v < cfg.blocks.size (); v++)
      select_join_in_counted_loop.push_back (
          counted_loop_p (cfg.blocks[v]) && select_join_p (cfg.blocks[v]));
  }

  /* CUR's out-edge that stands for the first CFG's edge G, or null.  */
  edge
  out_edge (basic_block cur, int g)
  {
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE (e, ei, cur->succs)
      {
        auto it = orig_edge.find (e);
        if (it != orig_edge.end () && it->second == g)
          return e;
      }
    return nullptr;
  }

  /* Whether BB lies in an innermost loop left by one edge only (a loop
     that runs to its count, as far as the CFG shows).  */
  static bool
  counted_loop_p (basic_block bb)
  {
    if (!current_loops || loops_state_satisfies_p (LOOPS_NEED_FIXUP)
        || bb->index < NUM_FIXED_BLOCKS)
      return false;
    class loop *l = bb->loop_father;
    if (!l || !loop_outer (l) || l->inner)
      return false;
    int exits = 0;
    basic_block *body = get_loop_body (l);
    for (unsigned i = 0; i < l->num_nodes; i++)
      {
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE (e, ei, body[i]->succs)
          exits += loop_exit_edge_p (l, e);
      }
    free (body);
    return exits == 1;
  }

  /* Whether BB only returns (the function's return block).  */
  static bool
  return_only_p (basic_block bb)
  {
    if (!single_succ_p (bb) || single_succ (bb)->index != EXIT_BLOCK)
      return false;
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      {
        gimple *stmt = gsi_stmt (gsi);
        if (is_gimple_debug (stmt) || gimple_code (stmt) == GIMPLE_LABEL
            || gimple_code (stmt) == GIMPLE_NOP
            || gimple_code (stmt) == GIMPLE_RETURN)
          continue;
        return false;
      }
    return true;
  }

  /* Whether ARM is a small block that writes registers only.  */
  static bool
  register_arm_p (basic_block arm)
  {
    int stmts = 0;
    for (gimple_stmt_iterator gsi = gsi_start_bb (arm); !gsi_end_p (gsi);
         gsi_next (&gsi))
      {
        gimple *stmt = gsi_stmt (gsi);
        if (is_gimple_debug (stmt) || gimple_code (stmt) == GIMPLE_LABEL
            || gimple_code (stmt) == GIMPLE_NOP)
          continue;
        if (!is_gimple_assign (stmt) || !is_gimple_reg (gimple_assign_lhs (stmt))
            || gimple_has_side_effects (stmt) || gimple_could_trap_p (stmt)
            || ++stmts > 3)
          return false;
      }
    return true;
  }

  /* Whether BB joins the arms of one condition, each arm a register
     write or nothing: a select GCC turns into a conditional move.  */
  static bool
  select_join_p (basic_block bb)
  {
    if (bb->index < NUM_FIXED_BLOCKS || EDGE_COUNT (bb->preds) < 2)
      return false;
    basic_block cond = nullptr;
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE (e, ei, bb->preds)
      {
        basic_block p = e->src, c = p;
        if (single_succ_p (p) && single_pred_p (p))
          {
            if (!register_arm_p (p))
              return false;
            c = single_pred (p);
          }
        if (cond && c != cond)
          return false;
        cond = c;
      }
    return cond && cond->index >= NUM_FIXED_BLOCKS
           && EDGE_COUNT (cond->succs) == 2
           && last_stmt (cond) && gimple_code (last_stmt (cond)) == GIMPLE_COND;
  }

  bool
  may_duplicate (basic_block bb)
  {
    if (bb == EXIT_BLOCK_PTR_FOR_FN (fun) || !can_duplicate_block_p (bb))
      return false;
    /* Loop headers are among the blocks where paths start afresh (the
       targets of back edges).  */
    int v = orig_node.at (bb);
    if (n->node_entry_edge[v] >= 0 || n->node_flags[v])
      return false; /* paths start afresh here, or end inside */
    /* Nor the join of a select (a condition whose arms write registers
       only) in an innermost loop with one exit: GCC if-converts such a
       loop and vectorises it, and a tail copy of the join stops both
       (gzip's fill_window slides two tables with
       `m >= WSIZE ? m - WSIZE : NIL`: 7.4 M instructions more with the
       copies).  Joins of arms that store (correlated.c) are still
       duplicated.  Left alone in every loop instead, a select cost xz
       43 M instructions (bt_find_func), and any block of such a loop
       the correlated-branch copies.  No copies of any loop's latch
       (the source of its back edge) saved bzip2 4.0 M (mainSort, and
       copy_input_until_stop inlined again) and cost xz 50.8 M and
       zstd 3.6 M, whose gains are latch copies.  */
    if (select_join_in_counted_loop[v])
      return false;
    /* Nor the return block of a function declared inline: inlined, it
       is a jump to the caller's continuation, so a copy per path
       straightens nothing, and the copies move GCC's split of the
       function into an inlined head and an outlined tail (bzip2's
       mainGtU: 1.9 M instructions more; xz's helper2: 2.9 M).  In a
       function that is called, a copy saves the jump to the shared
       return (lua's luaH_getshortstr: 1.1 M fewer).  */
    if (DECL_DECLARED_INLINE_P (fun->decl) && return_only_p (bb))
      return false;
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      {
        gimple *stmt = gsi_stmt (gsi);
        tree lhs = gimple_get_lhs (stmt);
        if (lhs && TREE_CODE (lhs) == SSA_NAME && foreign.count (lhs))
          return false;
        /* Nor a block with a call of a function not declared inline:
           each copy of the call is a call site, and GCC's inliner then
           sees two (a static function called once is no longer inlined
           as such: sqlite3's yy_reduce, 5 M instructions of calls).  A
           call of an inline function stays duplicable: the superblock is
           its inlined body (zstd's match finder calls its inline
           ZSTD_count; leaving those blocks alone made zstd 13% slower
           than -O2).  */
        if (is_gimple_call (stmt) && !gimple_call_internal_p (stmt)
            && !gimple_call_builtin_p (stmt, BUILT_IN_NORMAL))
          {
            tree callee = gimple_call_fndecl (stmt);
            if (!callee || !DECL_DECLARED_INLINE_P (callee))
              return false;
          }
      }
    return true;
  }

  /* Whether BB, entered by the first CFG's edge G, is a loop latch that
     does work (8 size units or more) and joins hot paths: edge G brings
     under 90% of its executions.  A copy per path gives the loop a latch
     per path; bzip2's copy_input_until_stop (its 16-unit latch entered
     68% and 26% from two arms) then ran about two instructions more a
     character, on the lines of `avail_in--` and `total_in_lo32++`
     (1.9 M).  Latches entered by one hot path are still copied (xz's
     bt_find_func), as are small ones: bzip2's one-unit latch in
     generateMTFValues saves 2.3 M with its copies, and from 2 units
     sqlite3 ran 0.1 M more.  */
  bool
  shared_latch_p (basic_block bb, int g)
  {
    int v = orig_node.at (bb);
    return n->node_exit_edge[v] >= 0 && block_runs[v] > 0
           && (double) edge_runs[g] < 0.9 * (double) block_runs[v]
           && estimate_num_insns_seq (bb_seq (bb), &eni_size_weights) >= 8;
  }

  /* Whether BB, entered by the first CFG's edge G, lies outside every
     loop and every profiled execution of it came along G: a join whose
     other entrances never ran, or the tail after a join copied earlier
     (a block with one predecessor before the copies).  A trace outside
     loops stops there.  A copy would only remove an entrance the
     profile never took, or carry the copied join's paths further down
     a tail they share, and it grows the function: sqlite3VdbeIdxRowid
     (five copies on its one hot path) was no longer inlined into
     sqlite3VdbeExec (0.7 M instructions), and vdbeSorterCompareInt's
     tail copies after its byte loop cost a register and a stack
     adjustment a call (0.59 M).  Left alone, zstd's row match finder ran
     2.0 M fewer, pcre2's end_of_line 1.1 M fewer.  Inside loops such
     copies still pay (xz's bt_find_func ran 43 M more without them), and
     so does a copy where the other entrances ran at all (with "under 2%
     from elsewhere" in place of "never", xz ran 32.6 M more).  */
  bool
  entered_only_by_trace_p (basic_block bb, int g)
  {
    int v = orig_node.at (bb);
    return current_loops && !loops_state_satisfies_p (LOOPS_NEED_FIXUP)
           && bb->loop_father && !loop_outer (bb->loop_father)
           && edge_runs[g] == block_runs[v];
  }

  /* Counts the executions of the profiled paths IDS (COUNTS) along each
     edge and into each block of the first CFG.  */
  void
  count_runs (const std::vector<pp_pathid> &ids,
              const std::vector<uint64_t> &counts)
  {
    edge_runs.assign (cfg.edges.size (), 0);
    block_runs.assign (cfg.blocks.size (), 0);
    for (size_t k = 0; k < ids.size (); k++)
      {
        int *path;
        int len = pp_regenerate (n, ids[k], &path);
        for (int i = 0; i < len; i++)
          if (n->dag[path[i]].kind == PP_DAG_REAL)
            {
              int g = n->dag[path[i]].cfg_edge;
              edge_runs[g] += counts[k];
              auto it = orig_node.find (cfg.edges[g]->dest);
              if (it != orig_node.end ())
                block_runs[it->second] += counts[k];
            }
        if (len >= 0)
          free (path);
      }
  }

  /* Makes the path with DAG edges PATH[0..LEN) a superblock.  */
  void
  form (const int *path, int len)
  {
    const pp_dag_edge *first = &n->dag[path[0]];
    basic_block cur = first->kind == PP_DAG_ENTRY ? cfg.blocks[first->dst]
                                                  : ENTRY_BLOCK_PTR_FOR_FN (fun);
    int copies = 0;
    for (int i = 0; i < len; i++)
      {
        const pp_dag_edge *de = &n->dag[path[i]];
        if (de->kind != PP_DAG_REAL)
          continue;
        edge e = out_edge (cur, de->cfg_edge);
        if (!e)
          break;
        basic_block next = e->dest;
        if (single_pred_p (next) || next == EXIT_BLOCK_PTR_FOR_FN (fun))
          {
            cur = next;
            continue;
          }
        if (!may_duplicate (next) || shared_latch_p (next, de->cfg_edge)
            || entered_only_by_trace_p (next, de->cfg_edge))
          break;
        long cost = estimate_num_insns_seq (bb_seq (next), &eni_size_weights);
        if (grown + cost > budget)
          break;
        basic_block copy = ppgcc_copy_block (next, e, cur);
        orig_node[copy] = orig_node.at (next);
        for (unsigned k = 0; k < EDGE_COUNT (copy->succs); k++)
          orig_edge[EDGE_SUCC (copy, k)] = orig_edge.at (EDGE_SUCC (next, k));
        orig_edge[find_edge (cur, copy)] = de->cfg_edge;
        grown += cost;
        copies++;
        cur = copy;
      }
    duplicated += copies;
    superblocks += copies > 0;
  }

  /* The DAG edges, in the numbering N2 of the new CFG CFG2, of the first
     numbering's path PATH[0..LEN); false when it does not map (the new
     CFG's DAG differs there).  */
  bool
  map_path (const int *path, int len, const ppgcc_cfg &cfg2,
            const pp_numbering *n2,
            const std::unordered_map<edge, int> &edge2,
            const std::unordered_map<basic_block, int> &node2,
            std::vector<int> &out)
  {
    (void) cfg2;
    out.clear ();
    const pp_dag_edge *first = &n->dag[path[0]];
    basic_block cur = ENTRY_BLOCK_PTR_FOR_FN (fun);
    if (first->kind == PP_DAG_ENTRY)
      {
        cur = cfg.blocks[first->dst];
        int d = n2->node_entry_edge[node2.at (cur)];
        if (d < 0)
          return false;
        out.push_back (d);
      }
    for (int i = 0; i < len; i++)
      {
        const pp_dag_edge *de = &n->dag[path[i]];
        if (de->kind == PP_DAG_REAL)
          {
            edge e = out_edge (cur, de->cfg_edge);
            if (!e)
              return false;
            const pp_cfg_edge_info *c = &n2->cfg[edge2.at (e)];
            if (c->role != PP_CFG_DAG)
              return false;
            out.push_back (c->dag_edge);
            cur = e->dest;
          }
        else if (de->kind == PP_DAG_EXIT)
          {
            int d = n2->node_exit_edge[node2.at (cur)];
            if (d < 0)
              return false;
            out.push_back (d);
          }
      }
    return true;
  }
};

} // namespace

bool
ppgcc_form_superblocks (function *fun, const ppgcc_cfg &cfg,
                        const pp_numbering *n, std::vector<pp_pathid> &ids,
                        std::vector<uint64_t> &counts, ppgcc_cfg &cfg2,
                        pp_numbering **n2_out)
{
  *n2_out = nullptr;
  if (!ppgcc_opts.superblocks || ids.empty () || !ppgcc_copyable_cfg_p (fun, n, EDGE_IRREDUCIBLE_LOOP))
    return false;
  if (current_loops)
    {
      /* Loops the tail-call split left stale (tail-returns.cc: a return
         block deleted) are fixed first: marking walks them, and a deleted
         latch crashed GCC (bzip2's BZ2_blockSort, every -O2 program but
         pcre2 in the bench).  */
      if (loops_state_satisfies_p (LOOPS_NEED_FIXUP))
        {
          calculate_dominance_info (CDI_DOMINATORS);
          fix_loop_structure (NULL);
        }
      mark_irreducible_loops ();
    }
  if (!ppgcc_copyable_cfg_p (fun, n, EDGE_IRREDUCIBLE_LOOP))
    return false;

  former f (fun, cfg, n);
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    f.size += estimate_num_insns_seq (bb_seq (bb), &eni_size_weights);
  f.budget = f.size * ppgcc_opts.superblock_growth / 100;

  /* The traces: the hottest paths, down to the -fpath-superblock-hot
     share of the function's path executions.  */
  std::vector<size_t> order (ids.size ());
  uint64_t total = 0;
  for (size_t k = 0; k < ids.size (); k++)
    {
      order[k] = k;
      total += counts[k];
    }
  /* A cold function is not worth the growth.  */
  if ((double) total * 100
      < ppgcc_opts.superblock_hot * (double) ppgcc_profile_max_executions ())
    return false;
  f.count_runs (ids, counts);
  std::stable_sort (order.begin (), order.end (),
                    [&] (size_t a, size_t b) { return counts[a] > counts[b]; });
  for (size_t k : order)
    {
      if ((double) counts[k] * 100 < ppgcc_opts.superblock_hot * (double) total)
        break;
      int *path;
      int len = pp_regenerate (n, ids[k], &path);
      if (len > 0)
        f.form (path, len);
      if (len >= 0)
        free (path);
    }
  if (!f.duplicated)
    return false;
  free_dominance_info (CDI_DOMINATORS);
  if (current_loops)
    loops_state_set (LOOPS_NEED_FIXUP);

  /* The profile, renumbered on the new CFG.  */
  char err[256];
  pp_numbering *n2 = ppgcc_number_cfg (fun, cfg2, err, sizeof err);
  bool mapped = n2 != nullptr;
  std::unordered_map<edge, int> edge2;
  std::unordered_map<basic_block, int> node2;
  for (size_t g = 0; g < cfg2.edges.size (); g++)
    edge2[cfg2.edges[g]] = (int) g;
  for (size_t v = 0; v < cfg2.blocks.size (); v++)
    node2[cfg2.blocks[v]] = (int) v;
  std::vector<pp_pathid> ids2;
  std::vector<int> dag2;
  for (size_t k = 0; mapped && k < ids.size (); k++)
    {
      int *path;
      int len = pp_regenerate (n, ids[k], &path);
      mapped = len > 0 && f.map_path (path, len, cfg2, n2, edge2, node2, dag2);
      if (len >= 0)
        free (path);
      if (mapped)
        ids2.push_back (pp_path_bl (n2, dag2.data (), (int) dag2.size ()));
    }
  if (ppgcc_opts.opt_info)
    inform (DECL_SOURCE_LOCATION (fun->decl),
            "ppgcc: %s: superblocks=%d duplicated=%d growth=%ld%% of %ld%s",
            IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fun->decl)),
            f.superblocks, f.duplicated, f.size ? f.grown * 100 / f.size : 0,
            f.size, mapped ? "" : " (profile not mapped: GCC guesses)");
  if (!mapped)
    {
      if (n2)
        pp_numbering_free (n2);
      ids.clear ();
      counts.clear ();
      return true;
    }
  ids = ids2;
  *n2_out = n2;
  return true;
}
