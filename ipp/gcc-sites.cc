/* Interprocedural path segments: which calls to expand (thesis §3.5.2,
   stage II of the "alternative scheme"), and the supergraphs they make
   (§3.4.4 steps 2 and 4).

   From the intraprocedural Ball-Larus profile in use, a call can lie on a
   segment when its block ran on a path of the caller and its callee ran;
   it is expanded when the callee is defined in this unit and can be
   duplicated.  An indirect call counts with each function of the unit of
   a matching type whose address is taken and that ran (the two that ran
   most; validated at run time, §3.4.6).  With -fprofile-paths-ipp-depth=K,
   the calls of an expanded callee are candidates in turn, down to K calls
   per segment.  Calls are taken hottest first within the growth limit;
   the others get a note with -fopt-info-paths.  */
#include "gcc-ipp.h"

#include "pp/rt_abi.h"

#include <algorithm>
#include <set>

namespace {

const char *
fn_name (tree decl)
{
  return IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (decl));
}

/* Whether F's body can be duplicated and spliced in: forwardable (no
   varargs, static chain, setjmp, abnormal edges, ...), prototyped, and
   without EH edges (a segment would have nowhere to go).  */
bool
dupable_p (ipp_unit_fn &f)
{
  tree decl = f.fun->decl;
  if (!ppgcc_forwardable_p (f.fun) || !prototype_p (TREE_TYPE (decl))
      || DECL_EXTERNAL (decl))
    return false;
  /* =inline puts per-site copies in place by always_inline: never for a
     function the user keeps out of line or compiles differently (nor with
     =clone: both schemes expand the same calls).  */
  static const char *const keep_out[] = { "noinline", "noipa", "target",
                                          "optimize", "cold" };
  if (DECL_UNINLINABLE (decl))
    return false;
  for (const char *a : keep_out)
    if (lookup_attribute (a, DECL_ATTRIBUTES (decl)))
      return false;
  basic_block bb;
  FOR_ALL_BB_FN (bb, f.fun)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
        if (e->flags & EDGE_COMPLEX)
          return false;
    }
  return true;
}

uint64_t
count_stmts (function *fun)
{
  uint64_t n = 0;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_nondebug_bb (bb);
         !gsi_end_p (gsi); gsi_next_nondebug (&gsi))
      n++;
  return n;
}

/* Whether CALL passes DECL's parameters and takes its result as they
   are: the duplicate is called with the same arguments.  */
bool
call_matches_p (gcall *call, tree decl)
{
  tree parm = DECL_ARGUMENTS (decl);
  for (unsigned i = 0; i < gimple_call_num_args (call);
       i++, parm = DECL_CHAIN (parm))
    if (!parm || !useless_type_conversion_p (TREE_TYPE (parm),
                                             TREE_TYPE (gimple_call_arg (call,
                                                                         i))))
      return false;
  if (parm)
    return false;
  tree lhs = gimple_call_lhs (call);
  return !lhs || useless_type_conversion_p (TREE_TYPE (lhs),
                                            TREE_TYPE (TREE_TYPE (decl)));
}

void
note_skip (gcall *call, const char *why)
{
  if (ppgcc_opts.opt_info)
    inform (gimple_location (call), "ppgcc: call not expanded into a path "
            "segment: %s", why);
}

/* Paths a call of T runs on average: 1 plus the times its loops end a
   path and start the next.  */
static uint64_t
paths_per_call (const ipp_unit_fn *t)
{
  for (size_t v = 0; v < t->cfg.blocks.size () && v < t->node_count.size ();
       v++)
    if (t->cfg.blocks[v]->index == ENTRY_BLOCK && t->node_count[v])
      return t->executions / t->node_count[v];
  return 1;
}

/* A callee whose loops restart its paths this many times a call or
   more stays plain: a segment into it ends at its loop's first back
   edge, while =clone's copy, shared by its sites, updates every site's
   registers at each probe of each iteration.  gzip's longest_match
   (about fifty iterations a call, two sites) cost 946 M instructions as
   a copy against 463 M plain, its callers' segments all but the same.
   =inline leaves it too: both schemes expand the same calls (the same
   numbering and profile; the difftest compares them).  */
