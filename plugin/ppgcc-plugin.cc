/* ppgcc: Ball-Larus path profiling as a GCC plugin.

   One GIMPLE pass, right after the CFG is built ("cfg") and before SSA:
   the CFG there is the source's, identical at every -O level, so a
   profile's per-function checksum matches whatever -O the profile is read
   back at (-fuse-path-profile uses this same position).  Branches on a
   static helper's constant return are folded first, in both
   (const-branch.cc).  For each function the pass builds the core
   library's graph, numbers it (pp_number), plans the probes (pp_plan)
   and inserts them (instrument.cc).  The registration
   data and the constructor are emitted once all functions are lowered.

   This file is the entry: plugin_init reads the options (options.cc) and
   registers the passes, which call the rest; nothing calls back here.  */
#define PPGCC_PLUGIN_VERSION_CHECK 1 /* plugin-version.h's gcc_version */
#include "plugin.h"
#include "ppgcc-ipp.h"

#include "pp/optval.h"
#include "pp/rt_abi.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

int plugin_is_GPL_compatible;

namespace {

const pass_data path_profile_pass_data = {
  GIMPLE_PASS,
  "ppgcc_paths",   /* name */
  OPTGROUP_NONE,
  TV_NONE,
  PROP_cfg,        /* properties_required */
  0,               /* properties_provided */
  0,               /* properties_destroyed */
  0,               /* todo_flags_start */
  0,               /* todo_flags_finish */
};

class path_profile_pass : public gimple_opt_pass
{
public:
  path_profile_pass (gcc::context *ctxt)
      : gimple_opt_pass (path_profile_pass_data, ctxt)
  {
  }
  bool gate (function *fun) final override
  {
    /* With -fprofile-paths-ipp the whole unit is instrumented at once,
       when every body is there (ipp/gcc-unit.cc).  */
    if (seen_error () || ppgcc_opts.ipp != ppgcc_options::IPP_NONE)
      return false;
    if (ppgcc_inline_only_p (fun) && ppgcc_opts.opt_info)
      inform (DECL_SOURCE_LOCATION (fun->decl),
              "ppgcc: %qs: not instrumented: an inline body without an "
              "external definition in this unit (GCC only inlines it)",
              IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fun->decl)));
    return !ppgcc_skip_function (fun);
  }
  unsigned int execute (function *fun) final override
  {
    ppgcc_fold_constant_call_branches (fun);
    ppgcc_split_tail_returns (fun);
    if (ppgcc_opts.mode == PPGCC_MODE_USE)
      ppgcc_use_profile (fun);
    else
      ppgcc_instrument_function (fun);
    return 0;
  }
};

} // namespace

/* -fuse-path-profile: one byte in the non-allocated section .pp_use, 1
   when the unit found its profile, 0 when not, so that ppgcc can count
   at the end of a link how many objects were built without one (issue
   17: libtool's make clean deletes profiles, and a note per object went
   unseen).  Units without functions say nothing.  */
static void
emit_use_marker ()
{
  if (!ppgcc_opts.use_profile || seen_error ())
    return;
  int found = ppgcc_profile_found ();
  if (found < 0)
    return;
  const char *as = found ? "\t.pushsection .pp_use,\"\",@progbits\n"
                           "\t.byte 1\n\t.popsection"
                         : "\t.pushsection .pp_use,\"\",@progbits\n"
                           "\t.byte 0\n\t.popsection";
  symtab->finalize_toplevel_asm (build_string (strlen (as) + 1, as));
}

static void
on_all_ipa_passes_start (void *, void *)
{
  emit_use_marker ();
  if (ppgcc_opts.mode == PPGCC_MODE_USE)
    {
      if (!seen_error ())
        ppgcc_context_redirect ();
      return;
    }
  if (ppgcc_opts.ipp != ppgcc_options::IPP_NONE && !seen_error ())
    ppgcc_ipp_instrument_unit ();
  if (!seen_error ())
    ppgcc_derive_counts ();
  ppgcc_emit_unit ();
  ppgcc_fns.clear ();
}

