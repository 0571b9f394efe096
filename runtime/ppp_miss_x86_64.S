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
   alignment at the inline call.

   Most misses are a path that missed before: a hot path outside the
   trained set, or one of a hash-mode function's many paths whose inline
   cache slot another path holds.  Its id then sits at the first slot of
   its probe sequence in the function's first table, usually (the table is
   sized for the function, hashtable.c).  The fast path below looks there
   first with three scratch registers and counts it with the same atomic
   add as __pp_hash_hit; anything else (the Hot Path Table, a free cache
   slot to claim, no table yet, another slot) goes to the C code, which
   probes from the same slot again.  It reads the layouts by the offsets in
   hash_layout.h, which hashtable.c checks.  */
#include "hash_layout.h"

#if defined(__x86_64__) && !defined(__ILP32__)
	.text
	.globl	__pp_ppp_miss
	.hidden	__pp_ppp_miss
	.type	__pp_ppp_miss, @function
	.p2align 4
__pp_ppp_miss:
	.cfi_startproc
	pushq	%rax
	.cfi_adjust_cfa_offset 8
	pushq	%rcx
	.cfi_adjust_cfa_offset 8
	pushq	%rdx
	.cfi_adjust_cfa_offset 8
	testl	$HL_FN_HPT, HL_DESC_FLAGS(%rdi)
	jnz	.Lslow
	/* A hash-mode function: its inline cache slot free is the C code's
	   to claim.  */
	movq	HL_DESC_EXT(%rdi), %rax
	testq	%rax, %rax
	jz	.Ltable
	movq	HL_EXT_HASH_KEYS(%rax), %rdx
	testq	%rdx, %rdx
	jz	.Ltable
	movl	$64, %ecx
	subl	HL_EXT_CACHE_BITS(%rax), %ecx
	movabsq	$HL_CACHE_MULT, %rax
	imulq	%rsi, %rax
	shrq	%cl, %rax
	cmpq	$0, (%rdx,%rax,8)
	je	.Lslow
.Ltable:
	movq	HL_DESC_RT_PRIVATE(%rdi), %rax
	testq	%rax, %rax
	jz	.Lslow
	/* The slot hash (id) & mask, key id + 1.  */
	movq	%rsi, %rcx
	shrq	$33, %rcx
	xorq	%rsi, %rcx
	movabsq	$HL_HASH_MULT, %rdx
	imulq	%rdx, %rcx
	movq	%rcx, %rdx
	shrq	$33, %rdx
	xorq	%rdx, %rcx
	andq	HL_TABLE_MASK(%rax), %rcx
	shlq	$4, %rcx
	leaq	1(%rsi), %rdx
	cmpq	%rdx, HL_TABLE_SLOTS(%rax,%rcx)
	jne	.Lslow
	lock incq	HL_TABLE_SLOTS+8(%rax,%rcx)
	popq	%rdx
	.cfi_adjust_cfa_offset -8
	popq	%rcx
	.cfi_adjust_cfa_offset -8
	popq	%rax
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_adjust_cfa_offset 24
.Lslow:
	pushq	%rsi
	pushq	%rdi
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	pushq	%rbp
	.cfi_adjust_cfa_offset 56
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
