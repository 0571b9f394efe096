/* The Hot Path Table (thesis §5.4): one bounded, set-associative table of
   path counts for the whole program, LFU replacement.  Functions flagged
   PP_FN_HPT count there instead of in their own hash table; what it
   cannot keep is counted as dropped, per function.  */
#ifndef PPRT_HPT_H
#define PPRT_HPT_H

#include "pp/ppd.h"
#include "pp/rt_abi.h"

#define PPRT_HIDDEN __attribute__ ((visibility ("hidden")))
/* Weak: hpt.c comes out of libpprt.a only for objects built with
   -fprofile-paths-table=hpt, which refer to PP_RUNTIME_HPT_SYMBOL
   (plugin/emit.cc); other programs link none of it (issue 15).  Callers
   test the functions for null.  */
#define PPRT_HPT_WEAK PPRT_HIDDEN __attribute__ ((weak))

/* One path end of FN (from __pp_hash_hit: general registers only).  */
PPRT_HPT_WEAK void __pp_hpt_hit (struct __pp_fn_desc *fn, uint64_t id);
/* FN's entries as (id, count) pairs, malloc'd, unsorted; *DROPPED gets
   the path ends the table lost (evicted or found their set busy).  */
PPRT_HPT_WEAK int __pp_hpt_collect (struct __pp_fn_desc *fn, ppd_pair **pairs,
                                  uint64_t *n, uint64_t *dropped);
/* Removes FN's entries and zeroes its dropped counts.  */
PPRT_HPT_WEAK void __pp_hpt_clear (struct __pp_fn_desc *fn);
/* In a forked child: the only thread left; empties the table and frees
   every set lock (a parent thread may have held one at the fork).  */
PPRT_HPT_WEAK void __pp_hpt_after_fork (void);

#endif
