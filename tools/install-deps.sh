#!/usr/bin/env bash
# Installs the Debian 12 packages collc needs, if any are missing.
set -euo pipefail

packages=(build-essential cmake ninja-build pkg-config python3 lld
  llvm-19-dev libmlir-19-dev mlir-19-tools llvm-19-tools
  libz3-dev libboost-graph-dev doctest-dev
  libzstd-dev  # the static MLIR and LLVM collc links name it (cmake/CollcMlirLibraries.cmake)
  libopenmpi-dev openmpi-bin libucx-dev
  mpich libmpich-dev  # the second MPI: tools/test.sh runs the MPI tests on both
  libsimgrid-dev  # SimGrid's SMPI: clusters larger than this machine (docs/scale.md)
  clang libclang-rt-14-dev)  # clang 14 builds the trees (tools/build.sh, tools/sanitize.sh); its ASan/UBSan runtime

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "collc: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Open MPI spends ~10 s per launch resolving a host name that /etc/hosts lacks.
if ! getent hosts "$(hostname)" >/dev/null 2>&1 && [ -w /etc/hosts ]; then
  echo "127.0.0.1 $(hostname)" >> /etc/hosts
fi
