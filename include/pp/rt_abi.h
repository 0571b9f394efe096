/* The interface between instrumented objects and the libpprt runtime.

   For each translation unit the plugin emits (all with internal linkage):
     - per instrumented function a counter array (array mode) and a
       struct __pp_fn_desc, in the unit's section __pp_d_<its meta_key in
       16 hex digits>, which the linker makes one array;
     - one struct __pp_unit pointing at its bounds (the linker's
       __start_ and __stop_ symbols of that section);
     - a constructor calling __pp_register_unit (&unit).
   At a path end the probe does counters[id]++ (array mode) or calls
   __pp_hash_hit (desc, id) (hash mode, functions with many paths); with
   preferential path profiling it counts in ppp_counts (see below).

   Only __pp_-prefixed symbols are global in the runtime.  Any layout change
   bumps PP_ABI_VERSION; the runtime refuses units of another version with a
   message, it never guesses.  */
#ifndef PP_RT_ABI_H
#define PP_RT_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PP_ABI_VERSION 13u

/* __pp_fn_desc.flags */
#define PP_FN_HASHED 1u    /* paths not counted per context: in the hash
                              table (counters == NULL), or, a context
                              build's function above its per-context
                              limit, in its flat counters */
#define PP_FN_TRUNCATED 2u /* path count overflowed: paths cut (split) */
#define PP_FN_TRAINED 4u   /* built against a profile: `trained` lists the
                              Ball-Larus ids that profile had run */
#define PP_FN_PPP 8u       /* preferential path profiling: dual counters */
#define PP_FN_HPT 16u      /* __pp_hash_hit counts in the program's Hot
                              Path Table (thesis §5.4), bounded and lossy:
                              what it evicts is reported as dropped */
#define PP_FN_CCT 32u      /* -fprofile-paths=cct: counted per calling
                              context (__pp_enter's record), not in
                              `counters` */
#define PP_FN_IPP 64u      /* -fprofile-paths-ipp: its paths are those of
                              a supergraph (include/pp/ipp.h), interprocedural
                              path segments through the callees its meta
                              names ("CALLEE:S:NODE" nodes) */
#define PP_FN_SAMPLED 128u /* only in .ppc files: a function of a sampled
                              profile (ppprof record), named by its entry
                              address "<object>+0x<offset>" until a report
                              reads the object's symbols; no CFG */
#define PP_FN_DERIVED 256u /* no probes, counters == NULL: a local function
                              with one path, counted by readers from its
                              callers' paths (its metadata's `caller`
                              lines, include/pp/ppd_derive.h) */
#define PP_FN_FLAT_CALLS_FROM_PATHS 512u
                           /* only in descriptors, with ext->inlined: the
                              function has no loop, each call runs one
                              path, and its inlined bodies count no calls
                              word; the runtime takes the sum of their path
                              counts as their calls.  Never in files. */
#define PP_FN_DERIVED_RESTARTS 1024u
                           /* the paths its metadata's `derived_restart`
                              lines name (a computed goto's dispatch
                              block, entered after each bytecode) have no
                              probe: readers count them from the paths
                              that end at the breaks into their blocks
                              (pp_derive_restart_count) */

/* What only some functions have (PPP, a training profile, the hash
   table's inline first probe): out of the descriptor, which every
   function has (descriptors were a quarter of a Ball-Larus
   binary's growth).  Read-only.  */