static const uint64_t max_paths_per_call = 8;

static bool
loops_dominate_p (gcall *call, const ipp_unit_fn *t)
{
  if (paths_per_call (t) < max_paths_per_call)
    return false;
  note_skip (call, "the callee's loops restart its paths 8 or more times a "
             "call (a shared copy would update every site's registers at "
             "each)");
  return true;
}

/* The unit function a direct call reaches, when it can be expanded.  */
ipp_unit_fn *
direct_target (ipp_unit &u, gcall *call)
{
  cgraph_node *cn = cgraph_node::get (gimple_call_fndecl (call));
  if (!cn)
    return nullptr;
  auto it = u.by_node.find (cn->ultimate_alias_target ());
  if (it == u.by_node.end ())
    return nullptr;
  ipp_unit_fn *t = it->second;
  if (!t->dupable || t->run_ids.empty ()
      || !call_matches_p (call, t->node->decl))
    {
      note_skip (call, "the callee cannot be duplicated, or did not run");
      return nullptr;
    }
  if (loops_dominate_p (call, t))
    return nullptr;
  return t;
}

/* Validated targets of an indirect call: unit functions of a matching
   type whose address is taken and that ran, the two most run.  */
std::vector<ipp_unit_fn *>
indirect_targets (ipp_unit &u, gcall *call)
{
  std::vector<ipp_unit_fn *> out;
  for (auto &f : u.fns)
    if (f->node->address_taken && f->dupable && !f->run_ids.empty ()
        && call_matches_p (call, f->node->decl)
        && paths_per_call (f.get ()) < max_paths_per_call)
      out.push_back (f.get ());
  std::stable_sort (out.begin (), out.end (),
                    [] (const ipp_unit_fn *a, const ipp_unit_fn *b) {
                      return a->executions > b->executions;
                    });
  if (out.size () > 2)
    out.resize (2);
  if (out.empty ())
    note_skip (call, "no function of this unit that ran matches the "
               "indirect call");
  return out;
}

bool
expandable_call_p (gimple *stmt)
{
  gcall *call = dyn_cast<gcall *> (stmt);
  return call && !gimple_call_internal_p (call) && !stmt_ends_bb_p (call)
         && !(gimple_call_flags (call) & (ECF_RETURNS_TWICE | ECF_NORETURN))
         && !gimple_call_chain (call);
}

/* A candidate: a call point of OWNER's body, in the caller CALLER's
   supergraph, below the point's PARENT_POINT/PARENT_TARGET site.  */
struct candidate
{
  ipp_unit_fn *caller;
  ipp_point p;
  int parent_point, parent_target; /* -1: in the caller's own body */
};

/* The call points of F's blocks that ran.  */
void
candidates_of (ipp_unit &u, ipp_unit_fn *caller, ipp_unit_fn *f, int depth,
               int parent_point, int parent_target,
               std::vector<candidate> &out)
{
  if (f->node_count.empty ())
    return;
  for (size_t v = 0; v < f->cfg.blocks.size (); v++)
    {
      basic_block bb = f->cfg.blocks[v];
      if (!f->node_count[v] || bb->index < NUM_FIXED_BLOCKS)
        continue;
      int order = 0;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
           gsi_next (&gsi))
        {
          gcall *call = dyn_cast<gcall *> (gsi_stmt (gsi));
          if (!call)
            continue;
          int rank = order++;
          if (!expandable_call_p (call))
            continue;
          ipp_point p = { -1, depth, f, call, (int) v, 0, rank, {}, false,
                          f->node_count[v] };
          if (tree decl = gimple_call_fndecl (call))
            {
              cgraph_node *cn = cgraph_node::get (decl);
              if (!cn || !u.by_node.count (cn->ultimate_alias_target ()))
                continue; /* not defined here */
              if (ipp_unit_fn *t = direct_target (u, call))
                p.targets.push_back (t);
            }
          else
            {
              p.targets = indirect_targets (u, call);
              p.indirect = true;
            }
          if (!p.targets.empty ())
            out.push_back ({ caller, p, parent_point, parent_target });
        }
    }
}

