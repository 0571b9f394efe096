/* One section of an ELF file, read with pread: the runtime reads the
   .pp_meta section of the object a unit was loaded from
   (runtime/meta_section.c), the driver the .pp_use section of what it
   linked (driver/ppgcc.c), ppprof a build id.  In libppcore; the runtime
   compiles elf_section.c as its own object under a __pp_ name
   (runtime/lib_in_runtime.h).  */
#ifndef PP_ELF_SECTION_H
#define PP_ELF_SECTION_H

#include <stddef.h>

#ifndef PP_ELF_API
#define PP_ELF_API
#endif

/* PATH's section NAME (of type SHT_PROGBITS, or SHT_NOTE), malloc'd,
   *LEN bytes; NULL when PATH is not an ELF file of the host's class, has
   no such section or cannot be read.  */
PP_ELF_API unsigned char *pp_elf_read_section (const char *path,
                                               const char *name, size_t *len);

#endif
