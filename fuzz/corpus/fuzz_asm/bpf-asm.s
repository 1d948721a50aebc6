	ldh [12]
	jne #0x800, drop
	ldb [23]
	jneq #6, drop
	ldxb 4*([14]&0xf)
	ldh [%x + 16]
	jeq #22, keep, drop
keep:	ret #-1
drop:	ret #0
