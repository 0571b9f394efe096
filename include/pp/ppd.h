/* The .ppd profile format, and the codec shared by the runtime and tools.

   A .ppd file (little-endian):
     magic      4 bytes  "PPD\x01"
     version    u32      PPD_VERSION
     length     u64      bytes of payload that follow the header
     checksum   u64      pp_sum64_lanes of the payload (lib/file_io.c;
                         version 3: pp_sum64; versions 1 and 2: FNV-1a 64),
                         against truncation, corruption
     payload:
       runs     u64      program runs merged into this file
       sum_max  u64      (version 2) the most path executions of one
                         function of the whole program in a run, summed over
                         the runs (as gcov's sum_max): what counts as hot
       source   str      main source file of the object
       nfns     u32
       nfns x function:
         name       str
         checksum   u32   CFG checksum (pp_graph_checksum)
         flags      u32   PP_FN_* (include/pp/rt_abi.h)
         num_paths  u64
         dropped    u64   path ends the runtime could not record
         meta       str   the function's CFG (doc/graph-language.md)
         npairs     u64
         npairs x (id u64, count u64), ids ascending, counts non-zero
         ntrained   u64   (version 2) the Ball-Larus ids of the paths the
         ntrained x u64   profile in use had run (flag PP_FN_TRAINED),
                          ascending: what residual reports are against
         nvalues    u64   (version 6) the function's value profiles:
         nvalues x u64    per string-operation site, PPD_VALUE_WORDS:
                          the sum of its sizes, its calls, the OR of its
                          destination addresses, its majority size and
                          that size's votes (__pp_fn_ext.values)
       nprogs   u32      (version 5) the programs whose runs wrote the
       nprogs x program: file, names ascending, at most PPD_MAX_PROGS:
         name       str   the program's path (/proc/self/exe), "" for
                          the runs of programs past the first
                          PPD_MAX_PROGS
         runs       u64   how many of the file's runs were its
   where str is u32 length + bytes (no terminator).  Version 1 files (no
   trained list), version 2 files (FNV-1a 64), version 3 files
   (pp_sum64), version 4 files (no programs) and version 5 files (no
   value profiles) are still read.

   The programs let ppprof say when the objects of one program hold
   different numbers of its runs (stale profiles of an earlier build
   merged with new ones, an object loaded by some runs only).

   Counts add saturating at 2^64-1, never wrap.  */
#ifndef PP_PPD_H
#define PP_PPD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PPD_MAGIC "PPD\x01"
#define PPD_VERSION 6u
#define PPD_HEADER_SIZE 24

typedef struct
{
  uint64_t id, count;
} ppd_pair;

typedef struct
{
  char *name;
  uint32_t checksum, flags;
  uint64_t num_paths, dropped;
  char *meta;
  uint32_t meta_len;
  ppd_pair *pairs;
  uint64_t npairs;
  uint64_t *trained;   /* PP_FN_TRAINED: paths run in the profile in use */
  uint64_t ntrained;
  uint64_t *values;    /* value profiles (version 6): PPD_VALUE_WORDS
                          per site */
  uint64_t nvalues;
} ppd_fn;

/* Words per string-operation site in ppd_fn.values: the sum of its
   sizes, its calls, the OR of its destination addresses, and the size
   most of its calls had with its votes (a majority vote, Boyer and
   Moore's: a call of that size adds one, of another takes one away, the
   next call of a site with none becomes the candidate).  Sizes and calls
   add, addresses OR, and two candidates' votes cancel as in the vote.  */
#define PPD_VALUE_WORDS 5
#define PPD_VALUE_SUM 0
#define PPD_VALUE_CALLS 1
#define PPD_VALUE_ADDRESSES 2
#define PPD_VALUE_MAJORITY 3
#define PPD_VALUE_VOTES 4
static inline uint64_t
ppd_add_sat64 (uint64_t a, uint64_t b)
{
  return a + b < a ? UINT64_MAX : a + b;
}
/* Adds one site's words FROM into INTO.  */
static inline void
ppd_value_merge_site (uint64_t *into, const uint64_t *from)
{
  into[PPD_VALUE_SUM] = ppd_add_sat64 (into[PPD_VALUE_SUM],
                                       from[PPD_VALUE_SUM]);
  into[PPD_VALUE_CALLS] = ppd_add_sat64 (into[PPD_VALUE_CALLS],
                                         from[PPD_VALUE_CALLS]);
  into[PPD_VALUE_ADDRESSES] |= from[PPD_VALUE_ADDRESSES];
  if (into[PPD_VALUE_MAJORITY] == from[PPD_VALUE_MAJORITY])
    into[PPD_VALUE_VOTES] = ppd_add_sat64 (into[PPD_VALUE_VOTES],
                                           from[PPD_VALUE_VOTES]);
  else if (into[PPD_VALUE_VOTES] >= from[PPD_VALUE_VOTES])
    into[PPD_VALUE_VOTES] -= from[PPD_VALUE_VOTES];
  else
    {
      into[PPD_VALUE_MAJORITY] = from[PPD_VALUE_MAJORITY];
      into[PPD_VALUE_VOTES] = from[PPD_VALUE_VOTES] - into[PPD_VALUE_VOTES];
    }
}

/* A program whose runs wrote a profile (version 5), and how many.  */
typedef struct
{
  char *name;
  uint64_t runs;
} ppd_prog;

