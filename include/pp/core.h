/* ppgcc core: control-flow graphs, Ball-Larus and preferential path numbering,
   counter placement and path regeneration.  Plain C11, no GCC headers: the
   plugin, the tools and the unit tests all drive the same code.

   Specification: K. Vaswani, "Efficient Online Path Profiling" (thesis) §3.2,
   §3.3 and §3.6; Ammons, Ball, Larus, PLDI'97 §2.  */
#ifndef PP_CORE_H
#define PP_CORE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t pp_pathid;

/* ------------------------------------------------------------------ graph */

/* An edge that cannot carry a probe (abnormal or EH edge in GCC terms): paths
   end in its source block and start again at its destination.  */
#define PP_EDGE_ABNORMAL 1u

typedef struct pp_graph pp_graph;

pp_graph *pp_graph_new (void);
void pp_graph_free (pp_graph *g);
/* Adds a node; NAME is copied (NULL gives "n<id>").  Returns its id (0, 1, ...). */
int pp_graph_add_node (pp_graph *g, const char *name);
/* Adds an edge SRC->DST; out-edges keep their insertion order, which fixes the
   numbering.  WEIGHT is an execution-count estimate for counter placement,
   negative when unknown.  Returns the edge id (0, 1, ...), or -1 on a bad node. */
int pp_graph_add_edge (pp_graph *g, int src, int dst, unsigned flags,
                       double weight);
void pp_graph_set_entry (pp_graph *g, int node);
void pp_graph_set_exit (pp_graph *g, int node);
/* Optional per-node source lines, for reports (first..last, 0 if unknown). */
void pp_graph_set_lines (pp_graph *g, int node, unsigned first, unsigned last);

/* Optional branch information, for reports; like names and lines it is
   not part of the checksum.  A node ending in a condition records where
   the condition is (LINE 0: none; COL 0: unknown); each of its out-edges
   records which way it goes: the true or false edge of a two-way
   condition, or a switch's case (TEXT: its labels as written, e.g. "3",
   "1...3", "2,4", "default"; NULL or "" when too many to list).  */
enum { PP_BRANCH_NONE, PP_BRANCH_TRUE, PP_BRANCH_FALSE, PP_BRANCH_CASE };
void pp_graph_set_cond (pp_graph *g, int node, unsigned line, unsigned col);
void pp_graph_node_cond (const pp_graph *g, int node, unsigned *line,
                         unsigned *col);
void pp_graph_set_edge_branch (pp_graph *g, int edge, int kind,
                               const char *text);
/* PP_BRANCH_*; *TEXT (TEXT may be NULL) the case labels or NULL.  */
int pp_graph_edge_branch (const pp_graph *g, int edge, const char **text);

int pp_graph_num_nodes (const pp_graph *g);
int pp_graph_num_edges (const pp_graph *g);
int pp_graph_entry (const pp_graph *g);   /* -1 when unset */
int pp_graph_exit (const pp_graph *g);
const char *pp_graph_node_name (const pp_graph *g, int node);
int pp_graph_find_node (const pp_graph *g, const char *name); /* -1: none */
void pp_graph_node_lines (const pp_graph *g, int node, unsigned *first,
                          unsigned *last);
int pp_graph_edge_src (const pp_graph *g, int edge);
int pp_graph_edge_dst (const pp_graph *g, int edge);
unsigned pp_graph_edge_flags (const pp_graph *g, int edge);
double pp_graph_edge_weight (const pp_graph *g, int edge);
/* Sets an edge's execution-count estimate (negative: unknown), e.g. from a
   profile, for counter placement; the numbering does not depend on it.  */
void pp_graph_set_edge_weight (pp_graph *g, int edge, double weight);
/* The edge SRC->DST (the first one when there are several), or -1. */
int pp_graph_find_edge (const pp_graph *g, int src, int dst);

/* A 32-bit checksum of the graph's shape (nodes, edges in order, flags,
   entry, exit): the CFG checksum a profile is matched against.  */
uint32_t pp_graph_checksum (const pp_graph *g);

/* -------------------------------------------------------------- numbering */

/* How a DAG edge came to be (PLDI'97 §2.2).  */
typedef enum
{
  PP_DAG_REAL,  /* a CFG edge kept in the DAG */
  PP_DAG_ENTRY, /* pseudo edge ENTRY->w: a path starts again at w */
  PP_DAG_EXIT   /* pseudo edge v->EXIT: a path ends at v */
} pp_dag_kind;

