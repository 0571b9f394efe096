/* Skipping the pages of a counter array that were never written.

   A function split at -fprofile-paths-max has 2^18 counters (2 MiB of
   .bss), of which a run touches a few pages: reading the rest at exit
   would fault in zero pages by the thousand (sqlite3: up to 32 MiB a unit).
   /proc/self/pagemap says, for each page, whether it is present in memory
   (bit 63) or swapped out (bit 62).  A private page that is neither has
   never been written: it still holds what the executable gave it, zeros
   for .bss (a written page is anonymous memory, present or in swap;
   migration entries read as swapped).  Only such pages are skipped; where
   the map cannot be read every page is scanned.  Entries are read 512 at a
   time (2 MiB of counters per pread).  */
#define _GNU_SOURCE
#pragma GCC optimize ("Os")
#include "resident.h"

#include <fcntl.h>
#include <unistd.h>

#define PM_PRESENT (1ull << 63)
#define PM_SWAPPED (1ull << 62)

void
__pp_resident_begin (struct __pp_resident *r)
{
  r->page_size = sysconf (_SC_PAGESIZE);
  r->count = 0;
  r->first = 0;
  r->fd = r->page_size > 0
              ? open ("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)
              : -1;
}

void
__pp_resident_end (struct __pp_resident *r)
{
  if (r->fd >= 0)
    close (r->fd);
  r->fd = -1;
}

/* Whether PAGE may hold a written counter; reads the window it is in.  */
static int
maybe_written (struct __pp_resident *r, uintptr_t page)
{
  if (r->fd < 0)
    return 1;
  if (page < r->first || page >= r->first + r->count)
    {
      ssize_t got = pread (r->fd, r->window, sizeof r->window,
                           (off_t) (page * sizeof r->window[0]));
      if (got < (ssize_t) sizeof r->window[0])
        {
          /* No map (valgrind's, a kernel that refuses): scan it all.  */
          close (r->fd);
          r->fd = -1;
          return 1;
        }
      r->first = page;
      r->count = (unsigned) ((size_t) got / sizeof r->window[0]);
    }
  return (r->window[page - r->first] & (PM_PRESENT | PM_SWAPPED)) != 0;
}

uint64_t
__pp_resident_next (struct __pp_resident *r, const uint64_t *c, uint64_t i,
                    uint64_t n, uint64_t *end)
{
  uintptr_t ps = (uintptr_t) r->page_size;
  while (i < n)
    {
      uintptr_t a = (uintptr_t) (c + i), page = a / ps;
      /* Counters from I to the end of its page.  */
      uint64_t stop = i + ((page + 1) * ps - a + sizeof *c - 1) / sizeof *c;
      if (stop > n || r->fd < 0)
        stop = n;
      if (maybe_written (r, page))
        {
          *end = r->fd < 0 ? n : stop;
          return i;
        }
      i = stop;
    }
  *end = n;
  return n;
}
