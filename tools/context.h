/* ppprof's view of context profiles (.ppc, include/pp/ppc.h): the inputs
   merged into one calling context tree, each node's children, exclusive
   and inclusive metric values (PLDI'97 §4.3), optionally without the
   probes' own cost (§3.2), and the source lines of a function's paths.  */
#ifndef PPPROF_CONTEXT_H
#define PPPROF_CONTEXT_H

#include "profile_set.h"

#include "pp/ppc.h"

#include <stdio.h>

typedef struct
{
  ppc_profile prof;       /* every input merged */
  const char *name;       /* the first input, for messages */
  int subtract_probes;
  /* Per node (prof.nodes' indices): children sorted by name then site,
     exclusive values (probes subtracted if asked), inclusive values
     (exclusive plus the children's inclusive), and the calls made in the
     subtree (the size of a context without metrics).  */
  uint32_t **children;
  uint32_t *nchildren;
  uint64_t (*excl)[PPC_MAX_METRICS];
  uint64_t (*incl)[PPC_MAX_METRICS];
  uint64_t *incl_calls;
  /* Per function (prof.fns' indices): its graph, numbered when a path's
     lines are first asked for.  */
  pp_report_fn *fns;
  /* Per node: its call site as "file:line", or NULL (sites.c), once
     asked for.  */
  char **site_source;
  /* Per function: which of its CFG versions (name and source alike,
     checksums not) it is, from 1 in the profile's order, and how many
     there are; its name as shown (with "(CFG 1 of 2, older build)"
     when there are several).  */
  uint32_t *version, *nversions;
  char **label;
  uint32_t nversioned;     /* functions with several versions */
  /* Per function of a sampled profile: its entry address as recorded
     ("<object>+0x<offset>") before pp_context_name_functions named it;
     NULL for the others.  */
  char **fn_key;
} pp_context;

/* Whether NAME is a context profile: its suffix is .ppc, or it begins
   as one.  */
int pp_is_context_file (const char *name);
/* Whether file NAME begins as a path profile (.ppd).  */
int pp_is_path_file (const char *name);
/* Reads and merges the .ppc files named (directories: every *.ppc below
   them; none: the current directory), then derives the values above.
   Returns 0, or -1 after one line `ppprof: FILE: why`.  */
int pp_context_load (pp_context *c, char **names, int count,
                     int subtract_probes);
void pp_context_free (pp_context *c);

/* The index of metric NAME, or -1 after a message.  */
int pp_context_metric (const pp_context *c, const char *name);
/* Whether metric M was measured at all (its source is not
   "unavailable"): values of one that was not print as n/a.  */
int pp_context_measured (const pp_context *c, int m);
/* Path P of node N: metric M's value, the probes' cost taken off when
   asked (its executions x the path probe's cost).  */
uint64_t pp_context_path_metric (const pp_context *c, uint32_t n,
                                 const ppc_path *p, int m);
/* The lines of path ID of function FN into OUT (which the caller frees
   with pp_context_path_free).  0, or -1 after a message.  */
int pp_context_path_lines (pp_context *c, uint32_t fn, uint64_t id,
                           pp_report_path *out);
void pp_context_path_free (pp_report_path *p);
/* sites.c: node N's call site as the source line of the call
   ("file.c:12", through the object's debug information), else as
   recorded ("prog+0x2746", "inlined", "").  The first call resolves
   every site of the profile.  */
const char *pp_context_site (pp_context *c, uint32_t n);
/* Only the source line: NULL when it is not known.  */
const char *pp_context_site_source (pp_context *c, uint32_t n);
void pp_context_resolve_sites (pp_context *c);
/* sites.c: the functions of a sampled profile (PP_FN_SAMPLED), named
   by their entry address "<object>+0x<offset>", get their names from
   the object's symbols (addr2line -f) while the object is the one that
   ran; pp_context_load does it.  */
void pp_context_name_functions (pp_context *c);
/* Function FN's name as shown: with its CFG version when the profile
   holds several (a program rebuilt at another -O level, or edited),
   "main (CFG 1 of 2, older build)"; a C++ name demangled.  */
const char *pp_context_fn_label (const pp_context *c, uint32_t fn);
/* The notes on versions and metrics a report prints under its header
   (text: "note: ..." lines to OUT; nothing when there is nothing to
   say).  */
void pp_context_notes (const pp_context *c, FILE *out);
/* JSON: FN's version fields (", \"cfg_checksum\": N, \"cfg_version\": K,
   \"cfg_versions\": N, \"older\": B") when it has several; nothing
   otherwise.  */
void pp_context_json_version (const pp_context *c, uint32_t fn, FILE *out);

/* The source file of function FN, as the metadata names it.  */
const char *pp_context_fn_file (const pp_context *c, uint32_t fn);

/* sites.c: the build id of the ELF file PATH in hex, malloc'd ("" without
   one); NULL when PATH cannot be read.  */
char *pp_file_build_id (const char *path);

#endif
