/* The GCC plugin as ipp/'s GCC side (ipp/gcc-sites.cc, ipp/gcc-unit.cc)
   uses it, and no more: the options, the unit's function records, CFGs
   as core-library graphs, the profile in use, and the instrumentation
   steps ipp/ runs on its callers and callee duplicates.  plugin.h
   includes it for the plugin's own files; ipp/gcc-ipp.h includes it
   instead of plugin.h.  */
#ifndef PPGCC_IPP_ADAPTER_H
#define PPGCC_IPP_ADAPTER_H

#include "gcc-compat.h"

#include "pp/core.h"
#include "pp/ppd.h"

#include <string>
#include <vector>

/* What -fprofile-paths asks for.  */
enum ppgcc_mode
{
  PPGCC_MODE_BL,       /* Ball-Larus: every path by its id */
  PPGCC_MODE_PPP,      /* preferential: the profile's paths compactly */
  PPGCC_MODE_RESIDUAL, /* PPP tuned to report the paths never trained */
  PPGCC_MODE_USE       /* -fuse-path-profile alone: no instrumentation */
};

/* Options, from -fplugin-arg-ppgcc-KEY=VALUE.  */
struct ppgcc_options
{
  ppgcc_mode mode = PPGCC_MODE_BL;
  /* Functions with more Ball-Larus paths than this count outside a
     counter array (hash table, or PPP).  Sized by memory, not by a path
     count that suited small functions: 2^18 counters are 2 MiB of .bss,
     untouched pages cost nothing, and a hot function just over a small
     limit (zstd's ZSTD_RowFindBestMatch, 4815 paths; bzip2's
     BZ2_decompress, 163,145) then never calls the runtime.
     Context records (cct) and metric arrays are per path too, so they
     keep the small limit.  See ppgcc_read_options (options.cc).  */
  unsigned long long array_max = 0;
  bool array_max_set = false;
  /* -fprofile-paths-max: a function with more Ball-Larus paths is numbered
     again with overflow cuts at this limit (Ball & Larus §6, "path
     splitting": lib/ballarus.c) so that its ids index an array instead of
     a hash table: an array probe is an add, a hash probe a multiply, a
     compare and a branch (pcre2's match(), 7.3e9 paths).  0:
     whole paths, in a hash table.  Default: 2^18, or array_max if larger
     (ppgcc_read_options).  */
  unsigned long long max_paths = 0;
  bool max_paths_set = false;
  /* What one unit's counter arrays may hold in all, in paths (32 MiB):
     past it, large functions fall back to hash counting.  */
  unsigned long long array_budget = 1ull << 22;
  /* PPP arrays (ppp_ids is read-only data, counted in the binary's size)
     never exceed this many slots.  */
  unsigned long long ppp_array_max = 4096;
  /* -fprofile-paths-table=hpt: what is not counted in an array goes to
     the program's bounded Hot Path Table (thesis §5.4), not a hash table
     per function: PP_FN_HPT.  */
  bool table_hpt = false;
  bool atomic = false;                 /* -fprofile-update=atomic */
  bool use_profile = false;            /* -fuse-path-profile */
  std::string use_path;                /* its =PATH; empty: own .ppd */
  /* A one-input compile-and-link (gcc t.c -o t): the dump prefix ("t-")
     the instrumented build had, where the runtime was a second input
     and gcc named the profile t-t.ppd; empty otherwise (driver/).  */
  std::string use_onestep_prefix;
  std::string interesting;             /* -fprofile-paths-interesting=FILE */
  double hot = 100;                    /* -fprofile-paths-hot=P */
  /* PPP ranges above array_max (thesis §3.6 "Hash table usage policy"):
     count in the hash table by Ball-Larus id, or keep array_max slots and
     send the rest to the side table (residual's default).  */
  bool ppp_truncate = false;
  bool ppp_policy_set = false;
  /* Functions with at most this many Ball-Larus paths keep plain BL
     counters even in PPP mode (exact and cheaper: one register); by
     default array_max, so PPP replaces the hash table.  */
  unsigned long long ppp_min_paths = 0;
  bool ppp_min_paths_set = false;
  bool opt_info = false;               /* -fopt-info-paths */
  /* -f[no-]profile-paths-derive: one-path local functions counted from
     their callers' paths, without probes (derive.cc).  */
  bool derive = true;
  /* -f[no-]profile-paths-loop-registers: single-path loops' counts kept
     in a local counter, stored when the loop is left (pp_plan_loops).  */
  bool loop_registers = true;
  /* Plugin argument inline-size=0: GCC's inliner weighs functions with
     their probes (inline-size.cc).  */
  bool inline_size = true;
  /* -f[no-]profile-paths-values: the sizes and destinations of string
     operations of variable size (value-sites.cc).  */
  bool values = true;
  /* -fuse-path-profile alone: path-based superblocks (superblock.cc),
     on unless -fno-path-superblock.  */
  bool superblocks = true;             /* -f[no-]path-superblock */
  unsigned long long superblock_growth = 50; /* -fpath-superblock-growth=N */
  double superblock_hot = 1;           /* -fpath-superblock-hot=P */
  /* -fuse-path-profile with a context profile: copies of a function per
     calling context (context-clone.cc).  */
  bool context_clone = true;           /* -f[no-]path-context-clone */
  /* =all: every context that ran gets a copy (the differential tests).  */
  bool context_clone_all = false;
  /* -fprofile-paths-switch=: probes that the profile flag turns off.  */
  enum { SWITCH_NONE, SWITCH_CHECK, SWITCH_ENTRY } switching = SWITCH_NONE;
  /* -fprofile-paths=cct: counts per calling context (PLDI'97 §4).  */
  bool cct = false;
  /* -fprofile-paths-metric=EVENT[,EVENT]: as given, and how many.  */
  std::string metrics;
  unsigned nmetrics = 0;
  /* -fprofile-paths-metric-at=calls: readings at entries and returns
     only, a total per context and none per path (PLDI'97 §4.3).  */
  bool metric_at_calls = false;
  /* -fprofile-paths-inlined=flat: a leaf's body GCC inlines under =cct
     counts its own paths and calls, flat under the root (context-lower.cc);
     by default it counts nothing of its own.  */
  bool inlined_flat = false;
  /* -fprofile-paths-ipp=: interprocedural path segments (ipp/gcc-unit.cc).  */
  enum { IPP_NONE, IPP_INLINE, IPP_CLONE } ipp = IPP_NONE;
  unsigned long long ipp_depth = 1;    /* -fprofile-paths-ipp-depth=K */
  unsigned long long ipp_growth = 100; /* -fprofile-paths-ipp-growth=P */
  unsigned long long ipp_contexts = 0; /* -fprofile-paths-ipp-contexts=N:
                                          sites per shared duplicate */
  unsigned long long ipp_inline_stmts = 64; /* -fprofile-paths-ipp-inline-
                                               stmts=N: =clone copies a
                                               callee this small per site */
};
extern ppgcc_options ppgcc_opts;

