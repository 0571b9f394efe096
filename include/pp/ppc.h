/* The .ppc context profile: a program's calling context tree (PLDI'97 §4)
   with path counts and metrics per context, and the metrics of flat
   (context-free) metric profiling.  Written by the runtime (runtime/cct.c)
   at exit and on __pp_dump, merged with what the file already holds;
   read by `ppprof cct`, `ppprof folded` and `ppprof report --metric`.

   Where: $PPGCC_CCT_FILE, else the program's absolute path (from
   /proc/self/exe) with ".ppc" appended, under $PPGCC_PREFIX as .ppd files
   are.

   The encoding (lib/ppc_read.c, ppc_write.c, ppc_merge.c;
   doc/ppc-format.md) is a line-based text format with a version, a
   trailing line count and a checksum, so that truncation and corruption
   are detected; files are written atomically (temporary, fsync, rename;
   the runtime syncs only under PPGCC_FSYNC=1).

   The tree: node 0 is the root (fn == PPC_NO_FN); the main thread's entry
   function and every other thread's start routine are its children (the
   threads' trees are merged, context by context).  A node is one calling
   context: its function, the call site it was called from (`site`: the
   return address as "<object basename>+0x<offset>", stable across runs
   of the same binary; "" under the root; "inlined" for a call GCC
   inlined, whose return address is its caller's: one node per function
   there), and its parent.  The objects the sites are in are listed with
   their full path and build id, so that `ppprof cct` can show a site as
   the source line of the call (through the object's debug information,
   while it is there and the same).  Recursion is
   folded onto the ancestor's node (calls counts the recursive calls too,
   `recursive` how many of them were).  Flat metric profiles (no cct) have
   one node per function, under the root, site "".

   Counts add saturating at 2^64-1, never wrap.  */
#ifndef PP_PPC_H
#define PP_PPC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version 2: functions in up to PPC_MAX_VERSIONS CFG versions, the
   older ones flagged PP_FN_OLDER, and each metric's runs.  Version 3: the
   same records, sealed with pp_sum64_lanes instead of FNV-1a (FNV's
   multiply per byte was a tenth of a short program's exit write, once
   over the old file and once over the new).  Versions 1 and 2 are still
   read.  Version 4: a sampled profile's leaf PCs, "leaf" records after a
   node's paths; versions 1 to 3 are still read (without any).  */
#define PPC_VERSION 4u
/* The first word of every .ppc file, before its version: how the runtime
   knows a file it may merge into.  */
#define PPC_MAGIC "ppgcc-context-profile"
#define PPC_NO_FN UINT32_MAX
#define PPC_MAX_METRICS 8
/* CFG versions of one function (name and source) a profile keeps: builds
   at other -O levels, or before an edit (as .ppd files keep them).  */
#define PPC_MAX_VERSIONS 4

/* A function the tree refers to: as in the .ppd (name, CFG checksum,
   PP_FN_* flags, Ball-Larus path count, CFG in the graph language for
   path regeneration), and its unit's main source file.  One function
   (name and source) may have several records, one per CFG checksum (a
   program rebuilt at another -O level, or edited): the contexts of each
   are their own nodes.  Every one but the latest build's is flagged
   PP_FN_OLDER (include/pp/rt_abi.h).  */
typedef struct
{
  char *name;
  uint32_t checksum, flags;
  uint64_t num_paths;
  char *meta;
  uint32_t meta_len;
  /* META holds the record's text as the file has it, escapes and all,
     and is written back as it is: what the runtime's decode gives
     (PPC_ESCAPED_META), which reads a profile only to merge into it and
     write it again (sqlite3: 2 MB of packed metadata, unescaped and
     escaped again on every exit, a fifth of the write).  */
  int meta_escaped;
  char *source;
} ppc_fn;

/* A sampled context's samples at one instruction (DCPI's per-PC
   histogram, Anderson et al., SOSP'97): OFFSET bytes past the start of
   the node's function (its name's "<object>+0x<offset>"), the
   interrupted PC of SAMPLES samples.  */
typedef struct
{
  uint64_t offset, samples;
} ppc_leaf;

/* A path executed in a context: its Ball-Larus id, its count, and each
   metric's accumulated (exclusive) value.  */
typedef struct
{
  uint64_t id, count;
  uint64_t metric[PPC_MAX_METRICS];
} ppc_path;

typedef struct
{
  uint32_t fn;       /* index into fns, or PPC_NO_FN for the root */
  uint32_t parent;   /* index of the parent node; the root: UINT32_MAX */
  char *site;        /* call site key, "" for the root and its children
                        in flat profiles */
  uint64_t calls;    /* entries of the function in this context */
  uint64_t recursive; /* of which recursive calls folded onto this node */
  /* each metric's exclusive total in this context: its paths' metrics
     and what no path end claimed (e.g. a longjmp out of the function) */
  uint64_t excl[PPC_MAX_METRICS];
  ppc_path *paths;   /* ids ascending, counts non-zero */
  uint64_t npaths;
  /* sampled profiles (PP_FN_SAMPLED): samples by interrupted PC, offsets
     ascending, samples non-zero; they add up to at most excl[0] (the
     rest: samples whose PC the sampler had no room for) */
  ppc_leaf *leaves;
  uint64_t nleaves;
} ppc_node;

