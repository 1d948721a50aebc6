/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Integer literals: scg_parse_u64() and scg_parse_u32() are public
 * (<syscage/number.h>), since the front ends parse argument values the way
 * the language writes them.
 */
#ifndef SCG_LIB_UTIL_NUMBER_H
#define SCG_LIB_UTIL_NUMBER_H

#include <syscage/number.h>

#endif
