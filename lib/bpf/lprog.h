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
 * refuses results longer than the kernel's 4096 instructions.  It tries two
 * ways of placing trampolines and keeps the shorter result.
 *
 * By default the result is a program the kernel's jump and return checks
 * accept.  A caller that encodes whatever it is given (the assembler) can
 * relax those checks with lprog_set_flags() and write offsets by number
 * with lprog_offset().
 *
 * Errors while emitting are sticky (like struct strbuf): emit freely and
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

/* What lprog_resolve() accepts and how it builds trampolines (default: none of these). */
enum lprog_flag {
	/* Trampolines are always `ja`, never a copy of a `ret` target. */
	LPROG_JA_TRAMPOLINES = 1U << 0,
	/* The last instruction need not be a RET. */
	LPROG_ALLOW_FALLS_OFF = 1U << 1,
	/* Labels may be bound after the last instruction: jumps to them leave the program. */
	LPROG_ALLOW_LABEL_AT_END = 1U << 2,
	/* A `ja` may name a label bound at or before it: its k wraps around. */
	LPROG_ALLOW_BACKWARD_JA = 1U << 3,
};

/* Sets the lprog_flag bits that lprog_resolve() and lprog_check() follow. */
void lprog_set_flags(struct lprog *lp, unsigned flags);

/* A new label, bound later with lprog_bind(). */
lprog_label lprog_label_new(struct lprog *lp);
/* Binds @label to the next instruction emitted.  Binding a label twice is an error. */
void lprog_bind(struct lprog *lp, lprog_label label);
/* True for a bound label and for an lprog_offset(). */
bool lprog_is_bound(const struct lprog *lp, lprog_label label);

/*
 * A target given by number instead of a label (the assembler's `+N`): a jump
 * naming it gets @offset written into its field as is.  The offset is not
 * checked, not adjusted for trampolines and never given one, so a trampoline
 * inserted within its span changes where it lands (as with lprog_raw()).  A
 * conditional branch needs @offset <= 255, else the jump sets the sticky
 * error -EINVAL.
 */
lprog_label lprog_offset(struct lprog *lp, uint32_t offset);

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
/*
 * 0, or the first sticky error: -ENOMEM; -EINVAL for a label bound twice, an
 * lprog_offset() bound, or one over 255 on a conditional branch.
 */
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
	unsigned branch;    /* which field of that jump: 0 jt (or ja's k), 1 jf */
	bool allowed;       /* lprog_check(): the flags let lprog_resolve() encode it anyway */
	size_t len;         /* resolved length (TOO_LONG: the length when it gave up) */
	size_t trampolines; /* instructions added for reach */
};

/*
 * Calls @fn(@fault, @arg) for every jump field whose label is unbound,
 * behind the jump or past the last instruction, in program order, including
 * those the flags allow (->allowed set).  Returns how many of them
 * lprog_resolve() refuses.  For callers that report every problem at once;
 * lprog_resolve() only reports the first.
 */
typedef void lprog_fault_fn(const struct lprog_report *fault, void *arg);
size_t lprog_check(const struct lprog *lp, lprog_fault_fn *fn, void *arg);

/*
 * Resolves every label and writes the program to *@out (caller releases).
 * @tags, when not NULL, receives a malloc()ed array of @out->len tags.
 * Returns 0; -EINVAL (see @report->fault), -E2BIG (over 4096 instructions)
 * or -ENOMEM, with *@out left empty.  @report may be NULL.
 */
int lprog_resolve(struct lprog *lp, struct scg_prog *out, long **tags,
		  struct lprog_report *report);

#endif
