/* The interface between instrumented objects and the libpprt runtime.

   For each translation unit the plugin emits (all with internal linkage):
     - per instrumented function a counter array (array mode) and a
       struct __pp_fn_desc;
     - one struct __pp_unit pointing at them;
     - a constructor calling __pp_register_unit (&unit).
   At a path end the probe does counters[id]++ (array mode) or calls
   __pp_hash_hit (desc, id) (hash mode, functions with many paths); with
   preferential path profiling it counts in ppp_slots (see below).

   Only __pp_-prefixed symbols are global in the runtime.  Any layout change
   bumps PP_ABI_VERSION; the runtime refuses units of another version with a
   message, it never guesses.  */
#ifndef PP_RT_ABI_H
#define PP_RT_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PP_ABI_VERSION 2u

/* __pp_fn_desc.flags */
#define PP_FN_HASHED 1u    /* counters == NULL: paths go to the hash table */
#define PP_FN_TRUNCATED 2u /* path count overflowed: paths cut (split) */
#define PP_FN_TRAINED 4u   /* built against a profile: `trained` lists the
                              Ball-Larus ids that profile had run */
#define PP_FN_PPP 8u       /* preferential path profiling: dual counters */

struct __pp_fn_desc
{
  const char *name;       /* the function's assembler name */
  uint32_t cfg_checksum;  /* pp_graph_checksum of the numbered CFG */
  uint32_t flags;         /* PP_FN_* */
  uint64_t num_paths;     /* Ball-Larus paths: valid ids are 0..num_paths-1 */
  uint64_t *counters;     /* [num_paths] in array mode, else NULL */
  const char *meta;       /* the function's CFG in the graph language
                             (doc/graph-language.md): for path regeneration */
  uint32_t meta_len;
  uint32_t reserved;
  void *rt_private;       /* runtime's: the hash table (hash mode, and the
                             side table of PPP misses) */
  /* PP_FN_PPP (thesis §3.2.3, §3.6): slot j of the PPP array is
     ppp_slots[2j] = the Ball-Larus id of the interesting path numbered j,
     ppp_slots[2j+1] = its count; slot ppp_size is a sentinel whose id,
     UINT64_MAX, no path has.  A path end clamps its PPP id to ppp_size,
     and counts in the slot when the slot's id equals its Ball-Larus id,
     else calls __pp_hash_hit with the Ball-Larus id.  */
  uint64_t *ppp_slots;    /* [2 * (ppp_size + 1)], or NULL */
  uint64_t ppp_size;
  /* PP_FN_TRAINED: the interesting (tested) paths, ascending.  */
  const uint64_t *trained;
  uint64_t num_trained;
};

struct __pp_unit
{
  uint32_t abi_version;   /* PP_ABI_VERSION */
  uint32_t num_fns;
  const char *ppd_path;   /* profile path: the object's absolute path with
                             .ppd instead of .o, as gcov's .gcda */
  const char *source;     /* main source file, as given to the compiler */
  struct __pp_fn_desc *const *fns; /* [num_fns] */
  struct __pp_unit *next; /* runtime's: the list of registered units */
};

void __pp_register_unit (struct __pp_unit *unit);
void __pp_hash_hit (struct __pp_fn_desc *fn, uint64_t path_id);
/* Writes (merges) every registered unit's profile now and zeroes the
   in-memory counters, so a later dump adds only what ran since.  */
void __pp_dump (void);
/* Zeroes the in-memory counters without writing. */
void __pp_reset (void);

#ifdef __cplusplus
}
#endif
#endif
