/* The stubs of the functions that read their own return address
   (ra_readers.c, x86-64 System V), exported in their names so that the
   program's calls (through its PLT, or a pointer from dlsym) come here
   first.  With the return address (at %rsp) not the trampoline's and
   the C library's function known, a stub jumps to it with every
   register as it found them but %r11 (the PLT's own scratch register);
   else, and always for dlopen and dlmopen (whose calls the thread's
   state notes), it calls __pp_sample_ra_reader_enter (slot, index),
   keeping the argument registers the functions take (%rdi, %rsi, %rdx:
   dlmopen's three), and jumps to the function that returns.  Either way
   the function runs as if called directly, on the caller's stack: the
   return address it reads is the caller's.  The unwind information says
   where the return address is at each instruction: a sample here
   unwinds through the stub (and marks its caller:
   __pp_sample_no_mark_fn).  */
	.text
	.hidden	__pp_sample_trampoline
	.hidden	__pp_sample_ra_real
	.hidden	__pp_sample_ra_reader_enter
	.globl	__pp_sample_ra_stubs
	.hidden	__pp_sample_ra_stubs
	.globl	__pp_sample_ra_stubs_end
	.hidden	__pp_sample_ra_stubs_end

	.macro	RA_READER name, index, always=0
	.p2align 4
	.globl	\name
	.type	\name, @function
\name:
	.cfi_startproc
	.if	\always == 0
	leaq	__pp_sample_trampoline(%rip), %r11
	cmpq	%r11, (%rsp)
	je	1f
	movq	__pp_sample_ra_real+8*\index(%rip), %r11
	testq	%r11, %r11
	jz	1f
	jmp	*%r11
	.endif
1:	pushq	%rdi
	.cfi_adjust_cfa_offset 8
	pushq	%rsi
	.cfi_adjust_cfa_offset 8
	pushq	%rdx			/* %rsp a multiple of 16 at the call */
	.cfi_adjust_cfa_offset 8
	leaq	24(%rsp), %rdi		/* the return address's slot */
	movl	$\index, %esi
	call	__pp_sample_ra_reader_enter
	movq	%rax, %r11
	popq	%rdx
	.cfi_adjust_cfa_offset -8
	popq	%rsi
	.cfi_adjust_cfa_offset -8
	popq	%rdi
	.cfi_adjust_cfa_offset -8
	jmp	*%r11
	.cfi_endproc
	.size	\name, .-\name
	.endm

	.p2align 4
__pp_sample_ra_stubs:
	/* the indices of ra_readers.c's names; PPS_RA_DLOPEN on: always
	   through __pp_sample_ra_reader_enter */
	RA_READER _setjmp, 0
	RA_READER setjmp, 1
	RA_READER __sigsetjmp, 2
	RA_READER getcontext, 3
	RA_READER swapcontext, 4
	RA_READER vfork, 5
	RA_READER __vfork, 6
	RA_READER dlopen, 7, 1
	RA_READER dlmopen, 8, 1
__pp_sample_ra_stubs_end:

	.section .note.GNU-stack,"",@progbits
