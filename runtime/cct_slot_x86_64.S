/* __pp_enter_slot_x86: a cct function's entry when its inline callee-slot
   check missed (include/pp/rt_abi.h), on x86-64.  The probe calls it from
   inline assembly with the function descriptor in %rdi, the return
   address in %rsi and the slot in %rdx, after moving %rsp below the red
   zone, and takes the token in %rax; the compiler was told nothing else
   changes, so every other register but the flags is preserved here.  A
   real call on the cold arm made GCC save callee-saved registers in the
   prologue of every instrumented leaf (bzip2's mainGtU: six pushes and
   six pops around a ten-instruction check).  The general registers the
   C code may clobber go on the stack, and so do %xmm0-15 (the C code is
   not built for vector registers only by assumption, and a miss is rare:
   its thirty-two moves cost little beside the lookup).  The stack is
   realigned for the call into C.  */
#if defined(__x86_64__) && !defined(__ILP32__)
	.text
	.globl	__pp_enter_slot_x86
	.hidden	__pp_enter_slot_x86
	.type	__pp_enter_slot_x86, @function
	.p2align 4
__pp_enter_slot_x86:
	.cfi_startproc
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
	call	__pp_enter_slot@PLT
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
	ret
	.cfi_endproc
	.size	__pp_enter_slot_x86, .-__pp_enter_slot_x86
#endif
	.section .note.GNU-stack,"",@progbits
