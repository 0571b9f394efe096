/* dlchdir.exp: opens ./libdlchdir.so by a relative name, calls it, then
   changes directory before exit, when the profiles are written.  */
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

int
main (void)
{
  void *h = dlopen ("./libdlchdir.so", RTLD_NOW);
  if (!h)
    {
      printf ("dlopen: %s\n", dlerror ());
      return 1;
    }
  int (*plug) (int) = (int (*) (int)) dlsym (h, "plug");
  if (!plug)
    return 2;
  printf ("%d\n", plug (10));
  if (chdir ("sub") != 0)
    return 3;
  return 0;
}
