/* ppprof db: the profile database's commands (doc/profile-db.md).

     ppprof db epoch new [--name N]     start an epoch; the open one closes
     ppprof db list [--json]            epochs, images, runs, size
     ppprof db report [--epoch E|--since E] [--image I] [--top N]
                      [--function F] [--json]
     ppprof db residual --epoch E [--image I] [--json] [--fail-on-new]
     ppprof db diff E1 E2 [--image I] [--top N] [--json]
     ppprof db merge OUT DB...          reduce databases into OUT
     ppprof db compact                  every object's segments into one
     ppprof db dump [--json]            everything, in a canonical order

   The database: --db DIR, else $PPGCC_PROFILE_DB.  */
#include "config.h"

#include "db.h"
#include "file_io.h"
#include "json_out.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <fcntl.h>

static void
db_usage (FILE *out)
{
  fputs ("usage: ppprof db epoch new [--name N]\n"
         "       ppprof db list [--json]\n"
         "       ppprof db report [--epoch E | --since E] [--image I] "
         "[--top N]\n"
         "                        [--function F] [--json]\n"
         "       ppprof db residual --epoch E [--image I] [--json] "
         "[--fail-on-new]\n"
         "       ppprof db diff E1 E2 [--image I] [--top N] [--json]\n"
         "       ppprof db merge OUT DB...\n"
         "       ppprof db compact\n"
         "       ppprof db dump [--json]\n"
         "Every command takes --db DIR (default: $PPGCC_PROFILE_DB).  "
         "Programs built\nwith ppgcc -fprofile-paths write into the "
         "database when PPGCC_PROFILE_DB is set:\nper epoch, per image "
         "(its build id), per object.  report: the hot paths of an\n"
         "epoch (default: the newest), --since E: of E and the epochs "
         "after it.  residual:\nthe paths that ran in epoch E and in no "
         "earlier epoch.  diff: the paths whose\nshare of all path "
         "executions moved most from E1 to E2.  merge: databases from\n"
         "many machines into OUT (made if need be), epochs matched by "
         "name.\n", out);
}

/* ---------------------------------------------------------------- epoch */

static int
epoch_new (const char *root, const char *name)
{
  char stamp[32];
  if (!name)
    {
      pdb_default_epoch_name (stamp, sizeof stamp, pdb_now_ns ());
      name = stamp;
    }
  if (!pdb_valid_name (name))
    {
      fprintf (stderr, "ppprof db: epoch name '%s': use letters, digits, "
               "'.', '_' and '-' (at most 64)\n", name);
      return 1;
    }
  const char *why;
  if (pdb_open_root (root, 1, &why) < 0)
    {
      fprintf (stderr, "ppprof db: %s: %s\n", root, why);
      return 2;
    }
  int fd = pdb_lock_epochs (root, 1);
  if (fd < 0)
    {
      fprintf (stderr, "ppprof db: %s/epochs.lock: %s\n", root,
               strerror (errno));
      return 2;
    }
  char *was;
  uint64_t latest;
  if (pdb_newest_open (root, &was, &latest) < 0)
    was = NULL;
  int rc = pdb_start_epoch (root, name, &why);
  pdb_unlock (fd);
  if (rc < 0)
    {
      fprintf (stderr, "ppprof db: %s: epoch '%s': %s\n", root, name, why);
      free (was);
      return 2;
    }
  printf ("epoch %s started", name);
  if (was)
    printf ("; epoch %s closed", was);
  printf ("\n");
  free (was);
  return 0;
}

/* ----------------------------------------------------------------- list */

