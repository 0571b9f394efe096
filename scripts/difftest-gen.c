/* difftest-gen SEED: writes a random C program to stdout, the same one for
   the same seed, heavy in the control flow that path profilers get wrong:
   loops with break and continue, switch with fallthrough, forward and
   backward goto, computed goto, setjmp/longjmp, recursion, static,
   inline and noinline functions, static locals.  The program is free of
   undefined behaviour (unsigned arithmetic, bounded loops and recursion,
   volatile locals across longjmp), prints a checksum per call from main
   and exits with a status derived from it, so any two correct compilers
   agree on its output.  DIFFTEST_GEN_NO="cgoto,setjmp,goto,recursion"
   leaves those shapes out.  Built and run by scripts/difftest --gen own. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long rng;

static unsigned
rnd (unsigned n)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (unsigned) (rng % n);
}

static int no_cgoto, no_setjmp, no_goto, no_recursion;
static int nfuncs, cur;        /* functions, and the one being written */
static int label, indent_lvl; /* unique label numbers; indentation */
static int nthrowers;
/* The function being written: always_inline (no setjmp, computed goto or
   recursion: GCC could not inline it), no recursion.  */
static int fn_always_inline, fn_no_recursion;
static int always_inline_fn[16]; /* which functions are: not called indirectly */

static void
out (const char *fmt, ...)
{
  va_list ap;
  printf ("%*s", 2 * indent_lvl, "");
  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
}

static const char *vars[] = { "x", "y", "z" };

/* A pure expression over the locals, DEPTH levels deep at most.  */
static void
expr (int depth)
{
  if (depth <= 0 || rnd (3) == 0)
    {
      if (rnd (3) == 0)
        printf ("%uu", rnd (100));
      else
        printf ("%s", vars[rnd (3)]);
      return;
    }
  switch (rnd (7))
    {
    case 0: printf ("("); expr (depth - 1); printf (" >> ("); expr (depth - 1); printf (" & 31u))"); break;
    case 1: printf ("("); expr (depth - 1); printf (" %% ("); expr (depth - 1); printf (" | 1u))"); break;
    default:
      {
        static const char *ops[] = { "+", "-", "*", "^", "&", "|", "+" };
        printf ("(");
        expr (depth - 1);
        printf (" %s ", ops[rnd (7)]);
        expr (depth - 1);
        printf (")");
      }
    }
}

/* A condition: comparisons joined by && and || (short circuits are
   branches too).  */
static void
cond (void)
{
  static const char *cmp[] = { "<", ">", "==", "!=", "<=", ">=" };
  int n = 1 + rnd (3);
  for (int i = 0; i < n; i++)
    {
      if (i)
        printf (rnd (2) ? " && " : " || ");
      printf ("(");
      expr (1);
      printf (" %s ", cmp[rnd (6)]);
      expr (1);
      printf (")");
    }
}

static void stmts (int depth, int n, int in_loop);

static void
assign (void)
{
  static const char *ops[] = { "=", "+=", "^=", "-=", "|=" };
  out ("%s %s ", vars[rnd (3)], ops[rnd (5)]);
  expr (2);
  printf (";\n");
}

static void
block (int depth, int in_loop)
{
  printf ("{\n");
  indent_lvl++;
  stmts (depth, 1 + rnd (3), in_loop);
  indent_lvl--;
  out ("}\n");
}

/* A call of a function written before this one (calls form a DAG, but
   for recursion), with the depth budget decreasing.  */
static void
call (void)
{
  int callee = rnd (cur + 1);
  if (callee == cur && fn_no_recursion)
    return;
  /* Every call spends one level of the budget: the run stays short.  */
  out ("if (d > 0)\n");
  indent_lvl++;
  out ("%s %s f%d (", vars[rnd (3)], rnd (2) ? "+=" : "^=", callee);
  expr (1);
  printf (", ");
  expr (1);
  printf (", d - 1);\n");
  indent_lvl--;
}

/* An indirect call through a static table of functions written before
   this one (ipp expands those the profile ran behind a test).  */
static void
indirect_call (void)
{
  int n = 0, fs[16];
  for (int f = 0; f < cur; f++)
    if (!always_inline_fn[f] && rnd (2))
      fs[n++] = f;
  if (n == 0)
    return;
  int l = label++;
  out ("{ static unsigned (*const fp%d[]) (unsigned, unsigned, unsigned) = {", l);
  for (int i = 0; i < n; i++)
    printf (" f%d,", fs[i]);
  printf (" };\n");
  out ("  if (d > 0)\n");
  out ("    %s += fp%d[", vars[rnd (3)], l);
  expr (1);
  printf (" %% %du] (", n);
  expr (1);
  printf (", ");
  expr (1);
  printf (", d - 1); }\n");
}

