/* Path counts of functions with too many paths for an array: a lock-free
   hash table per function (open addressing, chained tables when full).  */
#ifndef PPRT_HASHTABLE_H
#define PPRT_HASHTABLE_H

#include "pp/ppd.h"
#include "pp/rt_abi.h"

#define PPRT_HIDDEN __attribute__ ((visibility ("hidden")))

PPRT_HIDDEN void __pp_table_clear (struct __pp_fn_desc *fn);
/* The non-zero counts as (id, count) pairs, malloc'd, unsorted; *DROPPED
   gets the path ends that could not be recorded.  */
PPRT_HIDDEN int __pp_table_collect (struct __pp_fn_desc *fn, ppd_pair **pairs,
                                    uint64_t *n, uint64_t *dropped);

#endif
