/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Z3, loaded when the engine first needs it.
 *
 * Only filters with computed values need the solver, and the command-line
 * tool links this library: linking libz3 directly would load it (tens of
 * megabytes, and libstdc++) into every `syscage run`.  So the calls go
 * through a table filled by dlopen() on first use; the names below make
 * the rest of the engine read like plain Z3.
 */
#ifndef SCG_LIB_ANALYSIS_Z3_API_H
#define SCG_LIB_ANALYSIS_Z3_API_H

#include <z3.h>

/* Every Z3 function the engine calls. */
#define SCG_Z3_FUNCTIONS(X) \
	X(Z3_ast_to_string) \
	X(Z3_del_config) \
	X(Z3_del_context) \
	X(Z3_get_app_arg) \
	X(Z3_get_app_decl) \
	X(Z3_get_app_num_args) \
	X(Z3_get_ast_kind) \
	X(Z3_get_bool_value) \
	X(Z3_get_decl_kind) \
	X(Z3_get_numeral_uint) \
	X(Z3_mk_and) \
	X(Z3_mk_bv_sort) \
	X(Z3_mk_bvadd) \
	X(Z3_mk_bvand) \
	X(Z3_mk_bvlshr) \
	X(Z3_mk_bvmul) \
	X(Z3_mk_bvneg) \
	X(Z3_mk_bvor) \
	X(Z3_mk_bvshl) \
	X(Z3_mk_bvsub) \
	X(Z3_mk_bvudiv) \
	X(Z3_mk_bvuge) \
	X(Z3_mk_bvugt) \
	X(Z3_mk_bvule) \
	X(Z3_mk_bvxor) \
	X(Z3_mk_config) \
	X(Z3_mk_const) \
	X(Z3_mk_context) \
	X(Z3_mk_eq) \
	X(Z3_mk_false) \
	X(Z3_mk_not) \
	X(Z3_mk_or) \
	X(Z3_mk_solver) \
	X(Z3_mk_solver_for_logic) \
	X(Z3_mk_string_symbol) \
	X(Z3_mk_unsigned_int) \
	X(Z3_model_dec_ref) \
	X(Z3_model_eval) \
	X(Z3_model_inc_ref) \
	X(Z3_set_error_handler) \
	X(Z3_set_param_value) \
	X(Z3_simplify) \
	X(Z3_solver_assert) \
	X(Z3_solver_check) \
	X(Z3_solver_dec_ref) \
	X(Z3_solver_get_model) \
	X(Z3_solver_inc_ref) \
	X(Z3_solver_pop) \
	X(Z3_solver_push) \
	X(Z3_substitute) \
	X(Z3_to_app) \
	X(Z3_update_param_value)

struct z3_api {
/* @name is a declarator and a function name: parentheses would break both. */
#define SCG_Z3_MEMBER(name) __typeof__(&name) name; /* NOLINT(bugprone-macro-parentheses) */
	SCG_Z3_FUNCTIONS(SCG_Z3_MEMBER)
#undef SCG_Z3_MEMBER
};

extern struct z3_api z3_fns;

/* Loads libz3 once: 0, or -ENOSYS when it (or one of its functions) is missing. */
int z3_load(void);

#ifndef SCG_Z3_API_IMPLEMENTATION
#define Z3_ast_to_string z3_fns.Z3_ast_to_string
#define Z3_del_config z3_fns.Z3_del_config
#define Z3_del_context z3_fns.Z3_del_context
#define Z3_get_app_arg z3_fns.Z3_get_app_arg
#define Z3_get_app_decl z3_fns.Z3_get_app_decl
#define Z3_get_app_num_args z3_fns.Z3_get_app_num_args
#define Z3_get_ast_kind z3_fns.Z3_get_ast_kind
#define Z3_get_bool_value z3_fns.Z3_get_bool_value
#define Z3_get_decl_kind z3_fns.Z3_get_decl_kind
#define Z3_get_numeral_uint z3_fns.Z3_get_numeral_uint
#define Z3_mk_and z3_fns.Z3_mk_and
#define Z3_mk_bv_sort z3_fns.Z3_mk_bv_sort
#define Z3_mk_bvadd z3_fns.Z3_mk_bvadd
#define Z3_mk_bvand z3_fns.Z3_mk_bvand
#define Z3_mk_bvlshr z3_fns.Z3_mk_bvlshr
#define Z3_mk_bvmul z3_fns.Z3_mk_bvmul
#define Z3_mk_bvneg z3_fns.Z3_mk_bvneg
#define Z3_mk_bvor z3_fns.Z3_mk_bvor
#define Z3_mk_bvshl z3_fns.Z3_mk_bvshl
#define Z3_mk_bvsub z3_fns.Z3_mk_bvsub
#define Z3_mk_bvudiv z3_fns.Z3_mk_bvudiv
#define Z3_mk_bvuge z3_fns.Z3_mk_bvuge
#define Z3_mk_bvugt z3_fns.Z3_mk_bvugt
#define Z3_mk_bvule z3_fns.Z3_mk_bvule
#define Z3_mk_bvxor z3_fns.Z3_mk_bvxor
#define Z3_mk_config z3_fns.Z3_mk_config
#define Z3_mk_const z3_fns.Z3_mk_const
#define Z3_mk_context z3_fns.Z3_mk_context
#define Z3_mk_eq z3_fns.Z3_mk_eq
#define Z3_mk_false z3_fns.Z3_mk_false
#define Z3_mk_not z3_fns.Z3_mk_not
#define Z3_mk_or z3_fns.Z3_mk_or
#define Z3_mk_solver z3_fns.Z3_mk_solver
#define Z3_mk_solver_for_logic z3_fns.Z3_mk_solver_for_logic
#define Z3_mk_string_symbol z3_fns.Z3_mk_string_symbol
#define Z3_mk_unsigned_int z3_fns.Z3_mk_unsigned_int
#define Z3_model_dec_ref z3_fns.Z3_model_dec_ref
#define Z3_model_eval z3_fns.Z3_model_eval
#define Z3_model_inc_ref z3_fns.Z3_model_inc_ref
#define Z3_set_error_handler z3_fns.Z3_set_error_handler
#define Z3_set_param_value z3_fns.Z3_set_param_value
#define Z3_simplify z3_fns.Z3_simplify
#define Z3_solver_assert z3_fns.Z3_solver_assert
#define Z3_solver_check z3_fns.Z3_solver_check
#define Z3_solver_dec_ref z3_fns.Z3_solver_dec_ref
#define Z3_solver_get_model z3_fns.Z3_solver_get_model
#define Z3_solver_inc_ref z3_fns.Z3_solver_inc_ref
#define Z3_solver_pop z3_fns.Z3_solver_pop
#define Z3_solver_push z3_fns.Z3_solver_push
#define Z3_substitute z3_fns.Z3_substitute
#define Z3_to_app z3_fns.Z3_to_app
#define Z3_update_param_value z3_fns.Z3_update_param_value
#endif

#endif
