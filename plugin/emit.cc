/* The data an instrumented translation unit hands to the runtime
   (include/pp/rt_abi.h): counter arrays, one struct __pp_fn_desc per
   function (together in a section of the unit's), one struct __pp_unit,
   and a constructor that registers it.
   The record types below mirror the C structs field by field.  */
#include "plugin.h"

#include "pp/rt_abi.h"
#include "pp/meta_pack.h"

#include <climits>
#include <cstdlib>
#include <unistd.h>

tree
ppgcc_u64_type ()
{
  return long_long_unsigned_type_node;
}

static tree
add_field (tree *chain, const char *name, tree type)
{
  tree f = build_decl (BUILTINS_LOCATION, FIELD_DECL, get_identifier (name),
                       type);
  DECL_CHAIN (f) = *chain;
  *chain = f;
  return f;
}

static tree desc_type, unit_type;

static tree const_char_ptr ()
{
  return build_pointer_type (build_qualified_type (char_type_node,
                                                   TYPE_QUAL_CONST));
}

static tree
const_u64_ptr ()
{
  return build_pointer_type (build_qualified_type (ppgcc_u64_type (),
                                                   TYPE_QUAL_CONST));
}

static tree ext_type;

/* struct __pp_fn_ext.  */
static tree
fn_ext_type ()
{
  if (ext_type)
    return ext_type;
  tree fields = NULL_TREE;
  tree u64p = build_pointer_type (ppgcc_u64_type ());
  ext_type = lang_hooks.types.make_type (RECORD_TYPE);
  add_field (&fields, "ppp_ids", const_u64_ptr ());
  add_field (&fields, "ppp_counts", u64p);
  add_field (&fields, "ppp_size", ppgcc_u64_type ());
  add_field (&fields, "trained_offset", ppgcc_u64_type ());
  add_field (&fields, "num_trained", ppgcc_u64_type ());
  add_field (&fields, "hash_keys", u64p);
  add_field (&fields, "hash_counts", u64p);
  add_field (&fields, "inlined", u64p);
  add_field (&fields, "hash_cache_bits", ppgcc_u64_type ());
  add_field (&fields, "values", u64p);
  add_field (&fields, "num_values", ppgcc_u64_type ());
  finish_builtin_struct (ext_type, "__pp_fn_ext", fields, NULL_TREE);
  return ext_type;
}

/* struct __pp_fn_desc.  */
static tree
fn_desc_type ()
{
  if (desc_type)
    return desc_type;
  tree fields = NULL_TREE;
  tree u64p = build_pointer_type (ppgcc_u64_type ());
  desc_type = lang_hooks.types.make_type (RECORD_TYPE);
  add_field (&fields, "name", const_char_ptr ());
  add_field (&fields, "num_paths", ppgcc_u64_type ());
  add_field (&fields, "counters", u64p);
  add_field (&fields, "metrics", u64p);
  add_field (&fields, "rt_private", ptr_type_node);
  add_field (&fields, "ext",
             build_pointer_type (build_qualified_type (fn_ext_type (),
                                                       TYPE_QUAL_CONST)));
  add_field (&fields, "cfg_checksum", unsigned_type_node);
  add_field (&fields, "flags", unsigned_type_node);
  add_field (&fields, "meta_len", unsigned_type_node);
  add_field (&fields, "meta_offset", unsigned_type_node);
  add_field (&fields, "nmetrics", unsigned_type_node);
  add_field (&fields, "num_sites", unsigned_type_node);
  finish_builtin_struct (desc_type, "__pp_fn_desc", fields, NULL_TREE);
  return desc_type;
}

