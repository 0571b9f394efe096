/* ppgcc's GCC plugin: what its files share.  GCC's headers make this C++;
   the algorithms are in lib/ (pp/core.h), this is the adapter.  */
#ifndef PPGCC_PLUGIN_H
#define PPGCC_PLUGIN_H

#include "gcc-compat.h"

#include "pp/core.h"
#include "pp/ppd.h"
#include "pp/spec.h"

#include <string>
#include <unordered_map>
#include <unordered_set>
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
  /* -fuse-path-profile alone: path-based superblocks (superblock.cc).  */
  bool superblocks = false;            /* -f[no-]path-superblock */
  unsigned long long superblock_growth = 50; /* -fpath-superblock-growth=N */
  double superblock_hot = 1;           /* -fpath-superblock-hot=P */
  /* -fprofile-paths-switch=: probes that the profile flag turns off.  */
  enum { SWITCH_NONE, SWITCH_CHECK, SWITCH_ENTRY } switching = SWITCH_NONE;
  /* -fprofile-paths=cct: counts per calling context (PLDI'97 §4).  */
  bool cct = false;
  /* -fprofile-paths-metric=EVENT[,EVENT]: as given, and how many.  */
  std::string metrics;
  unsigned nmetrics = 0;
  /* -fprofile-paths-ipp=: interprocedural path segments (ipp/gcc-unit.cc).  */
  enum { IPP_NONE, IPP_INLINE, IPP_CLONE } ipp = IPP_NONE;
  unsigned long long ipp_depth = 1;    /* -fprofile-paths-ipp-depth=K */
  unsigned long long ipp_growth = 100; /* -fprofile-paths-ipp-growth=P */
  unsigned long long ipp_contexts = 0; /* -fprofile-paths-ipp-contexts=N:
                                          sites per shared duplicate */
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
     NULL_TREE.  */
  tree hash_keys = NULL_TREE, hash_counts = NULL_TREE;
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
void ppgcc_build_cfg (function *fun, ppgcc_cfg &cfg);
/* CFG built for FUN and numbered: with no path limit, or, when that gives
   more than -fprofile-paths-max paths, with cuts at it (CFG.max_paths).
   Null with ERR when it cannot be numbered.  */
pp_numbering *ppgcc_number_cfg (function *fun, ppgcc_cfg &cfg, char *err,
                                size_t errlen);
/* derive.cc.  */
void ppgcc_record_local_calls (const ppgcc_cfg &cfg, ppgcc_fn &fn);
bool ppgcc_derive_candidate_p (function *fun, const pp_numbering *n,
                               const ppgcc_fn &fn);
void ppgcc_derive_counts ();
/* probes.cc: the statements of the counter increments made since the
   last call (derive.cc removes a derived function's).  */
std::vector<gimple *> ppgcc_take_count_stmts ();
std::string ppgcc_metadata (function *fun, const ppgcc_cfg &cfg,
                            uint32_t checksum);
/* The checksum a function's profile is matched by: its CFG's, changed when
   it was numbered with a path limit, so that a profile numbered under
   another limit (other ids for the same paths) is never read as this
   one's.  */
uint32_t ppgcc_cfg_checksum (const ppgcc_cfg &cfg);

/* fn-file.cc: the source file of FUN's definition, where its paths'
   lines are (not a system header that declared it first).  */
const char *ppgcc_function_file (function *fun);

/* profile-choose.cc: how many trailing path components A and B share;
   and of several profiles FILES equally near the object, the one to use
   for the compile of SOURCE: their sum in *OUT (true) when they are of
   one source file with the same CFGs, else false with *WHY (what tells
   them apart, for a note).  */
int ppgcc_common_tail (const std::string &a, const std::string &b);
bool ppgcc_merge_candidates (const std::vector<std::string> &files,
                             const std::string &source, ppd_profile *out,
                             std::string *why);

/* profile-use.cc: the profile in use.  Whether there is one (*MISSING:
   one was asked for and is not there); the profile's record of FUN by NAME
   and CHECKSUM, or null (*MISMATCH, after a warning, when the record is
   for another CFG); the -fprofile-paths-interesting spec, or null.  */
bool ppgcc_profile_in_use (bool *missing);
/* Without loading it: 1 the unit found its profile, 0 it looked and found
   none, -1 it did not look (no function asked) or could not tell.  */
int ppgcc_profile_found ();
const ppd_fn *ppgcc_profile_function (function *fun, const char *name,
                                      uint32_t checksum, bool *mismatch);
const pp_spec *ppgcc_interesting_spec ();
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
/* The most path executions of one function in the profile, scaled as
   ppgcc_profile_scale_counts scales (into GCC's profile_count range).  */
uint64_t ppgcc_profile_max_executions ();
/* Scales the path counts of one function, all in proportion, when the
   profile's counts exceed GCC's range; else leaves them.  */
