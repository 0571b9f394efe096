/* Interprocedural path segments (thesis §3.4): supergraphs.

   A supergraph is a caller's CFG with the CFG of the callee of each chosen
   call site spliced in (thesis Fig 3.12(b)): the block holding the call is
   cut at the call into parts, the part before the call flows into the
   callee's first blocks, the callee's returns flow into the part after
   the call.  Its Ball-Larus paths are the caller's paths with each chosen
   call expanded into a callee path: depth-1 interprocedural path segments
   (with sites inside callee copies, depth k).  Callee loops end and
   restart paths inside the copy as they would in the callee.

   The construction is deterministic: the same graphs and sites give the
   same supergraph, node for node and edge for edge, so the training build,
   the IPPP build, both instrumentation schemes (inline and clone) and the
   tools all number it alike.  */
#ifndef PP_IPP_H
#define PP_IPP_H

#include "pp/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One expanded call.  A call point is one call statement: (parent, node,
   point).  An indirect call point may have several sites (one per
   validated target) and keeps the plain call for the other targets: a
   bypass edge from the part before the call to the part after it.  */
typedef struct
{
  int parent;         /* -1: the caller's graph; else the site whose callee
                         copy holds this call (depth > 1) */
  int node;           /* the block holding the call, in the parent's graph */
  int point;          /* the call's rank among the block's call points,
                         0-based, in statement order */
  const pp_graph *callee;
  const char *callee_name;
  int indirect;       /* the call point keeps its plain call (bypass) */
} pp_ipp_site;

typedef enum
{
  PP_IPP_BODY,    /* an edge of the owner's own graph */
  PP_IPP_CALL,    /* part before a call -> callee copy: the callee's edge
                     ENTRY->x (edge) of site `site` */
  PP_IPP_RETURN,  /* callee copy -> part after the call: the callee's edge
                     x->EXIT (edge) of site `site` */
  PP_IPP_BYPASS   /* part before an indirect call -> part after it: the
                     plain call of call point of site `site` */
} pp_ipp_edge_kind;

typedef struct
{
  int owner;  /* -1: the caller; else the site whose callee copy it is */
  int node;   /* the node in the owner's graph */
  int part;   /* 0: the node up to its first call point; j > 0: after
                 its j-th call point */
} pp_ipp_node;

typedef struct
{
  pp_ipp_edge_kind kind;
  int owner;  /* BODY, BYPASS: whose graph the edge's source is in */
  int edge;   /* BODY: edge of the owner's graph; CALL, RETURN: edge of the
                 site's callee graph; BYPASS: -1 */
  int site;   /* CALL, RETURN, BYPASS: the site; BODY: -1 */
} pp_ipp_edge;

typedef struct
{
  pp_graph *graph;
  int num_nodes, num_edges;
  pp_ipp_node *nodes;   /* [num_nodes] */
  pp_ipp_edge *edges;   /* [num_edges] */
  int num_sites;
  int *site_entry;      /* [num_sites]: supergraph node of the part before
                           the site's call */
  int *site_return;     /* [num_sites]: supergraph node of the part after */
} pp_ipp_supergraph;

/* Node names: the caller's nodes keep their names; the part after a call
   point is "NAME.J"; the nodes of site S's copy of CALLEE are
   "CALLEE:S:NAME".  So a name with a ':' is in a callee, before the first
   ':' is its function (pp_ipp_node_function).  */

/* Builds the supergraph of CALLER with SITES (parents before children;
   a call point's sites adjacent).  Returns NULL with a one-line reason
   in ERR when a site does not fit (a node out of range, a callee without
   entry or exit, points of a block not numbered 0..k-1).  */
pp_ipp_supergraph *pp_ipp_build (const pp_graph *caller,
                                 const pp_ipp_site *sites, int nsites,
                                 char *err, size_t errlen);
void pp_ipp_free (pp_ipp_supergraph *s);

/* The function a supergraph node NAME belongs to: the callee's name
   (length in *LEN) for a copied node, or NULL for the caller's own.  */
const char *pp_ipp_node_function (const char *name, size_t *len);

/* ------------------------------------------------------------ composing */

/* An owner's intraprocedural Ball-Larus profile: the caller's, or the
   callee's of one site.  */
typedef struct
{
  const pp_numbering *n; /* pp_number of the owner's own graph (may be NULL
                            when NIDS is 0) */
  const pp_pathid *ids;  /* its executed Ball-Larus ids */
  size_t nids;
} pp_ipp_profile;

/* The interesting supergraph paths (thesis §3.5.2, "Alternative scheme",
   stage II): the supergraph paths that can have run given only the
   intraprocedural profiles of the caller (CALLER) and of each site's callee
   (SITES[i], nids 0: never ran).  A caller path passing a call point goes
   on through an executed path of one of the point's sites' callees that
   starts at the callee's entry (or through the bypass of an indirect
   point); that path either returns, and the caller path goes on, or ends
   inside the callee, and so does the supergraph path.  A callee path that
   starts again inside the callee (at a loop header) starts a supergraph
   path inside the copy; when it returns, the path goes on with the rest of
   any executed path of the parent through the call's block.  A direct call
   point whose callee never ran (no path from its entry) stops every parent
   path through it.  The mapping is exact on edges: pseudo edges stay
   pseudo, a CALL edge and a parallel BYPASS edge are told apart.

   SN: pp_number of S->graph.  Writes the Ball-Larus ids (in SN) of the
   interesting supergraph paths, ascending and unique, into *OUT (malloc'd;
   NULL when none) and *NOUT.  SN decides: an owner edge that SN does not
   keep as the owner does (a part unreachable after a callee that never
   returns, and the back edges that shifts; overflow cuts) carries no
   interesting path.  Returns 0; 1 when more than CAP paths would be
   produced (then *OUT is NULL, *NOUT 0: the caller falls back); or -1
   with a one-line reason in ERR when the profiles do not fit the
   supergraph (an id out of range, a numbering of another shape).  */
int pp_ipp_compose (const pp_ipp_supergraph *s, const pp_numbering *sn,
                    const pp_ipp_profile *caller, const pp_ipp_profile *sites,
                    size_t cap, pp_pathid **out, size_t *nout, char *err,
                    size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
