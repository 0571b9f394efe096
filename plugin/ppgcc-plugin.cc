/* ppgcc: Ball-Larus path profiling as a GCC plugin.

   One GIMPLE pass, right after the CFG is built ("cfg") and before SSA:
   the CFG there is the source's, identical at every -O level, so a
   profile's per-function checksum matches whatever -O the profile is read
   back at (-fuse-path-profile uses this same position).  For each function
   the pass builds the core library's graph, numbers it (pp_number), plans
   the probes (pp_plan) and inserts them.  The registration data and the
   constructor are emitted once all functions are lowered.  */
#include "plugin.h"
#include "ppgcc-ipp.h"
#include "plugin-version.h"

#include "pp/optval.h"
#include "pp/rt_abi.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

int plugin_is_GPL_compatible;

ppgcc_options ppgcc_opts;
std::vector<ppgcc_fn> ppgcc_fns;

bool
ppgcc_skip_function (function *fun)
{
  tree decl = fun->decl;
  /* __attribute__((no_instrument_function)).  (The DECL_ flag of that
     name is also set by the C front end for other reasons.)  */
  if (lookup_attribute ("no_instrument_function", DECL_ATTRIBUTES (decl)))
    return true;
  /* Our own constructor (and other compiler-made constructors).  */
  if (DECL_ARTIFICIAL (decl) && DECL_STATIC_CONSTRUCTOR (decl))
    return true;
  return ppgcc_inline_only_p (fun);
}

/* A body GCC keeps only to inline it: a C99 inline definition without an
   external one in this unit, or gnu_inline `extern inline'.  A call GCC
   does not inline goes to the external definition, which may exist
   nowhere (C99 inline code that links only because gcc -O2 inlines every
   call).  Probes, a context entry or a switch copy make the body bigger
   (or, with =entry, move it into a copy that is never inlined), and GCC
   then stops inlining it where a plain build does: such a body is left
   exactly as it is.  */
bool
ppgcc_inline_only_p (function *fun)
{
  return DECL_EXTERNAL (fun->decl);
}

/* How a function counts its paths.  */
enum counting
{
  COUNT_ARRAY, /* counters[BL id] */
  COUNT_HASH,  /* the runtime's hash table, by BL id */
  COUNT_PPP    /* counts by PPP id, misses by BL id in the side table */
};

static const char *const counting_name[] = { "bl", "hash", "ppp" };

/* Preferential path profiling of the interesting paths IDS (thesis Fig
   3.10), when it pays: returns COUNT_PPP with FN's arrays made, or how
   to count instead.  The numbering is made in every case, so that its
   range and compactness can be reported.  */
static counting
choose_ppp (pp_numbering *n, const std::vector<pp_pathid> &ids, ppgcc_fn &fn,
            const char *fname, bool fits, uint64_t *range_out)
{
  counting fallback = fits ? COUNT_ARRAY : COUNT_HASH;
  if (ids.empty ())
    return fallback; /* every path end would miss */
  std::vector<int64_t> ppp_ids (ids.size ());
  char err[256];
  if (pp_ppp (n, ids.data (), (int) ids.size (), ppp_ids.data (), err,
              sizeof err) < 0)
    {
      warning (0, "ppgcc: %qs: no preferential numbering (%s); Ball-Larus "
               "instead", fname, err);
      n->ppp_done = 0;
      return fallback;
    }
  uint64_t range = (uint64_t) (n->ppp_max - n->ppp_min) + 1;
  uint64_t size = range;
  *range_out = range;
  /* Few paths: Ball-Larus ids index an array as well, with one register
     and no check (measured on bzip2: +14.6% instructions against +36.3%
     for dual counters everywhere); residual paths are then found by
     ppprof from the trained list.  */
  bool small = fits && n->num_paths <= ppgcc_opts.ppp_min_paths;
  /* A range above the array: the §3.6 "hash table usage policy".  */
  bool too_wide = range > ppgcc_opts.ppp_array_max
                  && (!ppgcc_opts.ppp_truncate
                      || ppgcc_opts.ppp_array_max == 0);
  if (small || too_wide)
    {
      n->ppp_done = 0;
      return fallback;
    }
  if (range > ppgcc_opts.ppp_array_max)
    size = ppgcc_opts.ppp_array_max;
  fn.ppp_base = (uint64_t) n->ppp_min;
  fn.ppp_size = size;
  fn.slot_ids.assign (size, UINT64_MAX);
  for (size_t i = 0; i < ids.size (); i++)
    {
      uint64_t j = (uint64_t) (ppp_ids[i] - n->ppp_min);
      if (j < size)
        fn.slot_ids[j] = ids[i];
    }
  ppgcc_new_ppp_arrays (fn);
  return COUNT_PPP;
}

