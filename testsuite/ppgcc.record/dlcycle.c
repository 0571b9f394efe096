/* dlopen and dlclose of libdlpath.so (found by the program's RUNPATH)
   N times, calling its function each time: nearly all of the time in
   the loader.  */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int
main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 1000, s = 0;
  for (long i = 0; i < n; i++)
    {
      void *h = dlopen ("libdlpath.so", RTLD_NOW);
      if (!h)
        {
          printf ("dlopen: %s\n", dlerror ());
          return 1;
        }
      s += ((long (*) (long)) dlsym (h, "path_spin")) (i & 63);
      dlclose (h);
    }
  printf ("%ld\n", s);
  return 0;
}
