# firejail 0.9.72 (Debian 12) loaded the filters in default.filters/ for this
# profile: its prebuilt default lists for x86_64 and i386.
seccomp