/* Counter-array paths this unit has given out (the budget's use).  */
static unsigned long long array_paths_used;

/* Can a function of NUM_PATHS paths count in an array?  Within the
   per-function limit, and within the unit's budget unless it is small
   (a small function never loses its array to a large one).  */
static bool
array_fits (uint64_t num_paths)
{
  if (num_paths > ppgcc_opts.array_max)
    return false;
  return num_paths <= ppgcc_opts.ppp_array_max
         || array_paths_used + num_paths <= ppgcc_opts.array_budget;
}

void
ppgcc_choose_counting (function *fun, const char *fname, pp_numbering *n,
                       ppgcc_fn &fn, const std::vector<pp_pathid> &ids,
                       bool trained)
{
  uint64_t ppp_range = 0;
  double delta = 0;
  bool fits = array_fits (n->num_paths);
  counting how = fits ? COUNT_ARRAY : COUNT_HASH;
  if (trained)
    {
      fn.flags |= PP_FN_TRAINED;
      fn.trained.assign (ids.begin (), ids.end ());
      how = choose_ppp (n, ids, fn, fname, fits, &ppp_range);
      delta = n->delta;
    }
  if (how == COUNT_ARRAY)
    array_paths_used += n->num_paths;
  /* With cct, array-mode counts live in each context's record (the
     runtime sizes it by num_paths), and so do metrics; without, metrics
     have an array of their own.  */
  if (how == COUNT_ARRAY && !ppgcc_opts.cct)
    fn.counters = ppgcc_new_counters (n->num_paths);
  else if (how == COUNT_HASH)
    {
      fn.flags |= PP_FN_HASHED;
      /* The Hot Path Table is bounded by design: no cache in front.  */
      if (!ppgcc_opts.table_hpt)
        ppgcc_new_hash_cache (fn);
    }
  else if (how == COUNT_PPP)
    fn.flags |= PP_FN_PPP;
  if (ppgcc_opts.cct)
    fn.flags |= PP_FN_CCT;
  if (how == COUNT_ARRAY && ppgcc_opts.nmetrics)
    {
      fn.nmetrics = ppgcc_opts.nmetrics;
      if (!ppgcc_opts.cct)
        fn.metrics = ppgcc_new_metrics (n->num_paths * fn.nmetrics);
    }
  /* Hash-mode paths and PPP misses both reach __pp_hash_hit, which the
     flag sends to the Hot Path Table: the probes stay the same.  */
  if (ppgcc_opts.table_hpt && how != COUNT_ARRAY)
    fn.flags |= PP_FN_HPT;

  if (ppgcc_opts.opt_info)
    {
      char delta_s[32] = "-";
      if (ppp_range)
        snprintf (delta_s, sizeof delta_s, "%.3f", delta);
      inform (DECL_SOURCE_LOCATION (fun->decl),
              "ppgcc: %s: paths=%llu interesting=%llu range=%llu delta=%s "
              "counting=%s array=%llu", fname,
              (unsigned long long) n->num_paths,
              (unsigned long long) ids.size (),
              (unsigned long long) ppp_range, delta_s, counting_name[how],
              how == COUNT_PPP ? (unsigned long long) fn.ppp_size
              : how == COUNT_ARRAY ? (unsigned long long) n->num_paths
                                   : 0ull);
    }
}

