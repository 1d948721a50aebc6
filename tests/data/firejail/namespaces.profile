# The default list with a list of its own (an exception with !), the
# namespace filters, EACCES as the error action (namespaces.filters/).
seccomp ptrace,!mount
restrict-namespaces user,net
seccomp-error-action EACCES
