/* The profile database (PPGCC_PROFILE_DB=DIR, `ppprof db`): profiles in
   epochs, per image (its GNU build id), per object.  Layout and the
   crash-safety argument in lib/profile_db.c and doc/profile-db.md.  */
#ifndef PP_PROFILE_DB_H
#define PP_PROFILE_DB_H

#include "pp/ppd.h"

#include <stddef.h>
#include <stdint.h>

#ifndef PDB_API
#define PDB_API
#endif

/* Segments an object directory may gather before a run compacts it: the
   database's size does not grow with the number of runs.  */
#define PDB_MAX_SEGMENTS 16

PDB_API uint64_t pdb_now_ns (void);
/* "A/B", malloc'd; NULL when out of memory.  */
PDB_API char *pdb_join (const char *a, const char *b);
PDB_API int pdb_valid_name (const char *s);
/* DB usable (FORMAT right), made when CREATE and there is nothing.  0, or
   -1 with *WHY.  */
PDB_API int pdb_open_root (const char *db, int create, const char **why);
PDB_API int pdb_lock_epochs (const char *db, int exclusive);
PDB_API void pdb_unlock (int fd);
PDB_API char *pdb_epoch_dir (const char *db, const char *epoch);
PDB_API int pdb_epoch_info (const char *db, const char *epoch,
                            uint64_t *started, uint64_t *closed);
PDB_API int pdb_epoch_before (uint64_t sa, const char *a, uint64_t sb,
                              const char *b);
PDB_API int pdb_newest_open (const char *db, char **name, uint64_t *latest);
PDB_API void pdb_default_epoch_name (char *out, size_t n, uint64_t ns);
PDB_API int pdb_start_epoch (const char *db, const char *name,
                             const char **why);
PDB_API int pdb_current_epoch (const char *db, int fd, char **name,
                               const char **why);
PDB_API int pdb_write_stamp (const char *dir, const char *file,
                             const char *key, uint64_t v);
PDB_API char *pdb_object_dir (const char *edir, const char *image,
                              const char *image_path, const char *key);
PDB_API int pdb_write_segment (const char *odir, const ppd_profile *p);
PDB_API int pdb_load_object (const char *odir, ppd_profile *out,
                             int take_lock, char **bad, const char **why);
PDB_API void pdb_canonical (ppd_profile *p);
PDB_API int pdb_compact_object (const char *odir, int wait,
                                const char **why);
PDB_API size_t pdb_count_segments (const char *odir);
/* Whether the test suite asks to stop at crash point POINT
   (PPGCC_DB_TEST_CRASH, testsuite/ppgcc.db/crash.exp).  */
PDB_API int pdb_test_crash_point (const char *point);

#endif
