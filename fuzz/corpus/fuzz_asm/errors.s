ld [nr]
jeg #2, deny
jeq #opnat, deny
st #1
ja alow
allow: ret ALOW
deny: ret ERRNO(EPRM)
/* open