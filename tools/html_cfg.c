/* The CFG drawings of ppprof html: every function's graph in one DOT
   file, one run of `dot -Tsvg` over it (a process per function costs
   more than most layouts), and the SVG documents it writes, one per graph
   in the same order, read back one by one as the pages are written.  */
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
   and their drawings are too big to read (and to carry in the page).  */
#define MAX_NODES 300

struct pp_html_cfg
{
  const pp_profile_set *set;
  unsigned char *drawn; /* per function: its graph is in the SVG stream */
  FILE *svg;            /* dot's output, NULL: no drawing */
  const char *why;      /* why there is none (svg NULL) */
  const int *order;     /* the functions in the order of the stream */
  int n, next;          /* ORDER's length; its first not read yet */
};

/* Runs dot -Tsvg on DOT into SVG, its messages to /dev/null (warnings
   on big graphs).  0, or -1 with C->why set.  */
static int
run_dot (pp_html_cfg *c, const char *dot, const char *svg)
{
  posix_spawn_file_actions_t fa;
  if (posix_spawn_file_actions_init (&fa) != 0)
    {
      c->why = "out of memory";
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
  size_t dlen = strlen (dir);
  char *dot = malloc (dlen + 32), *svg = malloc (dlen + 32);
  if (!c->drawn || !dot || !svg)
    {
      c->why = "not drawn: out of memory";
      goto out;
    }
  sprintf (dot, "%s/.ppprof-cfg.dot", dir);
  sprintf (svg, "%s/.ppprof-cfg.svg", dir);
  FILE *f = fopen (dot, "w");
  if (!f)
    {
      c->why = "not drawn: no room for Graphviz's input";
      goto out;
    }
  int n = 0;
  for (int k = 0; k < num; k++)
    {
      int i = order[k];
      const pp_report_fn *fn = &set->fns[i];
      if (fn->num_paths_run == 0
          || pp_graph_num_nodes (fn->spec->fns[0].graph) > MAX_NODES)
        continue;
      if (pp_cfg_dot (f, fn, "cfg-") < 0)
        {
          n = 0; /* a graph cut short: nothing drawn rather than wrong */
          break;
        }
      c->drawn[i] = 1;
      n++;
    }
  if (fclose (f) != 0)
    n = 0, c->why = "not drawn: no room for Graphviz's input";
  if (n && run_dot (c, dot, svg) == 0)
    {
      c->svg = fopen (svg, "r");
      /* Open, it can go: read on from the descriptor.  */
      unlink (svg);
    }
  unlink (dot);
  if (!c->svg)
    memset (c->drawn, 0, set->num_fns);
out:
  free (dot);
  free (svg);
  return c;
}

/* Copies the next SVG document of C->svg from its <svg> line through
   </svg> to OUT (NULL: skips it); the XML declaration and doctype before
   it do not belong inside HTML.  */
static void
copy_doc (pp_html_cfg *c, FILE *out)
{
  char line[4096];
  int in = 0;
  while (fgets (line, sizeof line, c->svg))
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
  if (!c)
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
      copy_doc (c, NULL);
  if (c->next == c->n)
    {
      /* Asked out of order: a bug, but the page need not say so.  */
      fprintf (out, "<p class=\"note\">CFG not drawn.</p>\n");
      return;
    }
  fprintf (out, "<div class=\"cfg\">\n");
  copy_doc (c, out);
  fprintf (out, "</div>\n");
  c->next++;
}

void
pp_html_cfg_free (pp_html_cfg *c)
{
  if (!c)
    return;
  if (c->svg)
    fclose (c->svg);
  free (c->drawn);
  free (c);
}
