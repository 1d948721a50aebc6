#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Writes data/syscall-params.tsv: the parameter names and C types of
syscalls, read from the SYNOPSIS prototypes of the Linux man-pages (section 2).
The build turns the file into C (tools/gen-tables-c.py).

    tools/gen-syscall-params.py [MAN2_DIR] [SYSCALLS_CSV] [OUTPUT]

Defaults: /usr/share/man/man2, data/syscalls.csv,
data/syscall-params.tsv.  The output depends only on the inputs (files
are read in sorted order), so running it twice gives identical files.

The policy language uses the table to let rules name arguments
(`allow socket if domain == AF_UNIX`) and to pick the comparison width:
C int-like parameters compare as 32 bits, pointers and longs at the ABI's
register width, 64-bit integers as 64 bits.

Man pages describe the C library's view.  Where the raw syscall differs
(the clone() wrapper, parameters the kernel reads as a narrower type) the
OVERRIDES below state the kernel's view; each has a reason.
"""

import gzip
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ctables  # noqa: E402

# Kinds, mirrored by enum scg_param_kind in include/syscage/arch.h.
KIND_32 = "SCG_PARAM_32"        # int-like: only the low 32 bits count
KIND_LONG = "SCG_PARAM_LONG"    # pointer, long, size_t: the register width
KIND_64 = "SCG_PARAM_64"        # 64-bit integer: two registers on 32-bit ABIs
KIND_UNKNOWN = "SCG_PARAM_UNKNOWN"

INT32_TYPES = {
    "int", "unsigned int", "unsigned", "signed int", "short", "unsigned short",
    "char", "unsigned char", "uid_t", "gid_t", "pid_t", "mode_t", "umode_t",
    "clockid_t", "key_serial_t", "idtype_t", "socklen_t", "id_t", "timer_t",
    "key_t", "mqd_t", "rwf_t", "uint32_t", "int32_t", "__u32", "__s32", "u32",
    "s32", "qid_t",
    # the kernel's mknod()/mknodat() read dev as unsigned int
    "dev_t",
}
LONG_TYPES = {
    "long", "unsigned long", "long int", "unsigned long int", "size_t",
    "ssize_t", "intptr_t", "uintptr_t", "time_t", "nfds_t", "aio_context_t",
    "caddr_t", "cap_user_header_t", "cap_user_data_t", "sighandler_t",
    "key_serial_t *", "clock_t",
}
INT64_TYPES = {
    "off_t", "loff_t", "off64_t", "uint64_t", "int64_t", "__u64", "__s64",
    "u64", "s64", "long long", "unsigned long long",
}

# Man-page function names that name a differently spelled syscall.
ALIASES = {
    "pread": ["pread64"],
    "pwrite": ["pwrite64"],
    "fstatat": ["newfstatat", "fstatat64"],
    "truncate": ["truncate64"],
    "ftruncate": ["ftruncate64"],
    "fcntl": ["fcntl64"],
    "stat": ["stat64"],
    "fstat": ["fstat64"],
    "lstat": ["lstat64"],
    "sendfile": ["sendfile64"],
    "getrlimit": ["ugetrlimit"],
    "_exit": ["exit"],
    "prlimit": ["prlimit64"],
    "pselect": ["pselect6", "pselect6_time64"],
    "posix_fadvise": ["fadvise64", "fadvise64_64"],
    "sigtimedwait": ["rt_sigtimedwait", "rt_sigtimedwait_time64"],
    # 32-bit uid/gid variants and 64-bit time variants of 32-bit ABIs
    "chown": ["chown32"], "fchown": ["fchown32"], "lchown": ["lchown32"],
    "setuid": ["setuid32"], "setgid": ["setgid32"], "setreuid": ["setreuid32"],
    "setregid": ["setregid32"], "setresuid": ["setresuid32"],
    "setresgid": ["setresgid32"], "getresuid": ["getresuid32"],
    "getresgid": ["getresgid32"], "getgroups": ["getgroups32"],
    "setgroups": ["setgroups32"], "setfsuid": ["setfsuid32"],
    "setfsgid": ["setfsgid32"],
    "futex": ["futex_time64"], "clock_gettime": ["clock_gettime64"],
    "clock_settime": ["clock_settime64"], "clock_getres": ["clock_getres_time64"],
    "clock_nanosleep": ["clock_nanosleep_time64"],
    "clock_adjtime": ["clock_adjtime64"], "timer_gettime": ["timer_gettime64"],
    "timer_settime": ["timer_settime64"],
    "timerfd_gettime": ["timerfd_gettime64"],
    "timerfd_settime": ["timerfd_settime64"],
    "utimensat": ["utimensat_time64"], "ppoll": ["ppoll_time64"],
    "recvmmsg": ["recvmmsg_time64"], "mq_timedsend": ["mq_timedsend_time64"],
    "mq_timedreceive": ["mq_timedreceive_time64"],
    "semtimedop": ["semtimedop_time64"],
    "sched_rr_get_interval": ["sched_rr_get_interval_time64"],
}

# Kernel views that the man-page prototypes do not give.  Each entry
# replaces the parameter list; "unsupported" lists ABIs where the names do
# not apply ("32bit": every ABI without 64-bit registers).
OVERRIDES = {
    # The man page shows the glibc wrapper (fn, stack, flags, arg, ...).  The
    # raw call starts (flags, stack, parent_tid) everywhere but s390, which
    # swaps the first two; the last two swap between architectures, so
    # they are left out.
    "clone": ([("flags", "unsigned long"), ("stack", "void *"),
               ("parent_tid", "int *")], "s390,s390x"),
    # glibc declares request as unsigned long, but the kernel reads
    # unsigned int cmd: a 64-bit comparison could be bypassed through the
    # upper half.
    "ioctl": ([("fd", "int"), ("request", "unsigned int"),
               ("arg", "unsigned long")], ""),
    # sync_file_range2 (ARM, PowerPC) takes the flags second, so that the
    # 64-bit offset and length sit in aligned register pairs; no man page
    # gives it its own prototype.
    "sync_file_range2": ([("fd", "int"), ("flags", "unsigned int"), ("offset", "off64_t"),
                          ("nbytes", "off64_t")], ""),
    # The kernel reads unsigned int personality.
    "personality": ([("persona", "unsigned int")], ""),
    # rseq has no man page; the kernel's prototype (kernel/rseq.c).
    "rseq": ([("rseq", "struct rseq *"), ("rseq_len", "uint32_t"), ("flags", "int"),
              ("sig", "uint32_t")], ""),
    # Signal calls as the kernel defines them (the man pages show the
    # glibc functions without sigsetsize).
    "rt_sigaction": ([("signum", "int"), ("act", "const struct sigaction *"),
                      ("oldact", "struct sigaction *"), ("sigsetsize", "size_t")], ""),
    "rt_sigprocmask": ([("how", "int"), ("set", "const sigset_t *"),
                        ("oldset", "sigset_t *"), ("sigsetsize", "size_t")], ""),
    # eventfd() is the C library's name for eventfd2; the older eventfd
    # syscall takes no flags.
    "eventfd": ([("initval", "unsigned int")], ""),
    "eventfd2": ([("initval", "unsigned int"), ("flags", "int")], ""),
    # The kernel's signalfd calls take the size of the mask (the C library
    # function does not).
    "signalfd": ([("fd", "int"), ("mask", "const sigset_t *"),
                  ("sizemask", "size_t")], ""),
    "signalfd4": ([("fd", "int"), ("mask", "const sigset_t *"),
                   ("sizemask", "size_t"), ("flags", "int")], ""),
    "rt_sigpending": ([("set", "sigset_t *"), ("sigsetsize", "size_t")], ""),
    "rt_sigsuspend": ([("mask", "const sigset_t *"), ("sigsetsize", "size_t")], ""),
    # The C library's faccessat() and fchmodat() take flags and emulate
    # them; the syscalls of those names have three parameters (the flags
    # came with faccessat2 and fchmodat2).
    "faccessat": ([("dirfd", "int"), ("pathname", "const char *"), ("mode", "int")], ""),
    "fchmodat": ([("dirfd", "int"), ("pathname", "const char *"), ("mode", "mode_t")], ""),
    "fchmodat2": ([("dirfd", "int"), ("pathname", "const char *"), ("mode", "mode_t"),
                   ("flags", "int")], ""),
    # fcntl's third argument is variadic in C; the kernel reads unsigned long.
    "fcntl": ([("fd", "int"), ("cmd", "int"), ("arg", "unsigned long")], ""),
    "fcntl64": ([("fd", "int"), ("cmd", "int"), ("arg", "unsigned long")], ""),
    # mmap2 takes the offset in pages, as an unsigned long.
    "mmap2": ([("addr", "void *"), ("length", "size_t"), ("prot", "int"), ("flags", "int"),
               ("fd", "int"), ("pgoffset", "unsigned long")], ""),
    # The 32-bit ABIs' "mmap" and "select" are old_mmap/old_select, which
    # take one pointer to a block of arguments.
    "mmap": (None, "32bit"),
    "select": (None, "32bit"),
}

TROFF_FONT_MACROS = {"B", "I", "R", "BI", "BR", "IB", "IR", "RB", "RI", "SM", "SB"}


def read_syscall_names(syscalls_csv):
    return set(ctables.read_syscalls(syscalls_csv)[1])


def troff_args(s):
    """Splits a macro's arguments the troff way (double quotes group)."""
    args, cur, quoted, i = [], "", False, 0
    while i < len(s):
        c = s[i]
        if c == '"':
            if quoted and i + 1 < len(s) and s[i + 1] == '"':
                cur += '"'
                i += 2
                continue
            quoted = not quoted
        elif c in " \t" and not quoted:
            if cur:
                args.append(cur)
            cur = ""
        else:
            cur += c
        i += 1
    if cur:
        args.append(cur)
    return args


