/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Labelled programs: a builder for classic BPF whose jumps name labels
 * instead of offsets, and one resolution pass that turns it into a program
 * the kernel accepts.
 *
 * Code generators (the policy compiler, the assembler) emit instructions in
 * their final order and never compute an offset.  lprog_resolve() binds
 * labels to positions, gives every conditional branch that would reach
 * farther than 255 instructions a trampoline (a `ja` to the target, or a
 * copy of the target when it is a `ret #k`), shares trampolines between
 * branches where one is in reach, repeats until every jump fits, and
 * refuses results longer than the kernel's 4096 instructions.
 *
 * Errors while emitting are sticky (like struct scg_strbuf): emit freely and
 * check once, at lprog_resolve() or with lprog_error().
 */
#ifndef SCG_LIB_BPF_LPROG_H
#define SCG_LIB_BPF_LPROG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/bpf.h>

struct lprog;

/* A label: an index handed out by lprog_label_new(). */
typedef uint32_t lprog_label;

/* Returns an empty builder, or NULL on allocation failure. */
struct lprog *lprog_new(void);
/* NULL is a no-op. */
void lprog_free(struct lprog *lp);

/* A new label, bound later with lprog_bind(). */
lprog_label lprog_label_new(struct lprog *lp);
/* Binds @label to the next instruction emitted.  Binding a label twice is an error. */
void lprog_bind(struct lprog *lp, lprog_label label);
bool lprog_is_bound(const struct lprog *lp, lprog_label label);

/*
 * Caller-chosen origin attached to the instructions emitted from now on
 * (a source line, a rule index); trampolines inherit their jump's tag.
 * Reported by lprog_resolve() for each output instruction.
 */
void lprog_set_tag(struct lprog *lp, long tag);

/* An instruction that does not jump (loads, ALU, RET, ...). */
void lprog_stmt(struct lprog *lp, uint16_t code, uint32_t k);
/* `ja @target`. */
void lprog_ja(struct lprog *lp, lprog_label target);
/* A conditional jump: BPF_JMP | op | src with operand @k. */
void lprog_jcond(struct lprog *lp, uint16_t code, uint32_t k, lprog_label jt, lprog_label jf);

/*
 * An instruction copied to the output exactly as given (the assembler's
 * `.insn`).  If it is a jump, its offsets are not adjusted: trampolines
 * inserted between it and its target would change where it lands, so the
 * caller must only use this for jumps it does not need resolved.
 */
void lprog_raw(struct lprog *lp, struct scg_insn insn);

/* Instructions emitted so far (trampolines not counted). */
size_t lprog_len(const struct lprog *lp);
/* 0, or the first sticky error (-ENOMEM, -EINVAL for a label bound twice). */
int lprog_error(const struct lprog *lp);

enum lprog_fault {
	LPROG_OK,
	LPROG_UNBOUND_LABEL,  /* a jump names a label never bound */
	LPROG_BACKWARD_JUMP,  /* a jump names a label bound at or before it */
	LPROG_LABEL_AT_END,   /* a label bound after the last instruction */
	LPROG_TOO_LONG,       /* more than 4096 instructions after resolution */
	LPROG_EMPTY,          /* no instruction at all */
	LPROG_FALLS_OFF,      /* the last instruction is not a RET */
};

/* What went wrong, for the caller's diagnostic. */
struct lprog_report {
	enum lprog_fault fault;
	lprog_label label;  /* UNBOUND_LABEL, BACKWARD_JUMP, LABEL_AT_END */
	long tag;           /* tag of the offending jump */
	size_t len;         /* resolved length (TOO_LONG: the length that was needed) */
	size_t trampolines; /* instructions added for reach */
};

/*
 * Resolves every label and writes the program to *@out (caller releases).
 * @tags, when not NULL, receives a malloc()ed array of @out->len tags.
 * Returns 0; -EINVAL (see @report->fault), -E2BIG (over 4096 instructions)
 * or -ENOMEM, with *@out left empty.  @report may be NULL.
 */
int lprog_resolve(struct lprog *lp, struct scg_prog *out, long **tags,
		  struct lprog_report *report);

#endif
