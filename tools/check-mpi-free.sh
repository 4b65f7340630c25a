#!/usr/bin/env bash
# The runtime's headers but mpi_transport.hpp and runtime.hpp are MPI-free
# (issue 14's layering; generated.hpp, what generated headers include, too): each one
# must compile on its own with only runtime/include on the include path,
# where <mpi.h> is not found. Run by ctest as runtime-plans-mpi-free.
set -euo pipefail
cd "$(dirname "$0")/.."
headers="error plan trees digits scans group_moves merge butterfly groups reconfiguration segments transport checked recording executor collectives local_transport generated"
if echo '#include <mpi.h>' | g++ -std=c++17 -fsyntax-only -x c++ - 2>/dev/null; then
  echo "check-mpi-free: <mpi.h> is on the default include path; the check would prove nothing" >&2
  exit 1
fi
# One compile a header, a core each (xargs -P); each failure is reported
# with its first lines.
check_one() {
  local out
  if ! out=$(echo "#include \"coll/$1.hpp\"" |
             g++ -std=c++17 -fsyntax-only -x c++ -I runtime/include - 2>&1); then
    { echo "check-mpi-free: coll/$1.hpp does not compile without MPI:"; echo "$out" | head -5; } >&2
    return 1
  fi
}
export -f check_one
failed=0
printf '%s\n' $headers | xargs -P "$(nproc)" -I{} bash -c 'check_one "$1"' _ {} || failed=1
[ "$failed" = 0 ] && echo "check-mpi-free: $headers compile without MPI"
exit "$failed"
