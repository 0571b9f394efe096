/* A sampled function's machine basic blocks and how often each ran, as
   far as timer samples tell, by source location (file, line and
   discriminator): the counts `ppprof lines` gives -fuse-path-profile.

   A timer sample lands on one instruction of the block that was running,
   usually a slow one or the one after it (skid), so one instruction's
   samples say little.  DCPI (Anderson et al., SOSP'97, §5) estimates a
   block's frequency from the samples of all its instructions, which
   share one execution count: here their sum over their number (samples
   per instruction, taking one cycle each).  Every location of the
   block's instructions gets the block's rate.  GCC numbers the blocks
   of one source line by discriminator at CFG construction, the same in
   the training build and the recompile, so the recompile can tell an
   `if (c) return x;`'s test from its return (AutoFDO keys its profile
   the same way: Chen, Li and Moseley, CGO'16, §3).

   A call the training build inlined leaves little or no code of its own
   line: the inlined body's instructions carry the callee's lines.  The
   recompile, which reads the counts before inlining, would see the call
   statement's block as never run and the call as cold, and not inline
   it again (lua's luaD_precall kept precallC out of line, luaV_execute
   luaV_mod, luaV_shiftl and luaV_tointegerns: 20 M instructions more
   than the same flags with no profile at all).  So the call site of
   every inlined instance (DW_AT_call_line and its discriminator) also
   gets the rate of the block where the instance is entered, as
   AutoFDO gives an inlined call site its callee's entry count.  */
#include "samples.h"

#include <dwarf.h>
#include <elfutils/libdw.h>

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct
{
  uint64_t addr;
  int ends_block;  /* a jump, conditional or not, or a return */
  uint64_t target; /* a direct jump's, else 0 */
} machine_insn;

int
pp_samples_parse_insn (const char *l, uint64_t *addr, uint64_t *target,
                       int *ends_block)
{
  char *end;
  while (*l == ' ')
    l++;
  *addr = strtoull (l, &end, 16);
  *ends_block = 0;
  *target = 0;
  if (end == l || *end != ':' || end[1] != '\t')
    return 0;
  const char *m = end + 2;
  if (!strncmp (m, "bnd ", 4) || !strncmp (m, "notrack ", 8))
    m = strchr (m, ' ') + 1;
  if (*m == 'j')
    {
      *ends_block = 1;
      const char *sp = strpbrk (m, " \t");
      if (sp)
        {
          while (*sp == ' ' || *sp == '\t')
            sp++;
          *target = strtoull (sp, &end, 16);
          if (end == sp || *end != ' ')
            *target = 0;
        }
    }
  else if (!strncmp (m, "ret", 3) || !strncmp (m, "ud2", 3)
           || !strncmp (m, "hlt", 3))
    *ends_block = 1;
  return 1;
}

/* An inlined instance in the function: where it is entered, and its call
   site.  */
typedef struct
{
  uint64_t entry;
  const char *file; /* interned */
  unsigned line, disc;
} inline_entry;

/* GCC's attribute for a call site's discriminator (not in every
   elfutils' dwarf.h) */
enum { at_gnu_discriminator = 0x2136 };

static int
by_entry (const void *a, const void *b)
{
  uint64_t x = ((const inline_entry *) a)->entry,
           y = ((const inline_entry *) b)->entry;
  return (x > y) - (x < y);
}

/* The inlined instances under D (recursively) into *V.  0, or -1 out of
   memory.  */
static int
collect_inlined (pp_samples *s, Dwarf_Die *cu, Dwarf_Die *d, inline_entry **v,
                 size_t *n, size_t *cap)
{
  Dwarf_Die c;
  if (dwarf_child (d, &c) != 0)
    return 0;
  do
    {
      int tag = dwarf_tag (&c);
      if (tag == DW_TAG_inlined_subroutine)
        {
          Dwarf_Addr pc;
          unsigned line;
          const char *file = pp_samples_call_site (cu, &c, &line);
          if (file && line && dwarf_entrypc (&c, &pc) == 0)
            {
              if (*n == *cap)
                {
                  inline_entry *a = realloc (*v, (*cap = *cap * 2 + 16)
                                                     * sizeof *a);
                  if (!a)
                    return -1;
                  *v = a;
                }
              Dwarf_Attribute a;
              Dwarf_Word disc = 0;
              if (dwarf_attr (&c, at_gnu_discriminator, &a))
                dwarf_formudata (&a, &disc);
              (*v)[(*n)++] = (inline_entry){ pc, pp_samples_intern (s, file),
                                             line, (unsigned) disc };
            }
        }
      if ((tag == DW_TAG_inlined_subroutine || tag == DW_TAG_lexical_block)
          && collect_inlined (s, cu, &c, v, n, cap) != 0)
        return -1;
    }
  while (dwarf_siblingof (&c, &c) == 0);
  return 0;
}

/* The inlined instances of the function at ENTRY, sorted by where they
   are entered.  */
static int
function_inlined (pp_samples *s, Dwarf *dw, uint64_t entry, inline_entry **v,
                  size_t *n)
{
  Dwarf_Die cu, *scopes = NULL;
  size_t cap = 0;
  *v = NULL;
  *n = 0;
  if (!dwarf_addrdie (dw, entry, &cu))
    return 0;
  int k = dwarf_getscopes (&cu, entry, &scopes), rc = 0;
  for (int i = 0; i < k; i++)
    if (dwarf_tag (&scopes[i]) == DW_TAG_subprogram)
      {
        rc = collect_inlined (s, &cu, &scopes[i], v, n, &cap);
        break;
      }
  free (scopes);
  if (rc == 0 && *n > 1)
    qsort (*v, *n, sizeof **v, by_entry);
  return rc;
}

