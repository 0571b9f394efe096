/* A sampled profile's samples by instruction, resolved to source lines
   (samples.h).  The leaf PCs of every context of a function are summed
   by offset; the function's entry "<object>+0x<offset>" is an address
   in the object as linked (the sampler took the run's load bias off,
   runtime/sample/dump.c), so the object's DWARF applies as it is:
   elfutils' libdw gives the line table's row for each PC and the
   scopes around it, whose DW_TAG_inlined_subroutine entries are the
   inline chain (their DW_AT_call_file/DW_AT_call_line the call site in
   the code around them).  The object must be the one that ran (same
   build id, as for call sites: sites.c).

   Loops come from the machine code (HPCToolkit, Tallent et al.,
   PLDI'09, recovers them from the binary the same way): objdump's
   disassembly of the function, each backward branch to an address in
   the function closing a loop from its target to itself.  */
#include "samples.h"

#include "pp/rt_abi.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int
pp_context_sampled (const pp_context *c)
{
  for (uint32_t i = 0; i < c->prof.nfns; i++)
    if (c->prof.fns[i].flags & PP_FN_SAMPLED)
      return 1;
  return 0;
}

const char *
pp_samples_intern (pp_samples *s, const char *str)
{
  if (!str)
    return NULL;
  for (size_t i = 0; i < s->nstrings; i++)
    if (!strcmp (s->strings[i], str))
      return s->strings[i];
  char **a = realloc (s->strings, (s->nstrings + 1) * sizeof *a);
  if (!a)
    return NULL;
  s->strings = a;
  if (!(a[s->nstrings] = strdup (str)))
    return NULL;
  return a[s->nstrings++];
}

/* KEY "NAME+0xOFF": its object in P and OFF; NULL when not one.  */
static const ppc_object *
key_object (const ppc_profile *p, const char *key, uint64_t *off)
{
  const char *plus = key ? strrchr (key, '+') : NULL;
  if (!plus || strncmp (plus, "+0x", 3) != 0)
    return NULL;
  char *end;
  errno = 0;
  *off = strtoull (plus + 3, &end, 16);
  if (*end || errno)
    return NULL;
  size_t len = (size_t) (plus - key);
  for (uint32_t o = 0; o < p->nobjects; o++)
    if (strlen (p->objects[o].name) == len
        && !strncmp (p->objects[o].name, key, len))
      return &p->objects[o];
  return NULL;
}

static int
by_samples (const void *a, const void *b)
{
  const pp_sample_fn *x = a, *y = b;
  if (x->samples != y->samples)
    return x->samples < y->samples ? 1 : -1;
  return strcmp (x->name, y->name);
}

static int
by_addr (const void *a, const void *b)
{
  const pp_sample_pc *x = a, *y = b;
  return (x->addr > y->addr) - (x->addr < y->addr);
}

int
pp_samples_load (pp_samples *s, pp_context *c)
{
  memset (s, 0, sizeof *s);
  s->c = c;
  const ppc_profile *p = &c->prof;
  size_t *slot = malloc ((p->nfns + 1) * sizeof *slot);
  s->fns = calloc (p->nfns + 1, sizeof *s->fns);
  if (!slot || !s->fns)
    goto oom;
  for (uint32_t i = 0; i < p->nfns; i++)
    slot[i] = SIZE_MAX;
  for (uint32_t n = 1; n < p->nnodes; n++)
    {
      const ppc_node *nd = &p->nodes[n];
      s->total += nd->excl[0];
      if (!nd->excl[0])
        continue;
      if (slot[nd->fn] == SIZE_MAX)
        {
          pp_sample_fn *f = &s->fns[s->nfns];
          f->fn = nd->fn;
          f->name = pp_context_fn_label (c, nd->fn);
          if (c->fn_key && c->fn_key[nd->fn])
            f->object = key_object (p, c->fn_key[nd->fn], &f->entry);
          slot[nd->fn] = s->nfns++;
        }
      pp_sample_fn *f = &s->fns[slot[nd->fn]];
      f->samples += nd->excl[0];
      uint64_t with_pc = 0;
      for (uint64_t k = 0; k < nd->nleaves; k++)
        {
          const ppc_leaf *l = &nd->leaves[k];
          with_pc += l->samples;
          size_t j = 0;
          /* a function's contexts share most of their PCs: look for
             it, else append (sorted below) */
          for (; j < f->npcs; j++)
            if (f->pcs[j].addr == f->entry + l->offset)
              break;
          if (j == f->npcs)
            {
              pp_sample_pc *a = realloc (f->pcs, (f->npcs + 1) * sizeof *a);
              if (!a)
                goto oom;
              f->pcs = a;
              memset (&a[j], 0, sizeof a[j]);
              a[j].addr = f->entry + l->offset;
              f->npcs++;
            }
          f->pcs[j].samples += l->samples;
        }
      f->no_pc += nd->excl[0] > with_pc ? nd->excl[0] - with_pc : 0;
    }
  for (size_t i = 0; i < s->nfns; i++)
    if (s->fns[i].npcs > 1)
      qsort (s->fns[i].pcs, s->fns[i].npcs, sizeof *s->fns[i].pcs, by_addr);
  qsort (s->fns, s->nfns, sizeof *s->fns, by_samples);
  free (slot);
  return 0;
oom:
  free (slot);
  fprintf (stderr, "ppprof: out of memory\n");
  return -1;
}

