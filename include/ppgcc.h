/* ppgcc.h: what a program may call in the ppgcc path-profiling runtime.

   Installed in $(includedir); `pkg-config --cflags ppgcc` finds it.  Every
   function is declared weak, so that a program using them builds and runs
   the same without -fprofile-paths (no runtime linked): call them through
   the macros, which do nothing then.

     #include <ppgcc.h>
     ...
     PPGCC_DUMP ();     // write the profiles now (a long-running server)

   The full interface between instrumented code and the runtime is
   pp/rt_abi.h in the source tree; this is the part meant for programs.  */
#ifndef PPGCC_H
#define PPGCC_H

#ifdef __cplusplus
extern "C" {
#endif

/* Writes (merges) every profile now; a later write adds only what ran
   since.  A process counts one run however often it writes.  */
extern void __pp_dump (void) __attribute__ ((weak));
/* Forgets the counts since the last write.  */
extern void __pp_reset (void) __attribute__ ((weak));
/* -fprofile-paths-switch builds: count from now on / stop counting.  */
extern void __pp_profile_on (void) __attribute__ ((weak));
extern void __pp_profile_off (void) __attribute__ ((weak));

#define PPGCC_CALL_(f) \
  do                   \
    {                  \
      if (f)           \
        f ();          \
    }                  \
  while (0)
#define PPGCC_DUMP() PPGCC_CALL_ (__pp_dump)
#define PPGCC_RESET() PPGCC_CALL_ (__pp_reset)
#define PPGCC_PROFILE_ON() PPGCC_CALL_ (__pp_profile_on)
#define PPGCC_PROFILE_OFF() PPGCC_CALL_ (__pp_profile_off)

#ifdef __cplusplus
}
#endif
#endif