/* struct __pp_unit.  */
static tree
pp_unit_type ()
{
  if (unit_type)
    return unit_type;
  tree fields = NULL_TREE;
  unit_type = lang_hooks.types.make_type (RECORD_TYPE);
  add_field (&fields, "abi_version", unsigned_type_node);
  add_field (&fields, "num_fns", unsigned_type_node);
  add_field (&fields, "ppd_path", const_char_ptr ());
  add_field (&fields, "source", const_char_ptr ());
  add_field (&fields, "fns", build_pointer_type (fn_desc_type ()));
  add_field (&fields, "next", build_pointer_type (unit_type));
  add_field (&fields, "metrics", const_char_ptr ());
  add_field (&fields, "flags", unsigned_type_node);
  add_field (&fields, "meta_state", unsigned_type_node);
  add_field (&fields, "meta_key", ppgcc_u64_type ());
  add_field (&fields, "meta_size", unsigned_type_node);
  add_field (&fields, "reserved", unsigned_type_node);
  add_field (&fields, "rt_meta", const_char_ptr ());
  add_field (&fields, "fns_end", build_pointer_type (fn_desc_type ()));
  finish_builtin_struct (unit_type, "__pp_unit", fields, NULL_TREE);
  return unit_type;
}

static tree
new_static_var (tree type, const char *prefix)
{
  static unsigned serial;
  char name[64];
  snprintf (name, sizeof name, "%s.%u", prefix, serial++);
  tree var = build_decl (BUILTINS_LOCATION, VAR_DECL, get_identifier (name),
                         type);
  TREE_STATIC (var) = 1;
  TREE_PUBLIC (var) = 0;
  DECL_ARTIFICIAL (var) = 1;
  DECL_IGNORED_P (var) = 1;
  TREE_ADDRESSABLE (var) = 1;
  DECL_CONTEXT (var) = NULL_TREE;
  return var;
}

/* VAR aligned as its type, not more: x86-64 GCC aligns a static
   aggregate of 32 bytes or more to 32 bytes (ix86_data_alignment), which
   put 24 bytes of padding after each 72-byte descriptor: 3 KB of gzip's
   binary, 64 KB of sqlite3's.  The runtime only reads these.  */
static tree
packed (tree var)
{
  SET_DECL_ALIGN (var, TYPE_ALIGN (TREE_TYPE (var)));
  DECL_USER_ALIGN (var) = 1;
  return var;
}

/* Defines VAR made while instrumenting.  Made in the "cfg" pass, it is
   analysed with the unit's other variables; made once the front end is
   done (-fprofile-paths-ipp instruments the unit at the start of the IPA
   passes), finalize_decl no longer analyses it, and without that its
   initializer would not be output: analyse it here.  */
static void
finalize_probe_var (tree var)
{
  varpool_node::finalize_decl (var);
  if (symtab->state >= IPA)
    {
      varpool_node *node = varpool_node::get (var);
      if (!node->analyzed)
        node->analyze ();
    }
}

tree
ppgcc_new_counters (uint64_t num_paths)
{
  tree type = build_array_type_nelts (ppgcc_u64_type (), num_paths);
  tree var = new_static_var (type, "__pp_counts");
  /* No pointer in the function points into the counters (only the
     runtime reads them, at exit), as for gcov's counters: user loads and
     stores need not be ordered against the probes' increments.  Unless
     the path register holds a counter's address (probes.cc clears the
     flag then).  */
  DECL_NONALIASED (var) = 1;
  finalize_probe_var (var);
  return var;
}

/* Metric accumulators: their address goes to the runtime at each path
   end, so unlike the counters they may be aliased.  */
tree
ppgcc_new_metrics (uint64_t n)
{
  tree var = ppgcc_new_counters (n);
  DECL_NONALIASED (var) = 0;
  return var;
}

/* A constructor for an array of u64: VALUES, the rest zero.  */
static tree
u64_array_init (tree type, const std::vector<uint64_t> &values)
{
  vec<constructor_elt, va_gc> *v = NULL;
  for (size_t i = 0; i < values.size (); i++)
    CONSTRUCTOR_APPEND_ELT (v, size_int (i),
                            build_int_cstu (ppgcc_u64_type (), values[i]));
  return build_constructor (type, v);
}

/* The inline first probe of a hash-mode function (rt_abi.h): the keys,
   which the runtime writes (so they may be aliased), and the counts,
   which only the probes write; 2^BITS of each.  */
void
ppgcc_new_hash_cache (ppgcc_fn &fn, unsigned bits)
{
  fn.hash_cache_bits = bits;
  fn.hash_keys = ppgcc_new_metrics (1ull << bits);
  fn.hash_counts = ppgcc_new_counters (1ull << bits);
  /* Kept where no probe is left to use them (a PPP function whose every
     check folded to a hit): the descriptor, made later, points at them.  */
  varpool_node::get (fn.hash_keys)->force_output = true;
  varpool_node::get (fn.hash_counts)->force_output = true;
}