struct __pp_fn_ext
{
  /* PP_FN_PPP (thesis §3.2.3, §3.6 "Additional checks"): ppp_ids[j] is
     the Ball-Larus id of the interesting path whose PPP id is j (minus the
     function's smallest one), ppp_counts[j] its count; ppp_ids[ppp_size]
     is a sentinel, UINT64_MAX, that no path has.  A path end clamps its
     PPP id to ppp_size and counts in ppp_counts when ppp_ids there equals
     its Ball-Larus id; else it hands the Ball-Larus id to the side table
     (__pp_hash_hit, through __pp_ppp_miss on x86-64).  ppp_ids is
     read-only, so the compiler folds the check where both ids are known.  */
  const uint64_t *ppp_ids; /* [ppp_size + 1], or NULL */
  uint64_t *ppp_counts;    /* [ppp_size + 1] */
  uint64_t ppp_size;
  /* PP_FN_TRAINED: the interesting (tested) paths, ascending: NUM_TRAINED
     little-endian u64 ids at TRAINED_OFFSET in the unit's .pp_meta record
     (see struct __pp_unit).  Only a profile's writer reads them, and
     they can be large (7 MB for one -fprofile-paths-ipp function of
     bzip2): not in the loaded image.  */
  uint64_t trained_offset;
  uint64_t num_trained;
  /* Hash mode without PP_FN_HPT: the inline first probe.  A path end
     computes h = PP_HASH_CACHE_SLOT (id, hash_cache_bits) and, when
     hash_keys[h] == id + 1, counts hash_counts[h]++ in place; else it
     calls the runtime (__pp_hash_hit), which counts the path in its own
     table, or claims hash_keys[h] for it when the slot is free and counts
     that run in hash_counts[h] (an atomic add, as the probes' own with
     -fprofile-update=atomic).  Only the runtime writes hash_keys (once per
     slot): a path's count is hash_counts[h] plus what the runtime's table
     holds.  Both [1 << hash_cache_bits], or NULL.  */
  uint64_t *hash_keys;
  uint64_t *hash_counts;
  /* PP_FN_CCT without metrics, a function that calls nothing, in array
     mode (also with one metric, for a leaf without loops: its time is
     then its caller's): where its bodies that GCC inlined into other
     functions count,
     without a context of their own (plugin/context-lower.cc): NUM_PATHS
     path counters, then the calls, then as many words of the runtime's
     (what it has taken of each already); the runtime adds what is new
     to the function's context under the thread's root at each dump.  */
  uint64_t *inlined;
  /* With hash_keys: log2 of their slots, PP_HASH_CACHE_BITS to
     PP_HASH_CACHE_MAX_BITS; the more paths the function's training ran,
     the more (instrument.cc), so that few of them share a slot.  */
  uint64_t hash_cache_bits;
  /* The function's string operations whose size is not a constant
     (memcpy, mempcpy, memmove, memset, bzero; value-sites.cc numbers
     them): per site, PPD_VALUE_WORDS words (include/pp/ppd.h): the sum
     of its sizes and its calls (GCC's HIST_TYPE_AVERAGE counters), the
     OR of its destination addresses (HIST_TYPE_IOR), and a majority vote
     of its sizes: what -fuse-path-profile hands GCC's expansion of the
     call (the expected size and alignment) and its specialisation to the
     size most calls had.  NUM_VALUES words, or NULL.  */
  uint64_t *values;
  uint64_t num_values;
};

struct __pp_fn_desc
{
  const char *name;       /* the function's assembler name */
  uint64_t num_paths;     /* Ball-Larus paths: valid ids are 0..num_paths-1 */
  uint64_t *counters;     /* [num_paths] in array mode, else NULL */
  /* nmetrics > 0 without PP_FN_CCT, array mode: metrics[id * nmetrics + m]
     accumulates metric m over the executions of path id (PLDI'97 §3.1);
     else NULL.  */
  uint64_t *metrics;
  void *rt_private;       /* runtime's: the hash table (hash mode, and the
                             side table of PPP misses) */
  const struct __pp_fn_ext *ext; /* or NULL: none of it */
  uint32_t cfg_checksum;  /* pp_graph_checksum of the numbered CFG */
  uint32_t flags;         /* PP_FN_* */
  /* The function's CFG in the graph language (doc/graph-language.md),
     packed (pp/meta_pack.h), for path regeneration: META_LEN bytes at
     META_OFFSET in its unit's .pp_meta record (see struct __pp_unit); 0
     bytes: none (hand-written units).  */
  uint32_t meta_len;
  uint32_t meta_offset;
  uint32_t nmetrics;      /* -fprofile-paths-metric: metrics per path (the
                             unit's `metrics` list), 0 without */
  /* PP_FN_CCT: the function's call sites (calls not to GCC's builtins),
     numbered from 0 in statement order; each has a callee slot in the
     function's context records (__pp_slot below).  0: none used.  */
  uint32_t num_sites;
};

