/* The plugin's options: -fplugin-arg-ppgcc-KEY=VALUE (the driver turns
   its -fprofile-paths* options into these), checked, with the defaults
   that depend on the mode.  */
#include "plugin.h"

#include "pp/optval.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

ppgcc_options ppgcc_opts;

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
      else if (!strcmp (key, "metric-at"))
        {
          std::string m = val ? val : "";
          if (m == "calls" || m == "paths")
            ppgcc_opts.metric_at_calls = m == "calls";
          else
            {
              error ("ppgcc: %<-fprofile-paths-metric-at=%s%>: not paths or "
                     "calls", m.c_str ());
              return false;
            }
        }
      else if (!strcmp (key, "inlined"))
        {
          std::string m = val ? val : "";
          if (m == "flat" || m == "none")
            ppgcc_opts.inlined_flat = m == "flat";
          else
            {
              error ("ppgcc: %<-fprofile-paths-inlined=%s%>: not none or "
                     "flat", m.c_str ());
              return false;
            }
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
      else if (!strcmp (key, "ipp-inline-stmts"))
        {
          if (!parse_numeric (key, val, &ppgcc_opts.ipp_inline_stmts,
                              nullptr))
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
      else if (!strcmp (key, "derive"))
        ppgcc_opts.derive = !val || strcmp (val, "0") != 0;
      else if (!strcmp (key, "loop-registers"))
        ppgcc_opts.loop_registers = !val || strcmp (val, "0") != 0;
      else if (!strcmp (key, "inline-size"))
        ppgcc_opts.inline_size = !val || strcmp (val, "0") != 0;
      else if (!strcmp (key, "values"))
        ppgcc_opts.values = !val || strcmp (val, "0") != 0;
      else if (!strcmp (key, "superblock"))
        ppgcc_opts.superblocks = !val || strcmp (val, "0") != 0;
      else if (!strcmp (key, "context-clone"))
        {
          ppgcc_opts.context_clone = !val || strcmp (val, "0") != 0;
          ppgcc_opts.context_clone_all = val && !strcmp (val, "2");
        }
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

bool
ppgcc_read_options (struct plugin_name_args *info)
{
  /* Defaults that depend on the mode: residual profiling keeps a bounded
     array and sends rare tested paths to the side table (thesis §3.6,
     "Hash table usage policy"); small functions count by Ball-Larus id.  */
  if (!parse_args (info))
    return false;
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
      return false;
    }

  if (ppgcc_opts.inlined_flat && !ppgcc_opts.cct)
    {
      error ("ppgcc: %<-fprofile-paths-inlined=flat%> needs "
             "%<-fprofile-paths=cct%>: it says where the counts of an inlined "
             "leaf go in the calling context tree");
      return false;
    }

  if (ppgcc_opts.metric_at_calls
      && (!ppgcc_opts.cct || !ppgcc_opts.nmetrics))
    {
      error ("ppgcc: %<-fprofile-paths-metric-at=calls%> needs "
             "%<-fprofile-paths=cct%> and %<-fprofile-paths-metric%>: its "
             "readings are totals per calling context");
      return false;
    }

  if (ppgcc_opts.ipp != ppgcc_options::IPP_NONE
      && (ppgcc_opts.cct || ppgcc_opts.nmetrics
          || ppgcc_opts.switching != ppgcc_options::SWITCH_NONE
          || ppgcc_opts.mode == PPGCC_MODE_USE))
    {
      error ("ppgcc: %<-fprofile-paths-ipp%> goes with %<-fprofile-paths%>, "
             "%<=ppp%> or %<=residual%> (not with cct, metrics or "
             "%<-fprofile-paths-switch%>)");
      return false;
    }

  if (ppgcc_opts.ipp != ppgcc_options::IPP_NONE && !ppgcc_opts.use_profile)
    warning (0, "ppgcc: %<-fprofile-paths-ipp%> expands the calls a "
             "%<-fuse-path-profile%> profile ran; with none, %s gets "
             "intraprocedural paths", main_input_filename);
  return true;
}