void
ppgcc_new_ppp_arrays (ppgcc_fn &fn)
{
  /* One more entry: the sentinel that out-of-range PPP ids clamp to.  */
  std::vector<uint64_t> ids (fn.slot_ids);
  ids.push_back (UINT64_MAX);
  tree ctype = build_qualified_type (ppgcc_u64_type (), TYPE_QUAL_CONST);
  tree type = build_array_type_nelts (ctype, ids.size ());
  fn.ppp_ids = new_static_var (type, "__pp_ppp_ids");
  TREE_READONLY (fn.ppp_ids) = 1;
  DECL_INITIAL (fn.ppp_ids) = u64_array_init (type, ids);
  finalize_probe_var (fn.ppp_ids);
  /* Kept even where every load of it was folded: the descriptor, made
     later, points at it.  */
  varpool_node::get (fn.ppp_ids)->force_output = true;
  fn.ppp_counts = ppgcc_new_counters (ids.size ());
}

tree
ppgcc_new_desc ()
{
  return packed (new_static_var (fn_desc_type (), "__pp_desc"));
}

/* Defines VAR now.  The unit is emitted after the front end is done
   (symtab state IPA), when finalize_decl no longer analyses variables:
   record their references ourselves, so that the counters' address is
   known to be taken (else IPA could think them write-only and drop the
   increments), and keep them whether referenced or not.  */
static void
define_var (tree var)
{
  varpool_node::finalize_decl (var);
  varpool_node *node = varpool_node::get (var);
  node->force_output = true;
  if (!node->analyzed)
    node->analyze ();
}

/* The metadata as the descriptor holds it: packed (pp/meta_pack.h), a
   fraction of the text's size in the loaded image; the text itself if
   packing does not pay or memory ran out.  */
static std::string
packed_meta (const std::string &text)
{
  char *buf;
  size_t len;
  if (pp_meta_pack (text.data (), text.size (), &buf, &len) < 0)
    return text;
  std::string packed = len < text.size () ? std::string (buf, len) : text;
  free (buf);
  return packed;
}

/* FNV-1a 64 of S, continuing from H: the record key.  */
static uint64_t
fnv64 (uint64_t h, const std::string &s)
{
  for (unsigned char c : s)
    h = (h ^ c) * 1099511628211ull;
  return h;
}

static void
put_le (std::string &out, uint64_t v, int bytes)
{
  for (int i = 0; i < bytes; i++)
    out += (char) (v >> (8 * i));
}

/* The unit's .pp_meta record (rt_abi.h), its key KEY over the profile
   path, the source and DATA, so that a runtime finds this unit's record
   among those the linker concatenated, and never another build's.  */
static std::string
meta_record (const std::string &data, const std::string &ppd_path,
             const std::string &source, uint64_t *key)
{
  uint64_t h = 14695981039346656037ull;
  h = fnv64 (h, ppd_path);
  h = fnv64 (h, std::string (1, '\0') + source + std::string (1, '\0'));
  *key = fnv64 (h, data);
  std::string rec = PP_META_MAGIC;
  put_le (rec, PP_META_HEADER + data.size (), 4);
  put_le (rec, *key, 8);
  return rec + data;
}

/* REC as a top-level asm statement that puts it in the non-allocated
   section PP_META_SECTION: .ascii lines, printable bytes as they are and
   the rest in octal.  Not a variable: GCC gives every variable's section
   the "a" (allocated) flag, and then the loader would map it.  */
static void
emit_meta_record (const std::string &rec)
{
  std::string as = "\t.pushsection " PP_META_SECTION ",\"\",@progbits\n";
  for (size_t i = 0; i < rec.size (); i += 64)
    {
      as += "\t.ascii \"";
      for (size_t j = i; j < rec.size () && j < i + 64; j++)
        {
          unsigned char c = rec[j];
          if (c >= ' ' && c < 127 && c != '"' && c != '\\')
            as += (char) c;
          else
            {
              char oct[8];
              snprintf (oct, sizeof oct, "\\%03o", c);
              as += oct;
            }
        }
      as += "\"\n";
    }
  as += "\t.popsection";
  symtab->finalize_toplevel_asm (build_string (as.size () + 1, as.c_str ()));
}