/* D's extension field F, or 0 (NULL) when D has none.  */
/* In a .ppd only (the runtime's merge, ppd_merge): an older CFG version of
   a function, displaced by a run of another build of the same object (its
   -O0 build after its -O2 one, or an edit); kept, with its counts, for
   -fuse-path-profile compiles of that CFG, skipped by reports.  */
#define PP_FN_OLDER 0x80000000u
#define PP_FN_EXT(d, f) ((d)->ext ? (d)->ext->f : 0)

#define PP_HASH_CACHE_BITS 12     /* the fewest slots: 4096 */
#define PP_HASH_CACHE_MAX_BITS 16 /* the most: 65536 (1 MB of keys and
                                     counts) */
/* Fibonacci hashing: the top BITS bits of id * 2^64/phi.  */
#define PP_HASH_CACHE_MULT 0x9e3779b97f4a7c15ull
#define PP_HASH_CACHE_SLOT(id, bits) \
  ((uint32_t) (((uint64_t) (id) * PP_HASH_CACHE_MULT) >> (64 - (bits))))

struct __pp_unit
{
  uint32_t abi_version;   /* PP_ABI_VERSION */
  uint32_t num_fns;
  const char *ppd_path;   /* profile path: the object's absolute path with
                             .ppd instead of .o, as gcov's .gcda */
  const char *source;     /* main source file, as given to the compiler */
  struct __pp_fn_desc *fns; /* [num_fns]: fns_end - fns must be num_fns
                               (the runtime refuses the unit otherwise) */
  struct __pp_unit *next; /* runtime's: the list of registered units */
  /* -fprofile-paths-metric=: the events, comma-separated as given
     ("cycles,instructions"), or NULL.  Every unit of a program should
     give the same list; the first registered one sets the program's.  */
  const char *metrics;
  uint32_t flags;         /* PP_UNIT_* */
  uint32_t meta_state;    /* runtime's: PP_META_* */
  /* The unit's functions' metadata is not in the loaded image (it was
     most of an instrumented binary's size): it is a record of
     the non-allocated section PP_META_SECTION of the object, which the
     linker keeps and the loader does not map, as with debug sections.
     The runtime reads it back from the file the unit was loaded from
     when it writes a profile (runtime/meta_section.c).  A record is
       magic "PPM\1", u32 length of the record, u64 key, data
     (little-endian; records are concatenated, unaligned); META_KEY names
     this unit's (a hash of its profile path, source and data).  */
  uint64_t meta_key;
  uint32_t meta_size;     /* the record's data bytes; 0: no record */
  uint32_t reserved;
  const char *rt_meta;    /* runtime's: the record's data, once read */
  struct __pp_fn_desc *fns_end;
};

#define PP_META_SECTION ".pp_meta"
#define PP_META_MAGIC "PPM\001"
#define PP_META_HEADER 16u
/* __pp_unit.meta_state */
#define PP_META_UNREAD 0u
#define PP_META_READ 1u
#define PP_META_MISSING 2u  /* not found; said once */

/* __pp_unit.flags */
#define PP_UNIT_CCT 1u     /* its functions count per calling context */

void __pp_register_unit (struct __pp_unit *unit);
/* Defined by the runtime; every instrumented object refers to it from a
   non-allocated section, so that linking one without the runtime fails
   naming what to do.  */
#define PP_RUNTIME_CHECK_SYMBOL \
  "__pp_runtime_missing__link_with_ppgcc_fprofile_paths"
/* Defined by the runtime's Hot Path Table (runtime/hpt.c); objects with
   PP_FN_HPT functions refer to it the same way, which links it in.  */
#define PP_RUNTIME_HPT_SYMBOL "__pp_hpt_linked"

