/* Sampled profiles (`ppprof record`'s .ppc) by source line and
   instruction: each sampled context's leaf PCs (include/pp/ppc.h,
   ppc_leaf) summed per function and resolved to file:line with the
   inline chain through the object's DWARF (elfutils' libdw), the loops
   found in the function's machine code (its backward branches, as
   HPCToolkit recovers loops from the binary) and summed at their header
   line.  DCPI's dcpiprof (by function) and dcpilist (by line and
   instruction) views: samples.c resolves, sample_views.c prints.  */
#ifndef PPPROF_SAMPLES_H
#define PPPROF_SAMPLES_H

#include "context.h"

#include <elfutils/libdw.h>

#include <stdint.h>
#include <stdio.h>

/* One sampled instruction of a function.  */
typedef struct
{
  uint64_t addr;       /* in the object (its ELF addresses: the load
                          bias of the run is already taken off) */
  uint64_t samples;
  /* the line in the function's own code: the instruction's, or for
     inlined code the line of the outermost inlined call */
  const char *file;    /* interned in the pp_samples */
  unsigned line;
  /* inlined code: the inlined functions outermost first ("a > b") and
     the innermost's own line; NULL when not inlined */
  char *inlined;
  const char *inl_file;
  unsigned inl_line;
} pp_sample_pc;

/* A loop: the instructions [START, END] (a backward branch at END to
   START), its header line (the smallest line of the function's own file
   among its instructions), its samples.  */
typedef struct
{
  uint64_t start, end;
  const char *file;
  unsigned line;
  uint64_t samples;
} pp_sample_loop;

/* One function of the profile, every context of it summed.  */
typedef struct
{
  uint32_t fn;          /* index in the profile's functions */
  const char *name;     /* as shown */
  const ppc_object *object;
  uint64_t entry, size; /* its code in the object ([entry, entry+size)) */
  uint64_t samples;     /* exclusive samples, every context */
  uint64_t no_pc;       /* of which without their PC (the sampler's
                           table was full) */
  pp_sample_pc *pcs;    /* ascending addresses */
  size_t npcs;
  pp_sample_loop *loops;
  size_t nloops;
  const char *file;     /* its own source file (DWARF), or NULL */
  int resolved;         /* lines known */
  int no_debug;         /* the object has no line information */
} pp_sample_fn;

typedef struct
{
  pp_context *c;
  uint64_t total;       /* every sample of the profile */
  pp_sample_fn *fns;    /* by samples, descending */
  size_t nfns;
  char **strings;       /* interned file names */
  size_t nstrings;
} pp_samples;

/* Whether the merged profile was sampled (ppprof record).  */
int pp_context_sampled (const pp_context *c);
/* The functions of sampled profile C with their samples by PC; lines
   and loops are resolved by pp_samples_resolve.  0, or -1 (out of
   memory, said).  */
int pp_samples_load (pp_samples *s, pp_context *c);
/* F's PCs to lines through its object's DWARF, and its loops through
   objdump's disassembly.  Says once per object why lines are not known
   (gone, rebuilt, no debug information).  */
void pp_samples_resolve (pp_samples *s, pp_sample_fn *f);
void pp_samples_free (pp_samples *s);
/* The function named ONLY (as shown, or its symbol), or NULL.  */
pp_sample_fn *pp_samples_find (pp_samples *s, const char *only);
/* STR interned in S (one copy per distinct string), or NULL.  */
const char *pp_samples_intern (pp_samples *s, const char *str);
/* The call site of inlined-subroutine entry D of compilation unit CU:
   its file (NULL when unknown) and *LINE.  */
const char *pp_samples_call_site (Dwarf_Die *cu, Dwarf_Die *d,
                                  unsigned *line);
/* F's disassembly (objdump -d) into a malloc'd text, one instruction a
   line; NULL when objdump fails.  */
char *pp_samples_disassemble (const pp_sample_fn *f);

/* sample_views.c: the commands on a sampled profile.  Each returns the
   exit status (0, or 2 bad input).  */
int pp_samples_report (pp_context *c, long top, const char *only);
int pp_samples_annotate (pp_context *c, const char *only, int disasm,
                         FILE *out, int html);
/* ppprof html of a sampled profile: DIR/fn/sampled-K.html, a page per
   function with 1% of the samples or more (its source listing and its
   instructions), and their list into INDEX.  0, or -1 after a
   message.  */
int pp_samples_html (pp_context *c, const char *dir, FILE *index);
/* One line of objdump -d ("  11c3:\tjb     11b0 <f+0x10>"): its address,
   a direct jump's target in *TARGET (else 0), whether it ends a block
   (a jump or a return).  0 when the line is not an instruction.  */
int pp_samples_parse_insn (const char *l, uint64_t *addr, uint64_t *target,
                           int *ends_block);
/* sample_blocks.c: a location's count in a function's machine code.  */
typedef struct
{
  const char *file;  /* interned */
  unsigned line, disc;
  uint64_t rate;     /* its block's samples per instruction, in
                        thousandths */
} pp_sample_block_line;
/* Appends F's locations (file, line, discriminator) with the sample rate
   of their machine blocks to *V (*N of *CAP), the largest where a
   location is in several blocks.  0, or -1 out of memory.  */
int pp_samples_block_lines (pp_samples *s, pp_sample_fn *f,
                            pp_sample_block_line **v, size_t *n,
                            size_t *cap);

/* ppprof lines: the profile's counts by source location for
   -fuse-path-profile (plugin/sample-use.cc), each location (the
   innermost inlined line and its discriminator) with its machine
   blocks' sample rate, summed over the functions it is in:
     ppgcc-sample-lines 2
     total SAMPLES
     line LINE DISCRIMINATOR RATE FILE
   to OUT_PATH (NULL: stdout).  0, or 2 after a message.  */
int pp_samples_lines (pp_context *c, const char *out_path);

#endif
