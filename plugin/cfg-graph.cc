/* The GIMPLE CFG of a function as a pp_graph, and its metadata text.

   Nodes are the basic blocks in index order (bb0 ENTRY, bb1 EXIT), edges
   each block's successors in order: the same walk at -fprofile-paths and at
   -fuse-path-profile time gives the same graph and checksum.  Abnormal, EH
   and other complex edges cannot carry probes; the core library ends and
   restarts paths around them.  */
#include "plugin.h"

#include <cstdio>

/* First and last line of the block's statements in the function's own
   source file (inlined or macro code from elsewhere does not count).  */
static void
block_lines (basic_block bb, const char *file, unsigned *first,
             unsigned *last)
{
  *first = *last = 0;
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    {
      location_t loc = gimple_location (gsi_stmt (gsi));
      if (loc == UNKNOWN_LOCATION)
        continue;
      /* Code from a macro counts at the line that uses the macro (an
         interpreter's dispatch macros, say), not in the macro's header.  */
      loc = linemap_resolve_location (line_table, loc,
                                      LRK_MACRO_EXPANSION_POINT, NULL);
      expanded_location xl = expand_location (loc);
      if (!xl.file || !file || filename_cmp (xl.file, file) != 0
          || xl.line <= 0)
        continue;
      unsigned line = (unsigned) xl.line;
      if (!*first || line < *first)
        *first = line;
      if (line > *last)
        *last = line;
    }
}

/* Where the condition ending BB is, for reports: its line and column in
   the function's own file (a macro's at the line that uses it); else,
   code from elsewhere (inlined), the block's last line, column unknown.
   0: no line at all.  */
static void
cond_location (gimple *stmt, const char *file, unsigned last,
               unsigned *line, unsigned *col)
{
  *line = last;
  *col = 0;
  location_t loc = gimple_location (stmt);
  if (loc == UNKNOWN_LOCATION)
    return;
  loc = linemap_resolve_location (line_table, loc,
                                  LRK_MACRO_EXPANSION_POINT, NULL);
  expanded_location xl = expand_location (loc);
  if (!xl.file || !file || filename_cmp (xl.file, file) != 0 || xl.line <= 0)
    return;
  *line = (unsigned) xl.line;
  *col = xl.column > 0 ? (unsigned) xl.column : 0;
}

/* A switch's labels that lead to DEST, as written: "3", "1...3",
   "default", several comma separated; "" when longer than a report
   should show (the report prints the target line then).  */
static std::string
case_text (function *fun, gswitch *sw, basic_block dest)
{
  std::string t;
  char buf[64];
  for (unsigned i = 0; i < gimple_switch_num_labels (sw); i++)
    {
      tree l = gimple_switch_label (sw, i);
      if (label_to_block (fun, CASE_LABEL (l)) != dest)
        continue;
      tree lo = CASE_LOW (l), hi = CASE_HIGH (l);
      if (!lo)
        snprintf (buf, sizeof buf, "default");
      else if (!tree_fits_shwi_p (lo) || (hi && !tree_fits_shwi_p (hi)))
        return "";
      else if (hi)
        snprintf (buf, sizeof buf, HOST_WIDE_INT_PRINT_DEC "..."
                  HOST_WIDE_INT_PRINT_DEC, tree_to_shwi (lo),
                  tree_to_shwi (hi));
      else
        snprintf (buf, sizeof buf, HOST_WIDE_INT_PRINT_DEC,
                  tree_to_shwi (lo));
      if (!t.empty ())
        t += ',';
      t += buf;
    }
  return t.size () > 16 ? "" : t;
}

/* The condition ending BB (node V) and which way each of its out-edges
   (graph edges from FIRST_EDGE on, in successor order) goes.  */
static void
record_branches (function *fun, ppgcc_cfg &cfg, basic_block bb, int v,
                 int first_edge, const char *file)
{
  gimple *last = last_nondebug_stmt (bb);
  if (!last || (gimple_code (last) != GIMPLE_COND
                && gimple_code (last) != GIMPLE_SWITCH))
    return;
  unsigned first_line, last_line, line, col;
  pp_graph_node_lines (cfg.graph, v, &first_line, &last_line);
  cond_location (last, file, last_line, &line, &col);
  if (!line)
    return;
  pp_graph_set_cond (cfg.graph, v, line, col);
  int k = first_edge;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, bb->succs)
    {
      if (gimple_code (last) == GIMPLE_SWITCH)
        pp_graph_set_edge_branch (cfg.graph, k,
                                  PP_BRANCH_CASE,
                                  case_text (fun, as_a<gswitch *> (last),
                                             e->dest).c_str ());
      else if (e->flags & EDGE_TRUE_VALUE)
        pp_graph_set_edge_branch (cfg.graph, k, PP_BRANCH_TRUE, NULL);
      else if (e->flags & EDGE_FALSE_VALUE)
        pp_graph_set_edge_branch (cfg.graph, k, PP_BRANCH_FALSE, NULL);
      k++;
    }
}

