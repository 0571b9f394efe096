/* The CFG drawings of ppprof html: the functions' graphs in a few DOT
   files, one run of `dot -Tsvg` over each, side by side (a process per
   function costs more than most layouts; one per processor, up to
   MAX_JOBS, as layouts take most of a big report's time), and the SVG
   documents they write, one per graph in the same order, read back one
   by one as the pages are written.  */
#include "config.h"

#include "commands.h"
#include "html.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Larger graphs are not drawn: dot's layout time grows fast with them
   and their drawings are too big to read (and to carry in the page).  On
   sqlite3 (2688 functions), 150 draws 1166 graphs in 4.5 s of CPU; 300
   draws 12 more in 17 s.  */
#define MAX_NODES 150
#define MAX_JOBS 4

struct pp_html_cfg
{
  const pp_profile_set *set;
  unsigned char *drawn; /* per function: 1 + the SVG stream its drawing is
                           in, 0: not drawn */
  FILE *svg[MAX_JOBS];  /* dot's outputs */
  int jobs;
  const char *why;      /* why there is none (svg NULL) */
  const int *order;     /* the functions in the order of the stream */
  int n, next;          /* ORDER's length; its first not read yet */
};

/* Starts dot -Tsvg on DOT into SVG, its messages to /dev/null (warnings
   on big graphs).  Its pid, or -1 with C->why set.  */