/* Hottest first; at equal heat, calls of functions that call nothing
   expandable themselves (the innermost segments).  */
void
sort_candidates (std::vector<candidate> &all)
{
  std::set<ipp_unit_fn *> has_candidates;
  for (const candidate &c : all)
    has_candidates.insert (c.p.owner);
  auto leaf = [&] (const candidate &c) {
    for (ipp_unit_fn *t : c.p.targets)
      if (has_candidates.count (t))
        return false;
    return true;
  };
  std::stable_sort (all.begin (), all.end (),
                    [&] (const candidate &a, const candidate &b) {
                      if (a.p.weight != b.p.weight)
                        return a.p.weight > b.p.weight;
                      return leaf (a) && !leaf (b);
                    });
}

/* Stage III (thesis §3.5.2): the profile in use is a -fprofile-paths-ipp
   build's, whose records of segments name their expanded calls (the
   "# ipp site" lines of their metadata, as site_annotations writes
   them): CALLER expands the same calls again, so that its supergraph,
   and the ids of the segments that ran, are the same.  False, with the
   reason in WHY, when the code no longer has those calls.  */
bool
recorded_points (ipp_unit &u, ipp_unit_fn *caller, std::vector<ipp_point> &out,
                 std::string &why)
{
  const ppd_fn *rec = caller->segments;
  std::string meta (rec->meta, rec->meta_len);
  /* Recorded site -> (point, target), to encode parents as the chooser
     does; and the function each site copies.  */
  std::vector<std::pair<int, int> > site_at;
  std::vector<ipp_unit_fn *> site_fn;
  size_t pos = 0;
  while ((pos = meta.find ("# ipp site ", pos)) != std::string::npos)
    {
      size_t end = meta.find ('\n', pos);
      std::string line = meta.substr (pos, end - pos);
      pos = end;
      int site, parent, point, order;
      unsigned checksum;
      char node[128], callee[256];
      if (sscanf (line.c_str (), "# ipp site %d parent %d node %127s point %d "
                  "order %d callee %255s checksum 0x%x", &site, &parent, node,
                  &point, &order, callee, &checksum) != 7
          || site != (int) site_at.size () || parent >= site)
        {
          why = "unreadable site line";
          return false;
        }
      bool indirect = line.find (" indirect") != std::string::npos;
      ipp_unit_fn *owner = parent < 0 ? caller : site_fn[parent];
      ipp_unit_fn *target = nullptr;
      for (auto &f : u.fns)
        if (f->name == callee)
          target = f.get ();
      int v = pp_graph_find_node (owner->cfg.graph, node);
      gcall *call = v < 0 ? nullptr
                          : ppgcc_ipp_nth_call (owner->cfg.blocks[v], order);
      if (!target || !target->dupable
          || pp_graph_checksum (target->cfg.graph) != checksum || !call
          || !expandable_call_p (call)
          || !call_matches_p (call, target->node->decl)
          || (!indirect && gimple_call_fndecl (call) != target->node->decl))
        {
          why = "the call of " + std::string (callee) + " changed";
          return false;
        }
      int encoded = parent < 0 ? -1
                               : site_at[parent].first * 16
                                 + site_at[parent].second;
      ipp_point *last = out.empty () ? nullptr : &out.back ();
      if (last && indirect && last->indirect && last->parent == encoded
          && last->node == v && last->point == point)
        last->targets.push_back (target);
      else
        {
          int depth = parent < 0 ? 1 : out[site_at[parent].first].depth + 1;
          out.push_back ({ encoded, depth, owner, call, v, point, order,
                           { target }, indirect, 0 });
        }
      site_at.push_back ({ (int) out.size () - 1,
                           (int) out.back ().targets.size () - 1 });
      site_fn.push_back (target);
    }
  return !out.empty ();
}

} // namespace

