/* dldeleted.exp: opens a copy of libdldeleted.so made in a temporary
   directory and removes the copy at once, as Tcl loads an extension from
   a virtual file system; calls it; the profiles are written at exit.  */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  if (argc != 2)
    return 4;
  char dir[] = "/tmp/dldeletedXXXXXX", copy[64], cmd[256];
  if (!mkdtemp (dir))
    return 5;
  snprintf (copy, sizeof copy, "%s/copy.so", dir);
  snprintf (cmd, sizeof cmd, "cp '%s' '%s'", argv[1], copy);
  if (system (cmd) != 0)
    return 6;
  void *h = dlopen (copy, RTLD_NOW);
  unlink (copy);
  rmdir (dir);
  if (!h)
    {
      printf ("dlopen: %s\n", dlerror ());
      return 1;
    }
  int (*plug) (int) = (int (*) (int)) dlsym (h, "plug");
  if (!plug)
    return 2;
  printf ("%d\n", plug (10));
  return 0;
}
