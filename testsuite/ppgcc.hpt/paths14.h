/* The HPT tests' function with 2^14 Ball-Larus paths (more than 2^13, so
   it counts outside the array at -fprofile-paths-array-max=
   4096, which the tests give): one diamond per bit of a 14-bit word, so each word runs its own
   path.  */
unsigned
paths14 (unsigned w)
{
  unsigned s = 0;
  if ((w >> 0) & 1) s += 1; else s ^= 3;
  if ((w >> 1) & 1) s += 2; else s ^= 10;
  if ((w >> 2) & 1) s += 3; else s ^= 17;
  if ((w >> 3) & 1) s += 4; else s ^= 24;
  if ((w >> 4) & 1) s += 5; else s ^= 31;
  if ((w >> 5) & 1) s += 6; else s ^= 38;
  if ((w >> 6) & 1) s += 7; else s ^= 45;
  if ((w >> 7) & 1) s += 8; else s ^= 52;
  if ((w >> 8) & 1) s += 9; else s ^= 59;
  if ((w >> 9) & 1) s += 10; else s ^= 66;
  if ((w >> 10) & 1) s += 11; else s ^= 73;
  if ((w >> 11) & 1) s += 12; else s ^= 80;
  if ((w >> 12) & 1) s += 13; else s ^= 87;
  if ((w >> 13) & 1) s += 14; else s ^= 94;
  return s;
}