static tree
build_string_from (const char *s)
{
  return build_string (strlen (s) + 1, s);
}

static tree
string_ptr (const std::string &s)
{
  return build_string_literal (s.size () + 1, s.c_str ());
}

static tree
field (tree type, int i)
{
  tree f = TYPE_FIELDS (type);
  while (i-- > 0)
    f = DECL_CHAIN (f);
  return f;
}

/* The profile file: the object's absolute path with .ppd, named the way
   GCC names .gcda files (from -dumpdir/-dumpbase, i.e. aux_base_name).  */
std::string
ppgcc_ppd_path ()
{
  const char *base = aux_base_name ? aux_base_name : dump_base_name;
  std::string p = base ? base : "a";
  if (!aux_base_name)
    {
      size_t slash = p.rfind ('/'), dot = p.rfind ('.');
      if (dot != std::string::npos && (slash == std::string::npos
                                       || dot > slash))
        p.erase (dot);
    }
  char cwd[PATH_MAX];
  bool relative = !IS_ABSOLUTE_PATH (p.c_str ());
  if (relative && getcwd (cwd, sizeof cwd))
    p = std::string (cwd) + "/" + p;
  /* -fprofile-dir=DIR (GCC sets profile_data_prefix itself too, to the
     working directory; only the user's counts): where gcc puts .gcda
     files, DIR/<the object's absolute path with '/' as '#'> for an
     object named relative, DIR/<its absolute path> else (the
     option was once ignored).  */
  if (global_options_set.x_profile_data_prefix && profile_data_prefix
      && *profile_data_prefix)
    {
      std::string dir = profile_data_prefix;
      if (!IS_ABSOLUTE_PATH (dir.c_str ()) && getcwd (cwd, sizeof cwd))
        dir = std::string (cwd) + "/" + dir;
      if (relative)
        for (char &c : p)
          if (c == '/')
            c = '#';
      p = dir + (relative ? "/" : "") + p;
    }
  return p + ".ppd";
}

/* &VAR as the type of TYPE's field I.  */
static tree
addr_as (tree type, int i, tree var)
{
  return fold_convert (TREE_TYPE (field (type, i)),
                       build_fold_addr_expr (var));
}

/* FN's struct __pp_fn_ext, or NULL_TREE when it would be all zeros.
   Its trained list goes to the end of META_DATA, the unit's .pp_meta
   record.  */
static tree
fn_ext (const ppgcc_fn &fn, std::string &meta_data)
{
  if (!fn.ppp_ids && fn.trained.empty () && !fn.hash_keys && !fn.inlined
      && !fn.values)
    return NULL_TREE;
  tree etype = fn_ext_type ();
  vec<constructor_elt, va_gc> *v = NULL;
  if (fn.ppp_ids)
    {
      CONSTRUCTOR_APPEND_ELT (v, field (etype, 0),
                              addr_as (etype, 0, fn.ppp_ids));
      CONSTRUCTOR_APPEND_ELT (v, field (etype, 1),
                              addr_as (etype, 1, fn.ppp_counts));
      CONSTRUCTOR_APPEND_ELT (v, field (etype, 2),
                              build_int_cstu (ppgcc_u64_type (),
                                              fn.ppp_size));
    }
  if (!fn.trained.empty ())
    {
      uint64_t offset = meta_data.size ();
      for (uint64_t id : fn.trained)
        put_le (meta_data, id, 8);
      CONSTRUCTOR_APPEND_ELT (v, field (etype, 3),
                              build_int_cstu (ppgcc_u64_type (), offset));
      CONSTRUCTOR_APPEND_ELT (v, field (etype, 4),
                              build_int_cstu (ppgcc_u64_type (),
                                              fn.trained.size ()));
    }
  if (fn.hash_keys)
    {
      CONSTRUCTOR_APPEND_ELT (v, field (etype, 5),
                              addr_as (etype, 5, fn.hash_keys));
      CONSTRUCTOR_APPEND_ELT (v, field (etype, 6),
                              addr_as (etype, 6, fn.hash_counts));
      CONSTRUCTOR_APPEND_ELT (v, field (etype, 8),
                              build_int_cstu (ppgcc_u64_type (),
                                              fn.hash_cache_bits));
    }
  if (fn.inlined)
    CONSTRUCTOR_APPEND_ELT (v, field (etype, 7),
                            addr_as (etype, 7, fn.inlined));
  if (fn.values)
    {
      CONSTRUCTOR_APPEND_ELT (v, field (etype, 9),
                              addr_as (etype, 9, fn.values));
      CONSTRUCTOR_APPEND_ELT (v, field (etype, 10),
                              build_int_cstu (ppgcc_u64_type (),
                                              fn.num_values));
    }
  tree ext = packed (new_static_var (build_qualified_type (etype,
                                                           TYPE_QUAL_CONST),
                                     "__pp_ext"));
  TREE_READONLY (ext) = 1;
  DECL_INITIAL (ext) = build_constructor (etype, v);
  define_var (ext);
  return ext;
}

