/* What every page of ppprof html shares: HTML escaping, C++ names
   demangled (demangle.c), the page's head with the inline style, a share as a
   percentage.  html.c (the index), html_fn.c (a function's page) and
   html_cct.c (the context tree) call these; they call none of them.  */
#include "config.h"

#include "html.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
pp_html_text (FILE *out, const char *s)
{
  for (; *s; s++)
    switch (*s)
      {
      case '&': fputs ("&amp;", out); break;
      case '<': fputs ("&lt;", out); break;
      case '>': fputs ("&gt;", out); break;
      case '"': fputs ("&quot;", out); break;
      case '\'': fputs ("&#39;", out); break;
      default:
        if ((unsigned char) *s < 0x20 && *s != '\t')
          fputs ("\xef\xbf\xbd", out);
        else
          putc (*s, out);
      }
}

void
pp_html_name (FILE *out, const char *name)
{
  char *d = pp_demangle (name);
  pp_html_text (out, d ? d : name);
  free (d);
}

void
pp_html_begin (FILE *out, const char *title)
{
  fprintf (out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
           "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
           "content=\"width=device-width\">\n<title>");
  pp_html_text (out, title);
  fprintf (out, " &ndash; ppprof</title>\n<style>\n%s</style>\n</head>\n"
           "<body>\n", pp_html_css);
}

void
pp_html_share (FILE *out, uint64_t count, uint64_t total)
{
  if (total == 0 || total == UINT64_MAX)
    fprintf (out, "-");
  else
    fprintf (out, "%.2f%%", 100.0 * (double) count / (double) total);
}
