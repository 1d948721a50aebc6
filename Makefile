# syscage build.  `make` builds the library and the CLI; `make check` runs
# every test; `make help` lists the rest.

CC ?= cc
PREFIX ?= /usr/local
BUILD ?= build
WERROR ?= 0

VERSION := 0.1.0
SONAME := libsyscage.so.0

WARNINGS := -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes \
	-Wformat=2 -Wswitch-enum -Wundef -Wpointer-arith -Wvla -Wwrite-strings \
	-Wcast-align -Wmissing-declarations -Wold-style-definition -Wno-format-nonliteral
ifeq ($(WERROR),1)
WARNINGS += -Werror
endif

OPT ?= -O2 -g

# `make V=1` shows full command lines.
ifeq ($(V),1)
Q :=
say = @true
else
Q := @
say = @printf '  %-6s %s\n' $(1) $(2)
endif
CPPFLAGS_ALL := -D_GNU_SOURCE -Iinclude -Ilib $(CPPFLAGS)
CFLAGS_ALL := -std=c11 $(OPT) $(WARNINGS) -fno-strict-aliasing $(CFLAGS)
LIB_CFLAGS := -fPIC -fvisibility=hidden -DSCG_BUILDING_LIBRARY

# lib/oci needs json-c, so it is a library of its own (libsyscage-oci).
LIB_SRCS := $(sort $(filter-out lib/oci/% lib/analysis/%,$(wildcard lib/*/*.c)))
# lib/analysis (the semantic engine behind diff/explain/decompile/lint) is libsyscage-analysis.
ANALYSIS_SRCS := $(sort $(wildcard lib/analysis/*.c))
OCI_SRCS := $(sort $(filter-out lib/oci/unavailable.c,$(wildcard lib/oci/*.c)))
CLI_SRCS := $(sort $(filter-out cli/workload_unavailable.c,$(wildcard cli/*.c)))
TEST_SUPPORT_SRCS := $(sort $(wildcard tests/support/*.c))
TEST_SRCS := $(sort $(wildcard tests/test_*.c))

LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
OCI_OBJS := $(OCI_SRCS:%.c=$(BUILD)/%.o)
ANALYSIS_OBJS := $(ANALYSIS_SRCS:%.c=$(BUILD)/%.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/%.o)
TEST_SUPPORT_OBJS := $(TEST_SUPPORT_SRCS:%.c=$(BUILD)/%.o)
TEST_BINS := $(TEST_SRCS:tests/%.c=$(BUILD)/tests/%)
# programs the tests run (tests/helpers/*.c)
TEST_HELPERS := $(patsubst tests/helpers/%.c,$(BUILD)/tests/helpers/%,$(wildcard tests/helpers/*.c))

STATIC_LIB := $(BUILD)/libsyscage.a
SHARED_LIB := $(BUILD)/$(SONAME)
CLI := $(BUILD)/syscage

OCI_SONAME := libsyscage-oci.so.0
OCI_STATIC_LIB := $(BUILD)/libsyscage-oci.a
OCI_SHARED_LIB := $(BUILD)/$(OCI_SONAME)
ANALYSIS_SONAME := libsyscage-analysis.so.0
ANALYSIS_STATIC_LIB := $(BUILD)/libsyscage-analysis.a
ANALYSIS_SHARED_LIB := $(BUILD)/$(ANALYSIS_SONAME)
JSONC_CFLAGS := $(shell pkg-config --cflags json-c 2>/dev/null)
JSONC_LIBS := $(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c)

.PHONY: all lib cli tests check demo fuzz fuzz-smoke fuzz-run clean install help tables bench
# keep object files that pattern rules build on the way
.SECONDARY:
all: lib cli compat

lib: $(STATIC_LIB) $(SHARED_LIB) $(OCI_STATIC_LIB) $(OCI_SHARED_LIB) $(ANALYSIS_STATIC_LIB) \
	$(ANALYSIS_SHARED_LIB)
cli: $(CLI)
tests: $(TEST_BINS) $(TEST_HELPERS)

$(BUILD)/lib/%.o: lib/%.c
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $(LIB_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/cli/%.o: cli/%.c
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS_ALL) -Itests $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(STATIC_LIB): $(LIB_OBJS)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)$(AR) rcs $@ $^

# Only SCG_API symbols are exported (-fvisibility=hidden elsewhere).
$(SHARED_LIB): $(LIB_OBJS)
	$(call say,LD,$@)
	$(Q)$(CC) -shared -Wl,-soname,$(SONAME) -Wl,-z,defs -Wl,--as-needed $(LDFLAGS) -o $@ $^
	$(Q)ln -sf $(SONAME) $(BUILD)/libsyscage.so

$(CLI): $(CLI_OBJS) $(ANALYSIS_STATIC_LIB) $(OCI_STATIC_LIB) $(STATIC_LIB)
	$(call say,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(CLI_OBJS) $(ANALYSIS_STATIC_LIB) $(OCI_STATIC_LIB) $(STATIC_LIB) \
		$(JSONC_LIBS) $(Z3_LIBS)

# --- libsyscage-analysis: the semantic engine (libc, and Z3 for computed values) ---
# The engine dlopen()s libz3 on first use (lib/analysis/z3_api.c): nothing links it.
Z3_LIBS :=
$(ANALYSIS_STATIC_LIB): $(ANALYSIS_OBJS)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)$(AR) rcs $@ $^

# Like libsyscage-oci, it carries its own copy of the hidden lib/util helpers.
# (lint also reads the parameter types of lib/policy/syscall_params.c, hidden there too).
ANALYSIS_UTIL_OBJS := $(filter $(BUILD)/lib/util/% $(BUILD)/lib/policy/syscall_params.o,$(LIB_OBJS))
$(ANALYSIS_SHARED_LIB): $(ANALYSIS_OBJS) $(ANALYSIS_UTIL_OBJS) $(SHARED_LIB)
	$(call say,LD,$@)
	$(Q)$(CC) -shared -Wl,-soname,$(ANALYSIS_SONAME) -Wl,-z,defs -Wl,--as-needed $(LDFLAGS) \
		-o $@ $(ANALYSIS_OBJS) $(ANALYSIS_UTIL_OBJS) $(SHARED_LIB) $(Z3_LIBS)
	$(Q)ln -sf $(ANALYSIS_SONAME) $(BUILD)/libsyscage-analysis.so

# --- libsyscage-oci: OCI/Docker JSON profiles (json-c) ----------------------
$(OCI_OBJS): CPPFLAGS_ALL += $(JSONC_CFLAGS)
# `compile --workload` reads learn's JSON frequency profiles.
$(BUILD)/cli/workload.o: CPPFLAGS_ALL += $(JSONC_CFLAGS)

$(OCI_STATIC_LIB): $(OCI_OBJS)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)$(AR) rcs $@ $^

# The internal helpers it shares with libsyscage (lib/util) are hidden there, so it carries its own copy.
OCI_UTIL_OBJS := $(filter $(BUILD)/lib/util/%,$(LIB_OBJS))
$(OCI_SHARED_LIB): $(OCI_OBJS) $(OCI_UTIL_OBJS) $(SHARED_LIB)
	$(call say,LD,$@)
	$(Q)$(CC) -shared -Wl,-soname,$(OCI_SONAME) -Wl,-z,defs -Wl,--as-needed $(LDFLAGS) -o $@ \
		$(OCI_OBJS) $(OCI_UTIL_OBJS) $(SHARED_LIB) $(JSONC_LIBS)
	$(Q)ln -sf $(OCI_SONAME) $(BUILD)/libsyscage-oci.so

# Tests link the static library so they can reach internal functions too.
$(BUILD)/tests/%: $(BUILD)/tests/%.o $(TEST_SUPPORT_OBJS) $(STATIC_LIB)
	$(call say,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ -lcmocka -lpthread

# Programs the tests run (tests/helpers/*.c): plain executables, no cmocka.
$(BUILD)/tests/helpers/%: tests/helpers/%.c
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $(LDFLAGS) -o $@ $< $(HELPER_EXTRA_SRCS) -lpthread
$(BUILD)/tests/test_inspect: | $(TEST_HELPERS)

# Tests of the OCI importer link libsyscage-oci, json-c and libseccomp (tests/oci_oracle.c: the
# differential oracle).
OCI_TEST_BINS := $(filter $(BUILD)/tests/test_oci%,$(TEST_BINS))
OCI_TEST_ORACLE := $(BUILD)/tests/oci_oracle.o
$(OCI_TEST_ORACLE): CPPFLAGS_ALL += $(JSONC_CFLAGS)
$(OCI_TEST_BINS): $(BUILD)/tests/%: $(BUILD)/tests/%.o $(OCI_TEST_ORACLE) $(TEST_SUPPORT_OBJS) \
		$(OCI_STATIC_LIB) $(STATIC_LIB)
	$(call say,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(JSONC_LIBS) -lseccomp -lcmocka -lpthread

# Tests of the analysis engine: libsyscage-analysis, and the OCI oracle for libseccomp's filters.
ANALYSIS_TEST_BINS := $(filter $(BUILD)/tests/test_analysis%,$(TEST_BINS))
$(ANALYSIS_TEST_BINS): $(BUILD)/tests/%: $(BUILD)/tests/%.o $(OCI_TEST_ORACLE) $(TEST_SUPPORT_OBJS) \
		$(ANALYSIS_STATIC_LIB) $(OCI_STATIC_LIB) $(STATIC_LIB)
	$(call say,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(JSONC_LIBS) $(Z3_LIBS) -lseccomp -lcmocka -lpthread

# Each fuzz target again, with a plain main (tests/fuzz_replay.c) instead of libFuzzer: any
# compiler, any sanitizer.  tests/cli/fuzz_regress.sh replays fuzz/regress/ and fuzz/corpus/.
FUZZ_REPLAY_BINS := $(patsubst fuzz/%.c,$(BUILD)/tests/replay/%,$(wildcard fuzz/fuzz_*.c))
tests: $(FUZZ_REPLAY_BINS)
$(BUILD)/tests/replay/%: fuzz/%.c tests/fuzz_replay.c $(BUILD)/cli/emu_batch.o $(BUILD)/cli/io.o \
		$(BUILD)/cli/workload.o \
		$(TEST_SUPPORT_OBJS) $(ANALYSIS_STATIC_LIB) $(OCI_STATIC_LIB) $(STATIC_LIB)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(CC) $(CPPFLAGS_ALL) -Icli -Itests $(CFLAGS_ALL) $(LDFLAGS) -o $@ $^ $(JSONC_LIBS) -lpthread

# --- libseccomp.so.2: the libseccomp-compatible library (compat/, docs/libseccomp.md) ---
# Self-contained: libsyscage's PIC objects are linked in; the version script exports the
# libseccomp symbol set and nothing else.  Installed beside, never over, the system's copy.
COMPAT_SRCS := $(sort $(wildcard compat/*.c))
COMPAT_OBJS := $(COMPAT_SRCS:%.c=$(BUILD)/%.o)
COMPAT_LIB := $(BUILD)/compat/libseccomp.so.2
COMPAT_LIBDIR ?= $(PREFIX)/lib/syscage-compat
COMPAT_INCDIR ?= $(PREFIX)/include/syscage-compat
.PHONY: compat install-compat

compat: $(COMPAT_LIB) $(BUILD)/compat/libseccomp.pc

$(BUILD)/compat/%.o: compat/%.c
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS_ALL) -Icompat $(CFLAGS_ALL) -fPIC -fvisibility=hidden -MMD -MP -c $< -o $@

$(COMPAT_LIB): $(COMPAT_OBJS) $(LIB_OBJS) compat/libseccomp.map
	$(call say,LD,$@)
	$(Q)$(CC) -shared -Wl,-soname,libseccomp.so.2 -Wl,--version-script,compat/libseccomp.map \
		-Wl,-z,defs -Wl,--as-needed $(LDFLAGS) -o $@ $(COMPAT_OBJS) $(LIB_OBJS)
	$(Q)ln -sf libseccomp.so.2 $(BUILD)/compat/libseccomp.so

$(BUILD)/compat/libseccomp.pc: compat/libseccomp.pc.in
	@mkdir -p $(@D)
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(COMPAT_LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(COMPAT_INCDIR)|' $< > $@

install-compat: compat
	install -d $(DESTDIR)$(COMPAT_LIBDIR)/pkgconfig $(DESTDIR)$(COMPAT_INCDIR)
	install -m 755 $(COMPAT_LIB) $(DESTDIR)$(COMPAT_LIBDIR)/
	ln -sf libseccomp.so.2 $(DESTDIR)$(COMPAT_LIBDIR)/libseccomp.so
	install -m 644 compat/seccomp.h compat/seccomp-syscalls.h $(DESTDIR)$(COMPAT_INCDIR)/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(COMPAT_LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(COMPAT_INCDIR)|' compat/libseccomp.pc.in \
		> $(DESTDIR)$(COMPAT_LIBDIR)/pkgconfig/libseccomp.pc

# Tests of the compat library: the cmocka suites link its objects statically; the
# differential driver (tests/compat/diff_driver.c) is built twice, against libseccomp
# and against this library, and test_compat_diff compares what the two print.
COMPAT_TEST_BINS := $(filter $(BUILD)/tests/test_compat%,$(TEST_BINS))
$(COMPAT_TEST_BINS:%=%.o): CPPFLAGS_ALL += -Icompat
$(COMPAT_TEST_BINS): $(BUILD)/tests/%: $(BUILD)/tests/%.o $(TEST_SUPPORT_OBJS) $(COMPAT_OBJS) \
		$(STATIC_LIB)
	$(call say,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ -lcmocka -lpthread
COMPAT_DIFF := $(BUILD)/tests/compat/diff-libseccomp $(BUILD)/tests/compat/diff-syscage
$(BUILD)/tests/test_compat_diff: | $(COMPAT_DIFF) $(COMPAT_LIB)
$(BUILD)/tests/compat/diff-libseccomp: tests/compat/diff_driver.c $(STATIC_LIB)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $(LDFLAGS) -o $@ $< $(STATIC_LIB) -lseccomp
$(BUILD)/tests/compat/diff-syscage: tests/compat/diff_driver.c $(STATIC_LIB) $(COMPAT_LIB)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(CC) $(CPPFLAGS_ALL) -Icompat $(CFLAGS_ALL) $(LDFLAGS) -o $@ $< $(STATIC_LIB) \
		-L$(BUILD)/compat -Wl,-rpath,$(abspath $(BUILD)/compat) -lseccomp

check: all tests
	SYSCAGE=$(CLI) BUILD=$(BUILD) tests/run-tests.sh $(TEST_BINS)

demo: all
	SYSCAGE=$(CLI) examples/demo.sh

# --- hardening (docs/hardening.md) ----------------------------------------
# The whole suite under AddressSanitizer + UndefinedBehaviorSanitizer, in its own build
# directory.  gcc, because its runtime is a shared library, so the -z defs shared
# libraries link as they are; ASAN_OPTIONS/SYSCAGE_TEST_SCALE are explained in the doc.
SAN_BUILD ?= build-asan
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SAN_ENV := ASAN_OPTIONS=abort_on_error=0 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tools/lsan.supp \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 SYSCAGE_TEST_SCALE=$${SYSCAGE_TEST_SCALE:-4} \
	SYSCAGE_SAN_FLAGS='$(SAN_FLAGS)'
.PHONY: check-asan analyze check-valgrind
# cppcheck + clang-tidy over lib/ and cli/ (.clang-tidy, tools/cppcheck.supp).
analyze:
	tools/analyze.sh

# tests/cli/*.sh with the CLI under valgrind memcheck (tools/check-valgrind.sh says which).
check-valgrind: all
	tools/check-valgrind.sh $(BUILD)

check-asan:
	$(MAKE) CC=gcc BUILD=$(SAN_BUILD) OPT='-O1 -g' CFLAGS='$(SAN_FLAGS)' LDFLAGS='$(SAN_FLAGS)' \
		HELPER_EXTRA_SRCS=tests/asan_helper_options.c all tests
	$(SAN_ENV) SYSCAGE=$(SAN_BUILD)/syscage BUILD=$(SAN_BUILD) tests/run-tests.sh \
		$(TEST_SRCS:tests/%.c=$(SAN_BUILD)/tests/%)

# --- benchmarks (need libseccomp-dev; never a dependency of the library) ---
BENCH_SRCS := $(sort $(wildcard bench/*.c))
BENCH_BIN := $(BUILD)/bench/compile-stats

bench: $(BENCH_BIN)

$(BENCH_BIN): $(BENCH_SRCS) bench/bench_input.h $(OCI_STATIC_LIB) $(STATIC_LIB)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(CC) $(CPPFLAGS_ALL) -Ibench $(CFLAGS_ALL) $(LDFLAGS) -o $@ $(BENCH_SRCS) \
		$(OCI_STATIC_LIB) $(STATIC_LIB) $(JSONC_LIBS) -lseccomp

# --- fuzzing (clang + libFuzzer) ------------------------------------------
FUZZ_SRCS := $(sort $(wildcard fuzz/fuzz_*.c))
FUZZ_BUILD := $(BUILD)/fuzz
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(FUZZ_BUILD)/%.o)
FUZZ_OCI_OBJS := $(OCI_SRCS:%.c=$(FUZZ_BUILD)/%.o)
FUZZ_BINS := $(FUZZ_SRCS:fuzz/%.c=$(FUZZ_BUILD)/%)
FUZZ_FLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -g -O1
FUZZ_SECONDS ?= 20

$(FUZZ_BUILD)/lib/%.o: lib/%.c
	@mkdir -p $(@D)
	clang $(CPPFLAGS_ALL) -std=c11 $(FUZZ_FLAGS) -MMD -MP -c $< -o $@

$(FUZZ_BUILD)/%: fuzz/%.c $(FUZZ_LIB_OBJS)
	@mkdir -p $(@D)
	clang $(CPPFLAGS_ALL) -std=c11 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -g -O1 -o $@ $^

# fuzz_oci also needs libsyscage-oci and json-c.
$(FUZZ_OCI_OBJS): CPPFLAGS_ALL += $(JSONC_CFLAGS)
$(FUZZ_BUILD)/fuzz_oci: fuzz/fuzz_oci.c $(FUZZ_OCI_OBJS) $(FUZZ_LIB_OBJS)
	@mkdir -p $(@D)
	clang $(CPPFLAGS_ALL) -std=c11 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -g -O1 -o $@ $^ $(JSONC_LIBS)

# fuzz_emu_batch drives the CLI's batch reader (and the CLI helpers it reports through);
# fuzz_compile generates policies with the tests' random policy generator.
$(FUZZ_BUILD)/cli/%.o $(FUZZ_BUILD)/tests/support/%.o: CPPFLAGS_ALL += -Icli -Itests
$(FUZZ_BUILD)/cli/%.o: cli/%.c
	@mkdir -p $(@D)
	clang $(CPPFLAGS_ALL) -std=c11 $(FUZZ_FLAGS) -MMD -MP -c $< -o $@
$(FUZZ_BUILD)/tests/support/%.o: tests/support/%.c
	@mkdir -p $(@D)
	clang $(CPPFLAGS_ALL) -std=c11 $(FUZZ_FLAGS) -MMD -MP -c $< -o $@
$(FUZZ_BUILD)/fuzz_emu_batch: CPPFLAGS_ALL += -Icli
$(FUZZ_BUILD)/fuzz_emu_batch: fuzz/fuzz_emu_batch.c $(FUZZ_BUILD)/cli/emu_batch.o \
	$(FUZZ_BUILD)/cli/io.o $(FUZZ_LIB_OBJS)
# fuzz_workload drives `compile --workload`'s reader (json-c) and the compiler's weights.
$(FUZZ_BUILD)/cli/workload.o: CPPFLAGS_ALL += $(JSONC_CFLAGS)
$(FUZZ_BUILD)/fuzz_workload: CPPFLAGS_ALL += -Icli
$(FUZZ_BUILD)/fuzz_workload: fuzz/fuzz_workload.c $(FUZZ_BUILD)/cli/workload.o \
	$(FUZZ_BUILD)/cli/io.o $(FUZZ_LIB_OBJS)
	@mkdir -p $(@D)
	clang $(CPPFLAGS_ALL) -std=c11 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -g -O1 -o $@ $^ $(JSONC_LIBS)
$(FUZZ_BUILD)/fuzz_compile: CPPFLAGS_ALL += -Itests
$(FUZZ_BUILD)/fuzz_compile: fuzz/fuzz_compile.c $(FUZZ_BUILD)/tests/support/polgen.o \
	$(FUZZ_BUILD)/tests/support/progen.o $(FUZZ_LIB_OBJS)

fuzz: $(FUZZ_BINS)

# A fixed short budget per target (CI); `make fuzz-run TARGET=fuzz_asm` runs without limit.
fuzz-smoke: $(FUZZ_BINS)
	FUZZ_SECONDS=$(FUZZ_SECONDS) fuzz/run.sh $(FUZZ_BINS)

fuzz-run: $(FUZZ_BUILD)/$(TARGET)
	fuzz/run.sh --forever $(FUZZ_BUILD)/$(TARGET)

# --- generated tables ------------------------------------------------------
SHARED ?= ../shared
tables:
	python3 tools/gen-syscall-tables.py $(SHARED)/syscalls lib/arch/syscall_tables.c

# The policy language's tables: built-in profiles from profiles/*.policy,
# syscall groups, and parameter names from the man pages (manpages-dev).
MAN2 ?= /usr/share/man/man2
.PHONY: profiles groups params workload
profiles:
	python3 tools/gen-profiles.py profiles lib/policy/profiles.c

# The compiler's built-in workload profile: `syscage learn --counts` over common
# programs (tools/measure-workload.sh writes data/workload/*.json).
workload:
	python3 tools/gen-workload.py lib/compile/workload.c $(sort $(wildcard data/workload/*.json))

groups:
	python3 tools/gen-groups.py lib/arch/syscall_tables.c lib/policy/groups.c

params:
	python3 tools/gen-syscall-params.py $(MAN2) lib/arch/syscall_tables.c lib/policy/syscall_params.c

install: all install-compat
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/syscage
	install -m 755 $(CLI) $(DESTDIR)$(PREFIX)/bin/syscage
	install -m 644 $(STATIC_LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(SHARED_LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 $(OCI_STATIC_LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(OCI_SHARED_LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 $(ANALYSIS_STATIC_LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(ANALYSIS_SHARED_LIB) $(DESTDIR)$(PREFIX)/lib/
	ln -sf $(ANALYSIS_SONAME) $(DESTDIR)$(PREFIX)/lib/libsyscage-analysis.so
	ln -sf $(OCI_SONAME) $(DESTDIR)$(PREFIX)/lib/libsyscage-oci.so
	ln -sf $(SONAME) $(DESTDIR)$(PREFIX)/lib/libsyscage.so
	install -m 644 include/syscage/*.h $(DESTDIR)$(PREFIX)/include/syscage/
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 docs/syscage.1 $(DESTDIR)$(PREFIX)/share/man/man1/

clean:
	rm -rf $(BUILD)

help:
	@echo "make            build libsyscage (static + shared) and the syscage CLI"
	@echo "make check      build and run every test (unit, golden, live kernel)"
	@echo "make demo       assemble, verify and emulate an example filter"
	@echo "make bench      build build/bench/compile-stats (syscage vs libseccomp; needs libseccomp-dev)"
	@echo "make fuzz       build the libFuzzer targets (clang)"
	@echo "make fuzz-smoke run each fuzz target for FUZZ_SECONDS (default 20)"
	@echo "make fuzz-run TARGET=fuzz_asm   fuzz one target until stopped"
	@echo "make check-asan      every test under ASan+UBSan (gcc, build-asan/; docs/hardening.md)"
	@echo "make analyze         cppcheck + clang-tidy over lib/ and cli/"
	@echo "make check-valgrind  the CLI tests with syscage under valgrind memcheck"
	@echo "make tables     regenerate lib/arch/syscall_tables.c from SHARED/syscalls"
	@echo "make profiles   embed profiles/*.policy as built-in profiles (lib/policy/profiles.c)"
	@echo "make groups     regenerate lib/policy/groups.c (syscall groups)"
	@echo "make workload   regenerate lib/compile/workload.c from data/workload/*.json"
	@echo "make params     regenerate lib/policy/syscall_params.c from MAN2 (man pages)"
	@echo "make install    install into PREFIX (default /usr/local)"
	@echo "make compat     build build/compat/libseccomp.so.2, the drop-in libseccomp (docs/libseccomp.md)"
	@echo "variables: CC=clang WERROR=1 BUILD=dir OPT='-O0 -g'"

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
