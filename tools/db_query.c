/* ppprof db report, residual and diff: questions over epochs (DCPI's
   dcpiprof over its profile database; residual and diff are this
   database's own, doc/profile-db.md).  Functions are matched across
   epochs and builds as ppprof report matches them across objects: by
   name, source file and CFG checksum, so two builds of one source agree
   wherever a function did not change.  */
#include "config.h"

#include "commands.h"
#include "db.h"
#include "demangle.h"
#include "json_out.h"

#include "pp/rt_abi.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The analysed profiles of epochs [FROM, TO] of O's images.  0, or the
   exit status after a message.  */
static int
load_epochs (pp_profile_set *set, const pdb_db *db, int from, int to,
             const pdb_query_options *o)
{
  memset (set, 0, sizeof *set);
  int matched;
  if (from > to)
    return 0; /* nothing: an empty set */
  if (pdb_add_epochs (set, db, from, to, o->image, &matched) < 0)
    return 2;
  if (o->image && !matched)
    {
      fprintf (stderr, "ppprof db: --image %s: no image of that build id "
               "prefix or path in epoch%s %s%s%s\n", o->image,
               from == to ? "" : "s", db->epochs[from].name,
               from == to ? "" : " to ", from == to ? "" : db->epochs[to].name);
      return 2;
    }
  return pp_profile_set_analyse (set) < 0 ? 2 : 0;
}

static int
same_fn (const pp_report_fn *a, const pp_report_fn *b)
{
  return a->checksum == b->checksum && !strcmp (a->name, b->name)
         && !strcmp (a->file, b->file);
}

/* ---------------------------------------------------------------- report */

int
pdb_report (const pdb_query_options *o)
{
  pdb_db db;
  if (pdb_scan (o->db, &db) < 0)
    return 2;
  int rc = 0, from = db.nepochs - 1, to = db.nepochs - 1;
  if (db.nepochs == 0)
    {
      fprintf (stderr, "ppprof db report: %s: no epoch yet (no run has "
               "written)\n", o->db);
      pdb_db_free (&db);
      return 2;
    }
  if (o->epoch || o->since)
    {
      from = pdb_find_epoch (&db, o->epoch ? o->epoch : o->since);
      if (from < 0)
        rc = 2;
      else if (o->epoch)
        to = from;
    }
  pp_profile_set set;
  memset (&set, 0, sizeof set);
  if (rc == 0 && (rc = load_epochs (&set, &db, from, to, o)) == 0)
    {
      if (!o->json)
        printf ("epoch%s %s%s%s\n", from == to ? "" : "s",
                db.epochs[from].name, from == to ? "" : " to ",
                from == to ? "" : db.epochs[to].name);
      rc = ppprof_report (&set, o->top, o->only, o->json);
    }
  pp_profile_set_free (&set);
  pdb_db_free (&db);
  return rc;
}

/* -------------------------------------------------------------- residual */

static int
cmp_u64 (const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
  return (x > y) - (x < y);
}

/* FN's trained set: the paths the same function ran in EARLIER.  0 when
   it is not there (new or changed code: nothing ran before).  */
static int
earlier_paths (pp_report_fn *fn, const pp_profile_set *earlier, int *seen,
               int *renamed)
{
  const pp_report_fn *e = NULL;
  *seen = *renamed = 0;
  for (int i = 0; i < earlier->num_fns && !e; i++)
    if (same_fn (fn, &earlier->fns[i]))
      e = &earlier->fns[i];
    else if (!strcmp (fn->name, earlier->fns[i].name)
             && !strcmp (fn->file, earlier->fns[i].file))
      *renamed = 1; /* there, with another CFG */
  free (fn->trained);
  fn->trained = NULL;
  fn->ntrained = 0;
  fn->flags |= PP_FN_TRAINED;
  if (!e)
    return 0;
  *seen = 1;
  fn->trained = malloc ((size_t) (e->num_paths_run + 1) * sizeof *fn->trained);
  if (!fn->trained)
    return -1;
  for (int k = 0; k < e->num_paths_run; k++)
    if (e->paths[k].count)
      fn->trained[fn->ntrained++] = e->paths[k].id;
  qsort (fn->trained, fn->ntrained, sizeof *fn->trained, cmp_u64);
  return 0;
}

