/* pprt.c's side of db_write.c: the profile database as the place a dump
   goes (PPGCC_PROFILE_DB, lib/profile_db.c).  */
#ifndef PPRT_DB_WRITE_H
#define PPRT_DB_WRITE_H

#include "pp/ppd.h"
#include "pp/rt_abi.h"

#include <link.h>

struct __pp_db_session
{
  const char *db;      /* $PPGCC_PROFILE_DB */
  int lock_fd;         /* the epochs lock, shared, while writing */
  char *epoch_dir;     /* the current epoch's directory */
};

/* The writer, linked only into programs that ask for it (ppgcc
   -fprofile-paths-db, or PPGCC_PROFILE_DB set while linking: the driver's
   -u __pp_db_writer_linked pulls db_write.o out of the archive).  It is 9 KB of
   code and its C library imports, which every other program would carry:
   pprt.c's weak definition leaves __pp_db_writer NULL without it.  */
struct __pp_db_writer
{
  /* 1: no database (write <object>.ppd files); 0: writing into it, until
     end; -1: it cannot be written (one line said why).  */
  int (*begin) (struct __pp_db_session *s);
  void (*end) (struct __pp_db_session *s);
  /* SNAP, U's counts since the last dump, as a new segment.  0 or -1
     (message printed).  */
  int (*write_unit) (struct __pp_db_session *s, const struct __pp_unit *u,
                     const ppd_profile *snap);
  /* Where the program's context profile goes in the session's epoch:
     <epoch>/<build id of the executable>/<its name>.ppc (directories
     made).  malloc'd, or NULL with a message.  */
  char *(*context_path) (struct __pp_db_session *s);
};
extern const struct __pp_db_writer *__pp_db_writer
  __attribute__ ((visibility ("hidden")));
#endif
