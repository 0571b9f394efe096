/* Every GCC header the plugin (and ipp/'s GCC side) uses, in one place:
   the role of the Linux kernel's scripts/gcc-plugins/gcc-common.h.  A
   port to another GCC changes this file: where a spelling differs between
   the GCC versions ppgcc builds with, the difference goes here, guarded by
   BUILDING_GCC_VERSION (bversion.h: major * 1000 + minor), and the
   plugin's files use the one spelling this header gives.  Built and
   tested with GCC 12, 13 and 14.  plugin-version.h, which defines a
   static variable, is for ppgcc-plugin.cc alone:
   PPGCC_PLUGIN_VERSION_CHECK asks for it.  */
#ifndef PPGCC_GCC_COMPAT_H
#define PPGCC_GCC_COMPAT_H

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
#include "cfgloop.h"
#include "ssa.h"
#include "tree-eh.h"
#include "debug.h"
#include "gcov-io.h"
#include "profile.h"
#include "predict.h"
#include "tree-inline.h"
#include "tree-cfgcleanup.h"
#include "tree-iterator.h"
#include "tree-into-ssa.h"
#include "tree-ssa.h"
#include "value-prof.h"
/* The inliner's function summaries (inline-size.cc).  */
#include "alloc-pool.h"
#include "symbol-summary.h"
#include "sreal.h"
#include "ipa-prop.h"
#include "ipa-fnsummary.h"

#include "bversion.h"
#ifdef PPGCC_PLUGIN_VERSION_CHECK
#include "plugin-version.h"
#endif

#if BUILDING_GCC_MAJOR < 12
#error "ppgcc's plugin needs GCC 12 or later"
#endif

/* The last statement of a block that is not a debug statement (NULL if
   there is none): GCC 14 renamed tree-cfg's last_stmt to
   last_nondebug_stmt, with the same body.  */
#if BUILDING_GCC_VERSION < 14000
static inline gimple *
last_nondebug_stmt (basic_block bb)
{
  return last_stmt (bb);
}
#endif

/* Code that must run just before a returns_twice call (setjmp).  Since
   GCC 13.1, gimple_verify_flow_info (with -fchecking) wants such a call
   first in its block when the block has an abnormal predecessor (the
   abnormal dispatcher's edge, GCC's model of the second return).  GCC
   14.1 and 13.3 give gsi_safe_insert_seq_before, which puts the code on
   the call's normal in-edge instead, splitting the block or the edge
   when need be.  GCC 12 neither checks nor has it, and there the code
   stays in the call's block, before it (so does it on 13.1 and 13.2,
   which check: -fchecking rejects a cct build with a setjmp there).
   ppgcc_precedes_returns_twice_p says when the two differ (never on GCC
   12).  */
static inline bool
ppgcc_precedes_returns_twice_p (gimple *stmt)
{
#if BUILDING_GCC_VERSION >= 13003
  return is_gimple_call (stmt)
         && (gimple_call_flags (stmt) & ECF_RETURNS_TWICE)
         && bb_has_abnormal_pred (gimple_bb (stmt));
#else
  (void) stmt;
  return false;
#endif
}

static inline void
ppgcc_safe_insert_seq_before (gimple_stmt_iterator *gsi, gimple_seq seq)
{
#if BUILDING_GCC_VERSION >= 13003
  gsi_safe_insert_seq_before (gsi, seq);
#else
  gsi_insert_seq_before (gsi, seq, GSI_SAME_STMT);
#endif
}

/* The discriminator GCC gave statement S's block of its source line (the
   numbering the debug line table of the same source carries): a field
   of the block in GCC 12, a part of the location from GCC 13.  */
static inline unsigned
ppgcc_stmt_discriminator (gimple *s)
{
#if BUILDING_GCC_VERSION < 13000
  return gimple_bb (s) ? (unsigned) gimple_bb (s)->discriminator : 0;
#else
  return (unsigned) get_discriminator_from_loc (gimple_location (s));
#endif
}

#endif
