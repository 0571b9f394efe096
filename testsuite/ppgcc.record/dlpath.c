/* The program of record.exp's dlopen-by-search-path tests: dlpathcall.c
   does the loading, in the program or in a library it links.  */
#include <stdlib.h>

long dlpath_run (long n);

int
main (int argc, char **argv)
{
  return dlpath_run (argc > 1 ? atol (argv[1]) : 1000) < 0;
}
