/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Syscalls as text, the way strace shows them and the policy language reads
 * them back: `socket(AF_INET, SOCK_STREAM|SOCK_CLOEXEC, IPPROTO_TCP)`,
 * `unshare(CLONE_NEWNS|CLONE_NEWUSER)`, `openat(AT_FDCWD, "/etc/passwd",
 * O_RDONLY|O_CLOEXEC)`.
 *
 * Which parameter takes which constants is data (docs/run.md, "Reading a
 * report"): flags print as NAME|NAME with the bits no name covers as one
 * hexadecimal remainder (`CLONE_NEWNS|0x4`), enumerations as their name or
 * the number, pointers in hexadecimal or NULL, file modes in octal, other
 * integers in decimal (hexadecimal when large).  No value is ever cut to
 * fewer bits than the parameter has.
 */
#ifndef SYSCAGE_DECODE_H
#define SYSCAGE_DECODE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <syscage/arch.h>
#include <syscage/export.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Access to the calling program's memory, for strings, written data and
 * the flags of clone3's struct.  Both functions return what the
 * scg_notif_read() and scg_notif_read_string() of <syscage/runtime.h>
 * return: a byte count or string length, -ENAMETOOLONG for a string cut to
 * @size - 1 bytes (still terminated), or a negative errno.
 */
struct scg_call_memory {
	ssize_t (*read)(void *ctx, uint64_t addr, void *buf, size_t len);
	ssize_t (*read_string)(void *ctx, uint64_t addr, char *buf, size_t size);
	void *ctx;
};

/* scg_call_format() showed memory it read from the program. */
#define SCG_CALL_READ_MEMORY 0x1u

/*
 * Writes syscall @nr of @arch with arguments @args (as struct seccomp_data
 * holds them) into @buf (@size bytes, always terminated when @size > 0):
 * `name(arg, ...)`, or `syscall_0x1234(...)` for a number @arch does not
 * name.  @mem (may be NULL: pointers print as addresses) reads what
 * pointers point to.  *@flags (may be NULL) gets SCG_CALL_READ_MEMORY when
 * the text shows such memory.  Returns the length of the whole text, as
 * snprintf() does (the text is cut when that is >= @size).
 */
SCG_API int scg_call_format(const struct scg_arch *arch, uint32_t nr, const uint64_t args[6],
			    const struct scg_call_memory *mem, char *buf, size_t size,
			    unsigned *flags);

/*
 * Writes one argument value: argument @index (0..5) of @syscall on @arch,
 * decoded as in scg_call_format() but without reading memory (strings and
 * buffers print as addresses).  Returns what snprintf() would.
 */
SCG_API int scg_arg_format(const struct scg_arch *arch, const char *syscall, unsigned index,
			   uint64_t value, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
