/* bench/numbering: how long Ball-Larus numbering, PPP numbering and probe
   planning take on a large CFG (10,000 nodes, 1,000 interesting paths by
   default).  Not a test: it prints figures; nothing asserts a time.

   usage: numbering [NODES [PATHS [REPEAT]]]  */
#include "pp/core.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static unsigned long long rng = 20261122;

static unsigned
rnd (unsigned bound)
{
  rng = rng * 6364136223846793005ull + 1442695040888963407ull;
  return (unsigned) ((rng >> 33) % bound);
}

static double
now_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* A CFG shaped like a long function: a chain with forward branches
   (if/else, switch-like fan-out) and a loop every 50 blocks.  */
static pp_graph *
make_cfg (int nodes)
{
  pp_graph *g = pp_graph_new ();
  for (int i = 0; i < nodes; i++)
    pp_graph_add_node (g, NULL);
  pp_graph_set_entry (g, 0);
  pp_graph_set_exit (g, nodes - 1);
  for (int i = 0; i + 1 < nodes; i++)
    {
      pp_graph_add_edge (g, i, i + 1, 0, -1);
      if (i + 2 < nodes && rnd (2))
        pp_graph_add_edge (g, i, i + 2 + rnd (nodes - i - 2 < 8 ? nodes - i - 2 : 8), 0, -1);
      if (i > 0 && i % 50 == 0)
        pp_graph_add_edge (g, i, i - 40, 0, -1);
    }
  return g;
}

int
main (int argc, char **argv)
{
  int nodes = argc > 1 ? atoi (argv[1]) : 10000;
  int npaths = argc > 2 ? atoi (argv[2]) : 1000;
  int repeat = argc > 3 ? atoi (argv[3]) : 7;
  if (nodes < 3 || npaths < 1 || repeat < 1)
    {
      fprintf (stderr, "usage: numbering [NODES>=3 [PATHS>=1 [REPEAT>=1]]]\n");
      return 1;
    }
  pp_graph *g = make_cfg (nodes);
  double *t_bl = calloc (repeat, sizeof *t_bl), *t_ppp = calloc (repeat, sizeof *t_ppp);
  double *t_plan = calloc (repeat, sizeof *t_plan);
  pp_pathid *ids = calloc (npaths, sizeof *ids);
  char err[256];
  pp_numbering *n = NULL;
  double delta = 0;
  for (int r = 0; r < repeat; r++)
    {
      double t0 = now_ms ();
      n = pp_number (g, NULL, err, sizeof err);
      double t1 = now_ms ();
      if (!n)
        {
          fprintf (stderr, "numbering: %s\n", err);
          return 2;
        }
      if (r == 0)
        for (int i = 0; i < npaths; i++)
          ids[i] = (((pp_pathid) rnd (1u << 31) << 33) ^ ((pp_pathid) rnd (1u << 31) << 2) ^ rnd (4))
                   % n->num_paths;
      if (pp_ppp (n, ids, npaths, NULL, err, sizeof err) < 0)
        {
          fprintf (stderr, "numbering: %s\n", err);
          return 2;
        }
      double t2 = now_ms ();
      pp_probe *probes;
      int np = pp_plan (n, g, &probes);
      double t3 = now_ms ();
      free (probes);
      t_bl[r] = t1 - t0;
      t_ppp[r] = t2 - t1;
      t_plan[r] = t3 - t2;
      delta = n->delta;
      if (r + 1 < repeat)
        pp_numbering_free (n);
      else
        {
          int chords = 0;
          for (int d = 0; d < n->num_dag_edges; d++)
            chords += n->dag[d].chord;
          printf ("graph: %d nodes, %d edges; DAG %d edges, %d chords, %d probes\n",
                  nodes, pp_graph_num_edges (g), n->num_dag_edges, chords, np);
          long edges_on_paths = 0;
          for (int i = 0; i < npaths; i++)
            {
              int *dag, len = pp_regenerate (n, ids[i], &dag);
              if (len > 0)
                {
                  edges_on_paths += len;
                  free (dag);
                }
            }
          printf ("paths: %llu Ball-Larus paths after %d cuts; %d interesting paths "
                  "(%.0f edges long on average), PPP range %lld, delta %.3f\n",
                  (unsigned long long) n->num_paths, n->num_cuts, npaths,
                  (double) edges_on_paths / npaths,
                  (long long) (n->ppp_max - n->ppp_min + 1), delta);
        }
    }
  qsort (t_bl, repeat, sizeof *t_bl, cmp_double);
  qsort (t_ppp, repeat, sizeof *t_ppp, cmp_double);
  qsort (t_plan, repeat, sizeof *t_plan, cmp_double);
  printf ("%-34s %10s %10s   (%d runs)\n", "", "min ms", "median ms", repeat);
  printf ("%-34s %10.2f %10.2f\n", "Ball-Larus numbering (pp_number)", t_bl[0], t_bl[repeat / 2]);
  printf ("%-34s %10.2f %10.2f\n", "PPP numbering (pp_ppp)", t_ppp[0], t_ppp[repeat / 2]);
  printf ("%-34s %10.2f %10.2f\n", "chords + probe plan (pp_plan)", t_plan[0], t_plan[repeat / 2]);
  pp_numbering_free (n);
  pp_graph_free (g);
  free (ids);
  free (t_bl);
  free (t_ppp);
  free (t_plan);
  return 0;
}
