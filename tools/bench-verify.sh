#!/usr/bin/env bash
# Verification time against P for the ring and the group butterfly
# (docs/verification.md). A benchmark, not a test: it takes minutes.
#
#   [EXAMPLES="ring butterfly"] tools/bench-verify.sh [P ...]
#                                        default P: 16 64 256 1024 4096
#
# For each P it runs `collc verify` twice: as a user does (family proofs
# plus what they do not cover, per P) and with --no-family (every property
# by a per-P Z3 query), and prints the wall time of each run, the time Z3
# reported for the per-P queries, and the verdict.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/build.sh > /dev/null
collc=build/bin/collc
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(16 64 256 1024 4096)

run() { # file P flags... -> "wall_s z3_s verdict"
  local file=$1 P=$2; shift 2
  local start end out verdict
  start=$(date +%s.%N)
  out=$("$collc" verify "$file" --ranks "$P" --timeout-ms 600000 "$@" || true)
  end=$(date +%s.%N)
  verdict=$(echo "$out" | grep -oE "all properties proven|VIOLATED|NOT PROVEN" | head -1)
  local z3
  z3=$(echo "$out" | grep -oE "for P in \{[0-9]+\} \([0-9.]+ s\)" | grep -oE "[0-9.]+ s" | head -1)
  printf "%.2f s | %s | %s" "$(echo "$end - $start" | bc)" "$z3" "$verdict"
}

echo "| schedule | P | wall | of which Z3 | verdict | wall, --no-family | of which Z3 | verdict |"
echo "|---|---:|---:|---:|---|---:|---:|---|"
for example in ${EXAMPLES:-ring butterfly}; do
  for P in "${sizes[@]}"; do
    echo "| $example | $P | $(run examples/$example.coll "$P") | $(run examples/$example.coll "$P" --no-family) |"
  done
done