typedef struct
{
  int src, dst;      /* graph nodes */
  pp_dag_kind kind;
  int cfg_edge;      /* PP_DAG_REAL: the graph edge; otherwise -1 */
  pp_pathid val;     /* Ball-Larus weight (thesis Fig 3.1) */
  pp_pathid inc;     /* chord increment, modulo 2^64; 0 on spanning-tree edges */
  int chord;         /* 1 when off the maximum spanning tree */
  int ppp_set;       /* 0: PPP weight undefined (bottom), treated as 0 */
  int64_t ppp;       /* PPP weight (thesis Fig 3.10) */
  pp_pathid ppp_inc; /* PPP chord increment, same chords as inc */
} pp_dag_edge;

/* Why a CFG edge is not an ordinary DAG edge.  */
typedef enum
{
  PP_CFG_DAG,      /* kept: dag_edge says which */
  PP_CFG_BREAK,    /* back edge, or edge into a restart node: the path ends
                      at the source (exit_edge) and restarts at the
                      destination (entry_edge) */
  PP_CFG_UNREACHED /* source unreachable from ENTRY: never instrumented */
} pp_cfg_role;

/* Reasons a node starts paths afresh.  */
#define PP_NODE_RESTART_ABNORMAL 1u  /* has an abnormal in-edge */
#define PP_NODE_RESTART_CUT 2u       /* entered by an edge cut to keep the
                                        path count in range */
#define PP_NODE_END_IN_BLOCK 4u      /* paths end inside it: abnormal out-edge,
                                        or no successor (noreturn call) */
#define PP_NODE_UNREACHED 8u

typedef struct
{
  pp_cfg_role role;
  int dag_edge;   /* PP_CFG_DAG */
  int exit_edge;  /* PP_CFG_BREAK: the pseudo edge src->EXIT */
  int entry_edge; /* PP_CFG_BREAK: the pseudo edge ENTRY->dst */
  int back;       /* 1 for a DFS back edge */
} pp_cfg_edge_info;

typedef struct
{
  int entry, exit;
  int num_nodes;              /* graph nodes */
  int num_cfg_edges;          /* graph edges */
  pp_cfg_edge_info *cfg;      /* [num_cfg_edges] */
  unsigned *node_flags;       /* [num_nodes], PP_NODE_* */
  pp_pathid *npaths;          /* [num_nodes]: paths from the node to EXIT */
  int *node_exit_edge;        /* [num_nodes]: pseudo edge v->EXIT or -1 */
  int *node_entry_edge;       /* [num_nodes]: pseudo edge ENTRY->v or -1 */
  int num_dag_edges;
  pp_dag_edge *dag;           /* [num_dag_edges] */
  int **out;                  /* [num_nodes]: DAG out-edges, -1 terminated */
  int *num_out;               /* [num_nodes]: length of out[v] */
  int *topo;                  /* reachable nodes in topological order */
  int num_topo;
  pp_pathid num_paths;        /* Ball-Larus paths ENTRY->EXIT (N_s) */
  int num_cuts;               /* CFG edges cut for overflow (0: none) */
  /* PPP, after pp_ppp (): */
  int ppp_done;
  int64_t ppp_min, ppp_max;   /* range of PPP ids of the interesting paths */
  double delta;               /* compactness (Problem A); 0 when no paths */
} pp_numbering;

typedef struct
{
  /* Largest number of paths a function may have; 0 means 2^64-1.  Beyond it
     the graph is cut (paths truncated at chosen nodes), never wrapped.  */
  pp_pathid max_paths;
  /* How the cuts under MAX_PATHS are chosen (lib/dag.c).  PP_CUT_SHARE:
     every node keeps at most MAX_PATHS over the number of nodes, its
     heaviest out-edges cut until it does (metadata "max_paths N").
     PP_CUT_FITTED (metadata "max_paths N fitted", what the plugin numbers
     with): the largest such share whose numbering stays within
     MAX_PATHS / PP_CUT_FITTED_PART, and a node over it is cut down to
     1/PP_CUT_DOWN of it.  */
  int cut_rule;
} pp_options;