gcall *
ppgcc_ipp_nth_call (basic_block bb, int rank)
{
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    if (gcall *call = dyn_cast<gcall *> (gsi_stmt (gsi)))
      if (rank-- == 0)
        return call;
  return nullptr;
}

/* The unit's functions, their CFGs and numberings, and what the profile
   in use says they ran.  */
void
ppgcc_ipp_collect (ipp_unit &u)
{
  bool missing;
  bool have_profile = ppgcc_profile_in_use (&missing);
  cgraph_node *node;
  FOR_EACH_FUNCTION_WITH_GIMPLE_BODY (node)
    {
      function *fun = DECL_STRUCT_FUNCTION (node->decl);
      if (!fun || !fun->cfg || ppgcc_skip_function (fun))
        continue;
      auto f = std::make_unique<ipp_unit_fn> ();
      f->node = node;
      f->fun = fun;
      f->name = fn_name (node->decl);
      push_cfun (fun);
      /* The CFG the "cfg" pass numbers in the other modes, whose profiles
         train this one: the same checksums.  */
      ppgcc_fold_constant_call_branches (fun);
      ppgcc_split_tail_returns (fun);
      char err[256];
      f->n = ppgcc_number_cfg (fun, f->cfg, err, sizeof err);
      f->checksum = ppgcc_cfg_checksum (f->cfg);
      f->size = count_stmts (fun);
      f->dupable = f->n && dupable_p (*f);
      if (f->n && have_profile)
        {
          bool mismatch;
          const ppd_fn *p = ppgcc_profile_function (fun, f->name.c_str (),
                                                    f->checksum, &mismatch);
          if (p && !(p->flags & PP_FN_IPP))
            {
              ppgcc_executed_paths (p, f->n, f->run_ids, f->run_counts);
              ppgcc_counts c;
              if (ppgcc_cfg_counts (f->cfg, f->n, f->run_ids, f->run_counts,
                                    c))
                f->node_count = c.node;
              for (uint64_t k : f->run_counts)
                f->executions += k;
            }
          f->segments = ppgcc_profile_segments (f->name.c_str ());
        }
      pop_cfun ();
      u.by_node[node] = f.get ();
      u.fns.push_back (std::move (f));
    }
}