void ppgcc_profile_scale_counts (std::vector<uint64_t> &counts);

/* interesting.cc: the interesting paths of FUN.  Returns false when FUN
   has no training information (no profile, or one for another CFG); else
   IDS gets the interesting Ball-Larus ids, ascending and unique.  */
bool ppgcc_interesting_paths (function *fun, const char *name,
                              uint32_t checksum, const ppgcc_cfg &cfg,
                              const pp_numbering *n,
                              std::vector<pp_pathid> &ids);

/* interesting.cc: the executed paths of F (numbering N), the hottest
   first until they cover the -fprofile-paths-hot share of F's path
   executions.  */
void ppgcc_hottest_paths (const ppd_fn *f, const pp_numbering *n,
                          std::vector<pp_pathid> &ids);

/* spec-paths.cc: adds to IDS the paths SPEC names for NAME.  */
void ppgcc_spec_paths (const pp_spec *spec, const char *name,
                       uint32_t checksum, const ppgcc_cfg &cfg,
                       const pp_numbering *n, std::vector<pp_pathid> &ids);

/* path-opt.cc: GCC's profile of FUN from the path profile in use.  */
void ppgcc_use_profile (function *fun);

/* superblock.cc: path-based superblock formation along the hot paths of
   IDS/COUNTS (numbering N of CFG).  Returns false when the CFG is left
   alone; else the paths are renumbered on the new CFG (CFG2, *N2), or,
   where they cannot be, IDS and COUNTS are emptied and *N2 is null.  */
bool ppgcc_form_superblocks (function *fun, const ppgcc_cfg &cfg,
                             const pp_numbering *n,
                             std::vector<pp_pathid> &ids,
                             std::vector<uint64_t> &counts, ppgcc_cfg &cfg2,
                             pp_numbering **n2);
/* The pass that marks the function as having feedback (after "profile").  */
opt_pass *ppgcc_new_feedback_pass ();

/* probes.cc: insert the plan's probes; REGS receives the path registers
   (the second one NULL_TREE without PPP), or gives them when REGS[0] is
   set.  A probe whose block or edge CFG maps to null is not FUN's (an
   interprocedural supergraph spans several functions) and is skipped.  */
void ppgcc_insert_probes (function *fun, const ppgcc_cfg &cfg,
                          const pp_probe *probes, int nprobes,
                          const ppgcc_fn &fn, tree regs[2]);

/* gimple-copy.cc: copying blocks before SSA form.  The SSA names used
   outside the block defining them; those made ordinary variables; a copy
   of BB's statements after AFTER (NAMES maps old temporaries to the
   copy's, uses renamed through it); a copy of BB entered by E instead of
   BB, with BB's out-edges; renaming the uses of STMT.  */
void ppgcc_foreign_names (function *fun, std::unordered_set<tree> &out);
void ppgcc_localise_names (function *fun,
                           const std::unordered_set<tree> &names);
basic_block ppgcc_copy_stmts (basic_block bb, basic_block after,
                              std::unordered_map<tree, tree> &names);
basic_block ppgcc_copy_block (basic_block bb, edge e, basic_block after);
void ppgcc_rename_uses (gimple *stmt, std::unordered_map<tree, tree> &names);
/* Whether FUN's blocks may be copied: no abnormal or EH edges (nor edges
   with EDGE_FLAGS), no asm goto, no paths cut by N.  */
bool ppgcc_copyable_cfg_p (function *fun, const pp_numbering *n,
                           int edge_flags);

/* switch.cc: the runtime's profile flag, __pp_on (volatile int).  */
tree ppgcc_profile_flag ();
/* switch.cc: defines the unit's __pp_switched mark (once).  */
void ppgcc_switch_mark_unit ();

/* switch-entry.cc: whether FUN can be copied and called with its own
   arguments forwarded (no varargs, static chain, abnormal edges, ...);
   CFG's blocks and edges of FUN moved to those of COPY, a version of it
   (false when the two CFGs differ).  */
bool ppgcc_forwardable_p (function *fun);
/* Whether FUN takes the address of one of its labels (&&label).  */
bool ppgcc_takes_label_address_p (function *fun);
bool ppgcc_map_copy_cfg (function *fun, function *copy, ppgcc_cfg &cfg);
/* Whether GCC may inline DECL in a plain build (always_inline, or within
   its inlining limit by GCC's size estimate; never main).  */
bool ppgcc_may_be_inlined_p (tree decl);
/* A version of NODE's function with its body, named with SUFFIX (GCC's
   create_version_clone_with_body), made safe to call before the unit's
   early debug information exists.  */
cgraph_node *ppgcc_version_clone (cgraph_node *node, const char *suffix);
/* Makes the copy DECL a function of its own: never inlined (noinline;
   always_inline and flatten dropped).  */
