/* Prints a .ppc in a form the tests compare line by line: contexts named
   by their functions from the root ("main/a/c"), with the contexts of one
   name (different call sites) summed.

     runs R kind cct|flat metrics M
     metric NAME SOURCE UNIT             (M lines)
     node NAME calls=C rec=R nctx=K paths=ID:COUNT,...
     excl NAME V_1 .. V_M
     pathm NAME ID V_1 .. V_M
     fn NAME calls=C                     (over every context of NAME)
     site NAME "SITE"                    (each context's call site)

   Built by the test with the codec's reader (lib/ppc_read.c and
   lib/file_io.c) and PP_KEEP_PACKED_META, as the runtime has it:
   metadata left packed.  */
#include "pp/ppc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct agg
{
  char *name;
  uint64_t calls, rec, nctx;
  uint64_t excl[PPC_MAX_METRICS];
  uint64_t npaths;
  ppc_path *paths;
};

static int
cmp_path (const void *a, const void *b)
{
  uint64_t x = ((const ppc_path *) a)->id, y = ((const ppc_path *) b)->id;
  return x < y ? -1 : x > y;
}

int
main (int argc, char **argv)
{
  ppc_profile p;
  const char *why = "";
  if (argc != 2)
    return 2;
  int rc = ppc_read_file (argv[1], &p, &why);
  if (rc)
    {
      printf ("error %s\n", rc > 0 ? "no such file" : why);
      return 1;
    }
  printf ("runs %llu kind %s metrics %u\n", (unsigned long long) p.runs,
          p.cct ? "cct" : "flat", p.nmetrics);
  for (uint32_t m = 0; m < p.nmetrics; m++)
    printf ("metric %s %s %s\n", p.metrics[m].name, p.metrics[m].source,
            p.metrics[m].unit);
  char **name = calloc (p.nnodes, sizeof *name);
  struct agg *agg = calloc (p.nnodes, sizeof *agg);
  uint32_t nagg = 0;
  for (uint32_t i = 1; i < p.nnodes; i++)
    {
      ppc_node *n = &p.nodes[i];
      const char *fn = p.fns[n->fn].name;
      size_t len = strlen (fn) + 1;
      if (n->parent)
        len += strlen (name[n->parent]) + 1;
      name[i] = malloc (len);
      if (n->parent)
        snprintf (name[i], len, "%s/%s", name[n->parent], fn);
      else
        snprintf (name[i], len, "%s", fn);
      struct agg *a = NULL;
      for (uint32_t k = 0; k < nagg && !a; k++)
        if (!strcmp (agg[k].name, name[i]))
          a = &agg[k];
      if (!a)
        {
          a = &agg[nagg++];
          a->name = name[i];
        }
      a->calls += n->calls;
      a->rec += n->recursive;
      a->nctx++;
      for (uint32_t m = 0; m < p.nmetrics; m++)
        a->excl[m] += n->excl[m];
      a->paths = realloc (a->paths, (a->npaths + n->npaths + 1)
                                        * sizeof *a->paths);
      memcpy (a->paths + a->npaths, n->paths, n->npaths * sizeof *n->paths);
      a->npaths += n->npaths;
    }
  for (uint32_t k = 0; k < nagg; k++)
    {
      struct agg *a = &agg[k];
      qsort (a->paths, a->npaths, sizeof *a->paths, cmp_path);
      uint64_t j = 0;
      for (uint64_t i = 0; i < a->npaths; i++)
        if (j && a->paths[j - 1].id == a->paths[i].id)
          {
            a->paths[j - 1].count += a->paths[i].count;
            for (uint32_t m = 0; m < p.nmetrics; m++)
              a->paths[j - 1].metric[m] += a->paths[i].metric[m];
          }
        else
          a->paths[j++] = a->paths[i];
      a->npaths = j;
      printf ("node %s calls=%llu rec=%llu nctx=%llu paths=", a->name,
              (unsigned long long) a->calls, (unsigned long long) a->rec,
              (unsigned long long) a->nctx);
      for (uint64_t i = 0; i < a->npaths; i++)
        printf ("%s%llu:%llu", i ? "," : "",
                (unsigned long long) a->paths[i].id,
                (unsigned long long) a->paths[i].count);
      printf ("\n");
      if (p.nmetrics)
        {
          printf ("excl %s", a->name);
          for (uint32_t m = 0; m < p.nmetrics; m++)
            printf (" %llu", (unsigned long long) a->excl[m]);
          printf ("\n");
          for (uint64_t i = 0; i < a->npaths; i++)
            {
              printf ("pathm %s %llu", a->name,
                      (unsigned long long) a->paths[i].id);
              for (uint32_t m = 0; m < p.nmetrics; m++)
                printf (" %llu", (unsigned long long) a->paths[i].metric[m]);
              printf ("\n");
            }
        }
    }
  for (uint32_t i = 1; i < p.nnodes; i++)
    printf ("site %s \"%s\"\n", name[i], p.nodes[i].site);
  for (uint32_t f = 0; f < p.nfns; f++)
    {
      uint64_t calls = 0;
      for (uint32_t i = 1; i < p.nnodes; i++)
        if (p.nodes[i].fn == f)
          calls += p.nodes[i].calls;
      printf ("fn %s calls=%llu\n", p.fns[f].name, (unsigned long long) calls);
    }
  return 0;
}