static void
loop (int depth)
{
  int l = label++;
  switch (rnd (3))
    {
    case 0:
      out ("for (unsigned i%d = 0; i%d < %uu; i%d++) ", l, l, 1 + rnd (4), l);
      break;
    case 1:
      out ("{ unsigned w%d = 0;\n", l);
      out ("while (w%d++ < %uu) ", l, 1 + rnd (4));
      block (depth - 1, 1);
      out ("}\n");
      return;
    default:
      out ("{ unsigned w%d = 0;\n", l);
      out ("do ");
      block (depth - 1, 1);
      out ("while (++w%d < %uu); }\n", l, 1 + rnd (4));
      return;
    }
  block (depth - 1, 1);
}

static void
switch_stmt (int depth, int in_loop)
{
  /* Sometimes enough cases for a jump table.  */
  int n = rnd (4) ? 2 + rnd (4) : 8 + rnd (6);
  out ("switch (");
  expr (2);
  printf (" %% %uu) {\n", n + rnd (2));
  for (int c = 0; c < n; c++)
    {
      out ("case %d:\n", c);
      indent_lvl++;
      stmts (depth - 1, 1 + rnd (2), in_loop);
      if (rnd (3))
        out ("break;\n"); /* else fall through */
      indent_lvl--;
    }
  if (rnd (2))
    {
      out ("default:\n");
      indent_lvl++;
      stmts (depth - 1, 1, in_loop);
      indent_lvl--;
    }
  out ("}\n");
}

static void
goto_stmt (int depth, int in_loop)
{
  int l = label++;
  if (rnd (2))
    {
      /* Forward, over a block.  */
      out ("if (");
      cond ();
      printf (") goto skip%d;\n", l);
      stmts (depth - 1, 1 + rnd (2), in_loop);
      out ("skip%d:;\n", l);
    }
  else
    {
      /* Backward: a loop made of a label, bounded by a counter.  */
      out ("{ unsigned g%d = 0;\n", l);
      out ("again%d:\n", l);
      stmts (depth - 1, 1 + rnd (2), in_loop);
      out ("if (++g%d < %uu && (", l, 2 + rnd (3));
      cond ();
      printf (")) goto again%d; }\n", l);
    }
}

static void
computed_goto (int depth, int in_loop)
{
  int l = label++, n = 2 + rnd (3);
  out ("{\n");
  indent_lvl++;
  out ("static void *const tab%d[] = {", l);
  for (int i = 0; i < n; i++)
    printf (" &&cg%d_%d,", l, i);
  printf (" };\n");
  out ("goto *tab%d[", l);
  expr (2);
  printf (" %% %du];\n", n);
  for (int i = 0; i < n; i++)
    {
      out ("cg%d_%d:\n", l, i);
      stmts (depth - 1, 1, in_loop);
      if (rnd (3))
        out ("goto cg%d_end;\n", l);
    }
  out ("cg%d_end:;\n", l);
  indent_lvl--;
  out ("}\n");
}

/* setjmp in a switch's controlling expression (a context C allows); the
   thrower is a leaf, so the jmp_buf is never one of a dead frame.  */
static void
setjmp_stmt (void)
{
  int l = label++, t = rnd (nthrowers);
  out ("{\n");
  indent_lvl++;
  out ("volatile unsigned v%d = x;\n", l);
  out ("switch (setjmp (jb%d)) {\n", t);
  out ("case 0:\n");
  out ("  thrower%d (", t);
  expr (2);
  printf (");\n");
  out ("  v%d += %uu;\n", l, rnd (50));
  out ("  break;\n");
  out ("default:\n");
  out ("  v%d ^= 0x%xu;\n", l, rnd (1000));
  out ("}\n");
  out ("x = v%d;\n", l);
  indent_lvl--;
  out ("}\n");
}

