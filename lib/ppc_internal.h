/* What the .ppc codec's three files share (ppc_read.c, ppc_write.c,
   ppc_merge.c): the format's fixed words (but PPC_MAGIC, which the
   runtime needs too: pp/ppc.h) and two helpers.  Not installed; in the
   runtime these names are __pp_ ones (runtime/lib_in_runtime.h).  */
#ifndef PP_PPC_INTERNAL_H
#define PP_PPC_INTERNAL_H

#include "pp/ppc.h"

#include <stddef.h>

#define PPC_NONE "-"
#define PPC_UNAVAILABLE "unavailable"

/* A reason with a line number or a name, formatted into a static buffer
   that lives until the next call (the interface promises a reason the
   caller does not free).  ppc_read.c.  */
PPC_API const char *ppc_whyf (const char *fmt, ...)
    __attribute__ ((format (printf, 1, 2)));

/* N bytes at S as a double, '.' the radix whatever the locale: 0, or -1
   when they are not one.  ppc_read.c; the writer checks that what it
   writes reads back the same.  */
PPC_API int ppc_parse_double (const char *s, size_t n, double *out);


#endif
