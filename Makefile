# floe — build.  `make run` opens the shell; `make test` runs the whole suite.
#
# Two builds from one source tree:
#   build/        optimised (-O2), what `make run` and bench/ use
#   build-san/    AddressSanitizer + UndefinedBehaviorSanitizer, what tests use
# Pick with B=build or B=build-san (default build).
#
# Layering (DESIGN.md): a unit test under tests/unit/<folder>/ links only the
# objects of the folders that <folder> may depend on, so a codec's tests build
# without SQL, and one folder's work in progress cannot break another's tests.

B ?= build
CC ?= cc

ifeq ($(B),build-san)
OPT = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined -DFLOE_DEBUG
else
OPT = -O2 -g
endif

CFLAGS_BASE = -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow=local \
	-Wno-maybe-uninitialized \
	-D_GNU_SOURCE -pthread -Isrc -I$(B)/gen
CFLAGS = $(CFLAGS_BASE) $(OPT) $(EXTRA_CFLAGS)
LDFLAGS = $(OPT) -pthread
LIBS = -lpg_query -lprotobuf-c -lzstd -lsnappy -llz4 -lz -lbrotlienc -lbrotlidec \
	-lxxhash -lroaring -lsqlite3 -lpq -ljansson -ledit -lssl -lcrypto \
	-lcurl -lmicrohttpd -lm
# librocksdb is opened by src/ingest/rocksdb_load.c when the insert buffer
# is first used (not linked: its relocations cost every process ~10 ms)
ROCKSDB_SONAME := $(shell objdump -p "$$($(CC) -print-file-name=librocksdb.so)" 2>/dev/null | \
	awk '$$1 == "SONAME" { print $$2 }')
$(B)/src/ingest/rocksdb_load.o: CFLAGS += $(if $(ROCKSDB_SONAME),-DFLOE_ROCKSDB_SONAME='"$(ROCKSDB_SONAME)"')

SQLSTATE_H = $(B)/gen/common/sqlstate.h

# Source sets by layer.
src_of = $(shell find $(addprefix src/,$(1)) -name '*.c' 2>/dev/null | sort)
L0_SRC = $(call src_of,common types)
L1_SRC = $(L0_SRC) $(call src_of,format)
L2_SRC = $(L1_SRC) $(call src_of,storage catalog table)
L3_SRC = $(L2_SRC) $(call src_of,func)
L4_SRC = $(L3_SRC) $(call src_of,exec)
L5_SRC = $(L4_SRC) $(call src_of,plan)
L6_SRC = $(L5_SRC) $(call src_of,optimize)
ALL_SRC = $(filter-out src/main/floe.c,$(shell find src -name '*.c' | sort))
obj = $(patsubst %.c,$(B)/%.o,$(1))

FLOE = $(B)/floe

UNIT_SRC = $(shell find tests/unit -name 'test_*.c' 2>/dev/null | sort)
UNIT_BIN = $(patsubst %.c,$(B)/%,$(UNIT_SRC))

TOOLS_SRC = $(shell find tests/tools -name '*.c' 2>/dev/null | sort)
TOOLS_BIN = $(patsubst %.c,$(B)/%,$(TOOLS_SRC))

.PHONY: all deps run test unit tools clean bench fuzz sqlfuzz

all: $(FLOE)

deps:
	@scripts/install-deps.sh

run: deps
	@$(MAKE) --no-print-directory B=build all
	@build/floe $(ARGS)

test:
	@scripts/run-tests.sh

# A long SQL mutation-fuzzing run (make test runs a short slice of it):
# SEEDS and N set the seeds and the statements per seed.
SEEDS ?= $(shell seq 100 139)
N ?= 5000
sqlfuzz:
	@$(MAKE) --no-print-directory -s B=build-san all
	@FLOE_ROOT=$(CURDIR) FLOE_SQLFUZZ_SEEDS="$(SEEDS)" FLOE_SQLFUZZ_N=$(N) bash tests/suites/sqlfuzz.sh

$(SQLSTATE_H): src/common/sqlstate.txt src/common/gen_sqlstate.sh
	@mkdir -p $(dir $@)
	src/common/gen_sqlstate.sh $< > $@

$(B)/%.o: %.c $(SQLSTATE_H)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(FLOE): $(call obj,$(ALL_SRC) src/main/floe.c)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

unit: $(UNIT_BIN)
tools: $(TOOLS_BIN)

# Which objects a test folder links: its layer.
layer_objs = $(call obj,$(if $(filter common types,$(1)),$(L0_SRC),$(if $(filter format,$(1)),$(L1_SRC),$(if $(filter storage catalog table,$(1)),$(L2_SRC),$(if $(filter func,$(1)),$(L3_SRC),$(if $(filter exec,$(1)),$(L4_SRC),$(if $(filter plan,$(1)),$(L5_SRC),$(if $(filter optimize,$(1)),$(L6_SRC),$(ALL_SRC)))))))))
test_folder = $(word 3,$(subst /, ,$(1)))

.SECONDEXPANSION:
$(B)/tests/unit/%: tests/unit/%.c $$(call layer_objs,$$(call test_folder,tests/unit/$$*)) $(SQLSTATE_H)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -o $@ $< $(call layer_objs,$(call test_folder,tests/unit/$*)) $(LIBS) -lcmocka

$(B)/tests/tools/%: tests/tools/%.c $$(call obj,$$(ALL_SRC)) $(SQLSTATE_H)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -o $@ $< $(call obj,$(ALL_SRC)) $(LIBS)

clean:
	rm -rf build build-san build-fuzz

-include $(shell find $(B) -name '*.d' 2>/dev/null)
-include fuzz/fuzz.mk
