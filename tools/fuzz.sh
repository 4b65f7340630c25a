#!/usr/bin/env bash
# Fuzzes one input language of collc with libFuzzer for SECONDS (default
# 60), in its own tree built by clang with AddressSanitizer and UBSan
# (build-fuzz/; docs/robustness.md, "Fuzzing"):
#   tools/fuzz.sh coll|steps|model|policy [SECONDS] [LIBFUZZER FLAGS...]
# The corpus grows in build-fuzz/corpus/TARGET, seeded from the project's
# own files; a crash, leak or timeout is written to
# build-fuzz/findings/TARGET/ and ends the run (exit 1): minimize it, fix
# it, and add it to test/fuzz/regressions/TARGET/, which ctest replays.
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: tools/fuzz.sh coll|steps|model|policy [SECONDS] [LIBFUZZER FLAGS...]"
target=${1:-}
case $target in
  coll | steps | model | policy) ;;
  -h | --help) echo "$usage"; exit 0 ;;
  *) echo "tools/fuzz.sh: unknown target '$target'; $usage" >&2; exit 2 ;;
esac
seconds=${2:-60}
shift $(($# < 2 ? $# : 2))
tree=build-fuzz
if [ ! -f $tree/build.ninja ]; then
  CC=clang-19 CXX=clang++-19 cmake -S . -B $tree -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS=-g -DCOLLC_FUZZ=ON -DCOLLC_SANITIZE=address,undefined >/dev/null
fi
cmake --build $tree --target "fuzz_$target"
corpus=$tree/corpus/$target findings=$tree/findings/$target
mkdir -p "$corpus" "$findings"
shopt -s nullglob
case $target in
  coll) seeds=(examples/*.coll test/frontend/Inputs/*.coll test/verify/Inputs/*.coll) ;;
  steps) seeds=(test/verify/Inputs/*.mlir test/dialect/roundtrip.mlir) ;;
  model) seeds=(examples/models/*.model examples/models/*.topology) ;;
  policy) seeds=(examples/policies/*.coll runtime/mpi/policy.coll test/policy/Inputs/*.coll
                 test/install/*.coll) ;;
esac
seeds+=(test/fuzz/regressions/$target/*)
cp -n "${seeds[@]}" "$corpus/"
# A hang is an input running past 2 minutes of wall time (on a machine
# busy with builds the fuzzer may get little of a core; a policy's
# `choose` is priced for every P up to 64, 19 s for
# runtime/mpi/policy.coll under the sanitizers); inputs past 10 s are
# written as slow units. 2 GiB an input. -use_value_profile finds the
# keywords and numbers the parsers compare against.
exec $tree/bin/fuzz_$target -max_total_time="$seconds" -timeout=120 -rss_limit_mb=2048 \
  -use_value_profile=1 -print_final_stats=1 -artifact_prefix="$findings/" "$@" "$corpus"
