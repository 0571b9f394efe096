/* ppprof db: the profile database (lib/profile_db.c, doc/profile-db.md)
   as the tools see it.  db_store.c reads its tree, db.c has the commands
   that change it and list it, db_query.c the reports over it.  */
#ifndef PPPROF_DB_H
#define PPPROF_DB_H

#include "profile_set.h"
#include "pp/profile_db.h"

#include <stdint.h>

typedef struct
{
  char *key;      /* the object's directory name */
  char *dir;
} pdb_object_ref;

typedef struct
{
  char *id;       /* build id (or path-<hash>) */
  char *path;     /* the image's path, as the first run recorded it */
  char *dir;
  pdb_object_ref *objects;
  int nobjects;
  char **contexts;  /* its context profiles (<program>.ppc), names */
  int ncontexts;
} pdb_image;

typedef struct
{
  char *name, *dir;
  uint64_t started, closed;  /* ns since 1970; closed 0: open */
  pdb_image *images;
  int nimages;
} pdb_epoch;

typedef struct
{
  char *root;
  pdb_epoch *epochs;   /* oldest first */
  int nepochs;
} pdb_db;

/* The database --db names, else $PPGCC_PROFILE_DB; NULL after one line. */
const char *pdb_db_path (const char *opt);
/* The image path image directory IDIR's IMAGE file records, malloc'd in
   *PATH (NULL: no IMAGE file, or an empty one).  0, or -1 with *WHY when
   IMAGE is not a regular file (a FIFO: never waited on) or unreadable.  */
int pdb_read_image_path (const char *idir, char **path, const char **why);
/* Reads the tree of ROOT.  0, or -1 after one line.  */
int pdb_scan (const char *root, pdb_db *db);
void pdb_db_free (pdb_db *db);
/* The epoch named NAME: its index, or -1 after one line.  */
int pdb_find_epoch (const pdb_db *db, const char *name);
/* Whether image IM is what --image SEL names: a prefix of its build id,
   its path, or its path's last component.  SEL NULL: every image.  */
int pdb_image_matches (const pdb_image *im, const char *sel);
/* Adds the merged profile of every object of epochs [FROM, TO] (images
   SEL) to SET, each named "EPOCH/IMAGE/OBJECT".  0, or -1 after one line.
   *MATCHED: the images that matched.  */
int pdb_add_epochs (pp_profile_set *set, const pdb_db *db, int from, int to,
                    const char *sel, int *matched);

/* The subcommands (db.c, db_query.c): argv[0] is "db".  Exit status as
   ppprof's.  */
int ppprof_db (int argc, char **argv);
typedef struct
{
  const char *db, *epoch, *since, *image, *only;
  long top;
  int json, fail_on_new;
} pdb_query_options;
int pdb_report (const pdb_query_options *o);
int pdb_residual (const pdb_query_options *o);
int pdb_diff (const pdb_query_options *o, const char *e1, const char *e2);

#endif
