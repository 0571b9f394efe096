/* ppprof lcov: the line counts of ppprof annotate (line_counts.c) as an
   lcov tracefile (geninfo(1)'s format: TN, SF, FN, FNDA, FNF, FNH, BRDA,
   BRF, BRH, DA, LF, LH, end_of_record), for genhtml and coverage
   services.  One record per source file; its functions' lines are summed
   where they meet.  Branches are the out-edges of blocks with two or
   more, their counts exact from the paths, as gcov -b counts them.  */
#include "config.h"

#include "commands.h"
#include "file_io.h"
#include "line_counts.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Where the tracefile goes: standard output, or -o NAME through the
   temporary TMP beside it, renamed over NAME once whole (a full disk
   half way leaves what was at NAME, not a truncated file).  NAME that is
   there and is no regular file (/dev/stdout, a FIFO) is written to
   directly: renaming over it would replace the device.  */
typedef struct
{
  FILE *f;
  const char *name;
  char *tmp;
} lcov_out;

/* 0, or -1 after one line.  */
static int
out_open (lcov_out *o, const char *name)
{
  memset (o, 0, sizeof *o);
  o->name = name;
  o->f = stdout;
  if (!name)
    return 0;
  struct stat st;
  size_t n = strlen (name) + sizeof PP_TMP_INFIX + 40;
  o->f = NULL;
  if (stat (name, &st) == 0 && !S_ISREG (st.st_mode))
    o->f = fopen (name, "w");
  else if (!(o->tmp = malloc (n)))
    errno = ENOMEM;
  else
    {
      snprintf (o->tmp, n, "%s" PP_TMP_INFIX "%ld.%016llx", name,
                (long) getpid (), (unsigned long long) pp_random64 ());
      int fd = open (o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      o->f = fd >= 0 ? fdopen (fd, "w") : NULL;
      if (fd >= 0 && !o->f)
        {
          close (fd);
          unlink (o->tmp);
        }
    }
  if (o->f)
    return 0;
  fprintf (stderr, "ppprof: %s: %s\n", name, strerror (errno));
  free (o->tmp);
  o->tmp = NULL;
  return -1;
}

/* Finishes the output; OK 0 (the tracefile is not whole): the temporary
   goes.  0, or -1 (after one line when the write itself failed).  */
static int
out_close (lcov_out *o, int ok)
{
  /* A write that failed half way sets the stream's error; the rest of
     the buffer then fails again here, with the reason.  */
  int err = fflush (o->f) != 0 ? errno : ferror (o->f) ? EIO : 0;
  if (o->f != stdout && fclose (o->f) != 0 && !err)
    err = errno;
  if (ok && !err && o->tmp && rename (o->tmp, o->name) != 0)
    err = errno;
  if (o->tmp && (!ok || err))
    unlink (o->tmp);
  if (ok && err)
    fprintf (stderr, "ppprof: %s: cannot write: %s\n",
             o->name ? o->name : "standard output", strerror (err));
  free (o->tmp);
  return ok && !err ? 0 : -1;
}

/* One file's record from its functions FNS (N of them), source SRC at
   PATH.  Returns 0 or -1 (message printed).  */
static int
write_record (FILE *out, const char *path, const pp_source *src,
              const pp_report_fn **fns, int n)
{
  unsigned nl = src->num_lines;
  uint64_t *count = calloc (nl + 1, sizeof *count);
  unsigned char *has = calloc (nl + 1, 1);
  if (!count || !has)
    {
      free (count);
      free (has);
      fprintf (stderr, "ppprof: out of memory\n");
      return -1;
    }
  fprintf (out, "TN:\nSF:%s\n", path);
  int fnf = 0, fnh = 0, rc = 0;
  /* BRDA records wait for FNF/FNH: geninfo's order.  */
  char *brda = NULL;
  size_t brda_len = 0;
  FILE *br = open_memstream (&brda, &brda_len);
  unsigned brf = 0, brh = 0;
  if (!br)
    rc = -1;
  for (int k = 0; k < n && rc == 0; k++)
    {
      pp_line_counts lc;
      pp_branch *b = NULL;
      int nb = 0;
      if (pp_line_counts_of (fns[k], src, &lc) < 0
          || (nb = pp_line_counts_branches (fns[k], &lc, &b)) < 0)
        rc = -1;
      for (int j = 0; j < nb; j++)
        {
          if (b[j].block_ran)
            fprintf (br, "BRDA:%u,%d,%d,%" PRIu64 "\n", b[j].line,
                     b[j].block, b[j].branch, b[j].taken);
          else
            fprintf (br, "BRDA:%u,%d,%d,-\n", b[j].line, b[j].block,
                     b[j].branch);
          brf++;
          brh += b[j].taken > 0;
        }
      free (b);
      if (rc == 0 && lc.first)
        {
          fprintf (out, "FN:%u,%s\nFNDA:%" PRIu64 ",%s\n",
                   lc.decl_line ? lc.decl_line : lc.first, fns[k]->name,
                   lc.calls, fns[k]->name);
          fnf++;
          fnh += lc.calls > 0;
          for (unsigned l = lc.first; l <= lc.last && l <= nl; l++)
            if (lc.has[l - lc.first])
              {
                has[l] = 1;
                count[l] += lc.count[l - lc.first];
              }
        }
      pp_line_counts_free (&lc);
    }
  fprintf (out, "FNF:%d\nFNH:%d\n", fnf, fnh);
  if (br && fclose (br) == 0 && brda)
    {
      fputs (brda, out);
      if (brf)
        fprintf (out, "BRF:%u\nBRH:%u\n", brf, brh);
    }
  free (brda);
  unsigned lf = 0, lh = 0;
  for (unsigned l = 1; l <= nl; l++)
    if (has[l])
      {
        fprintf (out, "DA:%u,%" PRIu64 "\n", l, count[l]);
        lf++;
        lh += count[l] > 0;
      }
  fprintf (out, "LF:%u\nLH:%u\nend_of_record\n", lf, lh);
  free (count);
  free (has);
  return rc;
}

int
ppprof_lcov (pp_profile_set *set, const char *only, const char *out_name)
{
  if (only && !known_function (set, only))
    return 2;
  lcov_out o;
  if (out_open (&o, out_name) < 0)
    return 2;
  FILE *out = o.f;
  const pp_report_fn **fns = calloc (set->num_fns ? set->num_fns : 1,
                                     sizeof *fns);
  char *done = calloc (set->num_fns ? set->num_fns : 1, 1);
  int rc = fns && done ? 0 : 2;
  int records = 0;
  for (int i = 0; i < set->num_fns && rc == 0; i++)
    {
      if (done[i] || (only && strcmp (set->fns[i].name, only) != 0))
        continue;
      int n = 0;
      for (int j = i; j < set->num_fns; j++)
        if (!done[j] && !strcmp (set->fns[j].file, set->fns[i].file)
            && (!only || !strcmp (set->fns[j].name, only)))
          {
            done[j] = 1;
            fns[n++] = &set->fns[j];
          }
      pp_source src;
      if (pp_open_source (&src, fns[0]) < 0)
        {
          rc = 2;
          break;
        }
      /* genhtml reads the source by the SF name: absolute, as geninfo
         writes it, wherever genhtml runs.  */
      char abs[PATH_MAX];
      if (!realpath (src.name, abs))
        snprintf (abs, sizeof abs, "%s", src.name);
      if (write_record (out, abs, &src, fns, n) < 0)
        rc = 2;
      records++;
      pp_source_free (&src);
    }
  if (!fns || !done)
    fprintf (stderr, "ppprof: out of memory\n");
  free (fns);
  free (done);
  if (rc == 0 && !records)
    {
      fprintf (stderr, "ppprof: no profiled function%s\n",
               set->num_fns ? " with source lines" : " (no .ppd profile found)");
      rc = 2;
    }
  if (out_close (&o, rc == 0) < 0)
    rc = 2;
  return rc;
}
