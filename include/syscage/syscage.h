/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libsyscage: everything, in one include. */
#ifndef SYSCAGE_SYSCAGE_H
#define SYSCAGE_SYSCAGE_H

#include <syscage/arch.h>
#include <syscage/asm.h>
#include <syscage/bpf.h>
#include <syscage/compile.h>
#include <syscage/decode.h>
#include <syscage/diag.h>
#include <syscage/emu.h>
#include <syscage/import.h>
#include <syscage/inject.h>
#include <syscage/inspect.h>
#include <syscage/json.h>
#include <syscage/lang.h>
#include <syscage/launch.h>
#include <syscage/number.h>
#include <syscage/learn.h>
#include <syscage/load.h>
#include <syscage/auditlog.h>
#include <syscage/policy.h>
#include <syscage/runtime.h>
#include <syscage/verify.h>

#define SYSCAGE_VERSION "0.1.0"

#endif /* SYSCAGE_SYSCAGE_H */
