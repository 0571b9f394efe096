/* One function's instrumentation: its graph numbered (pp_number), its
   counting chosen (array, hash table or PPP), its probes planned (pp_plan)
   and inserted; the unit's records are emitted later (emit.cc).  */
#include "plugin.h"

#include "pp/rt_abi.h"

#include <cstdlib>
#include <cstring>
std::vector<ppgcc_fn> ppgcc_fns;

bool
ppgcc_skip_function (function *fun)
{
  tree decl = fun->decl;
  /* __attribute__((no_instrument_function)).  (The DECL_ flag of that
     name is also set by the C front end for other reasons.)  */
  if (lookup_attribute ("no_instrument_function", DECL_ATTRIBUTES (decl)))
    return true;
  /* Our own constructor (and other compiler-made constructors).  */
  if (DECL_ARTIFICIAL (decl) && DECL_STATIC_CONSTRUCTOR (decl))
    return true;
  return ppgcc_inline_only_p (fun);
}

/* A body GCC keeps only to inline it: a C99 inline definition without an
   external one in this unit, or gnu_inline `extern inline'.  A call GCC
   does not inline goes to the external definition, which may exist
   nowhere (C99 inline code that links only because gcc -O2 inlines every
   call).  Probes, a context entry or a switch copy make the body bigger
   (or, with =entry, move it into a copy that is never inlined), and GCC
   then stops inlining it where a plain build does: such a body is left
   exactly as it is.  */
bool
ppgcc_inline_only_p (function *fun)
{
  return DECL_EXTERNAL (fun->decl);
}

/* How a function counts its paths.  */
enum counting
{
  COUNT_ARRAY, /* counters[BL id] */
  COUNT_HASH,  /* the runtime's hash table, by BL id */
  COUNT_PPP    /* counts by PPP id, misses by BL id in the side table */
};

static const char *const counting_name[] = { "bl", "hash", "ppp" };

/* Preferential path profiling of the interesting paths IDS (thesis Fig
   3.10), when it pays: returns COUNT_PPP with FN's arrays made, or how
   to count instead.  The numbering is made in every case, so that its
   range and compactness can be reported.  */
static counting
choose_ppp (pp_numbering *n, const std::vector<pp_pathid> &ids, ppgcc_fn &fn,
            const char *fname, bool fits, uint64_t *range_out)
{
  counting fallback = fits ? COUNT_ARRAY : COUNT_HASH;
  if (ids.empty ())
    return fallback; /* every path end would miss */
  std::vector<int64_t> ppp_ids (ids.size ());
  char err[256];
  if (pp_ppp (n, ids.data (), (int) ids.size (), ppp_ids.data (), err,
              sizeof err) < 0)
    {
      warning (0, "ppgcc: %qs: no preferential numbering (%s); Ball-Larus "
               "instead", fname, err);
      n->ppp_done = 0;
      return fallback;
    }
  uint64_t range = (uint64_t) (n->ppp_max - n->ppp_min) + 1;
  uint64_t size = range;
  *range_out = range;
  /* Few paths: Ball-Larus ids index an array as well, with one register
     and no check (measured on bzip2: +14.6% instructions against +36.3%
     for dual counters everywhere); residual paths are then found by
     ppprof from the trained list.  */
  bool small = fits && n->num_paths <= ppgcc_opts.ppp_min_paths;
  /* A range above the array: the §3.6 "hash table usage policy".  */
  bool too_wide = range > ppgcc_opts.ppp_array_max
                  && (!ppgcc_opts.ppp_truncate
                      || ppgcc_opts.ppp_array_max == 0);
  if (small || too_wide)
    {
      n->ppp_done = 0;
      return fallback;
    }
  if (range > ppgcc_opts.ppp_array_max)
    size = ppgcc_opts.ppp_array_max;
  fn.ppp_base = (uint64_t) n->ppp_min;
  fn.ppp_size = size;
  fn.slot_ids.assign (size, UINT64_MAX);
  for (size_t i = 0; i < ids.size (); i++)
    {
      uint64_t j = (uint64_t) (ppp_ids[i] - n->ppp_min);
      if (j < size)
        fn.slot_ids[j] = ids[i];
    }
  ppgcc_new_ppp_arrays (fn);
  return COUNT_PPP;
}

