#!/usr/bin/env bash
# Builds if needed and runs the whole test suite (lit, unit, fuzz replays,
# MPI, preload, install), then the MPI tests again against MPICH, then
# collc-bench's smoke run under SimGrid's SMPI. The
# `large` tests (8.6 GB of buffers) run only when asked: ctest -L large.
# CI also runs tools/sanitize.sh (the compiler's suites under ASan/UBSan).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/build.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# One test at a time: lit and the recorded execution use every core, and
# an mpirun job of oversubscribed ranks beside any other test runs several
# times slower (ctest -j 2 saved nothing here).
ctest --test-dir build --output-on-failure -LE large
# The same MPI tests (and the benchmark's smoke run) against MPICH, the
# second MPI: its own tree (the ABIs differ), schedules compiled by the
# collc just built, whose proofs the first tree's build keeps, and the
# first tree's MPI-free policy for the preload.policy tests.
if [ ! -f build-mpich/build.ninja ]; then
  cmake -S . -B build-mpich -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOLLC_MPI=mpich \
    -DCMAKE_CXX_COMPILER=g++ \
    -DCOLLC_BUILD_COMPILER=OFF -DCOLLC_EXECUTABLE="$PWD/build/bin/collc" \
    -DCOLLC_PROOF_CACHE="$PWD/build/collc-proof-cache" \
    -DCOLLC_PRELOAD_POLICY="$PWD/build/test/preload-policy.so"
fi
cmake --build build-mpich -j "$(nproc)"
ctest --test-dir build-mpich --output-on-failure -LE large
# collc-bench's smoke run on a simulated 64-host cluster (SimGrid's SMPI,
# docs/scale.md), in its own tree.
tools/build-smpi.sh
ctest --test-dir build-smpi --output-on-failure
