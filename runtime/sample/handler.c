/* The sample: at each of the sampler's signals, the interrupted thread's call stack is
   walked from the signal's context to its outermost frame (csprof §2.2)
   with libunwind, which reads the compiler's unwind information (DWARF
   CFI in .eh_frame): code built with -O2 -fomit-frame-pointer unwinds
   as well as any, prologues and epilogues included.  The path is added
   to the thread's calling context tree, a node per (parent, function,
   call site), and the innermost node's sample count goes up.

   Memoization (§2.2): the last sample's frames and their nodes are kept
   (the cached call stack); the new sample's frames are compared from the
   outermost on, and insertion starts below the last one that agrees.
   Frames agree when their instruction pointers do: a node is fixed by
   its parent, its function (from the IP) and its call site (the IP of
   the frame above), so equal IPs from the root down mean equal nodes.

   The trampoline (§2.3, trampoline.c): after the sample the return
   address of its innermost frame is replaced by the trampoline's; the
   next sample's walk stops where it meets it (the return of the marked
   frame, or of a function it tail-called), since the cached frames
   above the mark are still the live ones: only the new suffix is walked
   and inserted, under the marked frame's caller.  The mark comes out
   before the new one goes in.  A sample in the trampoline's own work
   is unsafe.

   The sample's innermost node also counts it at the interrupted PC, in
   the thread's leaf table (state.c), from which the reports give
   samples by instruction and source line.

   Async-signal safety: nothing here allocates.  Nodes and leaf entries
   come from the thread's mapping (thread.c, filled by state.c); libunwind's local unwinding is made for
   signal handlers (per-thread caches, set up by init.c).  A sample that
   lands where the stack must not be walked (inside dlopen or dlclose,
   where the loader changes the lists that libunwind's dl_iterate_phdr
   reads under the loader's lock, which the thread may be taking: it
   would wait for itself; or inside the profiler) counts under "[unsafe
   sample]" (csprof §3.2); one whose
   unwinding fails keeps the frames it got under "[partial unwind]";
   one that finds the pool full counts under "[node pool full]".

   Lost samples are counted too, in the timer's periods: a signal that
   comes later than the kernel's tick explains (100 ms of the thread's
   CPU time: init.c) stands for periods that passed while the thread
   held the signal (blocked it by a raw system call, past the
   interposed calls): those beyond go under "[lost: signal held]", not
   to the stack the late signal finds.
   A signal that finds the handler running in the thread (it cannot,
   but for a fault inside it) goes under "[lost: handler busy]", and one
   that reaches a thread without a state under "[lost: thread not set
   up]" (dump.c).  */
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY
#include "sample.h"

#include <errno.h>
#include <libunwind.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <ucontext.h>

static int
in_trampoline (uint64_t ip)
{
  return ip >= (uint64_t) __pp_sample_trampoline
         && ip < (uint64_t) __pp_sample_trampoline_end;
}

/* Whether T was inside dlopen or dlmopen when interrupted at stack
   pointer SP: their stubs (ra_readers.c) jump to the C library's with
   the caller's return address in place, so nothing runs at their
   return; the call lasts as long as its return address slot, DL_SLOT
   on the thread's stack, holds DL_RA and the stack is below it (nothing
   writes the slot of a call under way).  A stack pointer off the
   thread's stack (a handler on an alternate stack) may be inside.  A
   return seen (the slot rewritten, or the stack above it) ends it.  */
static int
in_dlopen (struct pps_thread *t, uint64_t sp)
{
  uint64_t *s = t->dl_slot;
  if (!s)
    return 0;
  int on_stack = sp >= t->stack_lo && sp < t->stack_hi;
  if (*s == t->dl_ra && (sp <= (uint64_t) s || !on_stack))
    return 1;
  if (*s != t->dl_ra || on_stack)
    t->dl_slot = NULL;
  return 0;
}

/* The frames of the interrupted stack into T's scratch, innermost
   first; their number, *COMPLETE set when the walk reached the
   outermost frame, or the marked frame (csprof §2.3: the cached call
   stack above it is the live one): then *PREFIX is the number of cached
   frames above (cache[0 .. *PREFIX - 1]).  UINT32_MAX: the sample
   landed in the trampoline's work (unsafe); UINT32_MAX - 1: the walk
   met the mark without its cached frames (to be walked again without
   the mark).  */
