/* The file mapped at an address, from /proc/self/maps (object_path.c):
   where a shared object opened under a relative name really is.  */
#ifndef PPRT_OBJECT_PATH_H
#define PPRT_OBJECT_PATH_H

#include <stdint.h>

/* The absolute path of the file mapped at ADDR, malloc'd; NULL when
   there is none (anonymous memory, no /proc, a file deleted since).  */
char *__pp_mapped_file (uintptr_t addr)
    __attribute__ ((visibility ("hidden")));

#endif
