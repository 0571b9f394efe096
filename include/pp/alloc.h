/* The core library's allocators (lib/graph.c), for its own files and for
   the code over its public headers (ipp/'s C half): realloc and calloc
   that end the process with "ppgcc: out of memory" when memory is
   exhausted, and give a pointer for a request of 0 bytes.  Not in the
   runtime, which reports and carries on instead.  */
#ifndef PP_ALLOC_H
#define PP_ALLOC_H

#include <stddef.h>

void *pp_xrealloc (void *p, size_t n);
void *pp_xcalloc (size_t n, size_t size);

#endif
