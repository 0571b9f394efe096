/* The file mapped at an address (object_path.h).

   dl_iterate_phdr gives a shared object by the name it was opened under:
   dlopen ("./lib.so") leaves "./lib.so", which means another file, or
   none, once the program has changed directory.  The kernel's map of the
   process names each mapping's file by its path when the mapping was
   made, as the file now stands (followed through renames; " (deleted)"
   when it is gone), whatever the working directory.  */
#define _GNU_SOURCE
/* Cold: read once per unit, for objects opened under relative names.  */
#pragma GCC optimize ("Os")
#include "object_path.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A line of the map, "LO-HI PERMS OFFSET DEV INODE   PATH": the path
   when [LO, HI) holds ADDR and it names a file, malloc'd; else NULL, and
   *HIT when the line was ADDR's.  */
static char *
file_of_line (const char *line, uintptr_t addr, int *hit)
{
  char *end;
  unsigned long lo = strtoul (line, &end, 16);
  if (*end != '-')
    return NULL;
  unsigned long hi = strtoul (end + 1, &end, 16);
  if (addr < lo || addr >= hi)
    return NULL;
  *hit = 1;
  /* Past the four fields after the range.  */
  const char *p = end;
  for (int field = 0; field < 4; field++)
    {
      while (*p == ' ')
        p++;
      while (*p && *p != ' ')
        p++;
    }
  while (*p == ' ')
    p++;
  static const char deleted[] = " (deleted)";
  size_t n = strlen (p), d = sizeof deleted - 1;
  if (*p != '/' || (n >= d && strcmp (p + n - d, deleted) == 0))
    return NULL;
  return strdup (p);
}

char *
__pp_mapped_file (uintptr_t addr)
{
  int fd = open ("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  size_t cap = 2 * PATH_MAX, have = 0;
  char *buf = malloc (cap + 1), *found = NULL;
  int hit = 0, eof = 0;
  while (buf && !hit && !eof)
    {
      ssize_t n = read (fd, buf + have, cap - have);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        eof = 1;
      else
        have += (size_t) n;
      buf[have] = '\0';
      char *line = buf, *nl;
      while (!hit && (nl = memchr (line, '\n', have - (size_t) (line - buf))))
        {
          *nl = '\0';
          found = file_of_line (line, addr, &hit);
          line = nl + 1;
        }
      if (!hit && eof && line < buf + have)
        found = file_of_line (line, addr, &hit);
      size_t rest = have - (size_t) (line - buf);
      /* A line longer than the buffer (no path is): dropped.  */
      if (rest == cap)
        rest = 0;
      memmove (buf, line, rest);
      have = rest;
    }
  free (buf);
  close (fd);
  return found;
}
