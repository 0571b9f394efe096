/* ppgcc's GCC plugin: what its files share.  GCC's headers make this C++;
   the algorithms are in lib/ (pp/core.h), this is the adapter.  Every GCC
   header comes through gcc-compat.h; the options, the function records
   and the steps ipp/'s GCC side calls are declared in ipp-adapter.h,
   which includes it.  */
#ifndef PPGCC_PLUGIN_H
#define PPGCC_PLUGIN_H

#include "gcc-compat.h"
#include "ipp-adapter.h"

#include "pp/core.h"
#include "pp/ppd.h"
#include "pp/spec.h"

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

/* cfg-graph.cc: FUN's CFG as a core-library graph (struct ppgcc_cfg,
   ipp-adapter.h).  */
void ppgcc_build_cfg (function *fun, ppgcc_cfg &cfg);
/* derive.cc.  */
void ppgcc_record_local_calls (const ppgcc_cfg &cfg, ppgcc_fn &fn);
bool ppgcc_derive_candidate_p (function *fun, const pp_numbering *n,
                               const ppgcc_fn &fn);
void ppgcc_derive_counts ();
/* value-sites.cc: the string operations of a function whose size is not
   a constant, in the order both builds number them; the training build's
   probes of their sizes; and, in -fuse-path-profile's, the profile's
   sizes as GCC's histograms of them.  */
std::vector<gimple *> ppgcc_value_sites (const ppgcc_cfg &cfg);
void ppgcc_value_probes (const std::vector<gimple *> &sites, ppgcc_fn &fn);
void ppgcc_value_histograms (function *fun, const std::vector<gimple *> &sites,
                             const ppd_fn *p);
/* At -fprofile-use's point in the passes: a string operation whose
   calls mostly had one size gets a copy of that constant size
   (GCC's own transformation, gimple_value_profile_transformations).  */
void ppgcc_value_transforms ();
/* probes.cc: the statements of the counter increments made since the
   last call (derive.cc removes a derived function's).  */
std::vector<gimple *> ppgcc_take_count_stmts ();

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

/* Without loading it: 1 the unit found its profile, 0 it looked and found
   none, -1 it did not look (no function asked) or could not tell.  */
int ppgcc_profile_found ();
/* The -fprofile-paths-interesting spec, or null.  */
const pp_spec *ppgcc_interesting_spec ();
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

/* spec-paths.cc: adds to IDS the paths SPEC names for NAME.  */
void ppgcc_spec_paths (const pp_spec *spec, const char *name,
                       uint32_t checksum, const ppgcc_cfg &cfg,
                       const pp_numbering *n, std::vector<pp_pathid> &ids);

/* path-opt.cc: GCC's profile of FUN from the path profile in use; the
   path counts IDS, COUNTS (numbering N of CFG) installed as FUN's.  */
void ppgcc_use_profile (function *fun);
void ppgcc_install_path_counts (function *fun, const ppgcc_cfg &cfg,
                                const pp_numbering *n,
                                const std::vector<pp_pathid> &ids,
                                const std::vector<uint64_t> &counts);
/* Functions whose sampled counts GCC got and that have a computed goto:
   compiled without cross-jumping (path-opt.cc, sample-use.cc).  */
extern std::vector<tree> ppgcc_no_crossjumping;
/* profile-use.cc: the path profile file read ("" when none).  */
const std::string &ppgcc_profile_path ();

/* context-profile.cc: the .ppc context profiles beside the path profile
   read (PPD_PATH).  A cct build's .ppd counts nothing: PROFILE's records
   without counts get the sum of their contexts'.  And the contexts of
   function NAME (of FILE, CFG CHECKSUM, NUM_PATHS paths) by caller, for
   the callers of this unit: the paths of every context whose parent is
   a context of the caller, summed; the most executed caller first.  */
void ppgcc_context_fill (const std::string &ppd_path, ppd_profile *profile);
struct ppgcc_context
{
  std::string caller;
  std::vector<pp_pathid> ids;
  std::vector<uint64_t> counts;
  uint64_t executions = 0;
};
std::vector<ppgcc_context> ppgcc_contexts_by_caller (const char *name,
                                                     const char *file,
                                                     uint32_t checksum,
                                                     uint64_t num_paths);