/* Registers PASS to run after the first instance of the pass named
   AFTER.  */
static void
register_pass (const char *plugin_name, opt_pass *pass,
                     const char *after, int instance = 1)
{
  struct register_pass_info info;
  info.pass = pass;
  info.reference_pass_name = after;
  info.ref_pass_instance_number = instance;
  info.pos_op = PASS_POS_INSERT_AFTER;
  register_callback (plugin_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &info);
}

/* After an error: the plugin registers nothing, and the compilation
   fails on that one error line.  Not 1: GCC would add a second error,
   "failed to initialize plugin", that says nothing more.  */
static int
init_failed ()
{
  return 0;
}

int
plugin_init (struct plugin_name_args *info, struct plugin_gcc_version *version)
{
  if (!plugin_default_version_check (version, &gcc_version))
    {
      error ("ppgcc: this plugin was built for GCC %s, not %s",
             gcc_version.basever, version->basever);
      return init_failed ();
    }
  if (!ppgcc_read_options (info))
    return init_failed ();

  /* With -flto our registration data would have to be emitted after
     free_lang_data (as gcov does; tried: free_lang_data then crashes on
     what the probes made).  Until then an instrumenting build refuses
     -flto in one line rather than build a program that writes no profile;
     -fuse-path-profile declines with a warning.  */
  if (flag_lto || flag_generate_lto)
    {
      if (ppgcc_opts.mode == PPGCC_MODE_USE)
        {
          warning (0, "ppgcc: %<-fuse-path-profile%> does not support "
                   "%<-flto%> yet; %s is compiled without the profile",
                   main_input_filename);
          return 0;
        }
      error ("ppgcc: path profiling does not support %<-flto%> yet; build "
             "the profiling build without it (add %<-fno-lto%>)");
      return 0;
    }
  ppgcc_opts.atomic = flag_profile_update == PROFILE_UPDATE_ATOMIC;

  static struct plugin_info about = { "0.1.0", "Ball-Larus path profiling" };
  register_callback (info->base_name, PLUGIN_INFO, NULL, &about);

  register_pass (info->base_name, new path_profile_pass (g), "cfg");
  register_callback (info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
                     (void *) ppgcc_context_gc_roots ());
  register_callback (info->base_name, PLUGIN_ALL_IPA_PASSES_START,
                     on_all_ipa_passes_start, NULL);
  if (ppgcc_opts.mode == PPGCC_MODE_USE)
    register_pass (info->base_name, ppgcc_new_feedback_pass (), "profile");
  else if (ppgcc_opts.inline_size)
    {
      /* After every local summary (0: each instance of the pass), and
         after the IPA one.  */
      register_pass (info->base_name, ppgcc_new_early_inline_size_pass (),
                     "local-fnsummary", 0);
      register_pass (info->base_name, ppgcc_new_ipa_inline_size_pass (),
                     "fnsummary");
    }
  /* The cct entries, once GCC has inlined: first in the passes that run
     on each function after IPA (ehdisp is there at every -O level).  */
  if (ppgcc_opts.mode != PPGCC_MODE_USE
      && (ppgcc_opts.cct || ppgcc_opts.nmetrics))
    register_pass (info->base_name, ppgcc_new_lower_entries_pass (),
                   "ehdisp");
  if (ppgcc_opts.mode != PPGCC_MODE_USE && ppgcc_opts.cct
      && ppgcc_opts.nmetrics <= 1)
    {
      /* A function whose calls the early inliner took in whole turns
         into a leaf before the IPA inliner weighs it.  With one metric
         too: such a function without loops takes no readings
         (context.cc), and one with readings is left as it is (its
         markers are asm statements, context-leaf.cc).  */
      register_pass (info->base_name, ppgcc_new_context_leaf_pass (),
                     "einline");
    }
  if (ppgcc_opts.switching == ppgcc_options::SWITCH_ENTRY)
    register_pass (info->base_name, ppgcc_new_switch_local_pass (),
                   "visibility");
  return 0;
}
