#!/usr/bin/env bash
# Configures (once) and builds collc in ./build: with clang++ where it is
# installed (Debian 12's clang 14, which tools/install-deps.sh installs:
# the tree builds about 20% faster than with gcc 12, docs/testing.md),
# else with the system's c++. The MPICH tree (tools/test.sh) keeps gcc, so
# the runtime and the generated headers are compiled by both.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build/build.ninja ]; then
  compiler=()
  if command -v clang++ >/dev/null; then
    compiler=(-DCMAKE_CXX_COMPILER=clang++)
  fi
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${compiler[@]}"
fi
cmake --build build -j "$(nproc)"