/* Programs a file names at most; the runs of more are the "" entry's.  */
#define PPD_MAX_PROGS 32

typedef struct
{
  uint64_t runs;
  uint64_t sum_max;
  char *source;
  uint32_t nfns;
  ppd_fn *fns;
  uint32_t nprogs; /* ascending by name (version 5; older files: 0) */
  ppd_prog *progs;
} ppd_profile;

/* The codec is written once (lib/ppd_read.c, ppd_write.c, ppd_merge.c)
   and compiled twice: into the core library for the tools, and into the
   runtime with every function static, so that user programs get no
   symbol but __pp_ ones.  */
#ifndef PPD_API
#define PPD_API
#endif

/* Decodes a whole file image.  Returns 0, or -1 with *WHY set to a static
   reason ("not a ppgcc profile", "truncated", ...), or PPD_OOM (*WHY "out
   of memory") when memory ran out: the image may be a sound profile.  */
#define PPD_OOM (-2)
PPD_API int ppd_decode (const unsigned char *buf, size_t len,
                        ppd_profile *out, const char **why);
/* The header and checksum of a whole file image: its version, or 0 with
   *WHY set.  */
PPD_API uint32_t ppd_check (const unsigned char *buf, size_t len,
                            const char **why);
/* Merges NOW (one object's profile) into OLD, a checked file image of
   the current version, straight from OLD's bytes: when OLD holds exactly
   NOW's functions in NOW's order (same names and checksums, none
   PP_FN_OLDER, names distinct), *OUT (malloc'd, *OUT_LEN bytes) is what
   ppd_encode would make of ppd_merge (decoded OLD, NOW), without decoding
   and copying OLD's names and metadata (the runtime's dump).
   Returns 0; 1 when OLD is laid out otherwise (or damaged): merge the
   long way; -1 when out of memory.  */
PPD_API int ppd_merge_encoded (const unsigned char *old, size_t len,
                               const ppd_profile *now, unsigned char **out,
                               size_t *out_len);
/* Encodes into a malloc'd buffer.  Returns 0, or -1 when out of memory.  */
PPD_API int ppd_encode (const ppd_profile *p, unsigned char **buf,
                        size_t *len);
PPD_API void ppd_free (ppd_profile *p);
/* Adds FROM into INTO, two profiles of one object (the runtime: this run
   into the object's file), function by function (by name: unique in an
   object), pairs by id, trained sets by union, value profiles site by
   site (ppd_value_merge_site).  A function whose checksum differs is another build's CFG of it
   (another -O level, or an edit):
   FROM's becomes the current record and INTO's is kept beside it, flagged
   PP_FN_OLDER, so that a -fuse-path-profile compile of either CFG finds its
   counts; at most PPD_MAX_VERSIONS records per name (the oldest goes, after
   calling WARN, which may be NULL).  Returns 0, or -1 when out of memory
   (INTO then partly merged, consistent).  */
#define PPD_MAX_VERSIONS 4
PPD_API int ppd_merge (ppd_profile *into, const ppd_profile *from,
                       void (*warn) (void *ctx, const char *fn_name),
                       void *ctx);
/* The same for profiles of any objects (ppprof merge): a merged profile
   lists the functions of all of them, each told apart by its name, source
   file (its metadata's `file`) and CFG checksum, as ppprof report does.
   The same three add up (a header's static inline function in several
   objects); any other function is kept beside them, never replaced: two
   objects' static functions of one name, or one function before and
   after a change.  -fuse-path-profile picks by all three.  */
PPD_API int ppd_merge_objects (ppd_profile *into, const ppd_profile *from);
/* The union of two ascending id lists (trained sets) in a new malloc'd
   array of *N ids; NULL when out of memory.  */
PPD_API uint64_t *ppd_union_ids (const uint64_t *a, uint64_t na,
                                 const uint64_t *b, uint64_t nb, uint64_t *n);
/* The bytes a .ppd file holds by its header, HEAD (N bytes, at least
   PPD_HEADER_SIZE): the header and the payload length it gives; 0 when
   HEAD is not a .ppd header.  What a reader reads of a file at most
   (pp_read_bounded_file): bytes after it are not the profile's.  */
PPD_API uint64_t ppd_file_size (const unsigned char *head, size_t n);
/* Reads and decodes a file, no further than its header says it goes;
   when it is torn (shorter or longer than its header says, or failing its
   checksum) and a whole journal of an overwrite is beside it, that.
   Returns 0, 1 when it does not exist, or -1 with *WHY ("trailing bytes
   after the profile" when the file is longer than that).  */
PPD_API int ppd_read_file (const char *path, ppd_profile *out,
                           const char **why);
/* Writes atomically: a temporary file in the same directory, fsync (in
   the runtime only under PPGCC_FSYNC=1: lib/file_io.c), rename.  Returns
   0 or -1 (errno set).  */
PPD_API int ppd_write_file (const char *path, const ppd_profile *p);
/* Writes over PATH in place, its inode kept, for a writer holding PATH's
   lock (the runtime): the new image goes to a temporary first, which
   stays as a journal until PATH is whole again (lib/file_io.c,
   pp_write_file_in_place; ppd_read_file reads that journal while PATH
   is torn).  Returns 0 or -1 (errno set).  */
PPD_API int ppd_rewrite_file (const char *path, const ppd_profile *p);

#ifdef __cplusplus
}
#endif
#endif
