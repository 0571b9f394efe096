/* __pp_ppp_miss: the miss arm of a PPP check (include/pp/rt_abi.h) on
   x86-64.  The probe calls it from inline assembly, with the function
   descriptor in %rdi and the Ball-Larus id in %rsi, after moving %rsp
   below the red zone; the compiler was told nothing else changes, so
   every register but the flags is preserved here.  The caller-saved
   general registers go on the stack.  The vector registers are not saved:
   the C code this reaches is compiled for general registers only
   (hashtable.c, hpt.c) and calls nothing but mmap, munmap and write,
   system call wrappers (lazy binding saves the vector state itself).
   Saving them with fxsave made each miss cost hundreds of cycles, which
   residual builds pay on every run of a hot untested path (zstd: 4.5
   times slower).  The stack is realigned for the call into C, whatever its
   alignment at the inline call.  */
#if defined(__x86_64__) && !defined(__ILP32__)
	.text
	.globl	__pp_ppp_miss
	.hidden	__pp_ppp_miss
	.type	__pp_ppp_miss, @function
	.p2align 4
__pp_ppp_miss:
	.cfi_startproc
	pushq	%rax
	pushq	%rcx
	pushq	%rdx
	pushq	%rsi
	pushq	%rdi
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	pushq	%rbp
	.cfi_adjust_cfa_offset 80
	.cfi_rel_offset %rbp, 0
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	andq	$-16, %rsp
	call	__pp_hash_hit@PLT
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
	popq	%rax
	.cfi_adjust_cfa_offset -80
	ret
	.cfi_endproc
	.size	__pp_ppp_miss, .-__pp_ppp_miss
#endif
	.section .note.GNU-stack,"",@progbits
