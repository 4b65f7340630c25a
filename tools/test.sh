#!/usr/bin/env bash
# Builds if needed and runs the whole test suite (lit, unit, MPI, install).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/build.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ctest --test-dir build --output-on-failure
# The same MPI tests (and the benchmark's smoke run) against MPICH, the
# second MPI: its own tree (the ABIs differ), schedules compiled by the
# collc just built.
if [ ! -f build-mpich/build.ninja ]; then
  cmake -S . -B build-mpich -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOLLC_MPI=mpich \
    -DCOLLC_BUILD_COMPILER=OFF -DCOLLC_EXECUTABLE="$PWD/build/bin/collc"
fi
cmake --build build-mpich -j "$(nproc)"
ctest --test-dir build-mpich --output-on-failure
