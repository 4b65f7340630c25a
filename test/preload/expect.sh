#!/usr/bin/env bash
# Runs an MPI program once under mpirun with libcollc_mpi.so preloaded
# (LIBRARY '-': without), within PRELOAD_TIMEOUT seconds (default 60),
# and requires each line of PRELOAD_LINES (lines separated by '|') and of
# the file PRELOAD_LINES_FILE in its output, exactly; the program's exit
# status is not judged. PROGRAM_ARGS: the program's arguments.
#   expect.sh openmpi|mpich NP LIBRARY PROGRAM MPIRUN [FLAGS...]
set -euo pipefail
vendor=$1 np=$2 library=$3 program=$4
shift 4
case $vendor in
  openmpi) preload=(-x "LD_PRELOAD=$library") ;;
  mpich) preload=(-genv LD_PRELOAD "$library") ;;
  *) echo "expect.sh: unknown MPI vendor '$vendor'" >&2; exit 2 ;;
esac
[ "$library" != - ] || preload=()
out=$(mktemp)
trap 'rm -f "$out"' EXIT
code=0
read -r -a args <<< "${PROGRAM_ARGS:-}"
timeout -k 10 "${PRELOAD_TIMEOUT:-60}" "$@" -np "$np" ${preload[@]+"${preload[@]}"} "$program" \
  ${args[@]+"${args[@]}"} > "$out" 2>&1 || code=$?
cat "$out"
if [ "$code" = 124 ] || [ "$code" = 137 ]; then
  echo "expect.sh: the program did not finish within ${PRELOAD_TIMEOUT:-60} s (a hang)"; exit 1
fi
IFS='|' read -r -a lines <<< "${PRELOAD_LINES:-}"
if [ -n "${PRELOAD_LINES_FILE:-}" ]; then
  mapfile -t more < "$PRELOAD_LINES_FILE"
  lines+=("${more[@]}")
fi
for line in "${lines[@]}"; do
  grep -qxF -- "$line" "$out" || { echo "expect.sh: no line '$line'"; exit 1; }
done
echo "expect.sh: every expected line at P = $np"
