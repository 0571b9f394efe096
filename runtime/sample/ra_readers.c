/* The functions that read their own return address (setjmp and
   sigsetjmp keep it in the jmp_buf, getcontext and swapcontext in the
   context, vfork pops it so that the child's return does not lose it):
   the trampoline's address must never be what they read, or a later
   longjmp, setcontext or the vfork parent's return would come back
   through the trampoline from a copy of the return address, long after
   the mark moved on (trampoline.c), and go wherever the mark of the day
   returns to.

   The handler does not mark such a function's frame (it marks its
   caller's: handler.c), but it cannot tell the frame of a jump stub
   that is about to become one of them: a sample in `_setjmp@plt` (or
   in the dynamic linker's lazy binding of it) sees a frame of the
   PLT's, whose return address is the one _setjmp will read.  Lua
   crashed this way at -e task-clock -F 20000: its coroutines yield by
   _longjmp to the _setjmp of lua_resume, each through the PLT.  So the
   sampler interposes them (ra_readers_x86_64.S): a short stub checks
   the return address before the C library's function runs, and takes
   the mark out when it is there (here); a sample in the stub marks the
   stub's caller, as for the functions themselves.

   dlopen and dlmopen read it too: the C library finds the caller's
   object by it (glibc's RETURN_ADDRESS (0) in dlfcn/dlopen.c, looked
   up by _dl_find_dso_for_object), and searches a bare name along that
   object's DT_RUNPATH, or its DT_RPATH and its loaders' (then the
   executable's), expands $ORIGIN in the name to its folder and, for
   __LM_ID_CALLER, loads into its namespace.  A wrapper that called
   dlopen made the sampler the caller: a program that finds its plugins
   by its own RUNPATH could not load them under the sampler.  Their
   stubs jump to the C library's function with the caller's return
   address in place, so that it decides exactly as without the sampler;
   no other way is exact (a search redone from the caller's paths,
   RTLD_DI_SERINFO, would miss ld.so.cache, the glibc-hwcaps folders,
   the objects already loaded under the name, secure mode's rules).

   Nothing of the sampler's then runs at their return, but samples
   inside them must not be walked: libunwind's dl_iterate_phdr takes the
   loader's lock, which the thread may be taking or releasing while it
   links a new object in, and would wait for itself (a dlopen loop
   deadlocked so at -e task-clock -F 20000).  So the stub notes the
   call: the slot of its return address and the address (dlopen_starts);
   the handler counts a sample as unsafe while the slot still holds it
   and the stack is below it (handler.c).  The slot is only noted on the
   thread's own stack, which stays mapped for the handler to read: a
   dlopen on another stack (a coroutine's) is not noted, and its samples
   are walked.  */
#define _GNU_SOURCE
#include "sample.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* In the order of the stubs' indices (ra_readers_x86_64.S).  */
static const char *const names[PPS_RA_READERS] = {
  "_setjmp", "setjmp", "__sigsetjmp", "getcontext", "swapcontext", "vfork",
  "__vfork", "dlopen", "dlmopen"
};

PPS_HIDDEN void *__pp_sample_ra_real[PPS_RA_READERS];

PPS_HIDDEN void
__pp_sample_find_no_mark_fns (void)
{
  for (int i = 0; i < PPS_RA_READERS; i++)
    if (!__atomic_load_n (&__pp_sample_ra_real[i], __ATOMIC_RELAXED))
      __atomic_store_n (&__pp_sample_ra_real[i], dlsym (RTLD_NEXT, names[i]),
                        __ATOMIC_RELAXED);
}

PPS_HIDDEN int
__pp_sample_no_mark_fn (uint64_t fn)
{
  if (fn >= (uint64_t) __pp_sample_ra_stubs
      && fn < (uint64_t) __pp_sample_ra_stubs_end)
    return 1;
  for (int i = 0; i < PPS_RA_READERS; i++)
    if ((uint64_t) __atomic_load_n (&__pp_sample_ra_real[i], __ATOMIC_RELAXED)
        == fn)
      return 1;
  return 0;
}

/* A dlopen or dlmopen called with its return address at SLOT: samples
   count as unsafe while it lasts (handler.c), and while a call it makes
   lasts (a constructor's dlopen: the first call's slot, above, stays).  */
static void
dlopen_starts (struct pps_thread *t, uint64_t *slot)
{
  uint64_t a = (uint64_t) slot, *s = t->dl_slot;
  if (a < t->stack_lo || a + 8 > t->stack_hi || (a & 7))
    return;
  if (s && a < (uint64_t) s && *s == t->dl_ra)
    return;
  t->dl_slot = NULL;
  atomic_signal_fence (memory_order_seq_cst);
  t->dl_ra = *slot;
  atomic_signal_fence (memory_order_seq_cst);
  t->dl_slot = slot;
}

/* Called by stub I when the return address at SLOT is the trampoline's,
   or the C library's function is not known yet, or always for dlopen
   and dlmopen: the mark taken out, the call noted; the function to jump
   to.  */
PPS_HIDDEN void *__pp_sample_ra_reader_enter (uint64_t *slot, unsigned i);

PPS_HIDDEN void *
__pp_sample_ra_reader_enter (uint64_t *slot, unsigned i)
{
  struct pps_thread *t = __pp_sample_self ();
  if (t)
    {
      t->unsafe++;
      atomic_signal_fence (memory_order_seq_cst);
      if (t->mark_slot == slot)
        __pp_sample_unmark (t, (uint64_t) slot);
      if (i >= PPS_RA_DLOPEN)
        dlopen_starts (t, slot);
      atomic_signal_fence (memory_order_seq_cst);
      t->unsafe--;
    }
  if (*slot == (uint64_t) __pp_sample_trampoline)
    {
      /* cannot be: the trampoline's address is only ever in the mark */
      static const char m[] = "ppgcc sampler: the trampoline's address in "
                              "a return address that is not the mark\n";
      write (2, m, sizeof m - 1);
      abort ();
    }
  void *f = __atomic_load_n (&__pp_sample_ra_real[i], __ATOMIC_RELAXED);
  if (!f)
    {
      f = __pp_sample_next (names[i]);
      __atomic_store_n (&__pp_sample_ra_real[i], f, __ATOMIC_RELAXED);
    }
  return f;
}
