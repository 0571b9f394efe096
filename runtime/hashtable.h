/* Path counts of functions with too many paths for an array: a lock-free
   hash table per function (open addressing, chained tables when full).  */
#ifndef PPRT_HASHTABLE_H
#define PPRT_HASHTABLE_H

#include "pp/ppd.h"
#include "pp/rt_abi.h"

#define PPRT_HIDDEN __attribute__ ((visibility ("hidden")))
/* Weak: hashtable.c comes out of libpprt.a only for programs with an
   object that counts in a hash table, whose probes (or PPP's miss path,
   ppp_miss_x86_64.S) call __pp_hash_hit, the only way a table comes to
   be; since path splitting (-fprofile-paths-max) most have none, and
   link none of it (2.2 KB; issue 15).  Callers test for null.  */
#ifndef PPRT_TABLE_WEAK
#define PPRT_TABLE_WEAK PPRT_HIDDEN __attribute__ ((weak))
#endif

PPRT_TABLE_WEAK void __pp_table_clear (struct __pp_fn_desc *fn);
/* The non-zero counts as (id, count) pairs, malloc'd, unsorted; *DROPPED
   gets the path ends that could not be recorded.  */
PPRT_TABLE_WEAK int __pp_table_collect (struct __pp_fn_desc *fn,
                                        ppd_pair **pairs, uint64_t *n,
                                        uint64_t *dropped);

#endif