static pid_t
start_dot (pp_html_cfg *c, const char *dot, const char *svg)
{
  posix_spawn_file_actions_t fa;
  if (posix_spawn_file_actions_init (&fa) != 0)
    {
      c->why = "not drawn: out of memory";
      return -1;
    }
  /* Standard output, not -o: Graphviz 2.43 writes only the first graph
     to the -o file, the others to standard output.  */
  posix_spawn_file_actions_addopen (&fa, 1, svg,
                                    O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen (&fa, 2, "/dev/null", O_WRONLY, 0);
  char *argv[] = { "dot", "-Tsvg", (char *) dot, NULL };
  pid_t pid;
  int err = posix_spawnp (&pid, "dot", &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy (&fa);
  if (err)
    {
      c->why = err == ENOENT ? "not drawn: Graphviz 'dot' is not installed"
                             : "not drawn: Graphviz 'dot' could not be run";
      return -1;
    }
  return pid;
}

/* Waits for dot PID: 0 when it succeeded, else -1 with C->why set.  */
static int
wait_dot (pp_html_cfg *c, pid_t pid)
{
  int status;
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      {
        c->why = "not drawn: Graphviz 'dot' was lost";
        return -1;
      }
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    {
      c->why = "not drawn: Graphviz 'dot' failed";
      return -1;
    }
  return 0;
}

pp_html_cfg *
pp_html_cfg_draw (const pp_profile_set *set, const int *order, int num,
                  const char *dir)
{
  pp_html_cfg *c = calloc (1, sizeof *c);
  if (!c)
    return NULL;
  c->set = set;
  c->order = order;
  c->n = num;
  c->why = "not drawn";
  c->drawn = calloc (set->num_fns ? set->num_fns : 1, 1);
  long cpus = sysconf (_SC_NPROCESSORS_ONLN);
  c->jobs = cpus < 1 ? 1 : cpus > MAX_JOBS ? MAX_JOBS : (int) cpus;
  size_t dlen = strlen (dir);
  char *dot[MAX_JOBS] = { 0 }, *svg[MAX_JOBS] = { 0 };
  FILE *f[MAX_JOBS] = { 0 };
  pid_t pid[MAX_JOBS];
  int ok = c->drawn != NULL, n = 0;
  for (int j = 0; j < c->jobs && ok; j++)
    {
      dot[j] = malloc (dlen + 40);
      svg[j] = malloc (dlen + 40);
      if (!dot[j] || !svg[j])
        {
          c->why = "not drawn: out of memory";
          ok = 0;
          break;
        }
      sprintf (dot[j], "%s/.ppprof-cfg%d.dot", dir, j);
      sprintf (svg[j], "%s/.ppprof-cfg%d.svg", dir, j);
      if (!(f[j] = fopen (dot[j], "w")))
        {
          c->why = "not drawn: no room for Graphviz's input";
          ok = 0;
        }
    }
  /* Dealt round the jobs: neighbours (a file's functions) alike in size.  */
  for (int k = 0; k < num && ok; k++)
    {
      int i = order[k];
      const pp_report_fn *fn = &set->fns[i];
      if (fn->num_paths_run == 0
          || pp_graph_num_nodes (fn->spec->fns[0].graph) > MAX_NODES)
        continue;
      int j = n++ % c->jobs;
      if (pp_cfg_dot (f[j], fn, "cfg-") < 0)
        ok = 0; /* a graph cut short: nothing drawn rather than wrong */
      c->drawn[i] = (unsigned char) (1 + j);
    }
  for (int j = 0; j < c->jobs; j++)
    if (f[j] && fclose (f[j]) != 0 && ok)
      {
        c->why = "not drawn: no room for Graphviz's input";
        ok = 0;
      }
  int started = 0;
  for (int j = 0; j < c->jobs && ok && n; j++)
    if ((pid[j] = start_dot (c, dot[j], svg[j])) < 0)
      ok = 0;
    else
      started++;
  for (int j = 0; j < started; j++)
    if (wait_dot (c, pid[j]) < 0)
      ok = 0;
  for (int j = 0; j < c->jobs; j++)
    {
      if (ok && n && !(c->svg[j] = fopen (svg[j], "r")))
        ok = 0;
      /* Open, they can go: read on from the descriptors.  */
      if (svg[j])
        unlink (svg[j]);
      if (dot[j])
        unlink (dot[j]);
      free (dot[j]);
      free (svg[j]);
    }
  if (!ok && c->drawn)
    memset (c->drawn, 0, set->num_fns);
  return c;
}

/* Copies the next SVG document of C->svg from its <svg> line through
   </svg> to OUT (NULL: skips it); the XML declaration and doctype before
   it do not belong inside HTML.  */
static void
copy_doc (FILE *svg, FILE *out)
{
  char line[4096];
  int in = 0;
  while (fgets (line, sizeof line, svg))
    {
      if (!in && !strncmp (line, "<svg", 4))
        in = 1;
      if (in && out)
        fputs (line, out);
      if (in && !strncmp (line, "</svg>", 6))
        return;
    }
}

void
pp_html_cfg_write (pp_html_cfg *c, int i, FILE *out)
{
  if (!c || !c->drawn)
    {
      fprintf (out, "<p class=\"note\">CFG not drawn: out of memory.</p>\n");
      return;
    }
  const pp_report_fn *fn = &c->set->fns[i];
  int nodes = pp_graph_num_nodes (fn->spec->fns[0].graph);
  if (!c->drawn[i])
    {
      fprintf (out, "<p class=\"note\">CFG ");
      if (fn->num_paths_run == 0)
        fprintf (out, "not drawn: no path ran");
      else if (nodes > MAX_NODES)
        fprintf (out, "not drawn: %d blocks (more than %d); "
                 "<code>ppprof dot --function</code> draws it", nodes,
                 MAX_NODES);
      else
        fprintf (out, "%s", c->why);
      fprintf (out, ".</p>\n");
      return;
    }
  for (; c->next < c->n && c->order[c->next] != i; c->next++)
    if (c->drawn[c->order[c->next]])
      copy_doc (c->svg[c->drawn[c->order[c->next]] - 1], NULL);
  if (c->next == c->n)
    {
      /* Asked out of order: a bug, but the page need not say so.  */
      fprintf (out, "<p class=\"note\">CFG not drawn.</p>\n");
      return;
    }
  fprintf (out, "<div class=\"cfg\">\n");
  copy_doc (c->svg[c->drawn[i] - 1], out);
  fprintf (out, "</div>\n");
  c->next++;
}

void
pp_html_cfg_free (pp_html_cfg *c)
{
  if (!c)
    return;
  for (int j = 0; j < c->jobs; j++)
    if (c->svg[j])
      fclose (c->svg[j]);
  free (c->drawn);
  free (c);
}
