/* The .ppd codec's functions as the runtime names them: pprt.c compiles
   the codec in with hidden visibility and db_write.c calls it, so they
   are global symbols of libpprt.a, which must define nothing but __pp_
   names (a program may have its own ppd_decode).  Included before
   pp/ppd.h.  */
#ifndef PPRT_PPD_NAMES_H
#define PPRT_PPD_NAMES_H

#define PPD_API __attribute__ ((visibility ("hidden"), unused))
#define ppd_check __pp_ppd_check
#define ppd_decode __pp_ppd_decode
#define ppd_merge_encoded __pp_ppd_merge_encoded
#define ppd_encode __pp_ppd_encode
#define ppd_free __pp_ppd_free
#define ppd_merge __pp_ppd_merge
#define ppd_merge_objects __pp_ppd_merge_objects
#define ppd_union_ids __pp_ppd_union_ids
#define ppd_read_file __pp_ppd_read_file
#define ppd_write_file __pp_ppd_write_file

#endif
