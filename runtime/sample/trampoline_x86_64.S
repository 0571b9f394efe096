/* The trampoline (csprof §2.3, x86-64 System V): the return address of
   one frame per thread is replaced by __pp_sample_trampoline
   (trampoline.c).  When that frame returns, control lands here with
   %rsp its caller's (S); the C part checks that the return came through
   the mark's slot (S - 8), counts the return, moves the mark up and
   gives back the real return address, which goes where the return
   address was (S - 8) for a plain `ret`, leaving %rsp at S.

   Every register the C part could change is saved and restored, not only
   the return registers: GCC's interprocedural register allocation
   (-fipa-ra, on at -O2) lets a caller keep values in call-clobbered
   registers across a call to a function it knows leaves them alone, so
   a return must change nothing but %rip and %rsp.  Saving only %rax,
   %rdx, %xmm0 and %xmm1 broke sqlite3's amalgamation ("database disk
   image is malformed", SIGSEGV).  The C part uses no x87 and no AVX
   (legacy SSE keeps the upper halves of %ymm), so the general registers
   and %xmm0-15 are all.  Samples that land here count as unsafe
   (handler.c checks the IP against [__pp_sample_trampoline,
   __pp_sample_trampoline_end)).  */
	.text
	.p2align 4
	.globl	__pp_sample_trampoline
	.hidden	__pp_sample_trampoline
	.type	__pp_sample_trampoline, @function
	.globl	__pp_sample_trampoline_end
	.hidden	__pp_sample_trampoline_end
__pp_sample_trampoline:
	/* nothing below %rsp is live: the caller's red zone died with its
	   call */
	subq	$8, %rsp		/* S - 8: the real return address */
	pushq	%rbp
	movq	%rsp, %rbp		/* %rbp = S - 16 */
	pushq	%rax
	pushq	%rcx
	pushq	%rdx
	pushq	%rsi
	pushq	%rdi
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	andq	$-16, %rsp
	subq	$256, %rsp
	movdqu	%xmm0, 0(%rsp)
	movdqu	%xmm1, 16(%rsp)
	movdqu	%xmm2, 32(%rsp)
	movdqu	%xmm3, 48(%rsp)
	movdqu	%xmm4, 64(%rsp)
	movdqu	%xmm5, 80(%rsp)
	movdqu	%xmm6, 96(%rsp)
	movdqu	%xmm7, 112(%rsp)
	movdqu	%xmm8, 128(%rsp)
	movdqu	%xmm9, 144(%rsp)
	movdqu	%xmm10, 160(%rsp)
	movdqu	%xmm11, 176(%rsp)
	movdqu	%xmm12, 192(%rsp)
	movdqu	%xmm13, 208(%rsp)
	movdqu	%xmm14, 224(%rsp)
	movdqu	%xmm15, 240(%rsp)
	leaq	8(%rbp), %rdi		/* S - 8: the slot returned through */
	call	__pp_sample_trampoline_return
	movq	%rax, 8(%rbp)
	movdqu	0(%rsp), %xmm0
	movdqu	16(%rsp), %xmm1
	movdqu	32(%rsp), %xmm2
	movdqu	48(%rsp), %xmm3
	movdqu	64(%rsp), %xmm4
	movdqu	80(%rsp), %xmm5
	movdqu	96(%rsp), %xmm6
	movdqu	112(%rsp), %xmm7
	movdqu	128(%rsp), %xmm8
	movdqu	144(%rsp), %xmm9
	movdqu	160(%rsp), %xmm10
	movdqu	176(%rsp), %xmm11
	movdqu	192(%rsp), %xmm12
	movdqu	208(%rsp), %xmm13
	movdqu	224(%rsp), %xmm14
	movdqu	240(%rsp), %xmm15
	leaq	-72(%rbp), %rsp
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rdi
	popq	%rsi
	popq	%rdx
	popq	%rcx
	popq	%rax
	popq	%rbp
	ret
__pp_sample_trampoline_end:
	.size	__pp_sample_trampoline, .-__pp_sample_trampoline

	.section .note.GNU-stack,"",@progbits
