#!/usr/bin/env bash
# Starts P processes of PROGRAM (no mpirun) that meet through a fresh
# directory (coll::FileBootstrap) and run collectives over UCX; every rank
# must pass, within 120 s, and the directory is removed.
#   run_file_bootstrap.sh PROGRAM P
set -uo pipefail
program=$1 P=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
pids=()
for ((r = 0; r < P; r++)); do
  timeout 120 "$program" "$dir" "$r" "$P" > "$dir/out.$r" 2>&1 &
  pids+=($!)
done
status=0
for ((r = 0; r < P; r++)); do
  wait "${pids[$r]}" || status=1
  cat "$dir/out.$r"
done
passed=$(cat "$dir"/out.* | grep -c "^PASS file-bootstrap")
if [ "$status" -ne 0 ] || [ "$passed" -ne "$P" ]; then
  echo "file-bootstrap: $passed of $P ranks passed"
  exit 1
fi
echo "file-bootstrap: all $P ranks passed"
