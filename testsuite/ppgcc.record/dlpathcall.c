/* dlopen and dlmopen of libdlpath.so by names that the C library
   resolves from the calling object: a bare name, searched along the
   caller's DT_RUNPATH or DT_RPATH ($ORIGIN/dlsub, set by the build), and
   a name with $ORIGIN (the caller's folder).  record.exp builds this
   into the program (DT_RUNPATH) and into a library the program links
   (DT_RPATH: the library's own, which the C library searches only when
   the library is the caller).  Under the sampler the output must be
   the plain run's.  */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

long
dlpath_run (long n)
{
  void *h = dlopen ("libdlpath.so", RTLD_NOW);
  printf ("by name: %s\n", h ? "loaded" : dlerror ());
  void *o = dlopen ("$ORIGIN/dlsub/libdlpath.so", RTLD_NOW);
  printf ("$ORIGIN: %s\n", !o      ? dlerror ()
                           : o == h ? "the same object"
                                    : "another object");
  void *m = dlmopen (LM_ID_NEWLM, "libdlpath.so", RTLD_NOW);
  printf ("dlmopen: %s\n", !m       ? dlerror ()
                           : m != h ? "a copy in a new namespace"
                                    : "the same object");
  if (!h)
    return -1;
  long (*spin) (long) = (long (*) (long)) dlsym (h, "path_spin");
  long r = spin (n);
  printf ("%ld\n", r);
  return r;
}
