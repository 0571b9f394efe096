/* Switchable profiling (paper 003 §II-III): probes that the runtime's
   profile flag __pp_on turns off and on while the program runs
   (runtime/switch.c: __pp_profile_on/off, PPGCC_PROFILE=off,
   PPGCC_SAMPLE bursts, PPGCC_SWITCH_SIGNAL).

   -fprofile-paths-switch=entry (the default, switch-entry.cc): each
   function f gets an instrumented copy f.pp_on, and f, otherwise plain,
   tests the flag once at its entry.  A path is counted when profiling was
   on at the entry of its function's activation.

   -fprofile-paths-switch=check (probes.cc, and entry's fallback for
   functions that cannot be copied or forwarded their arguments): one
   instrumented body, the count at each path end guarded by a test of the
   flag.  A path is counted when profiling is on at its end.

   Chosen by measurement (bench/switch, bench/results/switch.md): with
   profiling off, bzip2 runs -0.1% instructions over gcc -O2 with entry
   against +17.9% with check, whose path registers still run; lua +4.4%
   (3.6% the flag tests at the entries of its small functions called
   from other units, two instructions a call) against +28.9%.  A
   third design, Arnold and Ryder's both
   bodies in one function with tests at the entry and on back edges
   (=clone), was removed: +32.0% off and +94.9% on for bzip2, worse than
   check both ways on bzip2 and lua, because the doubled bodies stopped
   GCC inlining them.  */
#include "plugin.h"

/* The unit's mark for the runtime: `const char __pp_switched = 1', weak
   and hidden, defined once by every object built with switching.  The
   runtime (runtime/switch.c) refers to it weakly: linked in, it tells
   that the flag governs the probes, so that a process in which profiling
   never came on has nothing to write at exit.  */
void
ppgcc_switch_mark_unit ()
{
  static bool done;
  if (done)
    return;
  done = true;
  tree type = build_qualified_type (char_type_node, TYPE_QUAL_CONST);
  tree decl = build_decl (BUILTINS_LOCATION, VAR_DECL,
                          get_identifier ("__pp_switched"), type);
  TREE_PUBLIC (decl) = 1;
  TREE_STATIC (decl) = 1;
  TREE_READONLY (decl) = 1;
  DECL_WEAK (decl) = 1;
  DECL_ARTIFICIAL (decl) = 1;
  DECL_VISIBILITY (decl) = VISIBILITY_HIDDEN;
  DECL_VISIBILITY_SPECIFIED (decl) = 1;
  DECL_INITIAL (decl) = build_int_cst (type, 1);
  varpool_node::finalize_decl (decl);
  varpool_node *node = varpool_node::get (decl);
  node->force_output = true;
  if (!node->analyzed)
    node->analyze ();
}

tree
ppgcc_profile_flag ()
{
  static tree decl;
  ppgcc_switch_mark_unit ();
  if (!decl)
    {
      tree type = build_qualified_type (integer_type_node,
                                        TYPE_QUAL_VOLATILE);
      /* The runtime's is hidden: each shared object has its own.  */
      decl = ppgcc_hidden_extern_var ("__pp_on", type);
      TREE_THIS_VOLATILE (decl) = 1;
    }
  return decl;
}
