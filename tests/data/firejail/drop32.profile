# seccomp.32.drop: firejail 0.9.72 installed its prebuilt i386 default list,
# twice, and not the drop list (drop32.filters/).
seccomp.32.drop ptrace,@clock
