/* 70 diamonds: 2^70 paths, so the numbering is cut (truncated).  */
#include <stdio.h>

unsigned
many (unsigned x)
{
  unsigned s = 0;
  if ((x >> (0 % 32)) & 1) s += 1; else s ^= 3;
  if ((x >> (1 % 32)) & 1) s += 2; else s ^= 10;
  if ((x >> (2 % 32)) & 1) s += 3; else s ^= 17;
  if ((x >> (3 % 32)) & 1) s += 4; else s ^= 24;
  if ((x >> (4 % 32)) & 1) s += 5; else s ^= 31;
  if ((x >> (5 % 32)) & 1) s += 6; else s ^= 38;
  if ((x >> (6 % 32)) & 1) s += 7; else s ^= 45;
  if ((x >> (7 % 32)) & 1) s += 8; else s ^= 52;
  if ((x >> (8 % 32)) & 1) s += 9; else s ^= 59;
  if ((x >> (9 % 32)) & 1) s += 10; else s ^= 66;
  if ((x >> (10 % 32)) & 1) s += 11; else s ^= 73;
  if ((x >> (11 % 32)) & 1) s += 12; else s ^= 80;
  if ((x >> (12 % 32)) & 1) s += 13; else s ^= 87;
  if ((x >> (13 % 32)) & 1) s += 14; else s ^= 94;
  if ((x >> (14 % 32)) & 1) s += 15; else s ^= 101;
  if ((x >> (15 % 32)) & 1) s += 16; else s ^= 108;
  if ((x >> (16 % 32)) & 1) s += 17; else s ^= 115;
  if ((x >> (17 % 32)) & 1) s += 18; else s ^= 122;
  if ((x >> (18 % 32)) & 1) s += 19; else s ^= 129;
  if ((x >> (19 % 32)) & 1) s += 20; else s ^= 136;
  if ((x >> (20 % 32)) & 1) s += 21; else s ^= 143;
  if ((x >> (21 % 32)) & 1) s += 22; else s ^= 150;
  if ((x >> (22 % 32)) & 1) s += 23; else s ^= 157;
  if ((x >> (23 % 32)) & 1) s += 24; else s ^= 164;
  if ((x >> (24 % 32)) & 1) s += 25; else s ^= 171;
  if ((x >> (25 % 32)) & 1) s += 26; else s ^= 178;
  if ((x >> (26 % 32)) & 1) s += 27; else s ^= 185;
  if ((x >> (27 % 32)) & 1) s += 28; else s ^= 192;
  if ((x >> (28 % 32)) & 1) s += 29; else s ^= 199;
  if ((x >> (29 % 32)) & 1) s += 30; else s ^= 206;
  if ((x >> (30 % 32)) & 1) s += 31; else s ^= 213;
  if ((x >> (31 % 32)) & 1) s += 32; else s ^= 220;
  if ((x >> (32 % 32)) & 1) s += 33; else s ^= 227;
  if ((x >> (33 % 32)) & 1) s += 34; else s ^= 234;
  if ((x >> (34 % 32)) & 1) s += 35; else s ^= 241;
  if ((x >> (35 % 32)) & 1) s += 36; else s ^= 248;
  if ((x >> (36 % 32)) & 1) s += 37; else s ^= 255;
  if ((x >> (37 % 32)) & 1) s += 38; else s ^= 262;
  if ((x >> (38 % 32)) & 1) s += 39; else s ^= 269;
  if ((x >> (39 % 32)) & 1) s += 40; else s ^= 276;
  if ((x >> (40 % 32)) & 1) s += 41; else s ^= 283;
  if ((x >> (41 % 32)) & 1) s += 42; else s ^= 290;
  if ((x >> (42 % 32)) & 1) s += 43; else s ^= 297;
  if ((x >> (43 % 32)) & 1) s += 44; else s ^= 304;
  if ((x >> (44 % 32)) & 1) s += 45; else s ^= 311;
  if ((x >> (45 % 32)) & 1) s += 46; else s ^= 318;
  if ((x >> (46 % 32)) & 1) s += 47; else s ^= 325;
  if ((x >> (47 % 32)) & 1) s += 48; else s ^= 332;
  if ((x >> (48 % 32)) & 1) s += 49; else s ^= 339;
  if ((x >> (49 % 32)) & 1) s += 50; else s ^= 346;
  if ((x >> (50 % 32)) & 1) s += 51; else s ^= 353;
  if ((x >> (51 % 32)) & 1) s += 52; else s ^= 360;
  if ((x >> (52 % 32)) & 1) s += 53; else s ^= 367;
  if ((x >> (53 % 32)) & 1) s += 54; else s ^= 374;
  if ((x >> (54 % 32)) & 1) s += 55; else s ^= 381;
  if ((x >> (55 % 32)) & 1) s += 56; else s ^= 388;
  if ((x >> (56 % 32)) & 1) s += 57; else s ^= 395;
  if ((x >> (57 % 32)) & 1) s += 58; else s ^= 402;
  if ((x >> (58 % 32)) & 1) s += 59; else s ^= 409;
  if ((x >> (59 % 32)) & 1) s += 60; else s ^= 416;
  if ((x >> (60 % 32)) & 1) s += 61; else s ^= 423;
  if ((x >> (61 % 32)) & 1) s += 62; else s ^= 430;
  if ((x >> (62 % 32)) & 1) s += 63; else s ^= 437;
  if ((x >> (63 % 32)) & 1) s += 64; else s ^= 444;
  if ((x >> (64 % 32)) & 1) s += 65; else s ^= 451;
  if ((x >> (65 % 32)) & 1) s += 66; else s ^= 458;
  if ((x >> (66 % 32)) & 1) s += 67; else s ^= 465;
  if ((x >> (67 % 32)) & 1) s += 68; else s ^= 472;
  if ((x >> (68 % 32)) & 1) s += 69; else s ^= 479;
  if ((x >> (69 % 32)) & 1) s += 70; else s ^= 486;
  return s;
}

int
main (void)
{
  unsigned t = 0;
  for (unsigned x = 0; x < 1000; x++)
    t += many (x * 2654435761u);
  printf ("%u\n", t);
  return 0;
}
// expect-truncated: many
// expect: main 999 85 86