/* Bytes of the files under DIR.  */
static uint64_t
du (const char *dir)
{
  DIR *d = opendir (dir);
  if (!d)
    return 0;
  uint64_t total = 0;
  struct dirent *e;
  while ((e = readdir (d)))
    {
      struct stat st;
      if (!strcmp (e->d_name, ".") || !strcmp (e->d_name, "..")
          || fstatat (dirfd (d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
        continue;
      if (S_ISDIR (st.st_mode))
        {
          size_t n = strlen (dir) + strlen (e->d_name) + 2;
          char *sub = malloc (n);
          if (sub)
            {
              snprintf (sub, n, "%s/%s", dir, e->d_name);
              total += du (sub);
            }
          free (sub);
        }
      else
        total += (uint64_t) st.st_size;
    }
  closedir (d);
  return total;
}

static void
iso_time (char *out, size_t n, uint64_t ns)
{
  time_t t = (time_t) (ns / 1000000000u);
  struct tm tm;
  gmtime_r (&t, &tm);
  strftime (out, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* An image's runs: the most of its objects' (every run writes each). */
static int
image_runs (const pdb_image *im, uint64_t *runs, uint64_t *segments)
{
  *runs = 0;
  *segments = 0;
  for (int j = 0; j < im->nobjects; j++)
    {
      ppd_profile p;
      char *bad;
      const char *why;
      if (pdb_load_object (im->objects[j].dir, &p, 1, &bad, &why) < 0)
        {
          fprintf (stderr, "ppprof db: %s: %s\n",
                   bad ? bad : im->objects[j].dir, why);
          free (bad);
          return -1;
        }
      if (p.runs > *runs)
        *runs = p.runs;
      ppd_free (&p);
      *segments += pdb_count_segments (im->objects[j].dir);
    }
  return 0;
}

static int
list (const char *root, int json)
{
  pdb_db db;
  if (pdb_scan (root, &db) < 0)
    return 2;
  int rc = 0;
  if (json)
    printf ("{\"database\": ");
  if (json)
    pp_json_string (stdout, root);
  else
    printf ("database %s: %d epoch%s\n", root, db.nepochs,
            db.nepochs == 1 ? "" : "s");
  if (json)
    printf (", \"epochs\": [");
  for (int i = 0; i < db.nepochs && rc == 0; i++)
    {
      const pdb_epoch *e = &db.epochs[i];
      char started[32], closed[32] = "open";
      iso_time (started, sizeof started, e->started);
      if (e->closed)
        iso_time (closed, sizeof closed, e->closed);
      uint64_t bytes = du (e->dir);
      if (json)
        {
          printf ("%s\n  {\"name\": ", i ? "," : "");
          pp_json_string (stdout, e->name);
          printf (", \"started\": \"%s\", \"closed\": %s%s%s, \"bytes\": %"
                  PRIu64 ", \"images\": [", started, e->closed ? "\"" : "",
                  e->closed ? closed : "null", e->closed ? "\"" : "", bytes);
        }
      else
        printf ("\nepoch %s  started %s  %s%s  %" PRIu64 " bytes\n",
                e->name, started, e->closed ? "closed " : "",
                closed, bytes);
      for (int k = 0; k < e->nimages; k++)
        {
          const pdb_image *im = &e->images[k];
          uint64_t runs, segments;
          if (image_runs (im, &runs, &segments) < 0)
            {
              rc = 2;
              break;
            }
          if (json)
            {
              printf ("%s\n    {\"build_id\": ", k ? "," : "");
              pp_json_string (stdout, im->id);
              printf (", \"path\": ");
              pp_json_string (stdout, im->path);
              printf (", \"objects\": %d, \"runs\": %" PRIu64
                      ", \"segments\": %" PRIu64 ", \"bytes\": %" PRIu64
                      ", \"context_profiles\": [",
                      im->nobjects, runs, segments, du (im->dir));
              for (int j = 0; j < im->ncontexts; j++)
                {
                  printf ("%s", j ? ", " : "");
                  pp_json_string (stdout, im->contexts[j]);
                }
              printf ("]}");
            }
          else
            printf ("  image %.16s  %s  %d object%s, %" PRIu64 " run%s, %"
                    PRIu64 " uncompacted segment%s, %" PRIu64 " bytes\n",
                    im->id, im->path, im->nobjects,
                    im->nobjects == 1 ? "" : "s", runs, runs == 1 ? "" : "s",
                    segments, segments == 1 ? "" : "s", du (im->dir));
          for (int j = 0; !json && j < im->ncontexts; j++)
            printf ("    context profile %s/%s\n", im->dir, im->contexts[j]);
        }
      if (json)
        printf ("]}");
    }
  if (json && rc == 0)
    printf ("\n], \"bytes\": %" PRIu64 "}\n", du (root));
  else if (rc == 0)
    printf ("\n%" PRIu64 " bytes in all\n", du (root));
  pdb_db_free (&db);
  return rc;
}

/* -------------------------------------------------------------- compact */

static int
compact (const char *root)
{
  pdb_db db;
  if (pdb_scan (root, &db) < 0)
    return 2;
  uint64_t before = du (root), segments = 0;
  int objects = 0, rc = 0;
  for (int i = 0; i < db.nepochs; i++)
    for (int k = 0; k < db.epochs[i].nimages; k++)
      for (int j = 0; j < db.epochs[i].images[k].nobjects; j++)
        {
          const char *dir = db.epochs[i].images[k].objects[j].dir, *why;
          segments += pdb_count_segments (dir);
          if (pdb_compact_object (dir, 1, &why) < 0)
            {
              fprintf (stderr, "ppprof db: %s: cannot compact: %s\n", dir,
                       why);
              rc = 2;
            }
          else
            objects++;
        }
  printf ("compacted %d object%s (%" PRIu64 " segment%s): %" PRIu64
          " bytes, %" PRIu64 " before\n", objects, objects == 1 ? "" : "s",
          segments, segments == 1 ? "" : "s", du (root), before);
  pdb_db_free (&db);
  return rc;
}

/* ---------------------------------------------------------------- merge */

/* Epoch E of another database into OUT's epoch of its name: started the
   earlier of the two, closed the later when both are, open when either
   is (each rule associative and commutative).  Under OUT's exclusive
   epochs lock.  0 or -1 (message printed).  */
static int
merge_epoch_info (const char *out, const pdb_epoch *e)
{
  uint64_t started, closed;
  char *dir = pdb_epoch_dir (out, e->name);
  if (!dir)
    return -1;
  int have = pdb_epoch_info (out, e->name, &started, &closed) == 0;
  int rc = 0;
  if (!have)
    {
      if (mkdir (dir, 0755) < 0 && errno != EEXIST)
        rc = -1;
      started = e->started;
      closed = e->closed;
    }
  else
    {
      if (e->started < started)
        started = e->started;
      closed = closed && e->closed ? (closed > e->closed ? closed : e->closed)
                                   : 0;
    }
  if (rc == 0)
    rc = pdb_write_stamp (dir, "EPOCH", "started", started);
  if (rc == 0 && closed)
    rc = pdb_write_stamp (dir, "CLOSED", "closed", closed);
  else if (rc == 0)
    {
      char *c = pdb_join (dir, "CLOSED");
      if (c)
        unlink (c);
      free (c);
    }
  if (rc < 0)
    fprintf (stderr, "ppprof db: %s: %s\n", dir, strerror (errno));
  free (dir);
  return rc;
}

/* The image's recorded path in OUT's image directory IDIR: the least of
   the two (machines may keep one build at different paths).  0, or -1
   after one line when IDIR's IMAGE is not a file to read (a FIFO).  */
static int
merge_image_path (const char *idir, const char *path)
{
  char *have;
  const char *why;
  if (pdb_read_image_path (idir, &have, &why) < 0)
    {
      fprintf (stderr, "ppprof db merge: %s/IMAGE: %s\n", idir, why);
      return -1;
    }
  char *file = pdb_join (idir, "IMAGE");
  size_t n = strlen (path);
  char *line = malloc (n + 2);
  if (file && line && strcmp (path, "?")
      && (!have || strcmp (path, have) < 0))
    {
      memcpy (line, path, n);
      line[n] = '\n';
      pp_write_file_atomic (file, line, n + 1);
    }
  free (line);
  free (file);
  free (have);
  return 0;
}

static int
same_dir (const char *a, const char *b)
{
  struct stat x, y;
  return stat (a, &x) == 0 && stat (b, &y) == 0 && x.st_dev == y.st_dev
         && x.st_ino == y.st_ino;
}

/* Each input's objects, merged, become one new segment of OUT's object,
   which is then compacted: OUT holds the sum whatever the order.  */
static int
merge (const char *out, char **inputs, int n)
{
  const char *why;
  for (int i = 0; i < n; i++)
    if (same_dir (out, inputs[i]))
      {
        fprintf (stderr, "ppprof db merge: %s is the output too\n",
                 inputs[i]);
        return 1;
      }
  if (pdb_open_root (out, 1, &why) < 0)
    {
      fprintf (stderr, "ppprof db merge: %s: %s\n", out, why);
      return 2;
    }
  int fd = pdb_lock_epochs (out, 1);
  if (fd < 0)
    {
      fprintf (stderr, "ppprof db merge: %s/epochs.lock: %s\n", out,
               strerror (errno));
      return 2;
    }
  struct timespec t0, t1;
  clock_gettime (CLOCK_MONOTONIC, &t0);
  uint64_t profiles = 0, bytes = 0;
  int rc = 0;
  for (int i = 0; i < n && rc == 0; i++)
    {
      pdb_db db;
      if (pdb_scan (inputs[i], &db) < 0)
        {
          rc = 2;
          break;
        }
      bytes += du (inputs[i]);
      for (int e = 0; e < db.nepochs && rc == 0; e++)
        {
          const pdb_epoch *ep = &db.epochs[e];
          if (merge_epoch_info (out, ep) < 0)
            {
              rc = 2;
              break;
            }
          char *edir = pdb_epoch_dir (out, ep->name);
          for (int k = 0; edir && k < ep->nimages && rc == 0; k++)
            {
              const pdb_image *im = &ep->images[k];
              /* The image's directory and path first: when its IMAGE is
                 bad, none of its counts have gone in.  */
              char *idir = pdb_object_dir (edir, im->id, NULL, NULL);
              if (!idir)
                {
                  fprintf (stderr, "ppprof db merge: %s/%s: %s\n", edir,
                           im->id, strerror (errno));
                  rc = 2;
                }
              else if (merge_image_path (idir, im->path) < 0)
                rc = 2;
              free (idir);
              for (int j = 0; j < im->nobjects && rc == 0; j++)
                {
                  ppd_profile p;
                  char *bad = NULL;
                  if (pdb_load_object (im->objects[j].dir, &p, 1, &bad, &why)
                      < 0)
                    {
                      fprintf (stderr, "ppprof db merge: %s: %s\n",
                               bad ? bad : im->objects[j].dir, why);
                      free (bad);
                      rc = 2;
                      break;
                    }
                  char *odir = pdb_object_dir (edir, im->id, NULL,
                                               im->objects[j].key);
                  if (!odir || pdb_write_segment (odir, &p) < 0
                      || pdb_compact_object (odir, 1, &why) < 0)
                    {
                      fprintf (stderr, "ppprof db merge: %s/%s/%s: %s\n",
                               edir, im->id, im->objects[j].key,
                               strerror (errno));
                      rc = 2;
                    }
                  profiles++;
                  free (odir);
                  ppd_free (&p);
                }
            }
          free (edir);
        }
      pdb_db_free (&db);
    }
  pdb_unlock (fd);
  clock_gettime (CLOCK_MONOTONIC, &t1);
  double s = (double) (t1.tv_sec - t0.tv_sec)
             + (double) (t1.tv_nsec - t0.tv_nsec) / 1e9;
  if (rc == 0)
    printf ("merged %d database%s into %s: %" PRIu64 " object profiles, %.1f"
            " MB, in %.2f s (%.0f profiles/s, %.1f MB/s)\n", n,
            n == 1 ? "" : "s", out, profiles, (double) bytes / 1e6, s,
            s > 0 ? (double) profiles / s : 0.0,
            s > 0 ? (double) bytes / 1e6 / s : 0.0);
  return rc;
}

/* ----------------------------------------------------------------- dump */

static int
by_fn (const void *a, const void *b)
{
  const ppd_fn *x = a, *y = b;
  int c = strcmp (x->name, y->name);
  if (c)
    return c;
  return (x->checksum > y->checksum) - (x->checksum < y->checksum);
}

/* Everything, one line per fact, in an order of the contents alone: two
   databases hold the same profiles exactly when their dumps are equal
   (the merge tests compare them).  */
static int
dump (const char *root, int json)
{
  pdb_db db;
  if (pdb_scan (root, &db) < 0)
    return 2;
  int rc = 0;
  if (json)
    printf ("{\"epochs\": [");
  for (int i = 0; i < db.nepochs && rc == 0; i++)
    {
      const pdb_epoch *e = &db.epochs[i];
      if (json)
        {
          printf ("%s\n {\"name\": ", i ? "," : "");
          pp_json_string (stdout, e->name);
          printf (", \"started\": %" PRIu64 ", \"closed\": %" PRIu64
                  ", \"images\": [", e->started, e->closed);
        }
      else
        printf ("epoch %s started %" PRIu64 " closed %" PRIu64 "\n", e->name,
                e->started, e->closed);
      for (int k = 0; k < e->nimages && rc == 0; k++)
        {
          const pdb_image *im = &e->images[k];
          if (json)
            {
              printf ("%s\n  {\"build_id\": ", k ? "," : "");
              pp_json_string (stdout, im->id);
              printf (", \"path\": ");
              pp_json_string (stdout, im->path);
              printf (", \"objects\": [");
            }
          else
            printf (" image %s %s\n", im->id, im->path);
          for (int j = 0; j < im->nobjects; j++)
            {
              ppd_profile p;
              char *bad = NULL;
              const char *why;
              if (pdb_load_object (im->objects[j].dir, &p, 1, &bad, &why)
                  < 0)
                {
                  fprintf (stderr, "ppprof db: %s: %s\n",
                           bad ? bad : im->objects[j].dir, why);
                  free (bad);
                  rc = 2;
                  break;
                }
              if (p.nfns > 1) /* an object of no segments: fns NULL */
                qsort (p.fns, p.nfns, sizeof *p.fns, by_fn);
              if (json)
                {
                  printf ("%s\n   {\"object\": ", j ? "," : "");
                  pp_json_string (stdout, im->objects[j].key);
                  printf (", \"runs\": %" PRIu64 ", \"sum_max\": %" PRIu64
                          ", \"functions\": [", p.runs, p.sum_max);
                }
              else
                printf ("  object %s runs %" PRIu64 " sum_max %" PRIu64 "\n",
                        im->objects[j].key, p.runs, p.sum_max);
              for (uint32_t f = 0; f < p.nfns; f++)
                {
                  const ppd_fn *fn = &p.fns[f];
                  if (json)
                    {
                      printf ("%s\n    {\"name\": ", f ? "," : "");
                      pp_json_string (stdout, fn->name);
                      printf (", \"checksum\": %u, \"dropped\": %" PRIu64
                              ", \"paths\": [", fn->checksum, fn->dropped);
                      for (uint64_t q = 0; q < fn->npairs; q++)
                        printf ("%s[%" PRIu64 ", %" PRIu64 "]", q ? ", " : "",
                                fn->pairs[q].id, fn->pairs[q].count);
                      printf ("], \"trained\": [");
                      for (uint64_t q = 0; q < fn->ntrained; q++)
                        printf ("%s%" PRIu64, q ? ", " : "", fn->trained[q]);
                      printf ("]}");
                      continue;
                    }
                  printf ("   function %s checksum %u flags %u paths %" PRIu64
                          " dropped %" PRIu64 "\n", fn->name, fn->checksum,
                          fn->flags, fn->num_paths, fn->dropped);
                  for (uint64_t q = 0; q < fn->npairs; q++)
                    printf ("    path %" PRIu64 " %" PRIu64 "\n",
                            fn->pairs[q].id, fn->pairs[q].count);
                  for (uint64_t q = 0; q < fn->ntrained; q++)
                    printf ("    trained %" PRIu64 "\n", fn->trained[q]);
                }
              if (json)
                printf ("]}");
              ppd_free (&p);
            }
          if (json)
            printf ("]}");
        }
      if (json)
        printf ("]}");
    }
  if (json)
    printf ("\n]}\n");
  pdb_db_free (&db);
  return rc;
}

/* --------------------------------------------------------- the command */

static int
parse_count (const char *opt, const char *v, long *out)
{
  char *end;
  *out = strtol (v, &end, 10);
  if (*end || !*v || *out < 0)
    {
      fprintf (stderr, "ppprof db: %s %s: not a count\n", opt, v);
      return -1;
    }
  return 0;
}

int
ppprof_db (int argc, char **argv)
{
  if (argc < 2 || !strcmp (argv[1], "--help") || !strcmp (argv[1], "-h"))
    {
      db_usage (argc < 2 ? stderr : stdout);
      return argc < 2 ? 1 : 0;
    }
  const char *sub = argv[1], *name = NULL, *dbopt = NULL;
  pdb_query_options o = { .top = 20 };
  char **args = calloc ((size_t) argc, sizeof *args);
  int nargs = 0, rc = 0;
  if (!args)
    return 2;
  for (int i = 2; i < argc && rc == 0; i++)
    {
      const char *a = argv[i];
      int has_value = i + 1 < argc;
      if (!strcmp (a, "--json"))
        o.json = 1;
      else if (!strcmp (a, "--fail-on-new"))
        o.fail_on_new = 1;
      else if (!strcmp (a, "--db") || !strcmp (a, "--epoch")
               || !strcmp (a, "--since") || !strcmp (a, "--image")
               || !strcmp (a, "--function") || !strcmp (a, "--name")
               || !strcmp (a, "--top"))
        {
          if (!has_value)
            {
              fprintf (stderr, "ppprof db: %s needs a value\n", a);
              rc = 1;
              break;
            }
          const char *v = argv[++i];
          if (!strcmp (a, "--db"))
            dbopt = v;
          else if (!strcmp (a, "--epoch"))
            o.epoch = v;
          else if (!strcmp (a, "--since"))
            o.since = v;
          else if (!strcmp (a, "--image"))
            o.image = v;
          else if (!strcmp (a, "--function"))
            o.only = v;
          else if (!strcmp (a, "--name"))
            name = v;
          else if (parse_count (a, v, &o.top) < 0)
            rc = 1;
        }
      else if (a[0] == '-' && a[1])
        {
          fprintf (stderr, "ppprof db %s: unknown option '%s'\n", sub, a);
          rc = 1;
        }
      else
        args[nargs++] = argv[i];
    }
  int is_epoch = !strcmp (sub, "epoch"), is_merge = !strcmp (sub, "merge");
  int is_diff = !strcmp (sub, "diff");
  int want = is_epoch ? 1 : is_diff ? 2 : is_merge ? -1 : 0;
  if (rc == 0 && is_epoch && (nargs != 1 || strcmp (args[0], "new")))
    {
      fprintf (stderr, "ppprof db epoch: say 'ppprof db epoch new [--name "
               "N]'\n");
      rc = 1;
    }
  else if (rc == 0 && is_merge && nargs < 2)
    {
      fprintf (stderr, "ppprof db merge: give the output and at least one "
               "database: ppprof db merge OUT DB...\n");
      rc = 1;
    }
  else if (rc == 0 && want >= 0 && nargs != want)
    {
      fprintf (stderr, "ppprof db %s: %s\n", sub,
               is_diff ? "give two epochs: ppprof db diff E1 E2"
                       : "takes no file arguments (the database: --db DIR)");
      rc = 1;
    }
  else if (rc == 0 && o.epoch && o.since)
    {
      fprintf (stderr, "ppprof db: --epoch and --since: give one\n");
      rc = 1;
    }
  if (rc == 0 && !is_merge)
    {
      o.db = pdb_db_path (dbopt);
      if (!o.db)
        rc = 1;
    }
  if (rc)
    ;
  else if (is_epoch)
    rc = epoch_new (o.db, name);
  else if (!strcmp (sub, "list"))
    rc = list (o.db, o.json);
  else if (!strcmp (sub, "report"))
    rc = pdb_report (&o);
  else if (!strcmp (sub, "residual"))
    {
      if (!o.epoch)
        {
          fprintf (stderr, "ppprof db residual: which epoch? --epoch E\n");
          rc = 1;
        }
      else
        rc = pdb_residual (&o);
    }
  else if (is_diff)
    rc = pdb_diff (&o, args[0], args[1]);
  else if (is_merge)
    rc = merge (args[0], args + 1, nargs - 1);
  else if (!strcmp (sub, "compact"))
    rc = compact (o.db);
  else if (!strcmp (sub, "dump"))
    rc = dump (o.db, o.json);
  else
    {
      fprintf (stderr, "ppprof db: unknown command '%s'\n", sub);
      db_usage (stderr);
      rc = 1;
    }
  free (args);
  return rc;
}
