/* C++ symbol names demangled for the reports (text, HTML).  */
#include "config.h"

#include "demangle.h"

#include <libiberty/demangle.h>

#include <stdlib.h>
#include <string.h>

char *
pp_demangle (const char *name)
{
  /* Only symbols of the Itanium ABI: a C function named like a mangling
     scheme of old (cplus_demangle tries several) stays as it is.  */
  if (strncmp (name, "_Z", 2) != 0)
    return NULL;
  return cplus_demangle (name, DMGL_PARAMS | DMGL_ANSI);
}

const char *
pp_shown_name (const char *name, char **tmp)
{
  *tmp = pp_demangle (name);
  return *tmp ? *tmp : name;
}

int
pp_same_function (const char *symbol, const char *wanted)
{
  if (!strcmp (symbol, wanted))
    return 1;
  char *dm = pp_demangle (symbol);
  int same = dm && !strcmp (dm, wanted);
  free (dm);
  return same;
}