void
ppgcc_ipp_choose (ipp_unit &u)
{
  /* A profile of segments: the calls its build expanded, no others.  */
  bool recorded = false;
  for (auto &f : u.fns)
    recorded |= f->segments != nullptr;
  if (recorded)
    {
      for (auto &f : u.fns)
        {
          std::vector<ipp_point> points;
          std::string why;
          if (!f->segments)
            continue;
          if (!recorded_points (u, f.get (), points, why))
            {
              warning_at (DECL_SOURCE_LOCATION (f->fun->decl), 0,
                          "ppgcc: %qs: the segments of the profile in use do "
                          "not fit the code (%s): Ball-Larus paths of its "
                          "own instead", f->name.c_str (), why.c_str ());
              f->segments = nullptr;
              continue;
            }
          u.callers.push_back (std::make_unique<ipp_caller> ());
          u.callers.back ()->f = f.get ();
          u.callers.back ()->points = points;
        }
      return;
    }

  uint64_t unit_size = 0;
  for (auto &f : u.fns)
    unit_size += f->size;
  uint64_t budget = unit_size * ppgcc_opts.ipp_growth / 100, used = 0;
  std::set<ipp_unit_fn *> expanded;
  std::map<ipp_unit_fn *, ipp_caller *> caller_of;

  std::vector<candidate> level;
  for (auto &f : u.fns)
    candidates_of (u, f.get (), f.get (), 1, -1, -1, level);
  for (unsigned depth = 1; depth <= ppgcc_opts.ipp_depth && !level.empty ();
       depth++)
    {
      sort_candidates (level);
      std::vector<std::pair<ipp_caller *, size_t> > accepted;
      for (candidate &c : level)
        {
          /* Depth 1: a segment runs from a caller into one callee, and a
             duplicate calls plain functions: a function is either
             expanded into its callers or expands its own calls (the
             hotter call decides), else some segments would be lost.  */
          if (ppgcc_opts.ipp_depth == 1)
            {
              bool chained = expanded.count (c.caller) != 0;
              for (ipp_unit_fn *t : c.p.targets)
                chained |= caller_of.count (t) != 0;
              if (chained)
                {
                  note_skip (c.p.call, "depth 1: the caller is expanded into "
                             "its own caller, or the callee expands its "
                             "calls");
                  continue;
                }
            }
          /* The cost of a copy per site, whatever the scheme: both
             schemes expand the same calls (=clone then grows less).  */
          uint64_t cost = 0;
          for (ipp_unit_fn *t : c.p.targets)
            cost += t->size;
          if (used + cost > budget)
            {
              note_skip (c.p.call, "code growth limit "
                         "(-fprofile-paths-ipp-growth)");
              continue;
            }
          used += cost;
          ipp_caller *&cf = caller_of[c.caller];
          if (!cf)
            {
              u.callers.push_back (std::make_unique<ipp_caller> ());
              cf = u.callers.back ().get ();
              cf->f = c.caller;
            }
          for (ipp_unit_fn *t : c.p.targets)
            expanded.insert (t);
          /* The parent, for now, as the point's index in the caller and
             the target; made a site index once the sites are laid out.  */
          c.p.parent = c.parent_point < 0
                           ? -1
                           : c.parent_point * 16 + c.parent_target;
          cf->points.push_back (c.p);
          accepted.push_back ({ cf, cf->points.size () - 1 });
        }
      /* The next depth: the calls in the callees just expanded.  */
      std::vector<candidate> next;
      for (auto &a : accepted)
        {
          const ipp_point p = a.first->points[a.second];
          for (size_t t = 0; t < p.targets.size (); t++)
            candidates_of (u, a.first->f, p.targets[t], p.depth + 1,
                           (int) a.second, (int) t, next);
        }
      level.swap (next);
    }
}

namespace {

/* Lays out CF's sites from the chosen points ALL whose ACTIVE flag is set
   (and whose parents are): parents before children, a call point's sites
   adjacent, points ranked within their blocks; then builds and numbers
   the supergraph (CF.sg and CF.sn, null with ERR when it cannot be).  */
void
lay_out (ipp_caller &cf, const std::vector<ipp_point> &all,
         const std::vector<bool> &active, char *err, size_t errlen)
{
  /* Points arrive by depth; parents are encoded point*16+target.  */
  std::vector<int> order;
  for (size_t i = 0; i < all.size (); i++)
    order.push_back ((int) i);
  std::stable_sort (order.begin (), order.end (), [&] (int a, int b) {
    return all[a].depth < all[b].depth;
  });
  std::vector<int> parent_site (all.size (), -1);
  std::vector<int> new_index (all.size (), -1);
  std::vector<ipp_point> laid;
  int nsites = 0;
  for (size_t k = 0; k < order.size ();)
    {
      size_t end = k;
      while (end < order.size () && all[order[end]].depth == all[order[k]].depth)
        end++;
      /* This depth's live points, with their parents' sites.  */
      std::vector<int> level;
      for (size_t i = k; i < end; i++)
        {
          const ipp_point &p = all[order[i]];
          if (!active[order[i]])
            continue;
          if (p.parent >= 0)
            {
              int pp = new_index[p.parent / 16];
              if (pp < 0)
                continue; /* its parent was dropped */
              parent_site[order[i]] = laid[pp].first_site + p.parent % 16;
            }
          level.push_back (order[i]);
        }
      std::stable_sort (level.begin (), level.end (), [&] (int a, int b) {
        const ipp_point &x = all[a], &y = all[b];
        if (parent_site[a] != parent_site[b])
          return parent_site[a] < parent_site[b];
        return x.node != y.node ? x.node < y.node : x.order < y.order;
      });
      for (size_t i = 0; i < level.size (); i++)
        {
          ipp_point p = all[level[i]];
          p.parent = parent_site[level[i]];
          const ipp_point *prev = i ? &laid.back () : nullptr;
          p.point = prev && prev->parent == p.parent && prev->node == p.node
                        ? prev->point + 1 : 0;
          p.first_site = nsites;
          nsites += (int) p.targets.size ();
          new_index[level[i]] = (int) laid.size ();
          laid.push_back (p);
        }
      k = end;
    }
  cf.points.swap (laid);
  cf.sites.clear ();
  cf.site_point.clear ();
  cf.site_target.clear ();
  for (size_t i = 0; i < cf.points.size (); i++)
    for (ipp_unit_fn *t : cf.points[i].targets)
      {
        const ipp_point &p = cf.points[i];
        pp_ipp_site st = { p.parent, p.node, p.point, t->cfg.graph,
                           t->name.c_str (), p.indirect };
        cf.sites.push_back (st);
        cf.site_point.push_back ((int) i);
        cf.site_target.push_back (t);
      }
  cf.site_parent.assign (cf.sites.size (), false);
  for (const pp_ipp_site &st : cf.sites)
    if (st.parent >= 0)
      cf.site_parent[st.parent] = true;
  pp_ipp_free (cf.sg);
  pp_numbering_free (cf.sn);
  cf.sn = nullptr;
  cf.sg = pp_ipp_build (cf.f->cfg.graph, cf.sites.data (),
                        (int) cf.sites.size (), err, errlen);
  pp_options opt = { 0 };
  if (cf.sg)
    cf.sn = pp_number (cf.sg->graph, &opt, err, errlen);
}

} // namespace