void
pp_samples_free (pp_samples *s)
{
  for (size_t i = 0; i < s->nfns; i++)
    {
      for (size_t k = 0; k < s->fns[i].npcs; k++)
        free (s->fns[i].pcs[k].inlined);
      free (s->fns[i].pcs);
      free (s->fns[i].loops);
    }
  free (s->fns);
  for (size_t i = 0; i < s->nstrings; i++)
    free (s->strings[i]);
  free (s->strings);
  memset (s, 0, sizeof *s);
}

pp_sample_fn *
pp_samples_find (pp_samples *s, const char *only)
{
  for (size_t i = 0; i < s->nfns; i++)
    if (!strcmp (s->fns[i].name, only)
        || !strcmp (s->c->prof.fns[s->fns[i].fn].name, only))
      return &s->fns[i];
  return NULL;
}

/* ------------------------------------------------------------ DWARF */

static const char *
die_name (Dwarf_Die *d)
{
  Dwarf_Attribute a;
  const char *n = NULL;
  if (dwarf_attr_integrate (d, DW_AT_name, &a))
    n = dwarf_formstring (&a);
  return n ? n : "?";
}

const char *
pp_samples_call_site (Dwarf_Die *cu, Dwarf_Die *d, unsigned *line)
{
  Dwarf_Attribute a;
  Dwarf_Word file = 0, l = 0;
  *line = 0;
  if (dwarf_attr (d, DW_AT_call_line, &a) && dwarf_formudata (&a, &l) == 0)
    *line = (unsigned) l;
  Dwarf_Files *files;
  size_t nfiles;
  if (!dwarf_attr (d, DW_AT_call_file, &a) || dwarf_formudata (&a, &file) != 0
      || dwarf_getsrcfiles (cu, &files, &nfiles) != 0 || file >= nfiles)
    return NULL;
  return dwarf_filesrc (files, file, NULL, NULL);
}

/* PC's line and inline chain into P.  */
static void
resolve_pc (pp_samples *s, Dwarf *dw, pp_sample_pc *p, const char **fn_file)
{
  Dwarf_Die cu;
  if (!dwarf_addrdie (dw, p->addr, &cu))
    return;
  Dwarf_Line *row = dwarf_getsrc_die (&cu, p->addr);
  const char *file = NULL;
  int line = 0;
  if (row)
    {
      file = dwarf_linesrc (row, NULL, NULL);
      dwarf_lineno (row, &line);
    }
  Dwarf_Die *scopes = NULL;
  int n = dwarf_getscopes (&cu, p->addr, &scopes);
  /* scopes[0] is the innermost; the inlined calls up to the function */
  int outer = -1, inl = 0;
  for (int i = 0; i < n; i++)
    {
      int tag = dwarf_tag (&scopes[i]);
      if (tag == DW_TAG_inlined_subroutine)
        {
          outer = i;
          inl++;
        }
      else if (tag == DW_TAG_subprogram)
        {
          if (!*fn_file)
            *fn_file = pp_samples_intern (s, dwarf_decl_file (&scopes[i]));
          break;
        }
    }
  if (outer < 0)
    {
      p->file = pp_samples_intern (s, file);
      p->line = (unsigned) line;
    }
  else
    {
      unsigned cl;
      p->file = pp_samples_intern (s, pp_samples_call_site (&cu, &scopes[outer], &cl));
      p->line = cl;
      p->inl_file = pp_samples_intern (s, file);
      p->inl_line = (unsigned) line;
      /* the chain, outermost first */
      size_t len = 1;
      for (int i = outer; i >= 0; i--)
        if (dwarf_tag (&scopes[i]) == DW_TAG_inlined_subroutine)
          len += strlen (die_name (&scopes[i])) + 3;
      p->inlined = malloc (len);
      if (p->inlined)
        {
          p->inlined[0] = '\0';
          for (int i = outer; i >= 0; i--)
            if (dwarf_tag (&scopes[i]) == DW_TAG_inlined_subroutine)
              {
                if (p->inlined[0])
                  strcat (p->inlined, " > ");
                strcat (p->inlined, die_name (&scopes[i]));
              }
        }
    }
  free (scopes);
}