def troff_text(s):
    s = re.sub(r"\\f(\[[^\]]*\]|\(..|.)", "", s)
    s = s.replace("\\-", "-").replace("\\~", " ").replace("\\&", "")
    s = s.replace("\\|", "").replace("\\ ", " ").replace("\\e", "\\")
    return s


def synopsis_text(lines):
    """The SYNOPSIS section as plain text, one troff input line per line."""
    out, inside, pending = [], False, ""
    for raw in lines:
        if raw.endswith("\\") and not raw.endswith("\\\\"):
            pending += raw[:-1]
            continue
        line, pending = pending + raw, ""
        if line.startswith(".SH"):
            inside = line.split(None, 1)[1:] == ["SYNOPSIS"]
            continue
        if not inside or line.startswith('.\\"'):
            continue
        if line.startswith("."):
            macro, _, rest = line[1:].partition(" ")
            if macro in TROFF_FONT_MACROS:
                # one-font macros join their arguments with spaces,
                # alternating-font macros without
                sep = " " if len(macro) == 1 or macro.startswith("S") else ""
                out.append(troff_text(sep.join(troff_args(rest))))
            else:
                out.append("")
            continue
        out.append(troff_text(line))
    return "\n".join(out)


def clean_prototype_text(text):
    # "... /* mode_t mode */" documents an optional argument
    text = re.sub(r"\.\.\.\s*/\*\s*([A-Za-z_][\w\s\*]*?)\s*\*/", r"\1", text)
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"\b(_Nullable|_Nonnull|restrict|__restrict|volatile)\b", " ", text)
    # "void buf[.count]" is a pointer
    text = re.sub(r"\b(\w+)\s*\[[^\]]*\]", r"*\1", text)
    return text