void
ppgcc_build_cfg (function *fun, ppgcc_cfg &cfg)
{
  cfg.graph = pp_graph_new ();
  int nb = last_basic_block_for_fn (fun);
  std::vector<int> node_of (nb, -1);
  const char *file = ppgcc_function_file (fun);
  char name[32];
  for (int i = 0; i < nb; i++)
    {
      basic_block bb = BASIC_BLOCK_FOR_FN (fun, i);
      if (!bb)
        continue;
      snprintf (name, sizeof name, "bb%d", i);
      node_of[i] = pp_graph_add_node (cfg.graph, name);
      cfg.blocks.push_back (bb);
      if (bb != ENTRY_BLOCK_PTR_FOR_FN (fun)
          && bb != EXIT_BLOCK_PTR_FOR_FN (fun))
        {
          unsigned first, last;
          block_lines (bb, file, &first, &last);
          pp_graph_set_lines (cfg.graph, node_of[i], first, last);
        }
    }
  pp_graph_set_entry (cfg.graph, node_of[ENTRY_BLOCK]);
  pp_graph_set_exit (cfg.graph, node_of[EXIT_BLOCK]);
  for (int i = 0; i < nb; i++)
    {
      basic_block bb = BASIC_BLOCK_FOR_FN (fun, i);
      if (!bb)
        continue;
      edge e;
      edge_iterator ei;
      int first_edge = pp_graph_num_edges (cfg.graph);
      FOR_EACH_EDGE (e, ei, bb->succs)
        {
          unsigned flags = (e->flags & EDGE_COMPLEX) ? PP_EDGE_ABNORMAL : 0;
          pp_graph_add_edge (cfg.graph, node_of[i], node_of[e->dest->index],
                             flags, -1.0);
          cfg.edges.push_back (e);
        }
      if (bb != ENTRY_BLOCK_PTR_FOR_FN (fun))
        record_branches (fun, cfg, bb, node_of[i], first_edge, file);
    }
}

pp_numbering *
ppgcc_number_cfg (function *fun, ppgcc_cfg &cfg, char *err, size_t errlen)
{
  ppgcc_build_cfg (fun, cfg);
  pp_options opt = { 0 };
  pp_numbering *n = pp_number (cfg.graph, &opt, err, errlen);
  uint64_t limit = ppgcc_opts.max_paths;
  if (n && limit && n->num_paths > limit)
    {
      /* Cut where the paths multiply, as few edges as fit the limit
         (PP_CUT_FITTED, lib/dag.c); if no cut set fits it, the whole
         paths stay (counted in a hash table).  */
      opt.max_paths = limit;
      opt.cut_rule = PP_CUT_FITTED;
      char why[256];
      pp_numbering *cut = pp_number (cfg.graph, &opt, why, sizeof why);
      if (cut)
        {
          pp_numbering_free (n);
          n = cut;
          cfg.max_paths = limit;
        }
    }
  return n;
}

uint32_t
ppgcc_cfg_checksum (const ppgcc_cfg &cfg)
{
  uint32_t sum = pp_graph_checksum (cfg.graph);
  if (cfg.max_paths)
    {
      uint64_t h = cfg.max_paths * 0x9e3779b97f4a7c15ull;
      sum ^= (uint32_t) (h >> 32) | 1u;
      /* And the cut rule, which is always PP_CUT_FITTED here: a profile
         numbered under the older share rule (no "fitted" in its
         max_paths) has other paths, and must not match.  */
      sum ^= 0x46495454u;
    }
  return sum;
}

static void
append_quoted (std::string &out, const char *s)
{
  out += '"';
  for (; s && *s; s++)
    {
      if (*s == '"' || *s == '\\')
        out += '\\';
      out += *s;
    }
  out += '"';
}

/* doc/graph-language.md, "Metadata embedded by the plugin".  Parsing it
   and numbering the result gives the numbering the probes use.  */
std::string
ppgcc_metadata (function *fun, const ppgcc_cfg &cfg, uint32_t checksum)
{
  const pp_graph *g = cfg.graph;
  std::string m;
  char buf[128];
  m += "function ";
  m += IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fun->decl));
  m += "\nfile ";
  append_quoted (m, ppgcc_function_file (fun));
  snprintf (buf, sizeof buf, "\nchecksum 0x%08x\nmax_paths %llu%s\n",
            checksum, (unsigned long long) cfg.max_paths,
            cfg.max_paths ? " fitted" : "");
  m += buf;
  m += "entry ";
  m += pp_graph_node_name (g, pp_graph_entry (g));
  m += "\nexit ";
  m += pp_graph_node_name (g, pp_graph_exit (g));
  m += "\n";
  for (int v = 0; v < pp_graph_num_nodes (g); v++)
    {
      unsigned first, last, cline, ccol;
      pp_graph_node_lines (g, v, &first, &last);
      pp_graph_node_cond (g, v, &cline, &ccol);
      m += "node ";
      m += pp_graph_node_name (g, v);
      if (first)
        {
          snprintf (buf, sizeof buf, " line %u %u", first, last);
          m += buf;
        }
      if (cline)
        {
          snprintf (buf, sizeof buf, " cond %u %u", cline, ccol);
          m += buf;
        }
      m += "\n";
    }
  for (int e = 0; e < pp_graph_num_edges (g); e++)
    {
      m += "edge ";
      m += pp_graph_node_name (g, pp_graph_edge_src (g, e));
      m += ' ';
      m += pp_graph_node_name (g, pp_graph_edge_dst (g, e));
      if (pp_graph_edge_flags (g, e) & PP_EDGE_ABNORMAL)
        m += " abnormal";
      const char *text;
      switch (pp_graph_edge_branch (g, e, &text))
        {
        case PP_BRANCH_TRUE:
          m += " true";
          break;
        case PP_BRANCH_FALSE:
          m += " false";
          break;
        case PP_BRANCH_CASE:
          m += " case ";
          append_quoted (m, text ? text : "");
          break;
        }
      m += "\n";
    }
  return m;
}
