/* ppprof residual: the paths that ran but were never trained (thesis
   §3.5.1), by function with source lines; --json; --fail-on-new.  */
#include "config.h"

#include "commands.h"
#include "demangle.h"

#include "pp/rt_abi.h"

#include <inttypes.h>
#include "json_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Functions with untested paths: most untested executions first.  */
static int
by_untested_desc (const void *a, const void *b)
{
  const pp_report_fn *x = *(const pp_report_fn *const *) a;
  const pp_report_fn *y = *(const pp_report_fn *const *) b;
  if (x->untested_total != y->untested_total)
    return x->untested_total < y->untested_total ? 1 : -1;
  int c = strcmp (x->name, y->name);
  return c ? c : strcmp (x->file, y->file);
}

static void
residual_text (pp_report_fn **fns, int n)
{
  for (int i = 0; i < n; i++)
    {
      const pp_report_fn *fn = fns[i];
      char *dm;
      /* The wording is fixed (scripts match it), plural or not.  */
      printf ("%s (%s): %d untested paths, %" PRIu64 " executions\n",
              pp_shown_name (fn->name, &dm), fn->file, fn->num_untested,
              fn->untested_total);
      free (dm);
      /* fn->paths is by count, descending: hottest first.  */
      for (int k = 0; k < fn->num_paths_run; k++)
        {
          const pp_report_path *p = &fn->paths[k];
          if (!p->untested)
            continue;
          printf ("%12" PRIu64 "  id %-10" PRIu64 " ", p->count, p->id);
          print_path (stdout, p);
          printf ("\n");
        }
      printf ("\n");
    }
}

static void
residual_json (pp_report_fn **fns, int n, uint64_t untested)
{
  printf ("{\"functions\": [");
  for (int i = 0; i < n; i++)
    {
      const pp_report_fn *fn = fns[i];
      printf ("%s\n  {\"name\": ", i ? "," : "");
      pp_json_string (stdout, fn->name);
      printf (", \"file\": ");
      pp_json_string (stdout, fn->file);
      printf (", \"paths\": [");
      int first = 1;
      for (int k = 0; k < fn->num_paths_run; k++)
        {
          const pp_report_path *p = &fn->paths[k];
          if (!p->untested)
            continue;
          printf ("%s\n    {\"id\": %" PRIu64 ", \"count\": %" PRIu64 ", ",
                  first ? "" : ",", p->id, p->count);
          print_json_lines (stdout, p);
          printf ("}");
          first = 0;
        }
      printf ("]}");
    }
  printf ("\n], \"untested\": %" PRIu64 "}\n", untested);
}

/* The paths that ran in the field but not in training (thesis §3.5.1).
   Returns the exit status.  */
int
ppprof_residual (pp_profile_set *set, const char *only, int json, int fail_on_new)
{
  if (only && !known_function (set, only))
    return 2;
  pp_report_fn **fns = calloc (set->num_fns + 1, sizeof *fns);
  int n = 0, trained = 0;
  uint64_t untested = 0;
  for (int i = 0; i < set->num_fns; i++)
    {
      pp_report_fn *fn = &set->fns[i];
      if ((only && strcmp (fn->name, only) != 0)
          || !(fn->flags & PP_FN_TRAINED))
        continue;
      trained++;
      untested += fn->num_untested;
      if (fn->num_untested)
        fns[n++] = fn;
    }
  qsort (fns, n, sizeof *fns, by_untested_desc);
  if (json)
    residual_json (fns, n, untested);
  else
    {
      residual_text (fns, n);
      if (trained == 0)
        printf ("note: no function has a trained path set (build with "
                "ppgcc -fuse-path-profile -fprofile-paths=residual)\n");
      for (int i = 0; i < set->num_fns; i++)
        if ((set->fns[i].flags & PP_FN_TRAINED) && set->fns[i].dropped
            && (!only || !strcmp (set->fns[i].name, only)))
          {
            char *dm;
            printf ("note: %s: %" PRIu64 " path executions could not be "
                    "recorded (runtime out of memory); untested paths may "
                    "be missing\n", pp_shown_name (set->fns[i].name, &dm),
                    set->fns[i].dropped);
            free (dm);
          }
      printf ("residual: %" PRIu64 " untested paths in %d functions "
              "(%d trained functions)\n", untested, n, trained);
    }
  free (fns);
  /* A CI gate fails closed: nothing to check is not "no new paths".  */
  if (fail_on_new && trained == 0)
    {
      fprintf (stderr, "ppprof: residual --fail-on-new: no residual "
               "profile to check (no function has a trained path set: build "
               "with ppgcc -fuse-path-profile -fprofile-paths=residual, run "
               "it, and pass its profiles)\n");
      return 3;
    }
  return fail_on_new && untested ? 1 : 0;
}

