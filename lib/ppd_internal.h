/* What the .ppd codec's three files share (ppd_read.c, ppd_write.c,
   ppd_merge.c): the cursors over an image, the writer's words and seal
   (ppd_write.c) and the reader's word (ppd_read.c), which merging into
   an encoded profile uses both of.  Not installed; hidden in the core
   library, and __pp_ names in the runtime (runtime/lib_in_runtime.h).  */
#ifndef PP_PPD_INTERNAL_H
#define PP_PPD_INTERNAL_H

#include "pp/ppd.h"
#include "file_io.h"

#include <stddef.h>
#include <stdint.h>

/* Hidden in the core library too: the plugin, a shared object, exports
   none of these, and a file's compiler may still inline them into that
   file's callers.  */
#ifndef PPD_INTERNAL
#define PPD_INTERNAL __attribute__ ((visibility ("hidden")))
#endif

/* An image being written: pp_buf's bytes, little-endian words.  */
typedef pp_buf ppd_out;

/* An image being read: what is left of it; BAD once a read ran past
   its end.  */
typedef struct
{
  const unsigned char *p, *end;
  int bad;
  int oom; /* bad for want of memory: the image may be fine */
} ppd_in;

/* ppd_write.c: N bytes, a u32, a u64, a string (its u32 length, then
   its N bytes) appended to O; the payload's length and checksum into
   the header of O's image.  */
PPD_INTERNAL void ppd_put (ppd_out *o, const void *data, size_t n);
PPD_INTERNAL void ppd_put_u32 (ppd_out *o, uint32_t v);
PPD_INTERNAL void ppd_put_u64 (ppd_out *o, uint64_t v);
PPD_INTERNAL void ppd_put_str (ppd_out *o, const char *s, uint32_t n);
PPD_INTERNAL void ppd_seal (ppd_out *o);
/* The programs section (include/pp/ppd.h, version 5).  */
PPD_INTERNAL void ppd_put_progs (ppd_out *o, const ppd_prog *progs,
                                 uint32_t n);

/* ppd_read.c: the programs section of IN into *PROGS (*N), ascending and
   distinct names checked; sets IN's bad (and oom) when it is not one.  */
PPD_INTERNAL void ppd_get_progs (ppd_in *in, ppd_prog **progs, uint32_t *n);
/* ppd_merge.c: FROM's programs' runs added into *INTO (*N): 0, or -1
   when memory ran out (INTO unchanged).  */
PPD_INTERNAL int ppd_merge_progs (ppd_prog **into, uint32_t *n,
                                  const ppd_prog *from, uint32_t m);
PPD_INTERNAL void ppd_free_progs (ppd_prog *progs, uint32_t n);

/* ppd_read.c: whether LEN bytes at BUF are a whole .ppd image (header,
   length and checksum: ppd_check), as lib/file_io.c's journal wants.  */
PPD_INTERNAL int ppd_whole (const char *buf, size_t len);

/* ppd_read.c: the little-endian word of BYTES (4 or 8) bytes next in
   IN; 0, with IN->bad set, past its end.  */
PPD_INTERNAL uint64_t ppd_get (ppd_in *in, int bytes);

#endif