static uint32_t
unwind (struct pps_thread *t, void *uc, int *complete, uint32_t *prefix)
{
  unw_cursor_t c;
  *complete = 0;
  *prefix = 0;
  if (unw_init_local2 (&c, (unw_context_t *) uc, UNW_INIT_SIGNAL_FRAME) < 0)
    return 0;
  uint32_t n = 0;
  for (;;)
    {
      unw_word_t ip = 0, sp = 0;
      unw_proc_info_t pi;
      if (unw_get_reg (&c, UNW_REG_IP, &ip) < 0 || ip < PPS_FN_PSEUDO_END)
        break;
      unw_get_reg (&c, UNW_REG_SP, &sp);
      if (in_trampoline (ip))
        {
          /* the return into the trampoline of the marked frame (or of
             a function it tail-called, which took over its return
             address, §2.4.2): the frames above are the cached ones */
          uint32_t m = t->mark_idx;
          if (n > 0 && ip == (uint64_t) __pp_sample_trampoline
              && t->mark_slot && sp - 8 == (uint64_t) t->mark_slot)
            {
              if (m > 0 && m < t->cache_depth
                  && t->cache[m - 1].ip == t->mark_ret
                  && (uint64_t) m + n <= PPS_MAX_DEPTH)
                {
                  *prefix = m;
                  *complete = 1;
                  return n;
                }
              /* the mark, but the cached frames above it are not there:
                 unwind again without it */
              return UINT32_MAX - 1;
            }
          /* in the trampoline or the code it calls */
          if (n == 0 || ip != (uint64_t) __pp_sample_trampoline)
            return UINT32_MAX;
          break; /* a stray copy of its address: a partial unwind */
        }
      /* the function: the start of the code its FDE covers; a frame
         without unwind information keeps its IP, named at report time
         all the same */
      uint64_t fn = ip;
      uint32_t markable = 0;
      if (unw_get_proc_info (&c, &pi) == 0 && pi.start_ip >= PPS_FN_PSEUDO_END
          && pi.start_ip <= ip)
        {
          fn = pi.start_ip;
          /* its return address where its CFI says: it may be marked */
          if (!unw_is_signal_frame (&c))
            markable = __pp_sample_no_mark_fn (fn) ? 2 : 1;
        }
      t->scratch[n] = (struct pps_frame){ ip, sp, 0, markable };
      t->scratch_fn[n] = fn;
      if (++n == PPS_MAX_DEPTH)
        break;
      int r = unw_step (&c);
      if (r == 0)
        {
          *complete = 1;
          break;
        }
      if (r < 0)
        break;
    }
  return n;
}

/* Adds the sample's N frames (T's scratch) to the tree under BASE, or
   under the cached frames cache[0 .. PREFIX - 1] (the marked frame's
   callers).  */
static void
insert (struct pps_thread *t, uint32_t n, uint32_t base, int cacheable,
        uint64_t periods, uint32_t prefix)
{
  uint32_t parent = base, j = 0;
  if (prefix)
    {
      parent = t->cache[prefix - 1].node;
      j = prefix;
    }
  /* the prefix the cached call stack shares (§2.2) */
  else if (cacheable)
    for (; j < n && j < t->cache_depth; j++)
      {
        const struct pps_frame *f = &t->scratch[n - 1 - j];
        if (t->cache[j].ip != f->ip)
          break;
        parent = t->cache[j].node;
        t->cache[j].sp = f->sp;
        t->cache[j].markable = f->markable;
      }
  /* the new suffix */
  for (; j < prefix + n; j++)
    {
      uint32_t k = prefix + n - 1 - j;
      uint64_t site = k + 1 < n ? t->scratch[k + 1].ip
                      : prefix  ? t->cache[prefix - 1].ip
                                : 0;
      uint32_t node = __pp_sample_child (t, parent, t->scratch_fn[k], site);
      if (node == UINT32_MAX)
        {
          t->lost++;
          t->nodes[PPS_FN_LOST].samples++;
          t->nodes[PPS_FN_LOST].periods += periods;
          t->cache_depth = 0;
          return;
        }
      t->scratch[k].node = node;
      parent = node;
      if (cacheable)
        {
          t->cache[j] = t->scratch[k];
          t->cache[j].node = node;
        }
    }
  t->nodes[parent].samples++;
  t->nodes[parent].periods += periods;
  /* the interrupted instruction, for the samples by PC and source
     line (DCPI §4.2) */
  __pp_sample_leaf (t, parent, t->scratch[0].ip);
  t->cache_depth = cacheable ? prefix + n : 0;
}