def split_params(body):
    parts, depth, cur = [], 0, ""
    for c in body:
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    parts.append(cur)
    return [" ".join(p.split()) for p in parts if p.strip()]


def parse_param(p):
    if p in ("void", "..."):
        return None
    m = re.match(r"^(.*?)([A-Za-z_]\w*)$", p)
    if not m:
        return None
    ctype = " ".join(m.group(1).replace("*", " * ").split())
    ctype = ctype.replace("* *", "**").replace(" *", " *").strip()
    if not ctype:  # "/* arg */": a name without a type
        ctype = "?"
    return (m.group(2), ctype)


def prototypes(text):
    """Yields (function name, [(param, type)]) for each prototype."""
    text = clean_prototype_text(text)
    for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\(", text):
        name, start = m.group(1), m.end()
        depth, i = 1, start
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        if depth or not re.match(r"\s*;", text[i:]):
            continue
        before = text[: m.start()].rstrip()
        if not before or not re.search(r"[\w\*]$", before):
            continue  # a call or a macro, not a declaration
        params = split_params(text[start : i - 1])
        if params == ["void"]:
            params = []  # no parameters, which is worth knowing too
        if name == "syscall" and params and params[0].startswith("SYS_"):
            name, params = params[0][4:], params[1:]
        if any("(" in p for p in params):
            continue  # function-pointer parameters: a libc wrapper
        parsed = [parse_param(p) for p in params]
        if "..." in params:
            parsed = [q for q in parsed if q]
        if any(q is None for q in parsed):
            continue
        yield name, parsed


def kind_of(ctype):
    base = ctype.replace("const ", "").strip()
    if "*" in base:
        return KIND_LONG
    if base.startswith("enum "):
        return KIND_32
    if base in INT32_TYPES:
        return KIND_32
    if base in LONG_TYPES:
        return KIND_LONG
    if base in INT64_TYPES:
        return KIND_64
    return KIND_UNKNOWN


def collect(man_dir, known):
    found = {}
    for fname in sorted(os.listdir(man_dir)):
        if not fname.endswith(".2.gz"):
            continue
        with gzip.open(os.path.join(man_dir, fname), "rt", encoding="utf-8",
                       errors="replace") as f:
            lines = f.read().split("\n")
        if lines and lines[0].startswith(".so "):
            continue  # a link to another page, read there
        for name, params in prototypes(synopsis_text(lines)):
            for target in [name] + ALIASES.get(name, []):
                if target not in known:
                    continue
                old = found.get(target)
                if old is None or len(params) > len(old):
                    found[target] = params
    return found


def apply_overrides(found, known):
    unsupported = {}
    for name, (params, abis) in OVERRIDES.items():
        if params is not None:
            found[name] = params
        if abis and name in found:
            unsupported[name] = abis
    return unsupported


# The TSV's kinds, the names tools/gen-tables-c.py reads back.
KIND_WORDS = {KIND_32: "32", KIND_LONG: "long", KIND_64: "64", KIND_UNKNOWN: "unknown"}

HEADER = """\
# Parameters of syscalls as the kernel reads them: the names and C types of the
# man pages' SYNOPSIS prototypes (section 2), with tools/gen-syscall-params.py's
# overrides where the raw syscall differs.  `ninja -C build params` rewrites this
# file from the installed man pages; the build turns it into C.
#
# Columns, tab-separated: the syscall; the ABIs where the names do not apply,
# comma-separated ("32bit": every ABI without 64-bit registers), or "-"; then
# one column per parameter, at most six, each KIND:TYPE:NAME, where KIND is how
# much of the register the type fills (32: int-like, long: register-wide,
# 64: a 64-bit integer, unknown) and NAME is empty where it would clash with argN.
# Rows sorted by syscall name.
"""


def render(found, unsupported):
    out = [HEADER.rstrip("\n")]
    for name in sorted(found):
        cells = [name, unsupported.get(name, "") or "-"]
        for pname, ctype in found[name][:6]:
            if re.fullmatch(r"arg\d+", pname):
                pname = ""  # would clash with the argN syntax
            cells.append("%s:%s:%s" % (KIND_WORDS[kind_of(ctype)], ctype, pname))
        out.append("\t".join(cells))
    return "\n".join(out) + "\n"


def main(argv):
    man_dir = argv[1] if len(argv) > 1 else "/usr/share/man/man2"
    syscalls_csv = argv[2] if len(argv) > 2 else "data/syscalls.csv"
    output = argv[3] if len(argv) > 3 else "data/syscall-params.tsv"
    known = read_syscall_names(syscalls_csv)
    found = collect(man_dir, known)
    unsupported = apply_overrides(found, known)
    text = render(found, unsupported)
    tmp = output + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, output)
    print("gen-syscall-params: %d syscalls -> %s" % (len(found), output))


if __name__ == "__main__":
    main(sys.argv)
