# A drop list with a group, the W^X filters, and kill as the error action
# (drop.filters/: i386 W^X, x86_64 W^X, the drop list).
seccomp.drop ptrace,mount,@clock
memory-deny-write-execute
seccomp-error-action kill
