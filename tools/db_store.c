/* Reading a profile database's tree (doc/profile-db.md): its epochs in
   order, their images, their objects; and the merged profiles of a
   selection of them as a profile set, for the reports.  */
#include "db.h"
#include "file_io.h"

#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *
pdb_db_path (const char *opt)
{
  const char *db = opt && *opt ? opt : getenv ("PPGCC_PROFILE_DB");
  if (!db || !*db)
    fprintf (stderr, "ppprof db: no database: give --db DIR or set "
             "PPGCC_PROFILE_DB\n");
  return db && *db ? db : NULL;
}

/* The subdirectories of DIR, sorted by name (hidden ones and
   absorbed-/base- files never are: objects' contents are not listed).  */
static int
subdirs (const char *dir, char ***out, int *n)
{
  *out = NULL;
  *n = 0;
  DIR *d = opendir (dir);
  if (!d)
    return -1;
  struct dirent *e;
  while ((e = readdir (d)))
    {
      struct stat st;
      if (e->d_name[0] == '.'
          || fstatat (dirfd (d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0
          || !S_ISDIR (st.st_mode))
        continue;
      char **more = realloc (*out, (*n + 1) * sizeof *more);
      if (!more)
        break;
      *out = more;
      (*out)[(*n)++] = strdup (e->d_name);
    }
  closedir (d);
  for (int i = 1; i < *n; i++) /* few: insertion sort */
    for (int j = i; j > 0 && strcmp ((*out)[j - 1], (*out)[j]) > 0; j--)
      {
        char *t = (*out)[j];
        (*out)[j] = (*out)[j - 1];
        (*out)[j - 1] = t;
      }
  return 0;
}

int
pdb_read_image_path (const char *idir, char **path, const char **why)
{
  *path = NULL;
  char *file = pdb_join (idir, "IMAGE"), *buf;
  size_t len;
  if (!file)
    {
      *why = "out of memory";
      return -1;
    }
  /* Not fopen: it blocks for ever on a FIFO put there.  */
  int rc = pp_read_whole_file_flags (file, O_NOFOLLOW, &buf, &len, why);
  free (file);
  if (rc > 0)
    return 0;
  if (rc < 0)
    return -1;
  size_t n = 0;
  while (n < len && buf[n] != '\n' && buf[n] != '\0')
    n++;
  if (n > 0)
    {
      *path = malloc (n + 1);
      if (*path)
        {
          memcpy (*path, buf, n);
          (*path)[n] = '\0';
        }
    }
  free (buf);
  return 0;
}

static void
image_free (pdb_image *im)
{
  for (int j = 0; j < im->nobjects; j++)
    {
      free (im->objects[j].key);
      free (im->objects[j].dir);
    }
  free (im->objects);
  for (int j = 0; j < im->ncontexts; j++)
    free (im->contexts[j]);
  free (im->contexts);
  free (im->id);
  free (im->path);
  free (im->dir);
  memset (im, 0, sizeof *im);
}

/* Image ID of epoch directory EDIR in *IM: 0; -1 when its directory
   cannot be listed (removed meanwhile: skipped); -2 after one line when
   its IMAGE file is not a file to read.  */
static int
load_image (pdb_image *im, const char *edir, const char *id)
{
  memset (im, 0, sizeof *im);
  im->id = strdup (id);
  im->dir = pdb_join (edir, id);
  const char *why = "out of memory";
  if (!im->id || !im->dir
      || pdb_read_image_path (im->dir, &im->path, &why) < 0)
    {
      fprintf (stderr, "ppprof db: %s/%s/IMAGE: %s\n", edir, id, why);
      image_free (im);
      return -2;
    }
  if (!im->path)
    im->path = strdup ("?");
  char **names;
  int n;
  if (subdirs (im->dir, &names, &n) < 0)
    {
      image_free (im);
      return -1;
    }
  /* context profiles beside the objects */
  DIR *d = opendir (im->dir);
  struct dirent *e;
  while (d && (e = readdir (d)))
    {
      size_t len = strlen (e->d_name);
      if (len < 5 || strcmp (e->d_name + len - 4, ".ppc"))
        continue;
      char **more = realloc (im->contexts,
                             (im->ncontexts + 1) * sizeof *more);
      if (!more)
        break;
      im->contexts = more;
      im->contexts[im->ncontexts++] = strdup (e->d_name);
    }
  if (d)
    closedir (d);
  im->objects = calloc (n ? n : 1, sizeof *im->objects);
  for (int i = 0; i < n; i++)
    {
      im->objects[im->nobjects].key = names[i];
      im->objects[im->nobjects++].dir = pdb_join (im->dir, names[i]);
    }
  free (names);
  return 0;
}

static int
by_start (const void *a, const void *b)
{
  const pdb_epoch *x = a, *y = b;
  if (pdb_epoch_before (x->started, x->name, y->started, y->name))
    return -1;
  return pdb_epoch_before (y->started, y->name, x->started, x->name);
}

int
pdb_scan (const char *root, pdb_db *db)
{
  memset (db, 0, sizeof *db);
  const char *why;
  if (pdb_open_root (root, 0, &why) < 0)
    {
      fprintf (stderr, "ppprof db: %s: %s\n", root, why);
      return -1;
    }
  db->root = strdup (root);
  char *edir = pdb_join (root, "epochs");
  char **names;
  int n;
  if (!edir || subdirs (edir, &names, &n) < 0)
    {
      fprintf (stderr, "ppprof db: %s/epochs: %s\n", root, strerror (errno));
      free (edir);
      return -1;
    }
  free (edir);
  db->epochs = calloc (n ? n : 1, sizeof *db->epochs);
  for (int i = 0; i < n; i++)
    {
      pdb_epoch *e = &db->epochs[db->nepochs];
      if (!pdb_valid_name (names[i])
          || pdb_epoch_info (root, names[i], &e->started, &e->closed) < 0)
        {
          free (names[i]);
          continue; /* an epoch being made, or not one */
        }
      e->name = names[i];
      e->dir = pdb_epoch_dir (root, names[i]);
      char **ids;
      int m;
      if (subdirs (e->dir, &ids, &m) < 0)
        m = 0, ids = NULL;
      e->images = calloc (m ? m : 1, sizeof *e->images);
      int bad = 0;
      for (int k = 0; k < m; k++)
        {
          int rc = bad ? -1 : load_image (&e->images[e->nimages], e->dir,
                                          ids[k]);
          if (rc == 0)
            e->nimages++;
          bad |= rc == -2;
          free (ids[k]);
        }
      free (ids);
      db->nepochs++;
      if (bad)
        {
          while (++i < n)
            free (names[i]);
          free (names);
          pdb_db_free (db);
          return -1;
        }
    }
  free (names);
  qsort (db->epochs, db->nepochs, sizeof *db->epochs, by_start);
  return 0;
}

void
pdb_db_free (pdb_db *db)
{
  for (int i = 0; i < db->nepochs; i++)
    {
      pdb_epoch *e = &db->epochs[i];
      for (int k = 0; k < e->nimages; k++)
        image_free (&e->images[k]);
      free (e->images);
      free (e->name);
      free (e->dir);
    }
  free (db->epochs);
  free (db->root);
  memset (db, 0, sizeof *db);
}

int
pdb_find_epoch (const pdb_db *db, const char *name)
{
  for (int i = 0; i < db->nepochs; i++)
    if (!strcmp (db->epochs[i].name, name))
      return i;
  fprintf (stderr, "ppprof db: %s: no epoch '%s' (ppprof db list shows "
           "them)\n", db->root, name);
  return -1;
}

int
pdb_image_matches (const pdb_image *im, const char *sel)
{
  if (!sel)
    return 1;
  size_t n = strlen (sel);
  const char *slash = strrchr (im->path, '/');
  return !strncmp (im->id, sel, n) || !strcmp (im->path, sel)
         || !strcmp (slash ? slash + 1 : im->path, sel);
}

int
pdb_add_epochs (pp_profile_set *set, const pdb_db *db, int from, int to,
                const char *sel, int *matched)
{
  *matched = 0;
  for (int i = from; i <= to; i++)
    for (int k = 0; k < db->epochs[i].nimages; k++)
      {
        const pdb_image *im = &db->epochs[i].images[k];
        if (!pdb_image_matches (im, sel))
          continue;
        ++*matched;
        for (int j = 0; j < im->nobjects; j++)
          {
            ppd_profile p;
            char *bad = NULL;
            const char *why = "";
            if (pdb_load_object (im->objects[j].dir, &p, 1, &bad, &why) < 0)
              {
                fprintf (stderr, "ppprof db: %s: %s\n",
                         bad ? bad : im->objects[j].dir, why);
                free (bad);
                return -1;
              }
            size_t n = strlen (db->epochs[i].name) + strlen (im->id)
                       + strlen (im->objects[j].key) + 3;
            char *name = malloc (n);
            ppd_profile *more = realloc (set->profiles,
                                         (set->num_profiles + 1)
                                             * sizeof *more);
            char **names = more ? realloc (set->profile_names,
                                           (set->num_profiles + 1)
                                               * sizeof *names)
                                : NULL;
            if (more)
              set->profiles = more;
            if (names)
              set->profile_names = names;
            if (!name || !more || !names)
              {
                free (name);
                ppd_free (&p);
                fprintf (stderr, "ppprof db: out of memory\n");
                return -1;
              }
            snprintf (name, n, "%s/%s/%s", db->epochs[i].name, im->id,
                      im->objects[j].key);
            set->profiles[set->num_profiles] = p;
            set->profile_names[set->num_profiles++] = name;
          }
      }
  return 0;
}