void
ppgcc_instrument_function (function *fun)
{
  const char *fname = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fun->decl));
  ppgcc_cfg cfg;
  char err[256];
  pp_numbering *n = ppgcc_number_cfg (fun, cfg, err, sizeof err);
  if (!n)
    {
      warning (0, "ppgcc: function %qs left uninstrumented: %s", fname, err);
      return;
    }

  ppgcc_fn fn;
  fn.name = fname;
  fn.checksum = ppgcc_cfg_checksum (cfg);
  fn.meta = ppgcc_metadata (fun, cfg, fn.checksum);
  fn.num_paths = n->num_paths;
  fn.flags = n->num_cuts ? PP_FN_TRUNCATED : 0;
  fn.desc = ppgcc_new_desc ();
  fn.counters = NULL_TREE;

  std::vector<pp_pathid> ids;
  bool trained = ppgcc_opts.mode != PPGCC_MODE_BL
                 && ppgcc_interesting_paths (fun, fname, fn.checksum, cfg, n,
                                             ids);
  ppgcc_choose_counting (fun, fname, n, fn, ids, trained);

  pp_probe *probes;
  int nprobes = pp_plan (n, cfg.graph, &probes);
  /* Switchable profiling: the probes go into an instrumented copy entered
     while the flag is set (switch-entry.cc), else (or where the function
     cannot be forwarded its arguments) each path end tests the flag.  */
  function *on = ppgcc_opts.switching == ppgcc_options::SWITCH_ENTRY
                 ? ppgcc_switch_entry (fun, cfg) : nullptr;
  fn.switch_check = ppgcc_opts.switching != ppgcc_options::SWITCH_NONE
                    && !on;
  /* -fprofile-paths=cct and metrics (context.cc); never with switching
     (refused in plugin_init).  */
  bool contexts = ppgcc_opts.cct || ppgcc_opts.nmetrics;
  if (contexts)
    ppgcc_context_entry (fun, fn);
  tree regs[2] = { NULL_TREE, NULL_TREE };
  if (on)
    ppgcc_switch_entry_probes (on, cfg, probes, nprobes, fn, regs);
  else
    ppgcc_insert_probes (fun, cfg, probes, nprobes, fn, regs);
  if (contexts)
    ppgcc_context_exits (fun, fn);
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
    return;
  if (ppgcc_opts.ipp != ppgcc_options::IPP_NONE && !seen_error ())
    ppgcc_ipp_instrument_unit ();
  ppgcc_emit_unit ();
  ppgcc_fns.clear ();
}

/* KEY=VAL of a numeric option (pp/optval.h): into *WHOLE or *PERCENT;
   false after one error line naming the option and what it takes.  */
static bool
parse_numeric (const char *key, const char *val, unsigned long long *whole,
               double *percent)
{
  const pp_numeric_option *o = pp_numeric_option_find (key, 1);
  if (pp_numeric_value (o, val, whole, percent))
    return true;
  error ("ppgcc: %<%s=%s%>: not %s", o->option, val ? val : "", o->expects);
  return false;
}

/* -fprofile-paths-metric=EVENT[,EVENT]: the names runtime/metric.c
   knows (doc/metrics.md), or a raw event rHEX.  */
static bool
parse_metrics (const char *val)
{
  static const char *const known[] = {
    "cycles", "instructions", "cache-misses", "branch-misses", "time", "tsc",
    "task-clock", NULL
  };
  std::string list = val ? val : "";
  unsigned count = 0;
  size_t start = 0;
  while (start <= list.size ())
    {
      size_t comma = list.find (',', start);
      if (comma == std::string::npos)
        comma = list.size ();
      std::string ev = list.substr (start, comma - start);
      bool ok = ev.size () > 1 && ev[0] == 'r'
                && ev.find_first_not_of ("0123456789abcdefABCDEF", 1)
                       == std::string::npos;
      for (int i = 0; known[i] && !ok; i++)
        ok = ev == known[i];
      if (!ok)
        {
          error ("ppgcc: %<-fprofile-paths-metric=%s%>: unknown event %qs "
                 "(known: cycles, instructions, cache-misses, branch-misses, "
                 "time, tsc, task-clock, rHEX)", list.c_str (), ev.c_str ());
          return false;
        }
      count++;
      start = comma + 1;
    }
  if (count > 8)
    {
      error ("ppgcc: %<-fprofile-paths-metric%>: at most 8 events");
      return false;
    }
  ppgcc_opts.metrics = list;
  ppgcc_opts.nmetrics = count;
  return true;
}

