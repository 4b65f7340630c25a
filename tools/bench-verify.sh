#!/usr/bin/env bash
# Verification time against P for every example (docs/verification.md).
# A benchmark, not a test: at the default sizes it takes several minutes.
#
#   [EXAMPLES="ring trivance"] [NO_FAMILY=1] tools/bench-verify.sh [P ...]
#                                        default P: 64 1024 4096
#
# For each example and P it runs `collc verify --ranks P` as a user does
# (family proofs plus what they do not cover) and prints the wall time of
# the whole command (expansion included), the time of the per-P queries,
# which properties were decided by replay, and the verdict. NO_FAMILY=1
# adds a second run with --no-family (every property by a per-P query).
# Examples with a fixed rank count run at that count only.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/build.sh > /dev/null
collc=build/bin/collc
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(64 1024 4096)
examples=${EXAMPLES:-$(ls examples/*.coll | xargs -n1 basename | sed 's/\.coll$//')}

run() { # file P flags... -> "wall | per-P | replayed | verdict"
  local file=$1 P=$2; shift 2
  local start end out verdict queries replayed ranks=()
  [ "$P" = fixed ] || ranks=(--ranks "$P")
  start=$(date +%s.%N)
  out=$("$collc" verify "$file" "${ranks[@]}" --timeout-ms 600000 "$@" || true)
  end=$(date +%s.%N)
  verdict=$(echo "$out" | grep -oE "all properties proven|VIOLATED|NOT PROVEN" | head -1)
  queries=$(echo "$out" | grep -oE "for P in \{[0-9.]+\} \([0-9.]+ s\)" | grep -oE "[0-9.]+ s" | head -1)
  replayed=$(echo "$out" | grep -oE "[a-z-]+ proven by replay" | sed 's/ proven by replay//' | sort -u | paste -sd, -)
  printf "%.2f s | %s | %s | %s" "$(echo "$end - $start" | bc)" "${queries:--}" "${replayed:--}" "$verdict"
}

header="| example | P | wall | per-P queries | by replay | verdict |"
rule="|---|---:|---:|---:|---|---|"
if [ -n "${NO_FAMILY:-}" ]; then
  header="$header wall, --no-family | per-P queries | by replay | verdict |"
  rule="$rule---:|---:|---|---|"
fi
echo "$header"
echo "$rule"
for example in $examples; do
  file=examples/$example.coll
  ps=("${sizes[@]}")
  # A collective of a fixed rank count is verified at that count.
  grep -qE "^\s*ranks [0-9]+;" "$file" && ps=(fixed)
  for P in "${ps[@]}"; do
    row="| $example | $P | $(run "$file" "$P") |"
    [ -z "${NO_FAMILY:-}" ] || row="$row $(run "$file" "$P" --no-family) |"
    echo "$row"
  done
done
