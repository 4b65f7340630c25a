#!/usr/bin/env bash
# Builds if needed and runs the whole test suite (lit, unit, MPI, install).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/build.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ctest --test-dir build --output-on-failure
