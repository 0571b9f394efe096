/* lib/'s sources as the runtime compiles them (runtime/Makefile.am):
   each as its own object (the .ppd and .ppc codecs, the profile
   database's layout, file handling, ELF sections), force-included first
   (-include) and included by the runtime's files that call them.

   libpprt.a is linked into users' programs and must define nothing but
   __pp_ names (a program may have its own ppd_decode): each global of
   those files is renamed here, and declared hidden, so that it is local
   to the program or shared object that links it.  The switches set what
   the runtime leaves out or does differently (see each file).  */
#ifndef PPRT_LIB_IN_RUNTIME_H
#define PPRT_LIB_IN_RUNTIME_H

/* Metadata stays packed in what the runtime writes (meta_pack.h), and
   what it reads of a profile's is kept escaped (ppc_fn.meta_escaped).  */
#define PP_KEEP_PACKED_META
#define PPC_ESCAPED_META
/* Profiles synced only under PPGCC_FSYNC=1 (lib/file_io.c).  */
#define PP_FSYNC_ON_REQUEST
/* The runtime merges one object's profiles only (lib/ppd_merge.c).  */
#define PPD_ONE_OBJECT_ONLY
/* Database segments merge as written: derived counts (PP_FN_DERIVED) are
   the readers' (lib/derive.c), which the runtime does not carry.  */
#define PDB_RAW_COUNTS

/* The part linked into every instrumented program (libpprt_cold.a):
   small rather than fast, as pprt.c (a pragma, since CFLAGS would
   override a flag).  */
#ifdef PPRT_COLD
#pragma GCC optimize ("Os")
#endif

#define PPRT_LIB_HIDDEN __attribute__ ((visibility ("hidden")))
#define PPD_API PPRT_LIB_HIDDEN
#define PPD_INTERNAL PPRT_LIB_HIDDEN
#define PPC_API PPRT_LIB_HIDDEN
#define PDB_API PPRT_LIB_HIDDEN
#define PP_IO_API PPRT_LIB_HIDDEN
#define PP_ELF_API PPRT_LIB_HIDDEN

/* lib/ppd_read.c, ppd_write.c, ppd_merge.c */
#define ppd_put __pp_ppd_put
#define ppd_put_u32 __pp_ppd_put_u32
#define ppd_put_u64 __pp_ppd_put_u64
#define ppd_put_str __pp_ppd_put_str
#define ppd_seal __pp_ppd_seal
#define ppd_put_progs __pp_ppd_put_progs
#define ppd_get_progs __pp_ppd_get_progs
#define ppd_merge_progs __pp_ppd_merge_progs
#define ppd_free_progs __pp_ppd_free_progs
#define ppd_get __pp_ppd_get
#define ppd_encode __pp_ppd_encode
#define ppd_free __pp_ppd_free
#define ppd_check __pp_ppd_check
#define ppd_decode __pp_ppd_decode
#define ppd_union_ids __pp_ppd_union_ids
#define ppd_merge __pp_ppd_merge
#define ppd_merge_objects __pp_ppd_merge_objects
#define ppd_merge_encoded __pp_ppd_merge_encoded
#define ppd_read_file __pp_ppd_read_file
#define ppd_file_size __pp_ppd_file_size
#define ppd_write_file __pp_ppd_write_file
#define ppd_rewrite_file __pp_ppd_rewrite_file
#define ppd_whole __pp_ppd_whole

/* lib/profile_db.c */
#define pdb_join __pp_pdb_join
#define pdb_now_ns __pp_pdb_now_ns
#define pdb_write_stamp __pp_pdb_write_stamp
#define pdb_valid_name __pp_pdb_valid_name
#define pdb_open_root __pp_pdb_open_root
#define pdb_lock_epochs __pp_pdb_lock_epochs
#define pdb_unlock __pp_pdb_unlock
#define pdb_epoch_dir __pp_pdb_epoch_dir
#define pdb_epoch_info __pp_pdb_epoch_info
#define pdb_epoch_before __pp_pdb_epoch_before
#define pdb_newest_open __pp_pdb_newest_open
#define pdb_default_epoch_name __pp_pdb_default_epoch_name
#define pdb_start_epoch __pp_pdb_start_epoch
#define pdb_current_epoch __pp_pdb_current_epoch
#define pdb_object_dir __pp_pdb_object_dir
#define pdb_write_segment __pp_pdb_write_segment
#define pdb_load_object __pp_pdb_load_object
#define pdb_canonical __pp_pdb_canonical
#define pdb_compact_object __pp_pdb_compact_object
#define pdb_count_segments __pp_pdb_count_segments
#define pdb_test_crash_point __pp_pdb_test_crash_point

/* lib/ppc_read.c, ppc_write.c, ppc_merge.c */
#define ppc_whyf __pp_ppc_whyf
#define ppc_parse_double __pp_ppc_parse_double
#define ppc_free __pp_ppc_free
#define ppc_decode __pp_ppc_decode
#define ppc_read_file __pp_ppc_read_file
#define ppc_encode __pp_ppc_encode
#define ppc_write_file __pp_ppc_write_file
#define ppc_rewrite_file __pp_ppc_rewrite_file
#define ppc_whole __pp_ppc_whole
#define ppc_merge_warn __pp_ppc_merge_warn
#define ppc_merge __pp_ppc_merge
#define ppc_merge_text __pp_ppc_merge_text
#define ppc_puts __pp_ppc_puts
#define ppc_put_eol __pp_ppc_put_eol
#define ppc_put_u64 __pp_ppc_put_u64
#define ppc_put_str __pp_ppc_put_str
#define ppc_put_cstr __pp_ppc_put_cstr
#define ppc_put_metric __pp_ppc_put_metric
#define ppc_put_fn __pp_ppc_put_fn
#define ppc_put_path __pp_ppc_put_path
#define ppc_put_node __pp_ppc_put_node
#define ppc_put_object __pp_ppc_put_object
#define ppc_put_seal __pp_ppc_put_seal
#define ppc_check_seal __pp_ppc_check_seal
#define ppc_merge_metric __pp_ppc_merge_metric
#define ppc_free_metric __pp_ppc_free_metric

/* lib/file_io.c, lib/elf_section.c */
#define pp_buf_put __pp_buf_put
#define pp_buf_reserve __pp_buf_reserve
#define pp_fnv64 __pp_fnv64
#define pp_sum64 __pp_sum64
#define pp_sum64_lanes __pp_sum64_lanes
#define pp_read_whole_file_flags __pp_read_whole_file_flags
#define pp_read_whole_file __pp_read_whole_file
#define pp_read_own_file __pp_read_own_file
#define pp_read_bounded_file __pp_read_bounded_file
#define pp_lock_beside __pp_lock_beside
#define pp_unlock __pp_unlock
#define pp_random64 __pp_random64
#define pp_is_temp_of __pp_is_temp_of
#define pp_remove_stale_temps __pp_remove_stale_temps
#define pp_write_file_atomic __pp_write_file_atomic
#define pp_write_file_in_place __pp_write_file_in_place
#define pp_settle_temps __pp_settle_temps
#define pp_settle_temps_listed __pp_settle_temps_listed
#define pp_temp_listing_free __pp_temp_listing_free
#define pp_read_journal __pp_read_journal
#define pp_elf_read_section __pp_elf_read_section

#endif
