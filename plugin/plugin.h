/* ppgcc's GCC plugin: what its files share.  GCC's headers make this C++;
   the algorithms are in lib/ (pp/core.h), this is the adapter.  */
#ifndef PPGCC_PLUGIN_H
#define PPGCC_PLUGIN_H

#include "gcc-plugin.h"
#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "cfg.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "cgraph.h"
#include "stringpool.h"
#include "stor-layout.h"
#include "attribs.h"
#include "varasm.h"
#include "diagnostic-core.h"
#include "builtins.h"
#include "memmodel.h"
#include "langhooks.h"
#include "toplev.h"
#include "output.h"
#include "filenames.h"
#include "gimplify.h"

#include "pp/core.h"

#include <string>
#include <vector>

/* Options, from -fplugin-arg-ppgcc-KEY=VALUE.  */
struct ppgcc_options
{
  unsigned long long array_max = 4096; /* paths above this: hash table */
  bool atomic = false;                 /* -fprofile-update=atomic */
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
};
extern std::vector<ppgcc_fn> ppgcc_fns;

/* cfg-graph.cc: the function's CFG as a core-library graph.  */
struct ppgcc_cfg
{
  pp_graph *graph = nullptr;
  std::vector<basic_block> blocks; /* graph node -> block */
  std::vector<edge> edges;         /* graph edge -> edge */
  ~ppgcc_cfg () { pp_graph_free (graph); }
};
void ppgcc_build_cfg (function *fun, ppgcc_cfg &cfg);
std::string ppgcc_metadata (function *fun, const ppgcc_cfg &cfg,
                            uint32_t checksum);

/* probes.cc: insert the plan's probes.  */
void ppgcc_insert_probes (function *fun, const ppgcc_cfg &cfg,
                          const pp_probe *probes, int nprobes,
                          const ppgcc_fn &fn);

/* emit.cc: variables and the registration constructor.  */
tree ppgcc_u64_type ();
tree ppgcc_new_counters (uint64_t num_paths);
tree ppgcc_new_desc ();
void ppgcc_emit_unit ();

#endif
