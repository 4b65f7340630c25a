#!/usr/bin/env bash
# The compiler's suites under AddressSanitizer and UBSan: builds collc, its
# tools, the unit tests, the fuzz targets' replays and a few MPI checks in
# build-sanitize/ (clang, -DCOLLC_SANITIZE=address,undefined, -O1; any report
# ends the program) and runs there lit, the unit tests, the fuzz replays
# and a short MPI subset (docs/robustness.md, "Sanitizers"). CI runs it
# after tools/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
tree=build-sanitize
if [ ! -f $tree/build.ninja ]; then
  # clang (Debian 12's, 14): a third faster than gcc on these units, and
  # its lit suite too (docs/testing.md, "Time").
  CC=clang CXX=clang++ cmake -S . -B $tree -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
    -DCOLLC_SANITIZE=address,undefined -DCOLLC_SCHEDULE_COMPILER="$PWD/build/bin/collc" \
    -DCOLLC_PROOF_CACHE="$PWD/build/collc-proof-cache"
fi
mpi_checks=(check_sanitize check_transport checked_mode timeout_check)
cmake --build $tree -j "$(nproc)" --target collc coll-opt coll-translate collc-unit-tests fuzz_coll fuzz_steps \
  fuzz_model fuzz_policy "${mpi_checks[@]}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# lit and the unit tests but their sweeps, which the release tree's suite
# runs: instrumented, the tests that prove every root, rank count or
# family member take 4 to 35 times as long (root-any.test 659 s,
# same-as-collc.test, which proves three examples twice, 187 s), and the
# tools the compiler's suites do not need (collc-bench, the recorded
# execution, collc-calibrate) are not built here (docs/robustness.md,
# "Sanitizers").
sweeps='differential/|recorded/|frontend/help.test|frontend/root-any.test|frontend/segments.test'
sweeps+='|frontend/choose.test|frontend/noncommutative.test|verify/cli.test|verify/trees.test'
sweeps+='|verify/alltoall.test|verify/shifted.test|verify/trivance.test|verify/scale.test'
sweeps+='|cost/switch.test|cost/summary.test|policy/sources.test'
sweeps+='|target/cpp/same-as-collc.test'
python3 /usr/lib/llvm-19/build/utils/lit/lit.py -sv "$tree/test" --filter-out "$sweeps"
"$tree/bin/collc-unit-tests" -tce='random*mutants*,trees? digit routings and scans are proven*,every example schedule is proven*,root = any: every root*,the digit routings are proven*,every hierarchical tree is proven*,every binomial tree is proven*'
ctest --test-dir $tree --output-on-failure -R '^fuzz\.replay\.'
# The MPI libraries keep what they allocate until exit: no leak report
# there (the compiler's suites above keep it).
ASAN_OPTIONS=detect_leaks=0 ctest --test-dir $tree --output-on-failure \
  -R '^mpi\.(sanitize\.P[35]|transport\.P5|checked\.P3|timeout\.(shm|mpi)\.P3)$'
