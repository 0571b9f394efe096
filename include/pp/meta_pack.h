/* Packed function metadata: the graph-language CFG that each instrumented
   function carries (struct __pp_fn_desc.meta), packed by the plugin,
   copied into profiles by the runtime as it is, unpacked by the readers
   (lib/meta_pack.c).  Text that does not start with the magic is plain. */
#ifndef PP_META_PACK_H
#define PP_META_PACK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Graph-language text never starts with a control byte.  */
#define PP_META_PACK_MAGIC "\001PZ"

/* TEXT (LEN bytes) packed into a malloc'd *OUT of *OUT_LEN bytes.
   0, or -1 when out of memory.  */
int pp_meta_pack (const char *text, size_t len, char **out, size_t *out_len);
/* Whether META (LEN bytes) is packed.  */
int pp_meta_is_packed (const char *meta, size_t len);
/* The text of PACKED (LEN bytes) in a malloc'd, NUL-terminated buffer of
   *OUT_LEN bytes; NULL when it is not packed, damaged, or memory ran
   out.  */
char *pp_meta_unpack (const char *packed, size_t len, size_t *out_len);

/* A decoded metadata field *META (*LEN bytes, malloc'd) replaced by its
   text when it is packed: 0, or -1 when it is damaged or memory ran out
   (the codecs' readers; the runtime keeps fields packed).  */
int pp_meta_unpack_field (char **meta, uint32_t *len);

#ifdef __cplusplus
}
#endif

#endif
