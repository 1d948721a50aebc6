	ld #len         ; 64
	ldx #4
	div x           ; A = 16
	st M[0]
	ldx M[0]
	ld [x + 0]      ; arg0, low word
	and #0xff
	lsh #1
	neg
	tax
	txa
	ldh [0]
	ldb [x + 1]
	ldi 7
	ldxi #8
	ldxb 4*([0]&0xf)
	ret a