/* Each caller's supergraph.  No path of it is cut (thesis §3.4.4 step 5
   keeps the interesting segments whole): while its paths would overflow
   64 bits, the coldest expanded call (and the calls below it) is given
   up, with a note.  A caller whose supergraph cannot be numbered keeps
   its plain instrumentation; one whose recorded segments (stage III) no
   longer give the profile's supergraph too.  */
void
ppgcc_ipp_supergraphs (ipp_unit &u)
{
  for (auto it = u.callers.begin (); it != u.callers.end ();)
    {
      ipp_caller &cf = **it;
      const std::vector<ipp_point> all = cf.points;
      std::vector<bool> active (all.size (), true);
      char err[256] = "";
      for (;;)
        {
          lay_out (cf, all, active, err, sizeof err);
          if (!cf.sn || !cf.sn->num_cuts || cf.f->segments)
            break;
          int coldest = -1;
          for (size_t i = 0; i < all.size (); i++)
            if (active[i] && (coldest < 0 || all[i].weight < all[coldest].weight))
              coldest = (int) i;
          if (coldest >= 0)
            note_skip (all[coldest].call, "its segments would overflow the "
                       "caller's 64-bit path numbers");
          if (coldest < 0 || cf.points.size () <= 1)
            {
              /* Nothing left to expand: the caller's own paths.  */
              err[0] = 0;
              pp_numbering_free (cf.sn);
              cf.sn = nullptr;
              break;
            }
          active[coldest] = false;
        }
      if (cf.sn && cf.f->segments
          && (pp_graph_checksum (cf.sg->graph) != cf.f->segments->checksum
              || cf.sn->num_cuts))
        {
          snprintf (err, sizeof err, "its supergraph differs from the "
                    "profile's");
          pp_numbering_free (cf.sn);
          cf.sn = nullptr;
        }
      if (!cf.sn)
        {
          if (err[0])
            warning (0, "ppgcc: %qs keeps intraprocedural paths: %s",
                     cf.f->name.c_str (), err);
          cf.f->segments = nullptr;
          it = u.callers.erase (it);
          continue;
        }
      if (ppgcc_opts.opt_info)
        for (const ipp_point &p : cf.points)
          for (ipp_unit_fn *t : p.targets)
            inform (gimple_location (p.call), "ppgcc: call of %qs expanded "
                    "into the path segments of %qs (depth %d)%s",
                    t->name.c_str (), cf.f->name.c_str (), p.depth,
                    p.indirect ? ", indirect: validated at run time" : "");
      ++it;
    }
}
