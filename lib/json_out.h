/* Writing JSON from the tools (ppprof, ppnum).  */
#ifndef PP_TOOLS_JSON_OUT_H
#define PP_TOOLS_JSON_OUT_H

#include <stdio.h>

/* S as a JSON string literal, quotes included.  */
void pp_json_string (FILE *out, const char *s);

#endif
