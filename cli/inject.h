/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* `syscage inject`: the pieces shared by cmd_inject.c and inject_*.c. */
#ifndef SCG_CLI_INJECT_H
#define SCG_CLI_INJECT_H

#include <stdbool.h>
#include <stdio.h>

#include "common/cli.h"
#include <syscage/inject.h>

struct inject_state;

/*
 * The supervisor's state for @nrules rules at @rules (borrowed) on top of
 * @base (borrowed: its verdict applies when no rule takes a call).  @log:
 * an open JSON-lines stream or NULL (borrowed).  NULL on allocation failure.
 */
struct inject_state *inject_state_new(struct scg_inject_rule *const *rules, size_t nrules,
				      const struct scg_policy *base, bool count_all, FILE *log);
void inject_state_free(struct inject_state *st);

/* The launcher's on_notif (SERVE mode), with a struct run_front whose data is the
 * inject_state as context: decides one notified call. */
int inject_decide(int listener, const struct scg_notif *n, struct scg_notif_resp *resp,
		  void *front);
/* The launcher's on_answered: the signal=, on kernels where it must follow the answer. */
void inject_answered(const struct scg_notif *n, const struct scg_notif_resp *resp, int r,
		     void *front);

/* Prints, on stderr, how many faults each rule injected, into which syscalls and processes. */
void inject_summary(const struct inject_state *st);

#endif
