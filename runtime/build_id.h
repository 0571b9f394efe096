/* The GNU build id of a loaded object, read from its PT_NOTE segments
   in memory: the .ppc lists it beside each object's path, so that a
   report resolves addresses only in the very object that ran
   (include/pp/ppc.h).  Used by the dumps' object lists
   (loaded_objects.c) and the profile database's writer (db_write.c).  */
#ifndef PPRT_BUILD_ID_H
#define PPRT_BUILD_ID_H

#include <elf.h>
#include <link.h>
#include <string.h>

/* The GNU build id of the loaded object INFO, in hex ("" without one):
   a report resolves call sites only in the very object that ran.  */
static __attribute__ ((unused)) void
pp_build_id_hex (struct dl_phdr_info *info, char *out, size_t outlen)
{
  static const char hex[] = "0123456789abcdef";
  out[0] = '\0';
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type != PT_NOTE)
        continue;
      const char *p = (const char *) (info->dlpi_addr + ph->p_vaddr);
      const char *end = p + ph->p_memsz;
      while (p + sizeof (ElfW (Nhdr)) <= end)
        {
          const ElfW (Nhdr) *nh = (const ElfW (Nhdr) *) p;
          size_t name = (nh->n_namesz + 3) & ~(size_t) 3;
          size_t desc = (nh->n_descsz + 3) & ~(size_t) 3;
          const unsigned char *d
              = (const unsigned char *) p + sizeof *nh + name;
          if ((const char *) d + desc > end)
            break;
          if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4
              && !memcmp (p + sizeof *nh, "GNU", 4)
              && 2 * nh->n_descsz < outlen)
            {
              for (size_t k = 0; k < nh->n_descsz; k++)
                {
                  out[2 * k] = hex[d[k] >> 4];
                  out[2 * k + 1] = hex[d[k] & 15];
                }
              out[2 * nh->n_descsz] = '\0';
              return;
            }
          p = (const char *) d + desc;
        }
    }
}

#endif
