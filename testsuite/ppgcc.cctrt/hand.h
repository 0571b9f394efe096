/* What the plugin emits for -fprofile-paths=cct and
   -fprofile-paths-metric (include/pp/rt_abi.h), written by hand, so that
   the runtime is tested without the compiler.

   Before including: NM (metrics per path, default 0), METRICS (the
   unit's list, default NULL), FLAT (define for flat metric profiling:
   no PP_FN_CCT, counters and metrics in the desc).  PPD_PATH comes from
   the command line.  */
#ifndef HAND_H
#define HAND_H
#include "pp/rt_abi.h"
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/time.h>

/* SIGALRM to HANDLER every USEC microseconds, interrupting system calls
   that then restart; USEC 0 stops the timer.  */
static inline void
hand_alarm_every (void (*handler) (int), long usec)
{
  struct itimerval it = { { 0, usec }, { 0, usec } };
  if (usec)
    {
      struct sigaction sa;
      memset (&sa, 0, sizeof sa);
      sa.sa_handler = handler;
      sa.sa_flags = SA_RESTART;
      sigaction (SIGALRM, &sa, NULL);
    }
  setitimer (ITIMER_REAL, &it, NULL);
}

/* CHUNK steps of floating-point work, kept alive through *SINK: the
   metric tests' measurable load.  */
static inline void
hand_burn (volatile double *sink, int chunk)
{
  double x = *sink;
  for (int k = 0; k < chunk; k++)
    x = x * 1.0000001 + 1e-9;
  *sink = x;
}

#ifndef NM
#define NM 0
#endif
#ifndef METRICS
#define METRICS NULL
#endif
#ifdef FLAT
#define FN_FLAGS 0u
#define UNIT_FLAGS 0u
#else
#define FN_FLAGS PP_FN_CCT
#define UNIT_FLAGS PP_UNIT_CCT
#endif

#define NOINLINE __attribute__ ((noinline, noclone))

/* The descriptors of the unit go in one section, which the linker makes
   an array, as the plugin's do (rt_abi.h).  */
#define HAND_DESC                                                          \
  __attribute__ ((section ("__pp_d_hand"), used, aligned (8)))
/* F's descriptor, with NPATHS Ball-Larus paths and flags FL.  */
#define DESC_FLAGS(f, npaths, fl)                                       \
  static uint64_t f##_counters[(npaths)];                                  \
  static uint64_t f##_metrics[(npaths) * (NM ? NM : 1)];                   \
  HAND_DESC static struct __pp_fn_desc f##_desc = {                        \
    .name = #f, .cfg_checksum = 7, .flags = (fl),                       \
    .num_paths = (npaths),                                                 \
    .counters = ((fl) & (PP_FN_CCT | PP_FN_HASHED)) ? NULL              \
                                                       : f##_counters,     \
    .nmetrics = NM,                                            \
    .metrics = ((fl) & (PP_FN_CCT | PP_FN_HASHED)) || !NM ? NULL        \
                                                             : f##_metrics \
  }
#define DESC(f, npaths) DESC_FLAGS (f, npaths, FN_FLAGS)
/* With NSITES call sites, each with a callee slot (rt_abi.h).  */
#define DESC_SITES(f, npaths, nsites)                                      \
  HAND_DESC static struct __pp_fn_desc f##_desc = {                        \
    .name = #f, .cfg_checksum = 7, .flags = FN_FLAGS,                     \
    .num_paths = (npaths), .nmetrics = NM,                     \
    .num_sites = (nsites)                                                  \
  }

/* At the function's entry, its path ends, its returns.  */
#define ENTER(f)                                                           \
  struct __pp_fn_desc *pp_d = &f##_desc;                                   \
  uint64_t *pp_tok = __pp_enter (pp_d, __builtin_return_address (0),       \
                                 __builtin_frame_address (0))
#define PATH(id)                                                           \
  do                                                                       \
    {                                                                      \
      if (pp_d->flags & PP_FN_HASHED)                                      \
        __pp_hash_hit (pp_d, (id));                                        \
      else if (pp_d->flags & PP_FN_CCT)                                    \
        {                                                                  \
          pp_tok[(id)]++;                                                  \
          if (NM)                                                          \
            __pp_metric_path (pp_tok + pp_d->num_paths + (id) * NM, NM);   \
        }                                                                  \
      else                                                                 \
        {                                                                  \
          pp_d->counters[(id)]++;                                          \
          if (NM)                                                          \
            __pp_metric_path (pp_d->metrics + (id) * NM, NM);              \
        }                                                                  \
    }                                                                      \
  while (0)
#define EXIT() __pp_exit (pp_tok)
/* cct without metrics, as the plugin makes it (rt_abi.h): the inline
   entry through the callee slot __pp_slot points at; SITE (k) before call
   site K of a function of DESC_SITES; EXIT_SLOT () before its returns (a
   leaf has none).  */
#define ENTER_SLOT(f)                                                      \
  struct __pp_fn_desc *pp_d = &f##_desc;                                   \
  void *pp_ra = __builtin_return_address (0);                              \
  struct __pp_cct_slot *pp_s = __pp_slot;                                  \
  volatile struct __pp_cct_slot *pp_vs = pp_s;                             \
  int64_t pp_at = pp_vs->calls_at;                                         \
  uint64_t *pp_tok = pp_vs->token;                                         \
  void *pp_key = pp_vs->key;                                               \
  if ((pp_tok[PP_CCT_FN] ^ (uint64_t) (uintptr_t) pp_d                     \
       | (uint64_t) (uintptr_t) pp_key ^ (uint64_t) (uintptr_t) pp_ra)     \
      == 0)                                                                \
    pp_tok[pp_at]++;                                                       \
  else                                                                     \
    pp_tok = __pp_enter_slot (pp_d, pp_ra, pp_s)
#define ENTER_LEAF(f) ENTER_SLOT (f)
#define SITE(k)                                                            \
  (__pp_slot = (struct __pp_cct_slot *) (pp_tok + PP_CCT_SLOTS (pp_d)) + (k))
#define EXIT_SLOT() (__pp_slot = pp_s)

/* The unit and its constructor.  */
extern struct __pp_fn_desc __start___pp_d_hand[], __stop___pp_d_hand[]
  __attribute__ ((visibility ("hidden")));
#define UNIT(...)                                                          \
  static struct __pp_unit pp_unit = {                                      \
    PP_ABI_VERSION,                                                        \
    sizeof ((struct __pp_fn_desc *[]){ __VA_ARGS__ }) / sizeof (void *),   \
    PPD_PATH, __FILE__, __start___pp_d_hand, NULL, METRICS, UNIT_FLAGS, 0, \
    .fns_end = __stop___pp_d_hand                                          \
  };                                                                       \
  __attribute__ ((constructor)) static void pp_register (void)             \
  {                                                                        \
    __pp_register_unit (&pp_unit);                                         \
  }
#endif
