/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* compile --format k8s: an OCI linux.seccomp object as a Security Profiles Operator SeccompProfile. */
#ifndef SYSCAGE_CLI_K8S_H
#define SYSCAGE_CLI_K8S_H

#include <stddef.h>

/*
 * The OCI JSON @json (scg_oci_export()'s) as a SeccompProfile object
 * (apiVersion security-profiles-operator.x-k8s.io/v1beta1) named @name,
 * YAML, into *@yaml (caller frees).  0, -EINVAL (a field the operator's
 * spec has no room for, reported) or -ENOMEM.
 */
int cli_oci_to_k8s(const char *json, const char *name, char **yaml);

struct scg_diag;
struct scg_oci_options;
struct scg_policy;
/*
 * Reads a Kubernetes object in YAML (@len bytes of @text) as a policy: a
 * SeccompProfile's spec is read as the OCI object it mirrors (scg_oci_import()
 * with @opts).  Errors go to @diag; 0, -EINVAL or -ENOMEM.
 */
int cli_k8s_import(const char *text, size_t len, const struct scg_oci_options *opts,
		   struct scg_policy **out, struct scg_diag *diag);

#endif