void ppgcc_make_outlined (tree decl);

/* switch-entry.cc: -fprofile-paths-switch=entry.  Makes FUN's copy
   f.pp_on and gives FUN its entry test; CFG's blocks and edges are moved
   to the copy's.  Null (nothing changed) when FUN keeps one body.  The
   probes then go into the copy with ppgcc_switch_entry_probes.  */
function *ppgcc_switch_entry (function *fun, ppgcc_cfg &cfg);
void ppgcc_switch_entry_probes (function *copy, const ppgcc_cfg &cfg,
                                const pp_probe *probes, int nprobes,
                                const ppgcc_fn &fn, tree regs[2]);
/* switch-local.cc: the IPA pass by which local callees follow their
   caller into its copy (with =entry; after "visibility").  */
opt_pass *ppgcc_new_switch_local_pass ();

/* context.cc: __pp_enter on the entry edge (pending: committed with the
   probes), __pp_exit before each return (once the probes are in), and a
   path end's __pp_metric_path for path INDEX.  */
void ppgcc_context_entry (function *fun, ppgcc_fn &fn);
/* Whether FUN is left without context probes: an inline function GCC may
   inline whose label addresses are taken.  */
bool ppgcc_context_free_p (function *fun);
/* The marker of a context entry, __pp_enter_slot, and what its inlined
   copies count in; context-lower.cc's pass lowers them once GCC has
   inlined.  */
tree ppgcc_enter_slot_decl ();
tree ppgcc_enter_leaf_marker_decl ();
gasm *ppgcc_entry_marker (tree token, tree desc, tree ret, tree slot);
bool ppgcc_entry_marker_p (const gimple *stmt);
tree ppgcc_slot_var ();
/* The metric path end's decls (context.cc, lowered in context-lower.cc):
   __pp_metric_path, its one-metric placeholder __pp_metric_path1, and the
   runtime's __pp_metric_mark and __pp_metric_fast (rt_abi.h).  */
tree ppgcc_metric_path_decl ();
tree ppgcc_metric_path1_decl ();
tree ppgcc_metric_mark_var ();
tree ppgcc_metric_fast_var ();
tree ppgcc_metric_enter1_decl ();
tree ppgcc_metric_exit1_decl ();
/* STMT, a one-metric probe's marker (context.cc), as the call the
   lowering expands; NULL for any other statement.  */
gcall *ppgcc_metric_marker_call (const gimple *stmt);
void ppgcc_note_inlined_counts (tree desc, tree counts);
bool ppgcc_has_inlined_counts (tree desc);
/* The context probes' trees GCC's collector must keep.  */
const ggc_root_tab *ppgcc_context_gc_roots ();
void ppgcc_give_inlined_counts (ppgcc_fn &fn);
/* Whether STMT is a call that could enter another context; whether it is
   in a body GCC inlined here.  */
bool ppgcc_context_site_p (const gimple *stmt);
bool ppgcc_inlined_copy_p (const gimple *stmt);
opt_pass *ppgcc_new_lower_entries_pass ();
/* context-leaf.cc: after the early inliner.  */
opt_pass *ppgcc_new_context_leaf_pass ();
void ppgcc_context_exits (function *fun, const ppgcc_fn &fn);
void ppgcc_gen_metric_path (gimple_seq *seq, tree index, const ppgcc_fn &fn);

/* instrument.cc: the function's counting for numbering N: array, hash
   table, or (TRAINED, the interesting paths IDS) preferential; FN's
   arrays are made.  Intraprocedural instrumentation of FUN, and whether
   the plugin leaves FUN alone.  */
void ppgcc_choose_counting (function *fun, const char *fname,
                            pp_numbering *n, ppgcc_fn &fn,
                            const std::vector<pp_pathid> &ids, bool trained);
void ppgcc_instrument_function (function *fun);
bool ppgcc_skip_function (function *fun);
/* Whether FUN's body is only there to be inlined (DECL_EXTERNAL: C99
   inline without an external definition, gnu_inline); never instrumented.  */
bool ppgcc_inline_only_p (function *fun);

/* options.cc: the plugin's arguments into ppgcc_opts, with the defaults
   that depend on the mode; false after an error line.  */
bool ppgcc_read_options (struct plugin_name_args *info);

/* emit.cc: variables and the registration constructor.  */
tree ppgcc_u64_type ();
tree ppgcc_new_counters (uint64_t num_paths);
tree ppgcc_new_metrics (uint64_t n);
tree ppgcc_new_desc ();
void ppgcc_new_ppp_arrays (ppgcc_fn &fn);
void ppgcc_new_hash_cache (ppgcc_fn &fn);
void ppgcc_emit_unit ();
std::string ppgcc_ppd_path ();

#endif