tree
ppgcc_hidden_extern_var (const char *name, tree type)
{
  tree decl = build_decl (BUILTINS_LOCATION, VAR_DECL, get_identifier (name),
                          type);
  DECL_EXTERNAL (decl) = 1;
  TREE_PUBLIC (decl) = 1;
  DECL_ARTIFICIAL (decl) = 1;
  DECL_VISIBILITY (decl) = VISIBILITY_HIDDEN;
  DECL_VISIBILITY_SPECIFIED (decl) = 1;
  return decl;
}

/* The linker's symbol PREFIX SECTION (__start_ or __stop_), as an array
   of descriptors.  */
static tree
section_bound (const char *prefix, const char *section)
{
  std::string name = std::string (prefix) + section;
  tree decl = ppgcc_hidden_extern_var (name.c_str (),
                                       build_array_type (fn_desc_type (),
                                                         NULL_TREE));
  return build4 (ARRAY_REF, fn_desc_type (), decl, size_zero_node,
                 NULL_TREE, NULL_TREE);
}

void
ppgcc_emit_unit ()
{
  if (ppgcc_fns.empty () || seen_error ())
    return;
  tree dtype = fn_desc_type ();
  std::string meta_data;
  for (const ppgcc_fn &fn : ppgcc_fns)
    {
      /* The metadata goes to the unit's .pp_meta record.  */
      std::string meta = packed_meta (fn.meta);
      uint32_t meta_offset = meta_data.size ();
      meta_data += meta;
      /* In field order: varasm wants the constructor sorted.  */
      vec<constructor_elt, va_gc> *v = NULL;
      CONSTRUCTOR_APPEND_ELT (v, field (dtype, 0), string_ptr (fn.name));
      CONSTRUCTOR_APPEND_ELT (v, field (dtype, 1),
                              build_int_cstu (ppgcc_u64_type (), fn.num_paths));
      if (fn.counters)
        CONSTRUCTOR_APPEND_ELT (v, field (dtype, 2), addr_as (dtype, 2,
                                                              fn.counters));
      if (fn.metrics)
        CONSTRUCTOR_APPEND_ELT (v, field (dtype, 3), addr_as (dtype, 3,
                                                              fn.metrics));
      tree ext = fn_ext (fn, meta_data);
      if (ext)
        CONSTRUCTOR_APPEND_ELT (v, field (dtype, 5), addr_as (dtype, 5, ext));
      const uint32_t words[] = { fn.checksum, fn.flags,
                                 (uint32_t) meta.size (), meta_offset,
                                 fn.nmetrics, fn.num_sites };
      for (int i = 0; i < 6; i++)
        CONSTRUCTOR_APPEND_ELT (v, field (dtype, 6 + i),
                                build_int_cstu (unsigned_type_node,
                                                words[i]));
      DECL_INITIAL (fn.desc) = build_constructor (dtype, v);
    }
  std::string ppd_path = ppgcc_ppd_path ();
  std::string source = main_input_filename ? main_input_filename : "";
  uint64_t meta_key;
  emit_meta_record (meta_record (meta_data, ppd_path, source, &meta_key));

  /* The descriptors, in a section of their own named by the unit's key:
     the linker makes them one array, which the unit finds between the
     section's __start_ and __stop_ symbols (the linker's).  No array of
     pointers to them, each with its relocation in a PIE: 32 bytes a
     function (gzip's binary 4.9 KB).  They are used by no code (array
     mode's probes count in the counters), so kept by force.  */
  char section[32];
  snprintf (section, sizeof section, "__pp_d_%016llx",
            (unsigned long long) meta_key);
  for (const ppgcc_fn &fn : ppgcc_fns)
    {
      set_decl_section_name (fn.desc, section);
      DECL_PRESERVE_P (fn.desc) = 1;
      /* SHF_GNU_RETAIN: kept by `--gc-sections -z start-stop-gc', which
         collects what only __start_/__stop_ refer to (the link failed).  */
      DECL_ATTRIBUTES (fn.desc) = tree_cons (get_identifier ("retain"),
                                             NULL_TREE,
                                             DECL_ATTRIBUTES (fn.desc));
      define_var (fn.desc);
    }

  tree utype = pp_unit_type ();
  tree unit = packed (new_static_var (utype, "__pp_unit"));
  vec<constructor_elt, va_gc> *u = NULL;
  CONSTRUCTOR_APPEND_ELT (u, field (utype, 0),
                          build_int_cstu (unsigned_type_node, PP_ABI_VERSION));
  CONSTRUCTOR_APPEND_ELT (u, field (utype, 1),
                          build_int_cstu (unsigned_type_node,
                                          ppgcc_fns.size ()));
  CONSTRUCTOR_APPEND_ELT (u, field (utype, 2), string_ptr (ppd_path));
  CONSTRUCTOR_APPEND_ELT (u, field (utype, 3), string_ptr (source));
  CONSTRUCTOR_APPEND_ELT (u, field (utype, 4),
                          build_fold_addr_expr (section_bound ("__start_",
                                                               section)));
  if (!ppgcc_opts.metrics.empty ())
    CONSTRUCTOR_APPEND_ELT (u, field (utype, 6),
                            string_ptr (ppgcc_opts.metrics));
  CONSTRUCTOR_APPEND_ELT (u, field (utype, 7),
                          build_int_cstu (unsigned_type_node,
                                          ppgcc_opts.cct ? PP_UNIT_CCT : 0));
  /* A reference to a symbol of the runtime named for what to do, from a
     section the loader never maps: linked without the runtime (by plain
     gcc or g++), the object's undefined references include this name.  */
  symtab->finalize_toplevel_asm (build_string_from (
      ppgcc_opts.table_hpt
          ? "\t.pushsection .pp_link_check,\"\",@progbits\n"
            "\t.quad " PP_RUNTIME_CHECK_SYMBOL "\n"
            "\t.quad " PP_RUNTIME_HPT_SYMBOL "\n"
            "\t.popsection"
          : "\t.pushsection .pp_link_check,\"\",@progbits\n"
            "\t.quad " PP_RUNTIME_CHECK_SYMBOL "\n"
            "\t.popsection"));
  CONSTRUCTOR_APPEND_ELT (u, field (utype, 9),
                          build_int_cstu (ppgcc_u64_type (), meta_key));
  CONSTRUCTOR_APPEND_ELT (u, field (utype, 10),
                          build_int_cstu (unsigned_type_node,
                                          meta_data.size ()));
  CONSTRUCTOR_APPEND_ELT (u, field (utype, 13),
                          build_fold_addr_expr (section_bound ("__stop_",
                                                               section)));
  DECL_INITIAL (unit) = build_constructor (utype, u);
  define_var (unit);

  /* static void ctor (void) { __pp_register_unit (&unit); }  */
  tree reg_type = build_function_type_list (void_type_node,
                                            build_pointer_type (utype),
                                            NULL_TREE);
  tree reg_fn = build_fn_decl ("__pp_register_unit", reg_type);
  tree body = build_call_expr (reg_fn, 1, build_fold_addr_expr (unit));
  cgraph_build_static_cdtor ('I', body, DEFAULT_INIT_PRIORITY);
}
