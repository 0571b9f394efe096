/* What __pp_ppp_miss's fast path (ppp_miss_x86_64.S) reads of the
   descriptors and of the hash table (hashtable.c), for the assembler:
   offsets and constants only.  hashtable.c checks each against the C
   layout at compile time.  */
#ifndef PPRT_HASH_LAYOUT_H
#define PPRT_HASH_LAYOUT_H

/* struct __pp_fn_desc (include/pp/rt_abi.h) */
#define HL_DESC_RT_PRIVATE 32
#define HL_DESC_EXT 40
#define HL_DESC_FLAGS 52
#define HL_FN_HPT 16 /* PP_FN_HPT */
/* struct __pp_fn_ext */
#define HL_EXT_HASH_KEYS 40
#define HL_EXT_CACHE_BITS 64
/* PP_HASH_CACHE_SLOT: (id * HL_CACHE_MULT) >> (64 - hash_cache_bits) */
#define HL_CACHE_MULT 0x9e3779b97f4a7c15
/* struct table (hashtable.c): the slot array of 16-byte {key, count} */
#define HL_TABLE_MASK 16
#define HL_TABLE_SLOTS 32
/* hashtable.c's hash (): id ^= id >> 33; id *= HL_HASH_MULT; id ^= id >> 33 */
#define HL_HASH_MULT 0xff51afd7ed558ccd

#endif
