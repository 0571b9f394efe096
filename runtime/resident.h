/* Which pages of a counter array the program ever wrote, from
   /proc/self/pagemap, so that the dump skips the rest without reading it
   (resident.c).  Used under pprt.c's dump lock.  */
#ifndef PPRT_RESIDENT_H
#define PPRT_RESIDENT_H

#include <stdint.h>

#define PPRT_RESIDENT_WINDOW 512 /* pagemap entries read at once */

struct __pp_resident
{
  int fd;                /* /proc/self/pagemap; -1: unknown, scan all */
  long page_size;
  uintptr_t first;       /* page number of window[0] */
  unsigned count;        /* entries in window */
  uint64_t window[PPRT_RESIDENT_WINDOW];
};

/* Opens the page map for one dump (R->fd stays -1 where there is none:
   no /proc, another kernel).  */
void __pp_resident_begin (struct __pp_resident *r)
    __attribute__ ((visibility ("hidden")));
void __pp_resident_end (struct __pp_resident *r)
    __attribute__ ((visibility ("hidden")));
/* The first index from I up of C[0..N) on a page that may hold a
   nonzero counter, or N; *END: where that page's counters end (at most
   N).  */
uint64_t __pp_resident_next (struct __pp_resident *r, const uint64_t *c,
                             uint64_t i, uint64_t n, uint64_t *end)
    __attribute__ ((visibility ("hidden")));

#endif
