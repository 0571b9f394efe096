/* The trampoline (csprof §2.3, §2.4): after each sample the handler
   replaces the return address of the sampled frame (the innermost of
   the cached call stack that has a caller) with the address of
   __pp_sample_trampoline (trampoline_x86_64.S); one such mark per thread.  When
   the marked frame returns, the trampoline calls
   __pp_sample_trampoline_return, which counts one call of the frame's
   context (a call that a sample saw: csprof's edge count), pops the
   cached call stack down to the frame returned to, marks that frame in
   turn, and gives back the real return address.  The cached call stack
   above the mark is thus always the live one, and a sample unwinds only
   down to the marked frame (handler.c).

   The return address of frame J (cache order, outermost first) lives at
   its CFA - 8, the SP libunwind gives its caller: cache[J - 1].sp - 8;
   a slot is only written when it holds the expected return address,
   lies in the thread's stack and not below the interrupted SP (below
   it is a red zone or dead stack).  A frame is not marked when it is a
   signal frame, has no unwind information, or is a function that reads
   its own return address (setjmp, getcontext, vfork: they would save
   the trampoline's address and come back to it later); reached through
   a jump stub (the PLT), whose frame the handler cannot tell from any
   other, such a function takes the mark out itself (ra_readers.c).  A
   return through the trampoline from anywhere but the mark's slot (a
   copy of the return address) aborts with one line: where it should go
   is not known.

   Non-local exits (interpose.c): longjmp and friends drop the frames
   below the target SP and the mark with them (csprof §2.4.1).  An
   unwinder cannot walk through the trampoline (it has no unwind
   information, and the real return address is not on the stack): the
   C++ unwinder (_Unwind_RaiseException, _Unwind_Resume, ...),
   pthread_exit and backtrace take the mark out, and no mark is put
   while they walk, nor while an exception is under way, until
   __cxa_begin_catch (csprof's flag, §2.4.1); the frames they remove
   are not counted.  A marked
   frame that tail-calls returns through the trampoline from the callee:
   counted against the frame the slot belongs to (§2.4.2).  
   On unless PPGCC_SAMPLE_CALLS=0 (`ppprof record --no-calls`), and off
   under an x86 shadow stack (init.c).  The assembly part restores every
   register, not only the return registers (trampoline_x86_64.S: -fipa-ra
   callers keep values in call-clobbered registers across calls).  */
#define _GNU_SOURCE
#include "sample.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

PPS_HIDDEN int
__pp_sample_mark (struct pps_thread *t, uint32_t i, uint64_t sp_lo)
{
  if (i == 0 || i >= t->cache_depth || t->cache[i].markable != 1)
    return 0;
  const struct pps_frame *caller = &t->cache[i - 1];
  uint64_t a = caller->sp - 8;
  if (a < sp_lo || a < t->stack_lo || a + 8 > t->stack_hi || (a & 7))
    return 0;
  uint64_t *slot = (uint64_t *) a;
  if (*slot != caller->ip)
    return 0;
  t->mark_ret = caller->ip;
  t->mark_idx = i;
  t->mark_slot = slot;
  *slot = (uint64_t) __pp_sample_trampoline;
  return 1;
}

PPS_HIDDEN void
__pp_sample_unmark (struct pps_thread *t, uint64_t sp_lo)
{
  uint64_t *slot = t->mark_slot;
  if (!slot)
    return;
  t->mark_slot = NULL;
  if ((uint64_t) slot >= sp_lo && *slot == (uint64_t) __pp_sample_trampoline)
    *slot = t->mark_ret;
}

static uint64_t
current_sp (void)
{
  return (uint64_t) __builtin_frame_address (0);
}

/* Called by the trampoline, in the program's context, when the marked
   frame has returned through SLOT (where its return address was).  */
PPS_HIDDEN uint64_t __pp_sample_trampoline_return (uint64_t *slot);

PPS_HIDDEN uint64_t
__pp_sample_trampoline_return (uint64_t *slot)
{
  struct pps_thread *t = __pp_sample_self ();
  if (!t || t->mark_slot != slot)
    {
      /* cannot be: the mark is taken out whenever the state goes, and
         no function reads the trampoline's address as its own return
         address (ra_readers.c) to come back to it later */
      static const char m[] = "ppgcc sampler: a return through the "
                              "trampoline, not from the marked return "
                              "address (a copy of it, or no mark)\n";
      write (2, m, sizeof m - 1);
      abort ();
    }
  t->unsafe++; /* samples now: unsafe (csprof §2.3.1, note 5) */
  atomic_signal_fence (memory_order_seq_cst);
  uint64_t ret = t->mark_ret;
  uint32_t i = t->mark_idx;
  t->mark_slot = NULL;
  if (i < t->cache_depth)
    {
      if (!atomic_load (&__pp_sample_stopping))
        {
          t->nodes[t->cache[i].node].calls++;
          t->cache_depth = i;
          if (!t->no_mark && !t->in_exception)
            __pp_sample_mark (t, i - 1, current_sp ());
        }
    }
  atomic_signal_fence (memory_order_seq_cst);
  t->unsafe--;
  return ret;
}

PPS_HIDDEN void
__pp_sample_nonlocal_exit (struct pps_thread *t, uint64_t sp)
{
  t->unsafe++;
  atomic_signal_fence (memory_order_seq_cst);
  t->nonlocal_exits++;
  uint64_t here = current_sp ();
  if (sp < here || sp < t->stack_lo || sp >= t->stack_hi)
    {
      /* not a target we understand: no mark, a full unwind next time */
      __pp_sample_unmark (t, here);
      t->cache_depth = 0;
    }
  else
    {
      /* the frames below SP are discarded (csprof §2.4.1); a frame's SP
         is its callee's CFA, below its own */
      uint32_t d = t->cache_depth;
      while (d > 0 && t->cache[d - 1].sp < sp)
        d--;
      if (t->mark_slot && (uint64_t) t->mark_slot < sp)
        {
          __pp_sample_unmark (t, here);
          t->cache_depth = d;
          if (d > 0 && !atomic_load (&__pp_sample_stopping)
              && !t->no_mark && !t->in_exception)
            __pp_sample_mark (t, d - 1, sp);
        }
      else
        {
          t->cache_depth = d;
          /* the marked frame left without its cached entry (its stack
             pointer moved below the target, alloca): no mark */
          if (t->mark_slot && t->mark_idx >= d)
            __pp_sample_unmark (t, here);
        }
    }
  atomic_signal_fence (memory_order_seq_cst);
  t->unsafe--;
}
