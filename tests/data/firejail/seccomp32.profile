# seccomp.32 with a list: firejail 0.9.72 loads its i386 default list without
# the list, since seccomp has none of its own (seccomp32.filters/).
seccomp
seccomp.32 chmod
