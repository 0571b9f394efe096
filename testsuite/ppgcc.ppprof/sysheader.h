/* sysheader.exp: a replacement header as gnulib's, marked a system
   header; the function is first declared here, defined in sysheader.c.  */
#pragma GCC system_header
int count_a (const char *s);
