/* A dlopen'd library's function: main loads ./libdlwork.so, calls its
   work (which calls dl_spin), and unloads it before exit: the samples
   in it still name work and dl_spin (the sampler lists the objects at
   dlclose).  */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int
main (int argc, char **argv)
{
  long iters = argc > 1 ? atol (argv[1]) : 50;
  void *h = dlopen ("./libdlwork.so", RTLD_NOW);
  if (!h)
    {
      fprintf (stderr, "%s\n", dlerror ());
      return 1;
    }
  void (*work) (long) = (void (*) (long)) dlsym (h, "work");
  for (long i = 0; i < iters; i++)
    work (4000000);
  dlclose (h);
  printf ("done\n");
  return 0;
}
