/* The hostile file-system cases (hostile.exp): counts, plants what it is
   told beside its own profile PPD, counts again.
     plant PPD none          3 calls of before, 2 of after
     plant PPD tmp VICTIM    the same, with a symbolic link to VICTIM where
                             the runtime used to put its temporary
                             (PPD.tmp.<pid>) before it writes at exit
     plant PPD lock VICTIM   a symbolic link to VICTIM at PPD.lock, then
                             __pp_dump (refused: the counts stay), the link
                             removed, then after: the exit's dump writes
                             all five calls  */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Weak: the same source builds with plain gcc.  */
void __pp_dump (void) __attribute__ ((weak));

static volatile int sink;

__attribute__ ((noinline)) static void
before (void)
{
  sink++;
}

__attribute__ ((noinline)) static void
after (void)
{
  sink += 2;
}

int
main (int argc, char **argv)
{
  if (argc < 3 || (strcmp (argv[2], "none") && argc < 4))
    return 2;
  char link[4096];
  for (int i = 0; i < 3; i++)
    before ();
  if (!strcmp (argv[2], "tmp"))
    snprintf (link, sizeof link, "%s.tmp.%ld", argv[1], (long) getpid ());
  else if (!strcmp (argv[2], "lock"))
    snprintf (link, sizeof link, "%s.lock", argv[1]);
  if (strcmp (argv[2], "none") && symlink (argv[3], link) != 0)
    {
      perror ("symlink");
      return 3;
    }
  if (!strcmp (argv[2], "lock"))
    {
      if (__pp_dump)
        __pp_dump ();
      unlink (link);
    }
  for (int i = 0; i < 2; i++)
    after ();
  printf ("sink %d\n", sink);
  return 0;
}
