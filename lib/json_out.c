/* Writing JSON from the tools (see json_out.h).  */
#include "json_out.h"

void
pp_json_string (FILE *out, const char *s)
{
  putc ('"', out);
  for (; *s; s++)
    {
      unsigned char c = (unsigned char) *s;
      if (c == '"' || c == '\\')
        fprintf (out, "\\%c", c);
      else if (c < 0x20)
        fprintf (out, "\\u%04x", c);
      else
        putc (c, out);
    }
  putc ('"', out);
}
