/* The runtime's two layers, and the one table between them.

   The core (pprt.c, resident.c, meta_section.c, db_write.c) registers
   units, counts nothing itself but the units' arrays, and writes the
   .ppd files: every instrumented program links it.  A mode (hashtable.c
   and hpt.c: side tables for paths no array holds; switch.c: the profile
   flag; cct.c with cct_dump.c and metric.c: calling contexts and metrics)
   comes out of libpprt.a only when instrumented code refers to one of its
   symbols (rt_abi.h), and plugs into the core by placing a descriptor,
   struct __pp_mode, in the section "__pp_modes" (PPRT_MODE).  The linker
   gathers the descriptors of the modes a module links into one array,
   __start___pp_modes to __stop___pp_modes, which the core walks
   (PPRT_FOR_EACH_MODE) at each event.

   So dependencies go one way: a mode names the core's functions (below),
   the core names no mode, and a mode can be read, changed or removed
   without touching the core or another mode.  Before, the core called
   every mode by name through weak references (__pp_cct_dump,
   __pp_hpt_collect, __pp_switch_init, ...), one per hook, each a GOT slot
   and a test in every program.

   Why a section rather than a constructor that registers each mode: a
   section needs no code to run, so the table is complete before the first
   unit registers, whatever the order of the constructors of the program,
   of its shared objects, and of libpprt.a's objects (which run after the
   units' own, in link order).  The bounds are weak and hidden: a module
   that links no mode (a plain Ball-Larus program) has no such section, and
   both are null; a shared object that links libpprt.a too has its own
   table, as it has its own core.  */
#ifndef PPRT_MODE_H
#define PPRT_MODE_H

#include <stdint.h>

#include "pp/ppd.h"
#include "pp/rt_abi.h"

#define PPRT_HIDDEN __attribute__ ((visibility ("hidden")))

struct __pp_db_session; /* db_write.h */

/* What a mode does at the core's events; any hook may be null.  Modes are
   walked in link order, which nothing specifies: a hook must not depend
   on another mode's having run.  */
struct __pp_mode
{
  /* Once, when the first unit registers, before its register_unit.  */
  void (*init) (void);
  /* Each unit, once it is in the core's list.  */
  void (*register_unit) (struct __pp_unit *u);
  /* __pp_dump and the exit dump, under the dump lock, before the units'
     .ppd are written and their counters drained (a flat metric profile
     reads the counters); not when the profile database cannot be written.
     DB: the dump's session (its epoch_dir NULL outside a database).  */
  void (*dump) (struct __pp_db_session *db);
  /* __pp_reset, under the dump lock: the mode's own counts zeroed.  */
  void (*reset) (void);
  /* In a fork's child, the only thread, before the units' counters are
     zeroed: the child counts from zero, as a run of its own.  */
  void (*after_fork) (void);
  /* At exit: nonzero when nothing can have been counted, so that the
     exit dump leaves the files as they are (switch.c).  */
  int (*nothing_counted) (void);

  /* A counting mode: where the paths of a function without an array go
     (hash mode, PPP misses: rt_abi.h's __pp_hash_hit).  It counts the
     functions whose flags include FN_FLAG; with FN_FLAG 0, every function
     no linked mode's flag selects.  Both collect and clear, or neither.  */
  uint32_t fn_flag;
  /* A path end of FN, from __pp_hash_hit (hashtable.c), the probes' one
     entry to the side tables; null for the hash table, which is
     __pp_hash_hit.  Runs in any thread and signal handler, and must touch
     general registers only (ppp_miss_x86_64.S saves no others).  */
  void (*hit) (struct __pp_fn_desc *fn, uint64_t id);
  /* FN's counts as (id, count) pairs, malloc'd, unsorted (the core sums
     pairs of one id); *DROPPED the path ends it could not keep.  0, or -1
     when out of memory.  */
  int (*collect) (struct __pp_fn_desc *fn, ppd_pair **pairs, uint64_t *n,
                  uint64_t *dropped);
  /* FN's counts zeroed (after a dump, a reset, in a fork's child).  */
  void (*clear) (struct __pp_fn_desc *fn);
};

/* The descriptor of a mode, defined once in the object that instrumented
   code links in:  PPRT_MODE (name) = { .dump = ..., ... };
   `used' and `retain' keep it through --gc-sections, even where a
   reference to __start___pp_modes does not (ld -z start-stop-gc, the
   default of lld 13 and later).  Aligned as a pointer, not more: the
   descriptors of all objects must form one array, and GCC would align a
   large object to 32 bytes where the user did not say.  */
#if __GNUC__ >= 11
#define PPRT_RETAIN retain,
#else
#define PPRT_RETAIN
#endif
#define PPRT_MODE(name)                                                     \
  static const struct __pp_mode name __attribute__ ((                       \
      used, PPRT_RETAIN section ("__pp_modes"), aligned (sizeof (void *))))

extern const struct __pp_mode __start___pp_modes[]
    __attribute__ ((weak, visibility ("hidden")));
extern const struct __pp_mode __stop___pp_modes[]
    __attribute__ ((weak, visibility ("hidden")));

/* Every mode this module links.  */
#define PPRT_FOR_EACH_MODE(m)                                               \
  for (const struct __pp_mode *m = __start___pp_modes;                      \
       m < __stop___pp_modes; m++)

/* ------------------------------------------------- the core, for modes */

/* meta_section.c: D's packed metadata, from its object's .pp_meta (NULL
   when it cannot be read).  */
PPRT_HIDDEN const char *__pp_fn_meta (struct __pp_unit *u,
                                      const struct __pp_fn_desc *d);
/* pprt.c: PATH under $PPGCC_PREFIX, malloc'd; the lock beside PATH, its
   missing directories made: the descriptor (pp_unlock releases it), or -1
   after one line.  */
PPRT_HIDDEN char *__pp_profile_path (const char *path);
PPRT_HIDDEN int __pp_lock_profile (char *path);

#endif