/* context-clone.cc: -fpath-context-clone.  A copy of FUN (NAME, CFG
   numbered N) per calling context whose branches the context profile
   shows going otherwise than FUN's average, with that context's counts;
   IDS and COUNTS keep the other contexts' paths.  The calls are moved to
   the copies once the unit is lowered (ppgcc_context_redirect).  */
void ppgcc_context_clones (function *fun, const char *name,
                           const ppgcc_cfg &cfg, const pp_numbering *n,
                           std::vector<pp_pathid> &ids,
                           std::vector<uint64_t> &counts);
void ppgcc_context_redirect ();
/* sample-use.cc: FUN's counts from a sampled line profile when
   -fuse-path-profile names one: 1 installed, 0 none (no samples in it),
   -1 not a sampled line profile (the path profile's way then).  */
int ppgcc_sample_use (function *fun);

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

/* switch-entry.cc: whether FUN takes the address of one of its labels
   (&&label).  */
bool ppgcc_takes_label_address_p (function *fun);
/* Whether GCC may inline DECL in a plain build (always_inline, or within
   FACTOR times its inlining limit by GCC's size estimate; never main).  */
bool ppgcc_may_be_inlined_p (tree decl, int factor = 1);
/* switch-entry.cc: the dispatch's test of FLAG, inserted after *GSI:
   its bit 0, in a new temporary.  */
tree ppgcc_switch_flag_bit (gimple_stmt_iterator *gsi, tree flag);
/* switch-entry.cc: the plain copy f.pp_off of a public function f that
   GCC may inline (f without its entry test, for the unit's own calls), or
   null.  */
tree ppgcc_switch_plain_copy (tree decl);

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
/* cfg-guard.cc: STMT alone in a block behind a test.  ppgcc_guard_split
   splits before and after it (HEAD, STMT_BB, JOIN); the caller appends
   what its test computes to HEAD, then ppgcc_guard_branch ends HEAD with
   `if (A CODE B)`: true to STMT with probability P, false to OTHER, a new
   empty block; OTHER_OUT and STMT_OUT are the edges into JOIN.  */
struct ppgcc_guard
{
  basic_block head, stmt_bb, other, join;
  edge to_stmt, stmt_out, other_out;
};
ppgcc_guard ppgcc_guard_split (gimple *stmt);
void ppgcc_guard_branch (ppgcc_guard &g, tree_code code, tree a, tree b,
                         profile_probability p);

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
/* A one-metric return's marker (mark -= saved until the lowering): its
   saved share, else NULL_TREE.  */
tree ppgcc_metric_give_back (const gimple *stmt);
/* FUN, its readings lowered behind __pp_metric_fast, as two copies of
   its body chosen at entry, each reading's test folded in each
   (context-version.cc); false where the body cannot be copied.  */
bool ppgcc_version_on_metric_source (function *fun);
void ppgcc_note_inlined_counts (tree desc, tree counts, bool no_calls);
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

/* tail-returns.cc: the call before BB's return where BB returns what
   that call returns (its paths count before it, so it stays a tail
   call).  */
gcall *ppgcc_tail_call_before_return (basic_block bb);

/* inline-size.cc: the probes taken out of GCC's inlining summaries.  */
opt_pass *ppgcc_new_early_inline_size_pass ();
opt_pass *ppgcc_new_ipa_inline_size_pass ();
void ppgcc_context_exits (function *fun, const ppgcc_fn &fn);
void ppgcc_gen_metric_path (gimple_seq *seq, tree index, const ppgcc_fn &fn);

/* instrument.cc: whether FUN's body is only there to be inlined
   (DECL_EXTERNAL: C99 inline without an external definition, gnu_inline);
   never instrumented.  */
bool ppgcc_inline_only_p (function *fun);

/* options.cc: the plugin's arguments into ppgcc_opts, with the defaults
   that depend on the mode; false after an error line.  */
bool ppgcc_read_options (struct plugin_name_args *info);

/* emit.cc: variables and the registration constructor.  */
tree ppgcc_new_counters (uint64_t num_paths);
tree ppgcc_new_metrics (uint64_t n);
void ppgcc_new_ppp_arrays (ppgcc_fn &fn);
void ppgcc_new_hash_cache (ppgcc_fn &fn, unsigned bits);
void ppgcc_emit_unit ();
std::string ppgcc_ppd_path ();
/* An external variable NAME of TYPE, hidden: one per linked module (the
   runtime's, the linker's section bounds).  */
tree ppgcc_hidden_extern_var (const char *name, tree type);

#endif
