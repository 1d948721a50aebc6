	ld #proto
	ld cpu
	ldb #rand
	ret %a
