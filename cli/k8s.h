/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* compile --format k8s: an OCI linux.seccomp object as a Security Profiles Operator SeccompProfile. */
#ifndef SYSCAGE_CLI_K8S_H
#define SYSCAGE_CLI_K8S_H

/*
 * The OCI JSON @json (scg_oci_export()'s) as a SeccompProfile object
 * (apiVersion security-profiles-operator.x-k8s.io/v1beta1) named @name,
 * YAML, into *@yaml (caller frees).  0, -EINVAL (a field the operator's
 * spec has no room for, reported) or -ENOMEM.
 */
int cli_oci_to_k8s(const char *json, const char *name, char **yaml);

#endif