enum { PP_CUT_SHARE = 0, PP_CUT_FITTED = 1 };
/* The two constants of PP_CUT_FITTED; changing either changes every cut
   function's paths, so it would be a new rule.  Measured (callgrind on
   bench/run's sqlite3 and pcre2 Ball-Larus builds): parts 1, 4, 16 and
   64 against down-to 1, 8 and 64; 16 and 8 were best on both,
   and keep the counter arrays (.bss) below the share rule's.  */
#define PP_CUT_FITTED_PART 16
#define PP_CUT_DOWN 8

/* Builds the DAG and the Ball-Larus numbering.  Returns NULL and writes a
   one-line reason into ERR when the graph cannot be numbered (no entry or
   exit, ...).  */
pp_numbering *pp_number (const pp_graph *g, const pp_options *opt,
                         char *err, size_t errlen);
void pp_numbering_free (pp_numbering *n);

/* Ball-Larus id of a path given as DAG edges (sum of val). */
pp_pathid pp_path_bl (const pp_numbering *n, const int *dag_edges, int len);
/* PPP id of a path given as DAG edges (sum of ppp, bottom as 0). */
int64_t pp_path_ppp (const pp_numbering *n, const int *dag_edges, int len);

/* Converts a node sequence ENTRY..EXIT into DAG edges, real edges preferred
   over pseudo ones.  Returns the length, or -1 (with ERR) when the sequence is
   not a path of the DAG.  *OUT is malloc'd.  */
int pp_path_from_nodes (const pp_numbering *n, const int *nodes, int len,
                        int **out, char *err, size_t errlen);

/* Path regeneration: the DAG edges of Ball-Larus path ID.  Returns the
   length (*OUT malloc'd), or -1 when ID >= num_paths.  */
int pp_regenerate (const pp_numbering *n, pp_pathid id, int **out);

/* Preferential path profiling (thesis Fig 3.10) for the interesting paths
   given by Ball-Larus id.  Fills dag[].ppp/ppp_set, ppp_min/max and delta;
   PPP_IDS (may be NULL) receives each path's PPP id.  Returns 0, or -1 with
   ERR (an id out of range, arithmetic overflow).  */
int pp_ppp (pp_numbering *n, const pp_pathid *ids, int nids, int64_t *ppp_ids,
            char *err, size_t errlen);

/* Block and edge counts from a path profile (NPATHS Ball-Larus IDS with
   their COUNTS): NODE_COUNT[num_nodes], EDGE_COUNT[num_cfg_edges]; KNOWN
   [num_cfg_edges] is set for the edges whose count the profile determines
   (the others, left 0, lie where flow is not conserved: after a noreturn
   call, around abnormal edges).  Counts saturate.  Returns 0, or -1 when an
   id is out of range.  */
int pp_counts_from_paths (const pp_numbering *n, const pp_graph *g,
                          const pp_pathid *ids, const uint64_t *counts,
                          size_t npaths, uint64_t *node_count,
                          uint64_t *edge_count, char *known);

/* ----------------------------------------------------- counter placement */

/* Chooses chords (edges off a maximum spanning tree, weights from the graph
   or static loop-depth estimates) and computes inc/ppp_inc so that the sum of
   the increments along any path equals its id (thesis §3.6, "Counter
   optimizations").  Called by pp_plan; exposed for tests.  */
void pp_place_chords (pp_numbering *n, const pp_graph *g);

typedef enum { PP_REG_NONE, PP_REG_ADD, PP_REG_SET } pp_reg_op;

typedef enum
{
  PP_AT_EDGE,       /* on CFG edge `edge` (split when needed) */
  PP_AT_BLOCK_END   /* in `block`, before its last statement when that one
                       transfers control (call, jump), else at its end */
} pp_probe_where;

/* One probe.  Executed as: if (count) counter[index]++ where index is
   reg + count_off (count_uses_reg) or the constant count_off; then the
   register operations.  reg[0] is the Ball-Larus register, reg[1] the PPP
   register (only when the numbering has PPP weights).  */