static void
stmt (int depth, int in_loop)
{
  unsigned k = depth > 0 ? rnd (16) : rnd (4);
  switch (k)
    {
    case 0: case 1: assign (); break;
    case 2: call (); break;
    case 3:
      if (in_loop && rnd (2))
        {
          out ("if (");
          cond ();
          printf (") %s;\n", rnd (2) ? "break" : "continue");
        }
      else
        assign ();
      break;
    case 4: case 5:
      out ("if (");
      cond ();
      printf (") ");
      block (depth - 1, in_loop);
      if (rnd (2))
        {
          out ("else ");
          block (depth - 1, in_loop);
        }
      break;
    case 6: case 7: loop (depth); break;
    case 8: case 9: switch_stmt (depth, in_loop); break;
    case 10:
      if (!no_goto)
        goto_stmt (depth, in_loop);
      break;
    case 11:
      if (!no_cgoto && !fn_always_inline)
        computed_goto (depth, in_loop);
      break;
    case 12:
      if (!no_setjmp && !fn_always_inline)
        setjmp_stmt ();
      break;
    case 14:
      indirect_call ();
      break;
    case 13:
      out ("{ static unsigned s%d; s%d += ", label, label);
      expr (1);
      printf ("; y ^= s%d; }\n", label);
      label++;
      break;
    default: assign (); break;
    }
}

static void
stmts (int depth, int n, int in_loop)
{
  for (int i = 0; i < n; i++)
    stmt (depth, in_loop);
}

static void
function (int f)
{
  static const char *quals[] = {
    "static ", "static inline ", "", "static __attribute__ ((noinline)) ",
    "__attribute__ ((noinline)) ", "static inline __attribute__ ((always_inline)) ",
  };
  cur = f;
  unsigned q = rnd (6);
  fn_always_inline = always_inline_fn[f] = q == 5;
  fn_no_recursion = no_recursion || q == 1 || q == 5;
  printf ("%sunsigned\nf%d (unsigned a, unsigned b, unsigned d)\n{\n", quals[q], f);
  indent_lvl = 1;
  out ("unsigned x = a, y = b, z = a ^ (b << 3);\n");
  stmts (3, 3 + rnd (5), 0);
  out ("return x + y * 3u + z * 7u;\n");
  indent_lvl = 0;
  printf ("}\n\n");
}

/* Whether WORD is an item of the comma-separated LIST.  */
static int
listed (const char *list, const char *word)
{
  size_t n = strlen (word);
  for (const char *p = list; *p; p += strcspn (p, ","), p += *p == ',')
    if (strncmp (p, word, n) == 0 && (p[n] == ',' || p[n] == '\0'))
      return 1;
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "usage: difftest-gen SEED\n");
      return 2;
    }
  char *end;
  unsigned long long seed = strtoull (argv[1], &end, 10);
  if (*end || end == argv[1])
    {
      fprintf (stderr, "difftest-gen: '%s' is not a seed (a number)\n", argv[1]);
      return 2;
    }
  const char *no = getenv ("DIFFTEST_GEN_NO");
  if (no)
    {
      no_cgoto = listed (no, "cgoto");
      no_setjmp = listed (no, "setjmp");
      no_goto = listed (no, "goto");
      no_recursion = listed (no, "recursion");
    }
  rng = seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
  for (int i = 0; i < 8; i++)
    rnd (2);
  nfuncs = 3 + rnd (5);
  nthrowers = 1 + rnd (2);
  printf ("/* difftest-gen %llu */\n#include <setjmp.h>\n#include <stdio.h>\n#include <stdlib.h>\n\n", seed);
  for (int t = 0; t < nthrowers; t++)
    printf ("static jmp_buf jb%d;\n"
            "static __attribute__ ((noinline)) void\nthrower%d (unsigned v)\n{\n"
            "  if (v %% %u == 0)\n    longjmp (jb%d, 1 + (int) (v %% 3));\n}\n\n",
            t, t, 2 + rnd (3), t);
  for (int f = 0; f < nfuncs; f++)
    function (f);
  printf ("int\nmain (void)\n{\n  unsigned ck = 0;\n");
  printf ("  for (unsigned i = 0; i < %uu; i++) {\n", 3 + rnd (6));
  printf ("    unsigned r = f%d (i * %uu, ck, %u);\n", nfuncs - 1, 1 + rnd (100), 1 + rnd (2));
  printf ("    ck = ck * 31u + r;\n    printf (\"%%u %%u\\n\", i, r);\n");
  /* Sometimes exit from the middle (the profile is written at exit).  */
  if (rnd (3) == 0)
    printf ("    if (i == %uu && (r & 3u) == 1u) {\n"
            "      printf (\"early %%u\\n\", ck);\n      exit ((int) (ck %% 5u));\n    }\n",
            rnd (4));
  printf ("  }\n");
  printf ("  printf (\"checksum %%u\\n\", ck);\n  return (int) (ck %% 4u);\n}\n");
  return 0;
}