PPS_HIDDEN void
__pp_sample_handler (int sig, siginfo_t *si, void *uc)
{
  /* the program's own: sent by kill, sigqueue, tgkill (a timer's comes
     as SI_TIMER, a perf_event counter's with a POLL_ code, > 0) */
  if (si && si->si_code != SI_TIMER && si->si_code <= 0)
    {
      __pp_sample_forward (sig, si, uc);
      return;
    }
  int saved = errno;
  /* the timer's expirations since the last signal, this one too */
  uint64_t periods = 1;
  if (si && si->si_code == SI_TIMER && si->si_overrun > 0)
    periods += (uint64_t) si->si_overrun;
  struct pps_thread *t = __pp_sample_self ();
  if (!t)
    {
      if (!atomic_load (&__pp_sample_stopping))
        atomic_fetch_add (&__pp_sample_no_thread, periods);
      goto out;
    }
  if (t->in_handler)
    {
      t->busy += periods;
      t->nodes[PPS_FN_BUSY].samples += periods;
      t->nodes[PPS_FN_BUSY].periods += periods;
    }
  else if (!atomic_load (&__pp_sample_stopping))
    {
      t->in_handler = 1;
      t->samples++;
      uint64_t late = __pp_sample_config.late;
      if (periods > late)
        {
          uint64_t held = periods - late;
          periods = late;
          t->held += held;
          t->nodes[PPS_FN_HELD].samples += held;
          t->nodes[PPS_FN_HELD].periods += held;
        }
      if (t->unsafe
          || in_dlopen (t, (uint64_t) ((ucontext_t *) uc)->uc_mcontext.gregs[REG_RSP]))
        {
          t->unsafe_samples++;
          t->nodes[PPS_FN_UNSAFE].samples++;
          t->nodes[PPS_FN_UNSAFE].periods += periods;
        }
      else
        {
          int complete;
          uint32_t prefix;
          ucontext_t *u = uc;
          uint64_t rsp = (uint64_t) u->uc_mcontext.gregs[REG_RSP];
          uint32_t n = in_trampoline ((uint64_t) u->uc_mcontext.gregs[REG_RIP])
                           ? UINT32_MAX
                           : unwind (t, uc, &complete, &prefix);
          if (n == UINT32_MAX - 1)
            {
              __pp_sample_unmark (t, rsp);
              n = unwind (t, uc, &complete, &prefix);
            }
          if (n == UINT32_MAX)
            {
              /* in the trampoline's work: the mark stays */
              t->unsafe_samples++;
              t->nodes[PPS_FN_UNSAFE].samples++;
              t->nodes[PPS_FN_UNSAFE].periods += periods;
              goto done;
            }
          /* the mark comes out, and goes on this sample's innermost
             frame (csprof §2.3) */
          __pp_sample_unmark (t, rsp);
          if (!complete)
            {
              t->partial++;
              if (n == 0)
                {
                  t->nodes[PPS_FN_PARTIAL].samples++;
                  t->nodes[PPS_FN_PARTIAL].periods += periods;
                }
            }
          if (prefix)
            t->suffix_samples++;
          if (n)
            insert (t, n, complete ? 0 : PPS_FN_PARTIAL, complete, periods,
                    prefix);
          uint32_t d = t->cache_depth;
          if (__pp_sample_config.calls && complete && d >= 2
              && !atomic_load (&__pp_sample_stopping)
              && !t->no_mark && !t->in_exception)
            {
              /* a function that reads its own return address: its
                 caller instead */
              if (t->cache[d - 1].markable == 2)
                __pp_sample_mark (t, d - 2, rsp);
              else
                __pp_sample_mark (t, d - 1, rsp);
            }
        }
    done:
      t->in_handler = 0;
    }
  if (t->perf_fd >= 0)
    ioctl (t->perf_fd, PERF_EVENT_IOC_REFRESH, 1);
out:
  errno = saved;
}
