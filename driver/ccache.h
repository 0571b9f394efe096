/* ccache with ppgcc: ppgcc runs ccache, and tells it what an object
   depends on beyond gcc's arguments (driver/ccache.c).  */
#ifndef PPGCC_CCACHE_H
#define PPGCC_CCACHE_H

#include "options.h"

/* $PPGCC_CCACHE (the ccache to run gcc with), or NULL.  */
const char *ppgcc_ccache_program (void);
/* Whether CC is ccache itself (its masquerading gcc link).  */
int ppgcc_cc_is_ccache (const char *cc);
/* Whether this ppgcc was run by a caching ccache (CC="ccache ppgcc").  */
int ppgcc_under_ccache (void);
/* For a compilation ccache will cache: CL's cache-key argument (the
   working directory) and CCACHE_EXTRAFILES (PLUGIN and the profiles it
   may read).  */
void ppgcc_ccache_prepare (ppgcc_cmdline *cl, const char *plugin);

#endif
