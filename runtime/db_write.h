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

/* 1: no database (write <object>.ppd files); 0: writing into it, until
   __pp_db_end; -1: it cannot be written (one line said why).  */
__attribute__ ((visibility ("hidden"))) int
__pp_db_begin (struct __pp_db_session *s);
__attribute__ ((visibility ("hidden"))) void
__pp_db_end (struct __pp_db_session *s);
/* SNAP, U's counts since the last dump, as a new segment.  0 or -1
   (message printed).  */
__attribute__ ((visibility ("hidden"))) int
__pp_db_write_unit (struct __pp_db_session *s, const struct __pp_unit *u,
                    const ppd_profile *snap);
/* Where the program's context profile goes in the session's epoch:
   <epoch>/<build id of the executable>/<its name>.ppc (directories made).
   malloc'd, or NULL with a message.  */
__attribute__ ((visibility ("hidden"))) char *
__pp_db_context_path (struct __pp_db_session *s);
#endif
