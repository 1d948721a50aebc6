# firejail 0.9.72 (Debian 12) loaded the filters in secondary.filters/ for this
# profile: the secondary-architecture block, the default list, the W^X filters.
seccomp.block-secondary
memory-deny-write-execute