typedef struct
{
  pp_probe_where where;
  int edge;                /* PP_AT_EDGE */
  int block;               /* PP_AT_BLOCK_END */
  int count;
  int count_uses_reg;
  pp_pathid count_off;     /* BL index offset */
  pp_pathid ppp_count_off; /* PPP index offset (same use of the register) */
  int ppp_count_uses_reg;
  pp_reg_op op[2];
  pp_pathid val[2];
  /* Loops whose paths are counted in a local counter (pp_plan_loops);
     loop numbers start at 1, 0: none.  Entering loop LOOP_INIT zeroes its
     counter, after the rest of the probe; each trip round LOOP_STEP's back
     edge adds one to it.  Leaving LOOP_FLUSH, before the rest of the
     probe: when the counter c is not zero, counter[LOOP_FIRST (+ reg when
     LOOP_FIRST_USES_REG)] += 1 (the first trip, from the path's start),
     counter[LOOP_STEADY] += c - 1 (the trips from the header) and, with
     LOOP_REG, reg = LOOP_RESTART; then, with LOOP_REG, reg += LOOP_OFF
     (the register as the probes it replaced would have left it).  */
  int loop_init, loop_step, loop_flush;
  int loop_first_uses_reg;
  int loop_reg;
  pp_pathid loop_first, loop_steady, loop_restart, loop_off;
} pp_probe;

/* The probes for a numbering: increments on chords only, initialisation
   pushed down and merged with the first increment, the counter update at
   each path end.  Returns the number of probes, *OUT malloc'd.  */
int pp_plan (pp_numbering *n, const pp_graph *g, pp_probe **out);
/* The same, and a path end at a node whose register value is unknown is
   counted on its in-edges instead, where COUNT_EARLY[node] says the node's
   block always runs to its end once entered (no call or asm in it); NULL:
   nowhere.  */
int pp_plan_early (pp_numbering *n, const pp_graph *g,
                   const char *count_early, pp_probe **out);
/* The same, and the path that restarts at a node and ends in its block
   (a computed goto's dispatch block, entered after every bytecode) is
   left to readers where pp_restart_derivable holds and COUNT_EARLY says
   the block runs to its end: DERIVED[num_nodes] (may be NULL: nowhere)
   receives 1 for such nodes, whose restart path no probe counts and
   whose in-edges set no register.  */
int pp_plan_derived (pp_numbering *n, const pp_graph *g,
                     const char *count_early, char *derived, pp_probe **out);
/* The same, and the paths of a single-path loop are counted in a local
   counter (a register), stored when the loop is left: an innermost loop
   whose body is one path from its header to its one back edge, through
   blocks of COUNT_EARLY with no path end, break or abnormal edge inside,
   left by DAG edges only, at most MAX_EXITS of them (0: no loop).  A trip round it then costs one
   register increment (or none, where GCC derives the counter from the
   loop's induction variable) instead of a count and a restart of the
   path register; leaving it costs a test and, when it went round, two
   counts.  What the loop counted is in memory whenever it has been left;
   an asynchronous signal whose handler leaves the loop by longjmp, or
   exits the program, loses the trips counted since it was entered.
   Returns the number of probes; *LOOPS (may be NULL) the loops
   promoted, numbered 1..*LOOPS in the probes.  */
int pp_plan_loops (pp_numbering *n, const pp_graph *g,
                   const char *count_early, char *derived, int max_exits,
                   int *loops, pp_probe **out);

/* Whether the path that restarts at NODE and ends in its block runs
   exactly as often as the paths that end at a break (back or cut) edge
   into NODE: NODE ends every path in its block (no DAG successor), has
   no abnormal in-edge, and the source of each break into it ends paths
   only by breaks into NODE, so that their ids tell these traversals
   apart.  */
int pp_restart_derivable (const pp_numbering *n, const pp_graph *g, int node);
/* The Ball-Larus id of that path (ENTRY->NODE->EXIT by pseudo edges).  */
pp_pathid pp_restart_path_id (const pp_numbering *n, int node);
/* Its count from a path profile (NPATHS IDS with COUNTS): the sum of the
   counts of the paths ending at a break into NODE.  Returns 0, or -1 when
   NODE is not derivable or an id is out of range.  Counts saturate.  */
int pp_derive_restart_count (const pp_numbering *n, const pp_graph *g,
                             int node, const pp_pathid *ids,
                             const uint64_t *counts, size_t npaths,
                             uint64_t *count);

/* Simulates the probes along a walk of CFG edges from ENTRY to EXIT (or to a
   node whose paths end in the block).  Calls SINK with each counted BL and PPP
   index.  For tests: this is what the instrumented program computes.  */
typedef void (*pp_count_sink) (void *ctx, pp_pathid bl, pp_pathid ppp);
int pp_simulate (const pp_numbering *n, const pp_probe *probes, int nprobes,
                 const int *cfg_edges, int len, pp_count_sink sink, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