/* Calling context tree and metrics (PLDI'97 §3.1, §4; runtime/cct.c).

   -fprofile-paths=cct without metrics (PLDI'97 §4.2's callee slots, all
   inline).  A context record of a PP_FN_CCT function with num_sites > 0
   holds, after its counters (PP_CCT_SLOTS (desc) u64s from its token),
   one callee slot per call site (struct __pp_cct_slot).  Every such
   function enters with
     s = __pp_slot; t = s->token;
     if (t[PP_CCT_FN] == &desc && s->key == __builtin_return_address (0))
       { t[s->calls_at]++; tok = t; }
     else
       tok = __pp_enter_slot (&desc, return address, s);
   counts path id with tok[id]++, stores before its call site K
     __pp_slot = (struct __pp_cct_slot *) (tok + PP_CCT_SLOTS (desc)) + K;
   and, when it has call sites, restores __pp_slot = s before each return
   (a caller that runs uninstrumented code calling back, or a signal
   handler, finds its slot as it left it).  __pp_enter_slot finds the
   context: a child of the slot's owner record (the thread's root for the
   slot __pp_slot holds before any store), or its ancestor of the same
   function for a recursive call (§4.1's back edge), counts the call and
   fills the slot with it.  Nothing is pushed and no call is made on a
   hit: the slot is the caller's context, so longjmp, callbacks through
   uninstrumented code and signal handlers need no recovery.  */
struct __pp_cct_slot
{
  uint64_t *token;        /* a callee context's token */
  void *key;              /* the return address it was filled for; NULL
                             while it is being filled, or empty */
  int64_t calls_at;       /* where a call through it counts: token's
                             word PP_CCT_CALLS, PP_CCT_BACK for a
                             recursive call (a back edge) */
  void *owner;            /* runtime's: the record the slot is in */
};
/* The words before a token: */
#define PP_CCT_FN (-1)    /* the record's function */
#define PP_CCT_CALLS (-2) /* its calls, but the next */
#define PP_CCT_BACK (-3)  /* its recursive calls through callee slots */
#define PP_CCT_SLOTS_OF(flags, num_paths, nmetrics)                         \
  (((flags) & PP_FN_CCT) && !((flags) & (PP_FN_HASHED | PP_FN_HPT))         \
       ? (uint64_t) (num_paths) * (1 + (uint64_t) (nmetrics))               \
       : 0)
#define PP_CCT_SLOTS(fn)                                                    \
  PP_CCT_SLOTS_OF ((fn)->flags, (fn)->num_paths, (fn)->nmetrics)
extern __thread struct __pp_cct_slot *__pp_slot;
uint64_t *__pp_enter_slot (struct __pp_fn_desc *fn, void *ret_addr,
                           struct __pp_cct_slot *slot);
/* x86-64: __pp_enter_slot called from inline assembly with FN, RET_ADDR
   and SLOT in %rdi, %rsi, %rdx after stepping over the red zone, the
   token back in %rax; it preserves every other register but the flags
   (runtime/cct_slot_x86_64.S).  */
void __pp_enter_slot_x86 (void);

/* With metrics (PP_FN_CCT or not, nmetrics > 0), a function calls at its
   entry
     tok = __pp_enter (&desc, __builtin_return_address (0),
                       __builtin_frame_address (0));
   and __pp_exit (tok) before each return: the runtime keeps a shadow
   stack of the active calls, which carries each caller's share of the
   metrics (§3.1).  With PP_FN_CCT, TOK points at the counters of this
   call's context record: tok[id] is path id's count (array mode,
   num_paths slots; hash-mode functions get no slots and still call
   __pp_hash_hit), and tok + num_paths its metrics, laid out as `metrics`
   above.  Without PP_FN_CCT, TOK is only handed back to __pp_exit.
   RET_ADDR and FRAME let the runtime tell call sites apart and recover
   the context after longjmp (frames below FRAME are dead).  At a path
   end with metrics:
     __pp_metric_path (&acc[id * nmetrics], nmetrics)
   adds to each accumulator the metric's change since the path started,
   less what the function's callees used (their paths have it).  */