/* One instrumented function, as the unit descriptor will list it.  */
struct ppgcc_fn
{
  std::string name;
  std::string meta;       /* its CFG in the graph language */
  uint32_t checksum;
  uint32_t flags;         /* PP_FN_* */
  uint64_t num_paths;
  tree counters;          /* the counter array, or NULL_TREE (hash mode) */
  tree desc;              /* its struct __pp_fn_desc variable */
  /* PP_FN_PPP (rt_abi.h): the read-only Ball-Larus ids by PPP index
     (UINT64_MAX: none), the counts, their size, and the PPP id of index
     0.  */
  tree ppp_ids = NULL_TREE, ppp_counts = NULL_TREE;
  uint64_t ppp_size = 0;
  uint64_t ppp_base = 0;
  std::vector<uint64_t> slot_ids;
  /* Hash mode: the inline first probe's keys and counts (rt_abi.h), or
     NULL_TREE, 2^hash_cache_bits of each.  */
  tree hash_keys = NULL_TREE, hash_counts = NULL_TREE;
  unsigned hash_cache_bits = 0;
  /* The sizes of its string operations (value-sites.cc): NUM_VALUES
     words, or NULL_TREE.  */
  tree values = NULL_TREE;
  uint64_t num_values = 0;
  std::vector<uint64_t> trained; /* PP_FN_TRAINED: ascending BL ids */
  bool switch_check = false;     /* path ends test the profile flag */
  /* A local flag that guards the counts (not the register updates):
     in a callee duplicate shared by several callers (ipp/gcc-unit.cc), whether
     this caller's context is the one running.  */
  tree count_guard = NULL_TREE;
  unsigned nmetrics = 0;         /* metrics per path (array mode) */
  tree metrics = NULL_TREE;      /* their accumulators, without cct */
  /* context.cc, while the function is instrumented: __pp_enter's result,
     the counters the probes index when they are the context record's
     (else NULL_TREE: `counters`), and the metrics' accumulators.  */
  tree token = NULL_TREE, count_base = NULL_TREE, metric_base = NULL_TREE;
  bool leaf = false;             /* calls nothing: no slots, no exit */
  /* Every path starts at the entry (no loop, no restart): a call runs
     exactly one path, so its calls are the sum of its path counts.  */
  bool one_path_per_call = false;
  /* With cct or metrics: counted flat, without a context of its own (see
     ppgcc_context_free_p).  */
  bool no_context = false;
  uint32_t num_sites = 0;        /* call sites with a callee slot */
  bool enter_slot = false;       /* cct without metrics: enters by
                                    __pp_enter_slot (context.cc) */
  tree inlined = NULL_TREE;      /* a cct leaf: where its inlined bodies
                                    count (context-lower.cc) */
  tree saved_slot = NULL_TREE;   /* and __pp_slot at the entry */
  /* A cct function with one metric: its caller's share of the path
     before the call (now - __pp_metric_mark at its entry, §3.1), given
     back at its returns.  */
  tree metric_saved = NULL_TREE;
  /* derive.cc: the function, whether its count may come from its callers
     (one path, local, counted in an array) and the statements of its
     count, which go when it does; its calls to local functions, with the
     graph node of each.  */
  tree decl = NULL_TREE;
  bool derive_candidate = false;
  std::vector<gimple *> count_stmts;
  std::vector<std::pair<gimple *, std::string> > local_calls;
};
extern std::vector<ppgcc_fn> ppgcc_fns;

