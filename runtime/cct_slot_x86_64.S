/* The cold arms of the cct probes on x86-64, called from inline assembly
   (include/pp/rt_abi.h): each entry here calls its C function with the
   arguments in %rdi, %rsi, %rdx, after the probe moved %rsp below the red
   zone, and gives back %rax; the compiler was told nothing else changes,
   so every other register but the flags is preserved here.
     __pp_enter_slot_x86    __pp_enter_slot: a missed callee-slot check
                            (__pp_enter_slot_cached first, below)
     __pp_metric_path1_at_x86  __pp_metric_path1_at: a one-metric path
                            end when the metric is not the TSC
     __pp_metric_enter1_x86 __pp_metric_enter1: a one-metric function's
                            entry, likewise
     __pp_metric_exit1_x86  __pp_metric_exit1: the exit of one without
                            metric accumulators (hash mode), likewise
   A real call on the cold arm made GCC save callee-saved registers in the
   prologue of every instrumented leaf (bzip2's mainGtU: six pushes and
   six pops around a ten-instruction check).  The general registers the
   C code may clobber go on the stack, and so do %xmm0-15 (the C code is
   not built for vector registers only by assumption, and the arms are
   rare or slow anyway: a miss's lookup, or a metric read by a system
   call or the vDSO).  The stack is realigned for the call into C.  */
#if defined(__x86_64__) && !defined(__ILP32__)
/* The general registers C code may clobber (but %rax, the result) and
   %rbp saved, %rbp the frame, the stack aligned for a call into C.  */
	.macro	SAVE_GENERAL
	pushq	%rcx
	pushq	%rdx
	pushq	%rsi
	pushq	%rdi
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	pushq	%rbp
	.cfi_adjust_cfa_offset 72
	.cfi_rel_offset %rbp, 0
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	andq	$-16, %rsp
	.endm

/* Their restore from the frame SAVE_GENERAL made.  */
	.macro	RESTORE_GENERAL
	movq	%rbp, %rsp
	.cfi_def_cfa_register %rsp
	popq	%rbp
	.cfi_restore %rbp
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rdi
	popq	%rsi
	popq	%rdx
	popq	%rcx
	.cfi_adjust_cfa_offset -72
	.endm

	.macro	PRESERVING_CALL name, target
	.text
	.globl	\name
	.hidden	\name
	.type	\name, @function
	.p2align 4
\name:
	.cfi_startproc
	SAVE_GENERAL
	subq	$256, %rsp
	movups	%xmm0, 0(%rsp)
	movups	%xmm1, 16(%rsp)
	movups	%xmm2, 32(%rsp)
	movups	%xmm3, 48(%rsp)
	movups	%xmm4, 64(%rsp)
	movups	%xmm5, 80(%rsp)
	movups	%xmm6, 96(%rsp)
	movups	%xmm7, 112(%rsp)
	movups	%xmm8, 128(%rsp)
	movups	%xmm9, 144(%rsp)
	movups	%xmm10, 160(%rsp)
	movups	%xmm11, 176(%rsp)
	movups	%xmm12, 192(%rsp)
	movups	%xmm13, 208(%rsp)
	movups	%xmm14, 224(%rsp)
	movups	%xmm15, 240(%rsp)
	call	\target@PLT
	movups	0(%rsp), %xmm0
	movups	16(%rsp), %xmm1
	movups	32(%rsp), %xmm2
	movups	48(%rsp), %xmm3
	movups	64(%rsp), %xmm4
	movups	80(%rsp), %xmm5
	movups	96(%rsp), %xmm6
	movups	112(%rsp), %xmm7
	movups	128(%rsp), %xmm8
	movups	144(%rsp), %xmm9
	movups	160(%rsp), %xmm10
	movups	176(%rsp), %xmm11
	movups	192(%rsp), %xmm12
	movups	208(%rsp), %xmm13
	movups	224(%rsp), %xmm14
	movups	240(%rsp), %xmm15
	RESTORE_GENERAL
	ret
	.cfi_endproc
	.size	\name, .-\name
	.endm

	PRESERVING_CALL __pp_enter_slot_full_x86, __pp_enter_slot

/* A missed callee slot: __pp_enter_slot_cached first, which touches no
   vector register (cct.c), with only the general registers saved; when
   the link cache has no answer, __pp_enter_slot_full_x86 with every
   register as it came.  */
	.text
	.globl	__pp_enter_slot_x86
	.hidden	__pp_enter_slot_x86
	.type	__pp_enter_slot_x86, @function
	.p2align 4
__pp_enter_slot_x86:
	.cfi_startproc
	SAVE_GENERAL
	call	__pp_enter_slot_cached@PLT
	RESTORE_GENERAL
	testq	%rax, %rax
	jz	__pp_enter_slot_full_x86
	ret
	.cfi_endproc
	.size	__pp_enter_slot_x86, .-__pp_enter_slot_x86
	PRESERVING_CALL __pp_metric_path1_at_x86, __pp_metric_path1_at
	PRESERVING_CALL __pp_metric_enter1_x86, __pp_metric_enter1
	PRESERVING_CALL __pp_metric_exit1_x86, __pp_metric_exit1
#endif
	.section .note.GNU-stack,"",@progbits