static int
by_addr (const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
  return (x > y) - (x < y);
}

/* Appends one location's rate to *V, keeping the largest per location
   (a source block the compiler split runs as often as each part).  */
static int
add_location (pp_sample_block_line **v, size_t *n, size_t *cap, size_t first,
              const char *file, unsigned line, unsigned disc, uint64_t rate)
{
  for (size_t k = first; k < *n; k++)
    if ((*v)[k].file == file && (*v)[k].line == line && (*v)[k].disc == disc)
      {
        if (rate > (*v)[k].rate)
          (*v)[k].rate = rate;
        return 0;
      }
  if (*n == *cap)
    {
      pp_sample_block_line *a = realloc (*v, (*cap = *cap * 2 + 256)
                                                 * sizeof *a);
      if (!a)
        return -1;
      *v = a;
    }
  (*v)[(*n)++] = (pp_sample_block_line){ file, line, disc, rate };
  return 0;
}

int
pp_samples_block_lines (pp_samples *s, pp_sample_fn *f,
                        pp_sample_block_line **v, size_t *n, size_t *cap)
{
  if (!f->object || !f->size || f->no_debug)
    return 0;
  char *text = pp_samples_disassemble (f);
  if (!text)
    return 0;
  machine_insn *in = NULL;
  size_t nin = 0, incap = 0;
  uint64_t *leaders = NULL;
  size_t nlead = 0;
  int rc = 0;
  for (char *l = text; l && *l;)
    {
      char *nl = strchr (l, '\n');
      if (nl)
        *nl = '\0';
      machine_insn i;
      if (pp_samples_parse_insn (l, &i.addr, &i.target, &i.ends_block))
        {
          if (nin == incap)
            {
              machine_insn *a = realloc (in, (incap = incap * 2 + 256)
                                                 * sizeof *a);
              if (!a)
                {
                  rc = -1;
                  break;
                }
              in = a;
            }
          in[nin++] = i;
        }
      l = nl ? nl + 1 : NULL;
    }
  free (text);
  /* leaders: the branch targets inside the function, sorted */
  if (rc == 0 && nin)
    {
      leaders = malloc (nin * sizeof *leaders);
      if (!leaders)
        rc = -1;
      for (size_t k = 0; rc == 0 && k < nin; k++)
        if (in[k].target >= f->entry && in[k].target < f->entry + f->size)
          leaders[nlead++] = in[k].target;
      if (nlead > 1)
        qsort (leaders, nlead, sizeof *leaders, by_addr);
    }
  int fd = rc == 0 && nin ? open (f->object->path, O_RDONLY) : -1;
  Dwarf *dw = fd >= 0 ? dwarf_begin (fd, DWARF_C_READ) : NULL;
  size_t first = *n, pc = 0, ninl = 0, inl = 0;
  inline_entry *inlined = NULL;
  if (dw && rc == 0)
    rc = function_inlined (s, dw, f->entry, &inlined, &ninl);
  for (size_t b = 0; dw && rc == 0 && b < nin;)
    {
      /* the block [b, e): up to a jump, or to the next leader */
      size_t e = b + 1;
      while (e < nin && !in[e - 1].ends_block
             && !bsearch (&in[e].addr, leaders, nlead, sizeof *leaders,
                          by_addr))
        e++;
      uint64_t end = e < nin ? in[e].addr : f->entry + f->size, sum = 0,
               top = 0;
      while (pc < f->npcs && f->pcs[pc].addr < in[b].addr)
        pc++;
      for (; pc < f->npcs && f->pcs[pc].addr < end; pc++)
        {
          sum += f->pcs[pc].samples;
          if (f->pcs[pc].samples > top)
            top = f->pcs[pc].samples;
        }
      /* thousandths of a sample per instruction, the slowest
         instruction of a block of four or more left out: a load that
         misses the cache, or the target of a mispredicted branch,
         takes the samples of many cycles (on itself or, by skid, the
         next one), and would make its block look many times more
         frequent.  Unless it holds all the block's samples: on some
         virtual machines the timer's interrupt lands on one instruction
         of a loop every time (linedisc.c's else-block, eight
         instructions: 330 samples of 330 on its second), and leaving
         it out read the block as never run.  Measured against no
         instruction left out (bench/sampled, three saved training
         profiles each): bzip2's recompile 3-17 M instructions fewer,
         lua's 4-5 M more */
      uint64_t rate = e - b >= 4 && sum > top
                          ? (sum - top) * 1000 / (e - b - 1)
                          : sum * 1000 / (e - b);
      for (size_t k = b; k < e && rc == 0; k++)
        {
          Dwarf_Die cu;
          Dwarf_Line *row = dwarf_addrdie (dw, in[k].addr, &cu)
                                ? dwarf_getsrc_die (&cu, in[k].addr)
                                : NULL;
          int line = 0;
          unsigned disc = 0;
          if (!row || dwarf_lineno (row, &line) != 0 || line <= 0)
            continue;
          dwarf_linediscriminator (row, &disc);
          const char *file
              = pp_samples_intern (s, dwarf_linesrc (row, NULL, NULL));
          if (file)
            rc = add_location (v, n, cap, first, file, (unsigned) line, disc,
                               rate);
        }
      /* the call sites of the instances entered in this block */
      while (inl < ninl && inlined[inl].entry < in[b].addr)
        inl++;
      for (; rc == 0 && inl < ninl && inlined[inl].entry < end; inl++)
        rc = add_location (v, n, cap, first, inlined[inl].file,
                           inlined[inl].line, inlined[inl].disc, rate);
      b = e;
    }
  if (dw)
    dwarf_end (dw);
  if (fd >= 0)
    close (fd);
  free (inlined);
  free (leaders);
  free (in);
  return rc;
}