/* cfg-graph.cc: the function's CFG as a core-library graph.  */
struct ppgcc_cfg
{
  pp_graph *graph = nullptr;
  std::vector<basic_block> blocks; /* graph node -> block */
  std::vector<edge> edges;         /* graph edge -> edge */
  uint64_t max_paths = 0; /* the limit it was numbered with (0: none) */
  ~ppgcc_cfg () { pp_graph_free (graph); }
};
/* CFG built for FUN and numbered: with no path limit, or, when that gives
   more than -fprofile-paths-max paths, with cuts at it (CFG.max_paths).
   Null with ERR when it cannot be numbered.  */
pp_numbering *ppgcc_number_cfg (function *fun, ppgcc_cfg &cfg, char *err,
                                size_t errlen);
/* FUN's CFG in the graph language (ppgcc_fn::meta).  */
std::string ppgcc_metadata (function *fun, const ppgcc_cfg &cfg,
                            uint32_t checksum);
/* The checksum a function's profile is matched by: its CFG's, changed when
   it was numbered with a path limit, so that a profile numbered under
   another limit (other ids for the same paths) is never read as this
   one's.  */
uint32_t ppgcc_cfg_checksum (const ppgcc_cfg &cfg);

/* profile-use.cc: the profile in use.  Whether there is one (*MISSING:
   one was asked for and is not there); the profile's record of FUN by NAME
   and CHECKSUM, or null (*MISMATCH, after a warning, when the record is
   for another CFG).  */
bool ppgcc_profile_in_use (bool *missing);
const ppd_fn *ppgcc_profile_function (function *fun, const char *name,
                                      uint32_t checksum, bool *mismatch);
/* The profile's record of NAME's interprocedural path segments (a
   -fprofile-paths-ipp build's), or null.  */
const ppd_fn *ppgcc_profile_segments (const char *name);
/* The executed paths of P (ids below N's path count) with their counts.  */
void ppgcc_executed_paths (const ppd_fn *p, const pp_numbering *n,
                           std::vector<pp_pathid> &ids,
                           std::vector<uint64_t> &counts);
