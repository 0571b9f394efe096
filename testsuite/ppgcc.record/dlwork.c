/* The library dlopen.c loads: work does the spinning.  */
volatile unsigned long dl_sink;

__attribute__ ((noipa)) void
dl_spin (long n)
{
  unsigned long x = dl_sink;
  for (long i = 0; i < n; i++)
    x = x * 6364136223846793005ul + 1442695040888963407ul;
  dl_sink = x;
}

void
work (long n)
{
  dl_spin (n);
  dl_sink++;
}
