/* The objects loaded in this process, as the .ppc dumps name an address
   "<object>+0x<offset>" (include/pp/ppc.h): each PT_LOAD segment of each
   object dl_iterate_phdr lists, with its object's basename, path and
   build id (build_id.h), and the profile's list of the objects its
   addresses were named in.  Shared by the instrumented runtime's dump
   (cct_dump.c) and the sampler's (sample/dump.c): hidden, __pp_ names.  */
#ifndef PPRT_LOADED_OBJECTS_H
#define PPRT_LOADED_OBJECTS_H

#include "pp/ppc.h"

#include <stddef.h>
#include <stdint.h>

#define PPRT_HIDDEN __attribute__ ((visibility ("hidden")))

/* One loaded segment.  NAME, PATH and ID are one block per object,
   which its first segment owns.  */
struct pp_segment
{
  uintptr_t lo, hi, bias; /* the segment, and its object's bias */
  char *name;             /* the object's basename */
  char *path;             /* its full path */
  char *id;               /* its build id in hex, "" without one */
  int owner;              /* NAME is this segment's to free */
};

struct pp_segments
{
  struct pp_segment *v;
  size_t n, cap;
};

/* Adds to S the segments of every object loaded now, but those S holds
   already (the same start and path).  The executable is named by
   /proc/self/exe; with ABSOLUTE, a relative name (dlopen ("./lib.so"))
   is made absolute (realpath).  Stops where memory runs out.  */
PPRT_HIDDEN void __pp_segments_load (struct pp_segments *s, int absolute);

/* The first segment of S that holds ADDR; NULL when none does.  */
PPRT_HIDDEN const struct pp_segment *
__pp_segment_of (const struct pp_segments *s, uintptr_t addr);

/* Frees S's segments and blocks; S is empty again.  */
PPRT_HIDDEN void __pp_segments_free (struct pp_segments *s);

/* SEG's object into P's objects, once (two objects of one basename: the
   first; their keys are ambiguous anyway).  0, or -1 when memory ran
   out.  */
PPRT_HIDDEN int __pp_list_object (ppc_profile *p, const struct pp_segment *seg);

#endif
