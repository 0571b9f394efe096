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
   the same way: Chen, Li and Moseley, CGO'16, §3).  */
#include "samples.h"

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
  size_t first = *n, pc = 0;
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
         frequent */
      uint64_t rate = e - b >= 4 ? (sum - top) * 1000 / (e - b - 1)
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
      b = e;
    }
  if (dw)
    dwarf_end (dw);
  if (fd >= 0)
    close (fd);
  free (leaders);
  free (in);
  return rc;
}
