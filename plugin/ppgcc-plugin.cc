/* ppgcc: Ball-Larus path profiling as a GCC plugin.

   One GIMPLE pass, right after the CFG is built ("cfg") and before SSA:
   the CFG there is the source's, identical at every -O level, so a
   profile's per-function checksum matches whatever -O the profile is read
   back at (-fuse-path-profile uses this same position).  For each function
   the pass builds the core library's graph, numbers it (pp_number), plans
   the probes (pp_plan) and inserts them.  The registration data and the
   constructor are emitted once all functions are lowered.  */
#include "plugin.h"
#include "plugin-version.h"

#include "pp/rt_abi.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

int plugin_is_GPL_compatible;

ppgcc_options ppgcc_opts;
std::vector<ppgcc_fn> ppgcc_fns;

static bool
skip_function (function *fun)
{
  tree decl = fun->decl;
  /* __attribute__((no_instrument_function)).  (The DECL_ flag of that
     name is also set by the C front end for other reasons.)  */
  if (lookup_attribute ("no_instrument_function", DECL_ATTRIBUTES (decl)))
    return true;
  /* Our own constructor (and other compiler-made constructors).  */
  if (DECL_ARTIFICIAL (decl) && DECL_STATIC_CONSTRUCTOR (decl))
    return true;
  return false;
}

static void
instrument_function (function *fun)
{
  const char *fname = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fun->decl));
  ppgcc_cfg cfg;
  ppgcc_build_cfg (fun, cfg);
  char err[256];
  pp_options opt = { 0 };
  pp_numbering *n = pp_number (cfg.graph, &opt, err, sizeof err);
  if (!n)
    {
      warning (0, "ppgcc: function %qs left uninstrumented: %s", fname, err);
      return;
    }
  pp_probe *probes;
  int nprobes = pp_plan (n, cfg.graph, &probes);

  ppgcc_fn fn;
  fn.name = fname;
  fn.checksum = pp_graph_checksum (cfg.graph);
  fn.meta = ppgcc_metadata (fun, cfg, fn.checksum);
  fn.num_paths = n->num_paths;
  fn.flags = n->num_cuts ? PP_FN_TRUNCATED : 0;
  fn.desc = ppgcc_new_desc ();
  if (n->num_paths <= ppgcc_opts.array_max)
    fn.counters = ppgcc_new_counters (n->num_paths);
  else
    {
      fn.counters = NULL_TREE;
      fn.flags |= PP_FN_HASHED;
    }
  ppgcc_insert_probes (fun, cfg, probes, nprobes, fn);
  ppgcc_fns.push_back (fn);
  free (probes);
  pp_numbering_free (n);
}

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
    return !seen_error () && !skip_function (fun);
  }
  unsigned int execute (function *fun) final override
  {
    instrument_function (fun);
    return 0;
  }
};

} // namespace

static void
on_all_ipa_passes_start (void *, void *)
{
  ppgcc_emit_unit ();
  ppgcc_fns.clear ();
}

static bool
parse_args (struct plugin_name_args *info)
{
  for (int i = 0; i < info->argc; i++)
    {
      const char *key = info->argv[i].key, *val = info->argv[i].value;
      if (!strcmp (key, "mode"))
        {
          if (!val || strcmp (val, "bl") != 0)
            {
              error ("ppgcc: mode %qs is not supported yet", val ? val : "");
              return false;
            }
        }
      else if (!strcmp (key, "array-max"))
        {
          char *end;
          errno = 0;
          unsigned long long v = val ? strtoull (val, &end, 10) : 0;
          if (!val || !*val || *end || errno || *val == '-')
            {
              error ("ppgcc: %<-fprofile-paths-array-max=%s%>: not a number of "
                     "paths", val ? val : "");
              return false;
            }
          ppgcc_opts.array_max = v;
        }
      else if (!strcmp (key, "use") || !strcmp (key, "interesting")
               || !strcmp (key, "hot") || !strcmp (key, "opt-info"))
        ; /* later: -fuse-path-profile and friends */
      else
        {
          error ("ppgcc: unknown plugin argument %qs", key);
          return false;
        }
    }
  return true;
}

int
plugin_init (struct plugin_name_args *info, struct plugin_gcc_version *version)
{
  if (!plugin_default_version_check (version, &gcc_version))
    {
      error ("ppgcc: this plugin was built for GCC %s, not %s",
             gcc_version.basever, version->basever);
      return 1;
    }
  if (!parse_args (info))
    return 1;
  /* With -flto our registration data would have to be emitted after
     free_lang_data (as gcov does); until then, decline cleanly rather
     than risk the compiler.  */
  if (flag_lto || flag_generate_lto)
    {
      warning (0, "ppgcc: path profiling does not support %<-flto%> yet; "
               "%s is compiled without it", main_input_filename);
      return 0;
    }
  ppgcc_opts.atomic = flag_profile_update == PROFILE_UPDATE_ATOMIC;

  static struct plugin_info about = { "0.1.0", "Ball-Larus path profiling" };
  register_callback (info->base_name, PLUGIN_INFO, NULL, &about);

  struct register_pass_info pass;
  pass.pass = new path_profile_pass (g);
  pass.reference_pass_name = "cfg";
  pass.ref_pass_instance_number = 1;
  pass.pos_op = PASS_POS_INSERT_AFTER;
  register_callback (info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &pass);
  register_callback (info->base_name, PLUGIN_ALL_IPA_PASSES_START,
                     on_all_ipa_passes_start, NULL);
  return 0;
}