static bool
parse_args (struct plugin_name_args *info)
{
  for (int i = 0; i < info->argc; i++)
    {
      const char *key = info->argv[i].key, *val = info->argv[i].value;
      if (!strcmp (key, "mode"))
        {
          std::string m = val ? val : "";
          if (m == "bl")
            ppgcc_opts.mode = PPGCC_MODE_BL;
          else if (m == "ppp")
            ppgcc_opts.mode = PPGCC_MODE_PPP;
          else if (m == "residual")
            ppgcc_opts.mode = PPGCC_MODE_RESIDUAL;
          else if (m == "use")
            ppgcc_opts.mode = PPGCC_MODE_USE;
          else if (m == "cct")
            {
              ppgcc_opts.mode = PPGCC_MODE_BL;
              ppgcc_opts.cct = true;
            }
          else
            {
              error ("ppgcc: %<-fprofile-paths=%s%>: not bl, ppp, residual "
                     "or cct", m.c_str ());
              return false;
            }
        }
      else if (!strcmp (key, "array-max"))
        {
          if (!parse_numeric (key, val, &ppgcc_opts.array_max, nullptr))
            return false;
          ppgcc_opts.array_max_set = true;
        }
      else if (!strcmp (key, "table"))
        {
          ppgcc_opts.table_hpt = val && !strcmp (val, "hpt");
          if (!val || (strcmp (val, "hpt") && strcmp (val, "hash")))
            {
              error ("ppgcc: %<-fprofile-paths-table=%s%>: not hash or hpt",
                     val ? val : "");
              return false;
            }
        }
      else if (!strcmp (key, "max-paths"))
        {
          if (!parse_numeric (key, val, &ppgcc_opts.max_paths, nullptr))
            return false;
          ppgcc_opts.max_paths_set = true;
        }
      else if (!strcmp (key, "ppp-min-paths"))
        {
          if (!parse_numeric (key, val, &ppgcc_opts.ppp_min_paths, nullptr))
            return false;
          ppgcc_opts.ppp_min_paths_set = true;
        }
      else if (!strcmp (key, "ppp-policy"))
        {
          ppgcc_opts.ppp_policy_set = true;
          ppgcc_opts.ppp_truncate = val && !strcmp (val, "truncate");
          if (!val || (strcmp (val, "truncate") && strcmp (val, "hash")))
            {
              error ("ppgcc: %<-fprofile-paths-ppp-policy=%s%>: not hash or "
                     "truncate", val ? val : "");
              return false;
            }
        }
      else if (!strcmp (key, "use"))
        {
          ppgcc_opts.use_profile = true;
          ppgcc_opts.use_path = val ? val : "";
        }
      /* The working directory, for ccache's hash only (driver/ccache.c).  */
      else if (!strcmp (key, "cache-key"))
        ;
      else if (!strcmp (key, "use-onestep-prefix"))
        ppgcc_opts.use_onestep_prefix = val ? val : "";
      else if (!strcmp (key, "interesting"))
        ppgcc_opts.interesting = val ? val : "";
      else if (!strcmp (key, "hot"))
        {
          if (!parse_numeric (key, val, nullptr, &ppgcc_opts.hot))
            return false;
        }
      else if (!strcmp (key, "metric"))
        {
          if (!parse_metrics (val))
            return false;
        }
      else if (!strcmp (key, "ipp"))
        {
          std::string m = val ? val : "";
          if (m == "inline")
            ppgcc_opts.ipp = ppgcc_options::IPP_INLINE;
          else if (m == "clone")
            ppgcc_opts.ipp = ppgcc_options::IPP_CLONE;
          else if (m == "none")
            ppgcc_opts.ipp = ppgcc_options::IPP_NONE;
          else
            {
              error ("ppgcc: %<-fprofile-paths-ipp=%s%>: not inline, clone "
                     "or none", m.c_str ());
              return false;
            }
        }
      else if (!strcmp (key, "ipp-depth"))
        {
          if (!parse_numeric (key, val, &ppgcc_opts.ipp_depth, nullptr))
            return false;
        }
      else if (!strcmp (key, "ipp-contexts"))
        {
          if (!parse_numeric (key, val, &ppgcc_opts.ipp_contexts, nullptr))
            return false;
        }
      else if (!strcmp (key, "ipp-growth"))
        {
          if (!parse_numeric (key, val, &ppgcc_opts.ipp_growth, nullptr))
            return false;
        }
      else if (!strcmp (key, "opt-info"))
        ppgcc_opts.opt_info = true;
      else if (!strcmp (key, "switch"))
        {
          std::string m = val ? val : "";
          if (m == "check")
            ppgcc_opts.switching = ppgcc_options::SWITCH_CHECK;
          else if (m == "entry")
            ppgcc_opts.switching = ppgcc_options::SWITCH_ENTRY;
          else if (m == "none")
            ppgcc_opts.switching = ppgcc_options::SWITCH_NONE;
          else
            {
              error ("ppgcc: %<-fprofile-paths-switch=%s%>: not none, "
                     "entry or check", m.c_str ());
              return false;
            }
        }
      else if (!strcmp (key, "superblock"))
        ppgcc_opts.superblocks = !val || strcmp (val, "0") != 0;
      else if (!strcmp (key, "superblock-growth"))
        {
          if (!parse_numeric (key, val, &ppgcc_opts.superblock_growth,
                              nullptr))
            return false;
        }
      else if (!strcmp (key, "superblock-hot"))
        {
          if (!parse_numeric (key, val, nullptr, &ppgcc_opts.superblock_hot))
            return false;
        }
      else
        {
          error ("ppgcc: unknown plugin argument %qs", key);
          return false;
        }
    }
  return true;
}