/* A context build's function above the per-context limit (4096 paths:
   every context's record holds a counter per path) may still count its
   paths in one flat array, as a Ball-Larus build does, when the path
   ids fit one (2^18) and the unit's budget: its paths are flat either
   way (a hashed one's go to the side table, not to its contexts), and an
   array costs a path end one add where the hash's inline cache costs
   seven instructions (a multiply, a shift, a key compare); with a
   metric too (such a function takes no per-path readings either way).
   The hot
   loops of the suite are there: sqlite3VdbeExec (11,417 paths), zstd's
   ZSTD_RowFindBestMatch (4,815), gzip's deflate (4,280), pcre2's match,
   bzip2's sendMTFValues.  */
static const uint64_t flat_max_paths = 1ull << 18;

/* The inline cache's size for a hash-mode function whose training ran
   TRAINED paths: twice as many slots, within PP_HASH_CACHE_BITS and
   PP_HASH_CACHE_MAX_BITS.  A path whose slot another holds misses every
   time, into the runtime's table (about 30 instructions against 3): with
   4096 slots for bzip2's mainSimpleSort, whose training ran 908,094
   paths, 328,000 of a 1 MB compression's path ends missed; with 65536,
   26,000 (11,000 of them the first run of a path, which claims its
   slot).  */
static unsigned
hash_cache_bits (uint64_t trained)
{
  unsigned bits = PP_HASH_CACHE_BITS;
  while (bits < PP_HASH_CACHE_MAX_BITS && (1ull << bits) < trained * 2)
    bits++;
  return bits;
}

/* Counter-array paths this unit has given out (the budget's use).  */
static unsigned long long array_paths_used;

/* Can a function of NUM_PATHS paths count in an array?  Within the
   per-function limit, and within the unit's budget unless it is small
   (a small function never loses its array to a large one).  */
static bool
array_fits (uint64_t num_paths)
{
  if (num_paths > ppgcc_opts.array_max)
    return false;
  return num_paths <= ppgcc_opts.ppp_array_max
         || array_paths_used + num_paths <= ppgcc_opts.array_budget;
}

void
ppgcc_choose_counting (function *fun, const char *fname, pp_numbering *n,
                       ppgcc_fn &fn, const std::vector<pp_pathid> &ids,
                       bool trained)
{
  uint64_t ppp_range = 0;
  double delta = 0;
  bool fits = array_fits (n->num_paths);
  counting how = fits ? COUNT_ARRAY : COUNT_HASH;
  bool flat = !fits && ppgcc_opts.cct
              && !ppgcc_opts.array_max_set && !ppgcc_opts.table_hpt
              && ppgcc_opts.mode == PPGCC_MODE_BL
              && n->num_paths <= flat_max_paths
              && array_paths_used + n->num_paths <= ppgcc_opts.array_budget;
  if (trained)
    {
      fn.flags |= PP_FN_TRAINED;
      fn.trained.assign (ids.begin (), ids.end ());
      how = choose_ppp (n, ids, fn, fname, fits, &ppp_range);
      delta = n->delta;
    }
  if (how == COUNT_ARRAY || flat)
    array_paths_used += n->num_paths;
  /* With cct, array-mode counts live in each context's record (the
     runtime sizes it by num_paths), and so do metrics; without, metrics
     have an array of their own.  */
  bool cct = ppgcc_opts.cct && !fn.no_context;
  if (how == COUNT_ARRAY && !cct)
    fn.counters = ppgcc_new_counters (n->num_paths);
  else if (how == COUNT_HASH && flat)
    {
      /* No slots in its contexts' records (PP_FN_HASHED), a flat array
         for its paths.  */
      fn.flags |= PP_FN_HASHED;
      fn.counters = ppgcc_new_counters (n->num_paths);
    }
  else if (how == COUNT_HASH)
    {
      fn.flags |= PP_FN_HASHED;
      /* The Hot Path Table is bounded by design: no cache in front.  */
      if (!ppgcc_opts.table_hpt)
        ppgcc_new_hash_cache (fn, hash_cache_bits (ids.size ()));
    }
  else if (how == COUNT_PPP)
    {
      fn.flags |= PP_FN_PPP;
      /* A path outside the trained set misses on every run, and a hot one
         (sqlite3's VdbeExec: opcodes the training did not run, 770,000
         misses of 840,000 in a run) cost a runtime call each: the miss
         arm probes a cache as hash mode's first (rt_abi.h), in a few
         instructions.  */
      if (!ppgcc_opts.table_hpt)
        ppgcc_new_hash_cache (fn, PP_HASH_CACHE_BITS);
    }
  if (cct)
    fn.flags |= PP_FN_CCT;
  /* Accumulators per path, unless the readings are per call (metric-at=
     calls): then the function is as a hash-mode one, its entry and
     returns read the metric into the context's exclusive total.  */
  if (how == COUNT_ARRAY && ppgcc_opts.nmetrics && !fn.no_context
      && !ppgcc_opts.metric_at_calls)
    {
      fn.nmetrics = ppgcc_opts.nmetrics;
      if (!cct)
        fn.metrics = ppgcc_new_metrics (n->num_paths * fn.nmetrics);
    }
  /* Hash-mode paths and PPP misses both reach __pp_hash_hit, which the
     flag sends to the Hot Path Table: the probes stay the same.  */
  if (ppgcc_opts.table_hpt && how != COUNT_ARRAY)
    fn.flags |= PP_FN_HPT;

  if (ppgcc_opts.opt_info)
    {
      char delta_s[32] = "-";
      if (ppp_range)
        snprintf (delta_s, sizeof delta_s, "%.3f", delta);
      inform (DECL_SOURCE_LOCATION (fun->decl),
              "ppgcc: %s: paths=%llu interesting=%llu range=%llu delta=%s "
              "counting=%s array=%llu", fname,
              (unsigned long long) n->num_paths,
              (unsigned long long) ids.size (),
              (unsigned long long) ppp_range, delta_s, counting_name[how],
              how == COUNT_PPP ? (unsigned long long) fn.ppp_size
              : how == COUNT_ARRAY ? (unsigned long long) n->num_paths
                                   : 0ull);
    }
}

