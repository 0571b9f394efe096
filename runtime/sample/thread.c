/* Per-thread state of the sampler (csprof §2.5.5: each thread has its
   own cached call stack and tree): one anonymous mapping per thread,
   made when the thread starts, holding the node pool, its hash buckets,
   the cached call stack, the handler's scratch and the leaf table
   (samples per context and PC, state.c), so that the handler
   never allocates (csprof §2.2, footnote 4).  The sample source is
   armed per thread: a CPU-time timer (timer_create on
   CLOCK_THREAD_CPUTIME_ID, delivered to this thread by SIGEV_THREAD_ID),
   or a perf_event counter whose overflows signal this thread; the
   signal is the sampler's own (init.c).  libunwind's per-thread set-up
   is done here too, when a thread starts.  */
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY
#include "sample.h"

#include <errno.h>
#include <fcntl.h>
#include <libunwind.h>
#include <pthread.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

static size_t
round_up (size_t n, size_t to)
{
  return (n + to - 1) / to * to;
}

/* T's tree and leaf table emptied (FRESH: just mapped, state.c), and
   its counts.  */
static void
thread_reset (struct pps_thread *t, int fresh)
{
  __pp_sample_tree_reset (t, fresh);
  t->cache_depth = 0;
  t->mark_slot = NULL; /* taken out first (__pp_sample_after_fork) */
  t->suffix_samples = 0;
  t->samples = t->partial = t->unsafe_samples = t->lost = 0;
  t->nonlocal_exits = 0;
  t->held = t->busy = 0;
}

/* The calling thread's stack, where the trampoline may go; none known:
   no trampoline.  */
static void
stack_bounds (struct pps_thread *t)
{
  pthread_attr_t a;
  void *lo;
  size_t len;
  t->stack_lo = t->stack_hi = 0;
  if (pthread_getattr_np (pthread_self (), &a) != 0)
    return;
  if (pthread_attr_getstack (&a, &lo, &len) == 0)
    {
      t->stack_lo = (uint64_t) lo;
      t->stack_hi = (uint64_t) lo + len;
    }
  pthread_attr_destroy (&a);
}

static struct pps_thread *
thread_alloc (void)
{
  uint32_t cap = __pp_sample_config.nodes;
  uint32_t nb = 1;
  while (nb < cap)
    nb <<= 1;
  size_t off_nodes = round_up (sizeof (struct pps_thread), 64);
  size_t off_buckets = off_nodes + (size_t) cap * sizeof (struct pps_node);
  size_t off_cache = round_up (off_buckets + (size_t) nb * sizeof (uint32_t),
                               64);
  size_t off_scratch = off_cache + PPS_MAX_DEPTH * sizeof (struct pps_frame);
  size_t off_fn = off_scratch + PPS_MAX_DEPTH * sizeof (struct pps_frame);
  uint32_t nl = 4;
  while (nl < __pp_sample_config.leaves)
    nl <<= 1;
  size_t off_leaves = round_up (off_fn + PPS_MAX_DEPTH * sizeof (uint64_t),
                                64);
  size_t off_used = off_leaves + (size_t) nl * sizeof (struct pps_leaf);
  size_t len = round_up (off_used + (size_t) nl * sizeof (uint32_t), 4096);
  char *m = mmap (NULL, len, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED)
    return NULL;
  struct pps_thread *t = (struct pps_thread *) m;
  t->map_len = len;
  t->nodes = (struct pps_node *) (m + off_nodes);
  t->cap = cap;
  t->buckets = (uint32_t *) (m + off_buckets);
  t->nbuckets = nb;
  t->cache = (struct pps_frame *) (m + off_cache);
  t->scratch = (struct pps_frame *) (m + off_scratch);
  t->scratch_fn = (uint64_t *) (m + off_fn);
  t->leaves = (struct pps_leaf *) (m + off_leaves);
  t->leaf_used = (uint32_t *) (m + off_used);
  t->leaf_cap = nl;
  t->perf_fd = -1;
  t->tid = (pid_t) syscall (SYS_gettid);
  thread_reset (t, 1);
  stack_bounds (t);
  return t;
}

/* The CPU-time timer of this thread, every PERIOD ns of its CPU time.  */
static int
arm_timer (struct pps_thread *t)
{
  struct sigevent sev;
  memset (&sev, 0, sizeof sev);
  sev.sigev_notify = SIGEV_THREAD_ID;
  sev.sigev_signo = __pp_sample_config.signo;
  sev.sigev_notify_thread_id = t->tid;
  if (timer_create (CLOCK_THREAD_CPUTIME_ID, &sev, &t->timer) != 0)
    return -1;
  t->have_timer = 1;
  uint64_t ns = __pp_sample_config.period;
  struct itimerspec its;
  its.it_interval.tv_sec = (time_t) (ns / 1000000000u);
  its.it_interval.tv_nsec = (long) (ns % 1000000000u);
  its.it_value = its.it_interval;
  return timer_settime (t->timer, 0, &its, NULL);
}

/* A perf_event counter of this thread's user-mode events, a signal to
   this thread at every PERIOD events (re-armed by the handler through
   PERF_EVENT_IOC_REFRESH).  */
