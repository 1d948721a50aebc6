ld #0x7fff_0000
ld #-2147483648
ld #0b1010
ld #0777
ld #99999999999
.insn 0xffff, 255, 255, 0xffffffff
ret #-1