/* Block and edge counts of CFG from path counts (lib/counts.c); false
   when an id is out of range.  */
struct ppgcc_counts
{
  std::vector<uint64_t> node, edge;
  std::vector<char> known; /* the edge's count follows from the paths */
};
bool ppgcc_cfg_counts (const ppgcc_cfg &cfg, const pp_numbering *n,
                       const std::vector<pp_pathid> &ids,
                       const std::vector<uint64_t> &counts,
                       ppgcc_counts &out);

/* interesting.cc: the executed paths of F (numbering N), the hottest
   first until they cover the -fprofile-paths-hot share of F's path
   executions.  */
void ppgcc_hottest_paths (const ppd_fn *f, const pp_numbering *n,
                          std::vector<pp_pathid> &ids);

/* probes.cc: insert the plan's probes; REGS receives the path registers
   (the second one NULL_TREE without PPP), or gives them when REGS[0] is
   set.  A probe whose block or edge CFG maps to null is not FUN's (an
   interprocedural supergraph spans several functions) and is skipped.  */
void ppgcc_insert_probes (function *fun, const ppgcc_cfg &cfg,
                          const pp_probe *probes, int nprobes,
                          const ppgcc_fn &fn, tree regs[2]);

/* switch-entry.cc: whether FUN can be copied and called with its own
   arguments forwarded (no varargs, static chain, abnormal edges, ...);
   CFG's blocks and edges of FUN moved to those of COPY, a version of it
   (false when the two CFGs differ).  */
bool ppgcc_forwardable_p (function *fun, bool label_tables = false);
bool ppgcc_map_copy_cfg (function *fun, function *copy, ppgcc_cfg &cfg);
/* switch-labels.cc: whether FUN takes its labels' addresses only in
   static tables read by its computed gotos (`goto *table[i]`), so that a
   copy given tables of its own (ppgcc_copy_label_tables) behaves as FUN;
   while a ppgcc_allow_copy (FUN, true) lives, GCC lets FUN be copied.
   ppgcc_copy_label_tables gives COPY, a version of FUN, its own tables;
   false (COPY unusable) if its labels cannot be matched with FUN's.  */
bool ppgcc_label_tables_only_p (function *fun);
struct ppgcc_allow_copy
{
  ppgcc_allow_copy (function *fun, bool allow);
  ~ppgcc_allow_copy ();
  function *fun;
};
bool ppgcc_copy_label_tables (function *fun, function *copy);
/* A version of NODE's function with its body, named with SUFFIX (GCC's
   create_version_clone_with_body), made safe to call before the unit's
   early debug information exists.  */
cgraph_node *ppgcc_version_clone (cgraph_node *node, const char *suffix);
/* Makes the copy DECL a function of its own: never inlined (noinline;
   always_inline and flatten dropped).  */
void ppgcc_make_outlined (tree decl);

/* instrument.cc: the function's counting for numbering N: array, hash
   table, or (TRAINED, the interesting paths IDS) preferential; FN's
   arrays are made.  Intraprocedural instrumentation of FUN, and whether
   the plugin leaves FUN alone.  */
void ppgcc_choose_counting (function *fun, const char *fname,
                            pp_numbering *n, ppgcc_fn &fn,
                            const std::vector<pp_pathid> &ids, bool trained);
void ppgcc_instrument_function (function *fun);
bool ppgcc_skip_function (function *fun);

/* emit.cc: the counters' type; a new struct __pp_fn_desc variable.  */
tree ppgcc_u64_type ();
tree ppgcc_new_desc ();

/* The CFG every mode numbers, made so before numbering (the "cfg" pass,
   and ipp/'s whole-unit pass, whose training profiles come from the
   others).  const-branch.cc: branches on what a local function that only
   returns a constant returns, made constant.  tail-returns.cc: a return
   of its own for each block that ends in a call whose value the function
   returns, so that the call stays a tail call.  */
void ppgcc_fold_constant_call_branches (function *fun);
void ppgcc_split_tail_returns (function *fun);

#endif
