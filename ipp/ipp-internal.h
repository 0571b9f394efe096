/* Internals of ipp/'s C half (supergraph.c, compose.c), shared between
   its files only.  That half is built on the core library's public
   headers (include/pp/) alone; these are its allocators, which end the
   process on exhaustion as lib/'s pp_xrealloc and pp_xcalloc do, with
   the same message.  */
#ifndef PP_IPP_INTERNAL_H
#define PP_IPP_INTERNAL_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

static inline void *
ipp_xrealloc (void *p, size_t n)
{
  void *q = realloc (p, n ? n : 1);
  if (!q)
    {
      fputs ("ppgcc: out of memory\n", stderr);
      abort ();
    }
  return q;
}

static inline void *
ipp_xcalloc (size_t n, size_t size)
{
  void *q = calloc (n ? n : 1, size ? size : 1);
  if (!q)
    {
      fputs ("ppgcc: out of memory\n", stderr);
      abort ();
    }
  return q;
}

#endif