/* F's extent from the object's symbol table: the function symbol at its
   entry.  */
static void
symbol_size (Elf *elf, pp_sample_fn *f)
{
  Elf_Scn *scn = NULL;
  while ((scn = elf_nextscn (elf, scn)))
    {
      GElf_Shdr sh;
      if (!gelf_getshdr (scn, &sh)
          || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
        continue;
      Elf_Data *d = elf_getdata (scn, NULL);
      size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
      for (size_t i = 0; d && i < n; i++)
        {
          GElf_Sym sym;
          if (gelf_getsym (d, (int) i, &sym)
              && GELF_ST_TYPE (sym.st_info) == STT_FUNC
              && sym.st_value == f->entry && sym.st_size)
            {
              f->size = sym.st_size;
              return;
            }
        }
    }
}

/* ------------------------------------------------------------ objdump */

char *
pp_samples_disassemble (const pp_sample_fn *f)
{
  if (!f->object || !f->size)
    return NULL;
  char lo[32], hi[32];
  snprintf (lo, sizeof lo, "--start-address=0x%" PRIx64, f->entry);
  snprintf (hi, sizeof hi, "--stop-address=0x%" PRIx64, f->entry + f->size);
  char *argv[] = { (char *) "objdump", (char *) "-d", (char *) "-C",
                   (char *) "--no-show-raw-insn", lo, hi,
                   f->object->path, NULL };
  int fd[2];
  if (pipe (fd) < 0)
    return NULL;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init (&fa);
  posix_spawn_file_actions_adddup2 (&fa, fd[1], 1);
  posix_spawn_file_actions_addopen (&fa, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclose (&fa, fd[0]);
  posix_spawn_file_actions_addclose (&fa, fd[1]);
  pid_t pid;
  int ok = posix_spawnp (&pid, "objdump", &fa, NULL, argv, environ) == 0;
  posix_spawn_file_actions_destroy (&fa);
  close (fd[1]);
  char *buf = NULL;
  size_t len = 0, cap = 0;
  if (ok)
    for (;;)
      {
        if (cap - len < 4096)
          {
            char *b = realloc (buf, cap = cap * 2 + 8192);
            if (!b)
              break;
            buf = b;
          }
        ssize_t r = read (fd[0], buf + len, cap - len - 1);
        if (r <= 0)
          break;
        len += (size_t) r;
      }
  close (fd[0]);
  int status = 1;
  if (ok)
    waitpid (pid, &status, 0);
  if (!ok || !buf || status != 0)
    {
      free (buf);
      return NULL;
    }
  buf[len] = '\0';
  return buf;
}

static int
by_start (const void *a, const void *b)
{
  const pp_sample_loop *x = a, *y = b;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return (x->end < y->end) - (x->end > y->end);
}

static void
find_loops (pp_sample_fn *f)
{
  char *text = pp_samples_disassemble (f);
  if (!text)
    return;
  for (char *l = text; l && *l;)
    {
      char *nl = strchr (l, '\n');
      if (nl)
        *nl = '\0';
      uint64_t a, t;
      int ends;
      if (pp_samples_parse_insn (l, &a, &t, &ends) && t && t <= a
          && t >= f->entry)
        {
          /* back edges to one target: one loop, to the last of them */
          size_t k = 0;
          for (; k < f->nloops; k++)
            if (f->loops[k].start == t)
              break;
          if (k == f->nloops)
            {
              pp_sample_loop *lp = realloc (f->loops,
                                            (f->nloops + 1) * sizeof *lp);
              if (!lp)
                break;
              f->loops = lp;
              memset (&lp[k], 0, sizeof lp[k]);
              lp[k].start = t;
              f->nloops++;
            }
          if (a > f->loops[k].end)
            f->loops[k].end = a;
        }
      l = nl ? nl + 1 : NULL;
    }
  free (text);
  if (f->nloops > 1)
    qsort (f->loops, f->nloops, sizeof *f->loops, by_start);
  for (size_t k = 0; k < f->nloops; k++)
    {
      pp_sample_loop *lp = &f->loops[k];
      for (size_t i = 0; i < f->npcs; i++)
        {
          const pp_sample_pc *p = &f->pcs[i];
          if (p->addr < lp->start || p->addr > lp->end)
            continue;
          lp->samples += p->samples;
        }
    }
}

/* The header line of each loop: the smallest line of the function's own
   file among the lines of its instructions (a for statement's test and
   increment are on its line, before the body's).  The line table gives
   every instruction's line, sampled or not.  */
static void
loop_headers (pp_samples *s, Dwarf *dw, pp_sample_fn *f)
{
  for (size_t k = 0; k < f->nloops; k++)
    {
      pp_sample_loop *lp = &f->loops[k];
      Dwarf_Die cu;
      if (!dwarf_addrdie (dw, lp->start, &cu))
        continue;
      Dwarf_Lines *lines;
      size_t n;
      if (dwarf_getsrclines (&cu, &lines, &n) != 0)
        continue;
      for (size_t i = 0; i < n; i++)
        {
          Dwarf_Line *row = dwarf_onesrcline (lines, i);
          Dwarf_Addr a;
          int line;
          if (!row || dwarf_lineaddr (row, &a) != 0 || a < lp->start
              || a > lp->end || dwarf_lineno (row, &line) != 0 || line <= 0)
            continue;
          /* the line in the function's own code: through the inline
             chain when the row is an inlined function's */
          pp_sample_pc tmp;
          memset (&tmp, 0, sizeof tmp);
          tmp.addr = a;
          const char *ff = f->file;
          resolve_pc (s, dw, &tmp, &ff);
          free (tmp.inlined);
          if (!tmp.line || (f->file && tmp.file != f->file))
            continue;
          if (!lp->line || tmp.line < lp->line)
            {
              lp->line = tmp.line;
              lp->file = tmp.file;
            }
        }
    }
}

/* Objects whose lines could not be had, said once each.  */
static const ppc_object *said[64];
static size_t nsaid;

static void
say_once (const ppc_object *ob, const char *why)
{
  for (size_t i = 0; i < nsaid; i++)
    if (said[i] == ob)
      return;
  if (nsaid < sizeof said / sizeof *said)
    said[nsaid++] = ob;
  fprintf (stderr, "ppprof: %s: %s; its samples by function only\n",
           ob->path, why);
}

void
pp_samples_resolve (pp_samples *s, pp_sample_fn *f)
{
  if (f->resolved || !f->object)
    return;
  f->resolved = 1;
  const ppc_object *ob = f->object;
  char *id = pp_file_build_id (ob->path);
  int same = id && (!*ob->build_id || !strcmp (id, ob->build_id));
  int there = id != NULL;
  free (id);
  if (!same)
    {
      say_once (ob, there ? "not the object that ran (another build id)"
                          : "gone");
      f->no_debug = 1;
      return;
    }
  int fd = open (ob->path, O_RDONLY);
  if (fd < 0)
    {
      say_once (ob, strerror (errno));
      f->no_debug = 1;
      return;
    }
  elf_version (EV_CURRENT);
  Dwarf *dw = dwarf_begin (fd, DWARF_C_READ);
  Elf *elf = dw ? dwarf_getelf (dw) : elf_begin (fd, ELF_C_READ, NULL);
  if (elf)
    symbol_size (elf, f);
  if (!dw)
    {
      say_once (ob, "no DWARF line information (build with -g)");
      f->no_debug = 1;
    }
  else
    for (size_t i = 0; i < f->npcs; i++)
      resolve_pc (s, dw, &f->pcs[i], &f->file);
  find_loops (f);
  if (dw)
    {
      loop_headers (s, dw, f);
      dwarf_end (dw);
    }
  else if (elf)
    elf_end (elf);
  close (fd);
}
