#!/usr/bin/env bash
# Configures (once) and builds the SimGrid SMPI tree, build-smpi/: the
# runtime and collc-bench compiled by smpicxx, the schedules by the collc
# of build/ (tools/build.sh first), with the proofs its build kept.
# docs/scale.md.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/bin/collc ] || { echo "tools/build-smpi.sh: build collc first (tools/build.sh)" >&2; exit 2; }
if [ ! -f build-smpi/build.ninja ]; then
  cmake -S . -B build-smpi -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOLLC_MPI=smpi \
    -DCOLLC_BUILD_COMPILER=OFF -DCOLLC_EXECUTABLE="$PWD/build/bin/collc" \
    -DCOLLC_PROOF_CACHE="$PWD/build/collc-proof-cache"
fi
cmake --build build-smpi -j "$(nproc)"
