/* The trampoline (csprof §2.3, x86-64 System V): the return address of
   one frame per thread is replaced by __pp_sample_trampoline
   (trampoline.c).  When that frame returns, control lands here with
   %rsp its caller's, the return value in %rax/%rdx, %xmm0/%xmm1 (or
   %st0/%st1, which the C part leaves alone: it uses no x87); the C part
   counts the return, moves the mark up and gives back the real return
   address, to which we jump.  Samples that land here count as unsafe
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
	pushq	%rbp
	movq	%rsp, %rbp
	andq	$-16, %rsp
	subq	$48, %rsp
	movq	%rax, 0(%rsp)
	movq	%rdx, 8(%rsp)
	movdqu	%xmm0, 16(%rsp)
	movdqu	%xmm1, 32(%rsp)
	call	__pp_sample_trampoline_return
	movq	%rax, %r11
	movq	0(%rsp), %rax
	movq	8(%rsp), %rdx
	movdqu	16(%rsp), %xmm0
	movdqu	32(%rsp), %xmm1
	movq	%rbp, %rsp
	popq	%rbp
	jmp	*%r11
__pp_sample_trampoline_end:
	.size	__pp_sample_trampoline, .-__pp_sample_trampoline

	.section .note.GNU-stack,"",@progbits