void
ppgcc_register_pass (const char *plugin_name, opt_pass *pass,
                     const char *after)
{
  struct register_pass_info info;
  info.pass = pass;
  info.reference_pass_name = after;
  info.ref_pass_instance_number = 1;
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
  /* Defaults that depend on the mode: residual profiling keeps a bounded
     array and sends rare tested paths to the side table (thesis §3.6,
     "Hash table usage policy"); small functions count by Ball-Larus id.  */
  if (!parse_args (info))
    return init_failed ();
  if (!ppgcc_opts.ppp_policy_set)
    ppgcc_opts.ppp_truncate = ppgcc_opts.mode == PPGCC_MODE_RESIDUAL;
  if (!ppgcc_opts.array_max_set)
    ppgcc_opts.array_max = ppgcc_opts.cct || ppgcc_opts.nmetrics
                               ? 4096 : 1ull << 18;
  else
    /* An explicit limit is the user's: PPP arrays follow it too.  */
    ppgcc_opts.ppp_array_max = ppgcc_opts.array_max;
  if (!ppgcc_opts.ppp_min_paths_set)
    ppgcc_opts.ppp_min_paths = ppgcc_opts.array_max;
  if (!ppgcc_opts.max_paths_set)
    ppgcc_opts.max_paths = ppgcc_opts.array_max > (1ull << 18)
                               ? ppgcc_opts.array_max : 1ull << 18;
  if ((ppgcc_opts.mode == PPGCC_MODE_PPP
       || ppgcc_opts.mode == PPGCC_MODE_RESIDUAL)
      && !ppgcc_opts.use_profile && ppgcc_opts.interesting.empty ())
    warning (0, "ppgcc: %<-fprofile-paths=ppp%> and %<=residual%> number the "
             "paths of %<-fuse-path-profile%> or "
             "%<-fprofile-paths-interesting%>; with neither, %s gets "
             "Ball-Larus profiling", main_input_filename);

  if ((ppgcc_opts.cct || ppgcc_opts.nmetrics)
      && (ppgcc_opts.mode != PPGCC_MODE_BL
          || ppgcc_opts.switching != ppgcc_options::SWITCH_NONE))
    {
      error ("ppgcc: %<-fprofile-paths=cct%> and %<-fprofile-paths-metric%> "
             "go with Ball-Larus profiling only (not with ppp, residual or "
             "%<-fprofile-paths-switch%>)");
      return init_failed ();
    }

  if (ppgcc_opts.ipp != ppgcc_options::IPP_NONE
      && (ppgcc_opts.cct || ppgcc_opts.nmetrics
          || ppgcc_opts.switching != ppgcc_options::SWITCH_NONE
          || ppgcc_opts.mode == PPGCC_MODE_USE))
    {
      error ("ppgcc: %<-fprofile-paths-ipp%> goes with %<-fprofile-paths%>, "
             "%<=ppp%> or %<=residual%> (not with cct, metrics or "
             "%<-fprofile-paths-switch%>)");
      return init_failed ();
    }

  if (ppgcc_opts.ipp != ppgcc_options::IPP_NONE && !ppgcc_opts.use_profile)
    warning (0, "ppgcc: %<-fprofile-paths-ipp%> expands the calls a "
             "%<-fuse-path-profile%> profile ran; with none, %s gets "
             "intraprocedural paths", main_input_filename);

  /* With -flto our registration data would have to be emitted after
     free_lang_data (as gcov does; tried: free_lang_data then crashes on
     what the probes made).  Until then an instrumenting build refuses
     -flto in one line rather than build a program that writes no profile
     (issue 17); -fuse-path-profile declines with a warning.  */
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

  ppgcc_register_pass (info->base_name, new path_profile_pass (g), "cfg");
  register_callback (info->base_name, PLUGIN_ALL_IPA_PASSES_START,
                     on_all_ipa_passes_start, NULL);
  if (ppgcc_opts.mode == PPGCC_MODE_USE)
    ppgcc_register_feedback_pass (info->base_name);
  if (ppgcc_opts.switching == ppgcc_options::SWITCH_ENTRY)
    ppgcc_register_switch_local (info->base_name);
  return 0;
}