static void
residual_fn_text (const pp_report_fn *fn, const char *why)
{
  char *dm;
  printf ("%s (%s): %d new path%s, %" PRIu64 " execution%s%s\n",
          pp_shown_name (fn->name, &dm), fn->file, fn->num_untested,
          fn->num_untested == 1 ? "" : "s", fn->untested_total,
          fn->untested_total == 1 ? "" : "s", why);
  free (dm);
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

static void
residual_fn_json (const pp_report_fn *fn, const char *why, int first)
{
  printf ("%s\n  {\"name\": ", first ? "" : ",");
  pp_json_string (stdout, fn->name);
  printf (", \"file\": ");
  pp_json_string (stdout, fn->file);
  printf (", \"function_is\": \"%s\", \"paths\": [", why);
  int f = 1;
  for (int k = 0; k < fn->num_paths_run; k++)
    {
      const pp_report_path *p = &fn->paths[k];
      if (!p->untested)
        continue;
      printf ("%s\n    {\"id\": %" PRIu64 ", \"count\": %" PRIu64 ", ",
              f ? "" : ",", p->id, p->count);
      print_json_lines (stdout, p);
      printf ("}");
      f = 0;
    }
  printf ("]}");
}

/* The paths epoch E ran that no earlier epoch ran: "new in the field
   since the last build" (residual testing over time).  */
int
pdb_residual (const pdb_query_options *o)
{
  pdb_db db;
  if (pdb_scan (o->db, &db) < 0)
    return 2;
  int e = pdb_find_epoch (&db, o->epoch);
  if (e < 0)
    {
      pdb_db_free (&db);
      return 2;
    }
  pp_profile_set now, before;
  int rc = load_epochs (&now, &db, e, e, o);
  if (rc == 0)
    {
      pdb_query_options all = *o;
      all.image = NULL; /* any build of the source ran it before */
      rc = load_epochs (&before, &db, 0, e - 1, &all);
      if (rc)
        pp_profile_set_free (&now);
    }
  if (rc)
    {
      pdb_db_free (&db);
      return rc;
    }
  uint64_t new_paths = 0, new_execs = 0;
  int fns = 0, first = 1;
  if (o->json)
    {
      printf ("{\"epoch\": ");
      pp_json_string (stdout, o->epoch);
      printf (", \"functions\": [");
    }
  else
    printf ("epoch %s against %d earlier epoch%s\n\n", o->epoch, e,
            e == 1 ? "" : "s");
  for (int i = 0; i < now.num_fns && rc == 0; i++)
    {
      pp_report_fn *fn = &now.fns[i];
      if (o->only && strcmp (fn->name, o->only))
        continue;
      int seen, changed;
      if (earlier_paths (fn, &before, &seen, &changed) < 0)
        {
          fprintf (stderr, "ppprof db: out of memory\n");
          rc = 2;
          break;
        }
      pp_report_mark_untested (fn);
      if (!fn->num_untested)
        continue;
      const char *why = seen ? "known" : changed ? "changed" : "new";
      fns++;
      new_paths += (uint64_t) fn->num_untested;
      new_execs += fn->untested_total;
      if (o->json)
        residual_fn_json (fn, why, first);
      else
        residual_fn_text (fn, seen ? "" : changed ? " (the function changed "
                                                   "since: all its paths are "
                                                   "new)"
                                                 : " (a new function)");
      first = 0;
    }
  if (rc == 0 && o->json)
    printf ("\n], \"new_paths\": %" PRIu64 ", \"executions\": %" PRIu64
            "}\n", new_paths, new_execs);
  else if (rc == 0)
    printf ("db residual: %" PRIu64 " path%s new in epoch %s (%" PRIu64
            " execution%s) in %d function%s\n", new_paths,
            new_paths == 1 ? "" : "s", o->epoch, new_execs,
            new_execs == 1 ? "" : "s", fns, fns == 1 ? "" : "s");
  pp_profile_set_free (&now);
  pp_profile_set_free (&before);
  pdb_db_free (&db);
  if (rc == 0 && o->fail_on_new && new_paths)
    rc = 1;
  return rc;
}

/* ------------------------------------------------------------------ diff */

typedef struct
{
  const pp_report_fn *fn;   /* where its text comes from */
  const pp_report_path *path;
  double share[2];          /* of all path executions of each epoch */
  uint64_t count[2];
} diff_row;

static int
by_change (const void *a, const void *b)
{
  const diff_row *x = a, *y = b;
  double dx = x->share[1] - x->share[0], dy = y->share[1] - y->share[0];
  dx = dx < 0 ? -dx : dx;
  dy = dy < 0 ? -dy : dy;
  if (dx != dy)
    return dx < dy ? 1 : -1;
  int c = strcmp (x->fn->name, y->fn->name);
  if (c)
    return c;
  return (x->path->id > y->path->id) - (x->path->id < y->path->id);
}

/* Adds SET's paths as side SIDE of ROWS, matching the other side's.  */
static int
add_side (diff_row **rows, size_t *n, const pp_profile_set *set, int side)
{
  size_t first_other = *n;
  for (int i = 0; i < set->num_fns; i++)
    {
      const pp_report_fn *fn = &set->fns[i];
      for (int k = 0; k < fn->num_paths_run; k++)
        {
          const pp_report_path *p = &fn->paths[k];
          if (!p->count)
            continue;
          double share = set->total ? (double) p->count / (double) set->total
                                    : 0.0;
          diff_row *r = NULL;
          for (size_t j = 0; side == 1 && j < first_other && !r; j++)
            if ((*rows)[j].path->id == p->id && same_fn ((*rows)[j].fn, fn))
              r = &(*rows)[j];
          if (!r)
            {
              diff_row *more = realloc (*rows, (*n + 1) * sizeof *more);
              if (!more)
                return -1;
              *rows = more;
              r = &(*rows)[(*n)++];
              memset (r, 0, sizeof *r);
              r->fn = fn;
              r->path = p;
            }
          r->share[side] = share;
          r->count[side] = p->count;
        }
    }
  return 0;
}

int
pdb_diff (const pdb_query_options *o, const char *e1, const char *e2)
{
  pdb_db db;
  if (pdb_scan (o->db, &db) < 0)
    return 2;
  int a = pdb_find_epoch (&db, e1), b = a < 0 ? -1 : pdb_find_epoch (&db, e2);
  if (a < 0 || b < 0)
    {
      pdb_db_free (&db);
      return 2;
    }
  pp_profile_set s[2];
  int rc = load_epochs (&s[0], &db, a, a, o);
  if (rc == 0 && (rc = load_epochs (&s[1], &db, b, b, o)) != 0)
    pp_profile_set_free (&s[0]);
  if (rc)
    {
      pdb_db_free (&db);
      return rc;
    }
  diff_row *rows = NULL;
  size_t n = 0;
  if (add_side (&rows, &n, &s[0], 0) < 0 || add_side (&rows, &n, &s[1], 1) < 0)
    {
      fprintf (stderr, "ppprof db: out of memory\n");
      rc = 2;
    }
  if (rows)
    qsort (rows, n, sizeof *rows, by_change);
  size_t shown = o->top && (size_t) o->top < n ? (size_t) o->top : n;
  if (rc == 0 && o->json)
    {
      printf ("{\"from\": ");
      pp_json_string (stdout, e1);
      printf (", \"to\": ");
      pp_json_string (stdout, e2);
      printf (", \"executions\": [%" PRIu64 ", %" PRIu64 "], \"paths\": [",
              s[0].total, s[1].total);
      for (size_t i = 0; i < shown; i++)
        {
          printf ("%s\n  {\"function\": ", i ? "," : "");
          pp_json_string (stdout, rows[i].fn->name);
          printf (", \"file\": ");
          pp_json_string (stdout, rows[i].fn->file);
          printf (", \"id\": %" PRIu64 ", \"counts\": [%" PRIu64 ", %" PRIu64
                  "], \"shares\": [%.6f, %.6f], ", rows[i].path->id,
                  rows[i].count[0], rows[i].count[1], rows[i].share[0],
                  rows[i].share[1]);
          print_json_lines (stdout, rows[i].path);
          printf ("}");
        }
      printf ("\n]");
    }
  else if (rc == 0)
    {
      printf ("epoch %s: %" PRIu64 " path executions; epoch %s: %" PRIu64
              "\n%9s %9s %9s  %-24s %8s  path\n", e1, s[0].total, e2,
              s[1].total, e1, e2, "change", "function", "id");
      for (size_t i = 0; i < shown; i++)
        {
          const diff_row *r = &rows[i];
          char *dm;
          printf ("%8.2f%% %8.2f%% %+8.2f%%  %-24s %8" PRIu64 "  ",
                  100 * r->share[0], 100 * r->share[1],
                  100 * (r->share[1] - r->share[0]),
                  pp_shown_name (r->fn->name, &dm), r->path->id);
          free (dm);
          print_path (stdout, r->path);
          printf ("\n");
        }
    }
  /* Functions whose CFG changed between the two: their paths are not
     matched (ids of different CFGs mean different paths).  */
  int changed = 0;
  for (int i = 0; rc == 0 && i < s[1].num_fns; i++)
    {
      const pp_report_fn *f = &s[1].fns[i];
      int same = 0, other = 0;
      for (int k = 0; k < s[0].num_fns; k++)
        if (same_fn (f, &s[0].fns[k]))
          same = 1;
        else if (!strcmp (f->name, s[0].fns[k].name)
                 && !strcmp (f->file, s[0].fns[k].file))
          other = 1;
      if (same || !other)
        continue;
      if (o->json)
        {
          printf ("%s", changed ? ", " : ", \"changed_functions\": [");
          pp_json_string (stdout, f->name);
        }
      else
        {
          char *dm;
          printf ("note: %s (%s) changed between the builds: its paths "
                  "are compared as different paths\n",
                  pp_shown_name (f->name, &dm), f->file);
          free (dm);
        }
      changed++;
    }
  if (rc == 0 && o->json)
    printf ("%s}\n", changed ? "]" : "");
  free (rows);
  pp_profile_set_free (&s[0]);
  pp_profile_set_free (&s[1]);
  pdb_db_free (&db);
  return rc;
}
