/* Counts a profile does not hold but its callers' paths imply: functions
   built without probes (PP_FN_DERIVED, include/pp/rt_abi.h).  Every
   reader of .ppd files (ppprof, the profile database, -fuse-path-profile)
   derives them right after reading, so that what a user sees is what
   probes would have counted.  */
#ifndef PP_PPD_DERIVE_H
#define PP_PPD_DERIVE_H

#include <stddef.h>

#include "pp/ppd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Gives each PP_FN_DERIVED function of P (one object's profile) its
   count: path 0 counted once per execution of each call site its
   metadata's `caller` lines name, in the callers' paths of P; the flag
   is then cleared, and P's sum_max raised to the count where it is
   below.  Returns 0, or -1 with a one-line reason in ERR (a
   metadata that does not parse, a caller node its graph does not have).  */
int ppd_derive_counts (ppd_profile *p, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