/* One metric: its name as given to -fprofile-paths-metric ("cycles",
   "instructions", "r01c2", ...), where its figures came from (one of
   "rdpmc", "perf-read", "perf-sw:task-clock", "tsc", "clock_gettime",
   ...: doc/metrics.md), its unit ("events", "ns", "ticks"), and the
   measured cost of the probes in this unit (PLDI'97 §3.2), per
   __pp_enter/__pp_exit pair and per __pp_metric_path, for
   `ppprof --subtract-probes`.  */
typedef struct
{
  char *name;
  char *source;
  char *unit;
  double enter_exit_cost, path_cost;
  /* The runs whose figures the profile holds: the profile's runs, or
     fewer when runs built with other metric lists were merged in (their
     paths count, their values of this metric are 0).  */
  uint64_t runs;
} ppc_metric;

/* An object (executable or shared library) call sites are in: the
   basename their keys use, its full path when the program ran, and its
   GNU build id in hex ("" when it has none).  */
typedef struct
{
  char *name;
  char *path;
  char *build_id;
} ppc_object;

typedef struct
{
  uint64_t runs;
  int cct;           /* 1: a calling context tree; 0: flat metrics */
  uint32_t nmetrics;
  ppc_metric metrics[PPC_MAX_METRICS];
  uint32_t nfns;
  ppc_fn *fns;
  uint32_t nnodes;
  ppc_node *nodes;   /* nodes[0] is the root; parents before children */
  uint32_t nobjects; /* 0 in files written before objects were recorded */
  ppc_object *objects; /* names distinct */
} ppc_profile;

#ifndef PPC_API
#define PPC_API
#endif

/* Decodes a whole file image.  0, or -1 with *WHY a static reason
   ("not a ppgcc context profile", "truncated at line N", ...).  */
PPC_API int ppc_decode (const char *buf, size_t len, ppc_profile *out,
                        const char **why);
/* Encodes into a malloc'd buffer.  0, or -1 when out of memory.  */
PPC_API int ppc_encode (const ppc_profile *p, char **buf, size_t *len);
PPC_API void ppc_free (ppc_profile *p);
/* Adds FROM into INTO: functions by name, source and CFG checksum (up
   to PPC_MAX_VERSIONS checksums of one function are kept; past that the
   oldest version goes with its contexts' subtrees, after WARN), nodes by
   (parent, function, site), paths by id; runs add.  Metrics by name: the
   result has both lists' metrics (INTO's first, in their order), a
   metric only one side has is 0 in the other's figures and counts only
   its runs.  -1 (*WHY set, INTO unchanged) when that makes more than
   PPC_MAX_METRICS, when a metric's units differ, or when a tree meets a
   flat profile.  Objects by name, FROM's path and build id replacing
   INTO's.  0, or -1.  */
PPC_API int ppc_merge (ppc_profile *into, const ppc_profile *from,
                       const char **why);
/* ppc_merge, calling WARN (may be NULL) with the name of each function
   whose oldest CFG version is dropped (a fifth checksum).  Functions are the same when their name and
   source agree (a program may have several static functions of one
   name).  Costs of the probes are averaged over the runs; the sources of
   a metric measured differently in different runs are listed, comma
   separated; the units must agree unless one side is "unavailable".  */
PPC_API int ppc_merge_warn (ppc_profile *into, const ppc_profile *from,
                            void (*warn) (void *ctx, const char *fn_name),
                            void *ctx, const char **why);
/* Reads a file (a torn one from the journal beside it, as ppd_read_file):
   0, 1 when it does not exist, -1 with *WHY.  */
/* NOW merged into the .ppc image OLD (LEN bytes) as text, without
   decoding OLD: the bytes of ppc_decode, ppc_merge and ppc_encode, into a
   new malloc'd *OUT of *OUT_LEN bytes: 0.  1 when it declines (an older
   format, other metrics, another CFG version of a function, ...: merge
   the long way), -1 out of memory.  lib/ppc_merge_text.c.  */
PPC_API int ppc_merge_text (const char *old, size_t len,
                            const ppc_profile *now, char **out,
                            size_t *out_len);

PPC_API int ppc_read_file (const char *path, ppc_profile *out,
                           const char **why);
/* Writes atomically.  0, or -1 (errno set).  */
PPC_API int ppc_write_file (const char *path, const ppc_profile *p);
/* Writes over PATH in place, its inode kept, for a writer holding PATH's
   lock (the runtime), as ppd_rewrite_file does.  0, or -1 (errno set).  */
PPC_API int ppc_rewrite_file (const char *path, const ppc_profile *p);
/* Whether LEN bytes at BUF are a whole .ppc (they decode): how a torn
   profile is told from its journal (lib/file_io.c).  ppc_read.c.  */
PPC_API int ppc_whole (const char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
