/* ppgcc.merge/merge.exp: an object with static functions of the same
   names as statics_b.c's: helper (another CFG there) and twin (the same
   CFG there, other paths run).  */
static int twin (int x) { if (x > 0) return x; return -x; }

static int
helper (int x)
{
  if (x % 3 == 0)
    return x / 3;
  return x + 1;
}

int
a_work (int n)
{
  int s = 0;
  for (int i = 1; i <= n; i++)
    s += helper (i) + twin (i);
  return s;
}
