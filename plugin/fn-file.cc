/* The source file a function's paths are reported in.

   GCC names a function's file by its declaration's location, and the C
   front end keeps the location of the first declaration when that one is
   in a system header: a function declared in a header marked
   `#pragma GCC system_header` (gnulib's replacement headers) and defined
   in x.c would be "in" the header, and its statements, which are in x.c,
   would have no line in it.  The definition's file is where its body
   ends; it is taken when the declaration is in a system header and the
   body is not.  */
#include "plugin.h"

const char *
ppgcc_function_file (function *fun)
{
  location_t decl = DECL_SOURCE_LOCATION (fun->decl);
  location_t end = fun->function_end_locus;
  if (end != UNKNOWN_LOCATION && in_system_header_at (decl)
      && !in_system_header_at (end))
    {
      expanded_location xl = expand_location (end);
      if (xl.file && *xl.file)
        return xl.file;
    }
  return DECL_SOURCE_FILE (fun->decl);
}
