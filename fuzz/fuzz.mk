# fuzz/fuzz.mk — fuzz targets (included at the end of the Makefile).
#
#   make fuzz     builds every fuzz/fuzz_<target>.c twice:
#     build-fuzz/fuzz_<target>          clang + libFuzzer + ASan + UBSan, linked
#                                       with the decoder layers (common types
#                                       format storage catalog table) compiled
#                                       by clang into build-fuzz/obj/
#     build-san/fuzz/replay_<target>    gcc + ASan + UBSan, fuzz/replay.c as
#                                       main(): replays corpus files without
#                                       libFuzzer (zstd's regression_driver.c)
#
# Each fuzz_<target>.c defines LLVMFuzzerTestOneInput (and may define
# LLVMFuzzerInitialize).  Seeds live in fuzz/corpus/<target>/;
# tests/suites/fuzz.sh replays them and runs each target for a short while.
# The fuzz objects are built without -Werror: a clang-only warning in a
# decoder must not hide the fuzz run.

FUZZ_B = build-fuzz
FUZZ_CC ?= clang
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS = -std=gnu11 -Wall -Wextra -Wno-unused-parameter -D_GNU_SOURCE -pthread \
	-Isrc -I$(FUZZ_B)/gen -O1 -g -fno-omit-frame-pointer -DFLOE_DEBUG -DFLOE_FUZZING \
	$(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_SQLSTATE_H = $(FUZZ_B)/gen/common/sqlstate.h
FUZZ_LIB_SRC = $(call src_of,common types format storage catalog table)
FUZZ_OBJS = $(patsubst %.c,$(FUZZ_B)/obj/%.o,$(FUZZ_LIB_SRC))
FUZZ_SRC = $(sort $(wildcard fuzz/fuzz_*.c))
FUZZ_BIN = $(patsubst fuzz/%.c,$(FUZZ_B)/%,$(FUZZ_SRC))
FUZZ_REPLAY_BIN = $(patsubst fuzz/fuzz_%.c,build-san/fuzz/replay_%,$(FUZZ_SRC))

.PHONY: fuzz fuzz-targets fuzz-replay
# objects reached only through pattern rules must not be deleted as intermediates
.SECONDARY: $(FUZZ_OBJS) $(FUZZ_SQLSTATE_H)

fuzz: fuzz-targets
	@$(MAKE) --no-print-directory B=build-san fuzz-replay

fuzz-targets: $(FUZZ_BIN)

$(FUZZ_SQLSTATE_H): src/common/sqlstate.txt src/common/gen_sqlstate.sh
	@mkdir -p $(dir $@)
	src/common/gen_sqlstate.sh $< > $@

$(FUZZ_B)/obj/%.o: %.c $(FUZZ_SQLSTATE_H)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@

# -MMD: a target that #includes sources (pgwire_fuzz_stub.h includes
# server/pgwire.c ...) is rebuilt when they change
$(FUZZ_B)/fuzz_%: fuzz/fuzz_%.c $(FUZZ_OBJS) $(FUZZ_SQLSTATE_H)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -MF $@.d -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) $(LIBS)

# Only meaningful with B=build-san (the `fuzz` target re-invokes make so).
fuzz-replay: $(FUZZ_REPLAY_BIN)

build-san/fuzz/replay_%: fuzz/replay.c fuzz/fuzz_%.c $(call obj,$(L2_SRC)) $(SQLSTATE_H)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -MF $@.d -o $@ fuzz/replay.c fuzz/fuzz_$*.c $(call obj,$(L2_SRC)) $(LIBS)

-include $(shell find $(FUZZ_B)/obj -name '*.d' 2>/dev/null)
-include $(wildcard $(FUZZ_B)/fuzz_*.d build-san/fuzz/replay_*.d)
