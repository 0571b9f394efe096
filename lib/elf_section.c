/* One section of an ELF file, read with pread (elf_section.h).  */
#include "elf_section.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int
pp_elf_read_at (int fd, void *buf, size_t n, uint64_t off)
{
  unsigned char *p = buf;
  while (n)
    {
      ssize_t got = pread (fd, p, n, (off_t) off);
      if (got <= 0)
        return -1;
      p += got;
      n -= (size_t) got;
      off += (uint64_t) got;
    }
  return 0;
}

/* PATH's section NAME (of type SHT_PROGBITS, or SHT_NOTE: ppprof reads
   .note.gnu.build-id), malloc'd, *LEN bytes; NULL
   when PATH is not an ELF file of the host's class, has no such section
   or cannot be read.  */
PP_ELF_API unsigned char *
pp_elf_read_section (const char *path, const char *name, size_t *len)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  unsigned char *out = NULL;
  ElfW (Shdr) *sh = NULL;
  char *names = NULL;
  ElfW (Ehdr) eh;
  if (pp_elf_read_at (fd, &eh, sizeof eh, 0) < 0
      || memcmp (eh.e_ident, ELFMAG, SELFMAG) != 0
      || eh.e_shentsize != sizeof *sh || eh.e_shoff == 0)
    goto done;
  /* Section 0 holds the counts that do not fit the header's fields.  */
  ElfW (Shdr) first;
  if (pp_elf_read_at (fd, &first, sizeof first, eh.e_shoff) < 0)
    goto done;
  size_t nsect = eh.e_shnum ? eh.e_shnum : first.sh_size;
  size_t strndx = eh.e_shstrndx == SHN_XINDEX ? first.sh_link
                                               : eh.e_shstrndx;
  if (nsect == 0 || nsect > (1u << 24) || strndx >= nsect)
    goto done;
  sh = malloc (nsect * sizeof *sh);
  if (!sh || pp_elf_read_at (fd, sh, nsect * sizeof *sh, eh.e_shoff) < 0)
    goto done;
  const ElfW (Shdr) *str = &sh[strndx];
  if (str->sh_size == 0 || str->sh_size > (1u << 28))
    goto done;
  names = malloc (str->sh_size + 1);
  if (!names || pp_elf_read_at (fd, names, str->sh_size, str->sh_offset) < 0)
    goto done;
  names[str->sh_size] = '\0';
  for (size_t i = 1; i < nsect; i++)
    if (sh[i].sh_name < str->sh_size
        && (sh[i].sh_type == SHT_PROGBITS || sh[i].sh_type == SHT_NOTE)
        && strcmp (names + sh[i].sh_name, name) == 0)
      {
        out = malloc (sh[i].sh_size ? sh[i].sh_size : 1);
        if (out && pp_elf_read_at (fd, out, sh[i].sh_size, sh[i].sh_offset) < 0)
          {
            free (out);
            out = NULL;
          }
        *len = out ? sh[i].sh_size : 0;
        break;
      }
done:
  free (names);
  free (sh);
  close (fd);
  return out;
}