static int
arm_perf (struct pps_thread *t)
{
  struct perf_event_attr a;
  memset (&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = __pp_sample_config.perf_type;
  a.config = __pp_sample_config.perf_config;
  a.sample_period = __pp_sample_config.period;
  a.exclude_kernel = 1;
  a.exclude_hv = 1;
  a.disabled = 1;
  a.wakeup_events = 1;
  int fd = (int) syscall (SYS_perf_event_open, &a, 0, -1, -1,
                          PERF_FLAG_FD_CLOEXEC);
  if (fd < 0)
    return -1;
  struct f_owner_ex own = { F_OWNER_TID, t->tid };
  if (fcntl (fd, F_SETFL, O_ASYNC) < 0 || fcntl (fd, F_SETSIG, __pp_sample_config.signo) < 0
      || fcntl (fd, F_SETOWN_EX, &own) < 0
      || ioctl (fd, PERF_EVENT_IOC_RESET, 0) < 0
      || ioctl (fd, PERF_EVENT_IOC_REFRESH, 1) < 0)
    {
      int e = errno;
      close (fd);
      errno = e;
      return -1;
    }
  t->perf_fd = fd;
  return 0;
}

static int
arm (struct pps_thread *t)
{
  int rc = __pp_sample_config.perf ? arm_perf (t) : arm_timer (t);
  if (rc < 0)
    fprintf (stderr, "ppgcc sampler: thread %ld: cannot arm the %s sample "
             "source: %s; this thread is not sampled\n", (long) t->tid,
             __pp_sample_config.event, strerror (errno));
  return rc;
}

/* libunwind's caches per thread (its signal-safe setting), and its
   lazy set-up done here rather than in the first sample.  */
PPS_HIDDEN void
__pp_sample_warm_up (void)
{
  unw_context_t uc;
  unw_cursor_t c;
  if (unw_getcontext (&uc) == 0 && unw_init_local (&c, &uc) == 0)
    {
      unw_proc_info_t pi;
      int guard = 0;
      do
        unw_get_proc_info (&c, &pi);
      while (unw_step (&c) > 0 && ++guard < 64);
    }
}

PPS_HIDDEN struct pps_thread *
__pp_sample_thread_start (void)
{
  if (__pp_sample_self ())
    return __pp_sample_self ();
  struct pps_thread *t = thread_alloc ();
  if (!t)
    {
      fprintf (stderr, "ppgcc sampler: cannot map %u nodes for a thread: "
               "%s; this thread is not sampled\n",
               __pp_sample_config.nodes, strerror (errno));
      return NULL;
    }
  t->next = atomic_load (&__pp_sample_threads);
  while (!atomic_compare_exchange_weak (&__pp_sample_threads, &t->next, t))
    ;
  __pp_sample_set_self (t);
  __pp_sample_warm_up ();
  /* a thread created with every signal blocked would hold the
     sampler's until it ends: its own time would go unsampled */
  __pp_sample_unblock ();
  arm (t);
  return t;
}

PPS_HIDDEN void
__pp_sample_thread_stop (struct pps_thread *t)
{
  if (!t)
    return;
  /* no mark left in a stack that is going (the next thread may reuse
     it); from here the thread has no state for the trampoline */
  t->unsafe++;
  atomic_signal_fence (memory_order_seq_cst);
  __pp_sample_unmark (t, (uint64_t) __builtin_frame_address (0));
  /* a signal the thread held comes now, counted (as unsafe, and its
     periods as held), before its timer goes */
  __pp_sample_unblock ();
  if (t->have_timer)
    {
      timer_delete (t->timer);
      t->have_timer = 0;
    }
  if (t->perf_fd >= 0)
    {
      ioctl (t->perf_fd, PERF_EVENT_IOC_DISABLE, 0);
      close (t->perf_fd);
      t->perf_fd = -1;
    }
  if (t == __pp_sample_self ())
    __pp_sample_set_self (NULL);
  atomic_signal_fence (memory_order_seq_cst);
  t->unsafe--;
}

/* After fork (csprof does not say; our choice, doc/ppprof.1): the child
   is a process of its own that writes its own run into the same profile
   (merged under the file's lock).  Only the forking thread goes on in
   it: the other threads' states are unmapped, this one's tree emptied
   (the parent writes what it held), its timer made anew.  */
PPS_HIDDEN void
__pp_sample_after_fork (void)
{
  struct pps_thread *t = __pp_sample_self ();
  struct pps_thread *all = atomic_load (&__pp_sample_threads);
  for (struct pps_thread *o = all, *next; o; o = next)
    {
      next = o->next;
      if (o != t)
        munmap (o, o->map_len);
    }
  atomic_store (&__pp_sample_threads, t);
  if (!t)
    return;
  t->next = NULL;
  t->have_timer = 0;
  if (t->perf_fd >= 0)
    close (t->perf_fd); /* a copy of the parent's counter */
  t->perf_fd = -1;
  t->in_handler = 0;
  t->tid = (pid_t) syscall (SYS_gettid);
  /* the child's stack is a copy: the mark is there, the tree goes */
  t->unsafe++;
  atomic_signal_fence (memory_order_seq_cst);
  __pp_sample_unmark (t, (uint64_t) __builtin_frame_address (0));
  thread_reset (t, 0);
  atomic_signal_fence (memory_order_seq_cst);
  t->unsafe--;
  arm (t);
}
