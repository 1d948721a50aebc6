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

LIB_SRCS := $(sort $(wildcard lib/*/*.c))
CLI_SRCS := $(sort $(wildcard cli/*.c))
TEST_SUPPORT_SRCS := $(sort $(wildcard tests/support/*.c))
TEST_SRCS := $(sort $(wildcard tests/test_*.c))

LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/%.o)
TEST_SUPPORT_OBJS := $(TEST_SUPPORT_SRCS:%.c=$(BUILD)/%.o)
TEST_BINS := $(TEST_SRCS:tests/%.c=$(BUILD)/tests/%)

STATIC_LIB := $(BUILD)/libsyscage.a
SHARED_LIB := $(BUILD)/$(SONAME)
CLI := $(BUILD)/syscage

.PHONY: all lib cli tests check demo fuzz fuzz-smoke fuzz-run clean install help tables
# keep object files that pattern rules build on the way
.SECONDARY:
all: lib cli

lib: $(STATIC_LIB) $(SHARED_LIB)
cli: $(CLI)
tests: $(TEST_BINS)

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

$(CLI): $(CLI_OBJS) $(STATIC_LIB)
	$(call say,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(CLI_OBJS) $(STATIC_LIB)

# Tests link the static library so they can reach internal functions too.
$(BUILD)/tests/%: $(BUILD)/tests/%.o $(TEST_SUPPORT_OBJS) $(STATIC_LIB)
	$(call say,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ -lcmocka -lpthread

check: all tests
	SYSCAGE=$(CLI) BUILD=$(BUILD) tests/run-tests.sh $(TEST_BINS)

demo: all
	SYSCAGE=$(CLI) examples/demo.sh

# --- fuzzing (clang + libFuzzer) ------------------------------------------
FUZZ_SRCS := $(sort $(wildcard fuzz/fuzz_*.c))
FUZZ_BUILD := $(BUILD)/fuzz
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(FUZZ_BUILD)/%.o)
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

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/syscage
	install -m 755 $(CLI) $(DESTDIR)$(PREFIX)/bin/syscage
	install -m 644 $(STATIC_LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(SHARED_LIB) $(DESTDIR)$(PREFIX)/lib/
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
	@echo "make fuzz       build the libFuzzer targets (clang)"
	@echo "make fuzz-smoke run each fuzz target for FUZZ_SECONDS (default 20)"
	@echo "make fuzz-run TARGET=fuzz_asm   fuzz one target until stopped"
	@echo "make tables     regenerate lib/arch/syscall_tables.c from SHARED/syscalls"
	@echo "make install    install into PREFIX (default /usr/local)"
	@echo "variables: CC=clang WERROR=1 BUILD=dir OPT='-O0 -g'"

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
