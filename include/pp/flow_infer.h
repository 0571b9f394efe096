/* Profile inference: block and edge counts that obey flow conservation,
   as close as can be to noisy block readings (timer samples per
   instruction), by minimum-cost flow (Levin et al., "Profile inference
   revisited", POPL'22: LLVM's profi does the same for sampled
   profiles).  plugin/sample-use.cc uses it on each sampled function's
   CFG.  */
#ifndef PP_FLOW_INFER_H
#define PP_FLOW_INFER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A CFG edge, blocks numbered 0..n-1.  */
typedef struct
{
  int src, dst;
} pp_fi_edge;

/* READING[b]: block b's measured count, or -1 when nothing is known of
   it.  ENTRY: the block the function starts at; a block with no
   successor in EDGES, or with EXITS[b] set, ends it (EXITS may be NULL).
   Writes each block's inferred count to BLOCK[n] and each edge's to
   EDGE[nedges]: every block's count is the sum of its incoming edges'
   (plus the function's entries, for ENTRY) and of its outgoing ones
   (plus its exits).  A block no path from ENTRY reaches counts 0.
   Returns 0, or -1 out of memory (BLOCK and EDGE then hold zeros).  */
int pp_flow_infer (int n, int entry, const int64_t *reading,
                   const unsigned char *exits, size_t nedges,
                   const pp_fi_edge *edges, int64_t *block, int64_t *edge);

#ifdef __cplusplus
}
#endif
#endif