uint64_t *__pp_enter (struct __pp_fn_desc *fn, void *ret_addr, void *frame);
void __pp_exit (uint64_t *tok);
void __pp_metric_path (uint64_t *acc, uint32_t nmetrics);
/* The accounting behind __pp_metric_path, which a one-metric function's
   path end does inline (plugin/context-lower.cc) when __pp_metric_fast
   says the program's one metric is the TSC:
     m = __pp_metric_mark[0]; now = rdtsc (); __pp_metric_mark[0] = now;
     acc[id] += now - m;
   and, for a flat function (whose accumulators its records share),
   tok[PP_CCT_EXCL (0)] += now - m; otherwise it calls
   __pp_metric_path1_at (id, tok, acc) (x86-64; elsewhere
   __pp_metric_path1 (&acc[id], tok)).  A record's exclusive totals are
   its PP_CCT_EXCL words plus its own accumulators, added up when the
   profile is written (runtime/cct_dump.c).  __pp_metric_mark is
   the thread's reading when its current path started, less what the
   path had taken before its calls (§3.1's carry, folded in: an entry
   saves now - mark and sets mark = now, the exit sets mark = now -
   saved).  TOK is the token of any record (PP_FN_CCT or flat): the
   words PP_CCT_EXCL (m) before it are its exclusive totals.  Both
   variables are the runtime's (hidden, per module), the mark
   initial-exec TLS.  */
extern __thread uint64_t __pp_metric_mark[8];
extern int __pp_metric_fast;
#define PP_CCT_EXCL(m) (-11 + (m))
/* Until the lowering: a one-metric path end, __pp_metric_path (acc, 1)
   with the token for the inline form.  Defined by the runtime too.  */
void __pp_metric_path1 (uint64_t *acc, uint64_t *tok);
void __pp_metric_path1_at (uint64_t id, uint64_t *tok, uint64_t *acc);
/* With one metric, a cct function enters by its callee slot as without
   metrics (and a function with calls stores its slots and restores
   __pp_slot at its returns likewise), then
     saved = now - __pp_metric_mark[0]; __pp_metric_mark[0] = now;
   inline when __pp_metric_fast, else saved = __pp_metric_enter1 (); and
   before each return (just after the path end there, which set the mark
   to now) __pp_metric_mark[0] -= saved.  A hash-mode function has no
   metric path ends: its returns call __pp_metric_exit1 (tok, saved),
   inline when __pp_metric_fast as
     tok[PP_CCT_EXCL (0)] += now - mark; mark = now - saved.
   No shadow stack: a longjmp past such calls leaves the mark where the
   last of them set it, and the next path end charges their time since
   their last path end to its own path.  */
uint64_t __pp_metric_enter1 (void);
void __pp_metric_exit1 (uint64_t *tok, uint64_t saved);
void __pp_hash_hit (struct __pp_fn_desc *fn, uint64_t path_id);
/* x86-64: __pp_hash_hit for a PPP miss, called from inline assembly with
   FN in %rdi and the id in %rsi after stepping over the red zone; it
   preserves every register (but the flags), so that the probes' rare miss
   arm does not make the instrumented function save registers around a
   call.  */
void __pp_ppp_miss (void);
/* Writes (merges) every registered unit's profile now and zeroes the
   in-memory counters, so a later dump adds only what ran since.  */
void __pp_dump (void);
/* Zeroes the in-memory counters without writing. */
void __pp_reset (void);

/* The profile flag of -fprofile-paths-switch (runtime/switch.c): probes
   count only while it is set (from the start, unless PPGCC_PROFILE=off).
   With =clone a path counts when the flag was set where it started (the
   function entry or a loop header), with =check when it is set where the
   path ends.  */
extern volatile int __pp_on;
void __pp_profile_on (void);
void __pp_profile_off (void);

#ifdef __cplusplus
}
#endif
#endif