/* The blocks that always run to their end once entered: no call (which
   may exit, longjmp or not return) and no asm.  A path ending right after
   one may be counted on the edges into it (pp_plan_early); a path that a
   call in the block cut short must count nothing.  Not with contexts or
   metrics, whose reads belong at the path's real end.  */
static std::vector<char>
count_early_blocks (const ppgcc_cfg &cfg)
{
  std::vector<char> ok (pp_graph_num_nodes (cfg.graph), 0);
  for (size_t v = 0; v < cfg.blocks.size () && v < ok.size (); v++)
    {
      basic_block bb = cfg.blocks[v];
      if (!bb)
        continue;
      ok[v] = 1;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
           gsi_next (&gsi))
        if (is_gimple_call (gsi_stmt (gsi))
            || gimple_code (gsi_stmt (gsi)) == GIMPLE_ASM)
          ok[v] = 0;
    }
  return ok;
}

void
ppgcc_instrument_function (function *fun)
{
  const char *fname = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fun->decl));
  ppgcc_cfg cfg;
  char err[256];
  pp_numbering *n = ppgcc_number_cfg (fun, cfg, err, sizeof err);
  if (!n)
    {
      warning (0, "ppgcc: function %qs left uninstrumented: %s", fname, err);
      return;
    }

  ppgcc_fn fn;
  fn.decl = fun->decl;
  fn.name = fname;
  fn.checksum = ppgcc_cfg_checksum (cfg);
  fn.meta = ppgcc_metadata (fun, cfg, fn.checksum);
  fn.num_paths = n->num_paths;
  fn.flags = n->num_cuts ? PP_FN_TRUNCATED : 0;
  fn.desc = ppgcc_new_desc ();
  fn.counters = NULL_TREE;

  /* An inline function that takes a label's address: each inlined copy
     has labels of its own, and a program may compare them (GCC's
     c-torture 990208-1.c aborts when two callers see one address).  GCC
     inlines it wherever a plain build would; probes made it bigger, and
     at -Os (or under cct's context probes) it stayed out of line.  So it
     is inlined regardless of its size, and has no context of its own.  */
  bool keep_inlined = ppgcc_context_free_p (fun);
  if (keep_inlined)
    DECL_DISREGARD_INLINE_LIMITS (fun->decl) = 1;
  fn.no_context = (ppgcc_opts.cct || ppgcc_opts.nmetrics) && keep_inlined;
  std::vector<pp_pathid> ids;
  bool trained = ppgcc_opts.mode != PPGCC_MODE_BL
                 && ppgcc_interesting_paths (fun, fname, fn.checksum, cfg, n,
                                             ids);
  ppgcc_choose_counting (fun, fname, n, fn, ids, trained);

  /* The string operations whose sizes are counted for -fuse-path-profile,
     found in the CFG that was numbered: their probes split blocks, so they
     go in after the paths'.  Counted in the function as written (not in a
     switchable build's copy, nor per context).  */
  std::vector<gimple *> value_sites;
  if (ppgcc_opts.values
      && ppgcc_opts.switching == ppgcc_options::SWITCH_NONE
      && !ppgcc_opts.cct && !ppgcc_opts.nmetrics)
    value_sites = ppgcc_value_sites (cfg);
  ppgcc_record_local_calls (cfg, fn);
  fn.derive_candidate = ppgcc_derive_candidate_p (fun, n, fn);
  pp_probe *probes;
  std::vector<char> count_early = count_early_blocks (cfg);
  bool by_path_end = ppgcc_opts.cct || ppgcc_opts.nmetrics;
  std::vector<char> derived (count_early.size (), 0);
  /* Single-path loops' trips in a local counter: where a path end is a
     plain non-atomic add to the function's array (not PPP's checks, the
     hash table's, a context's records, a switchable build's flag test).
     Only loops with one way out: leaving costs a test and, when the loop
     went round, two counts, which pays where loops run long, and a loop
     with several ways out is mostly one left early (pcre2's match loops:
     3 ways out, 1 or 2 trips).  Measured with bench/run's programs
     (callgrind, instructions of the Ball-Larus build): one way out,
     against any number, bzip2 532.6 against 535.2 M, pcre2 838.3 against
     845.1 (839.0 without promotion), lua 725.3 against 725.3.  */
  const int loop_register_exits = 1;
  bool loop_registers = ppgcc_opts.loop_registers && !by_path_end
                        && fn.counters && !fn.count_base && !fn.ppp_ids
                        && !fn.hash_keys && !fn.metric_base
                        && !ppgcc_opts.atomic
                        && ppgcc_opts.switching == ppgcc_options::SWITCH_NONE;
  int nprobes = pp_plan_loops (n, cfg.graph,
                               by_path_end ? nullptr : count_early.data (),
                               derived.data (),
                               loop_registers ? loop_register_exits : 0,
                               nullptr, &probes);
  /* Restart paths left to readers (pp_plan_derived): named in the
     metadata, which readers have with the counts.  */
  for (size_t v = 0; v < derived.size (); v++)
    if (derived[v])
      {
        fn.meta += "derived_restart ";
        fn.meta += pp_graph_node_name (cfg.graph, (int) v);
        fn.meta += "\n";
        fn.flags |= PP_FN_DERIVED_RESTARTS;
      }
  /* Switchable profiling: the probes go into an instrumented copy entered
     while the flag is set (switch-entry.cc), else (or where the function
     cannot be forwarded its arguments) each path end tests the flag.  */
  function *on = ppgcc_opts.switching == ppgcc_options::SWITCH_ENTRY
                 ? ppgcc_switch_entry (fun, cfg) : nullptr;
  fn.switch_check = ppgcc_opts.switching != ppgcc_options::SWITCH_NONE
                    && !on;
  /* -fprofile-paths=cct and metrics (context.cc); never with switching
     (refused in plugin_init).  */
  bool contexts = (ppgcc_opts.cct || ppgcc_opts.nmetrics) && !fn.no_context;
  fn.one_path_per_call = !n->num_cuts;
  for (int v = 0; v < n->num_nodes; v++)
    if (n->node_entry_edge[v] >= 0)
      fn.one_path_per_call = false;
  if (contexts)
    ppgcc_context_entry (fun, fn);
  tree regs[2] = { NULL_TREE, NULL_TREE };
  if (on)
    ppgcc_switch_entry_probes (on, cfg, probes, nprobes, fn, regs);
  else
    ppgcc_insert_probes (fun, cfg, probes, nprobes, fn, regs);
  ppgcc_value_probes (value_sites, fn);
  if (contexts)
    ppgcc_context_exits (fun, fn);
  std::vector<gimple *> count_stmts = ppgcc_take_count_stmts ();
  if (fn.derive_candidate)
    fn.count_stmts.swap (count_stmts);
  ppgcc_fns.push_back (fn);
  free (probes);
  pp_numbering_free (n);
}
