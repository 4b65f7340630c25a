#!/usr/bin/env bash
# Which of SMPI's algorithms for one collective run correctly on a
# platform at P ranks and the given sizes (docs/scale.md): each is run
# alone (one crash or deadlock ends only its own simulation) by
# collc-bench, its results checked. Prints one line per algorithm, ok,
# wrong (the sizes) or failed (the simulation's last words), then the
# --forced list of the ones that are ok at every size.
#   tools/smpi-algorithms.sh PLATFORM P KIND SIZES
# KIND is collc-bench's: allreduce, reduce_scatter, allgather, alltoall,
# broadcast, reduce, gather, scatter or barrier.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: tools/smpi-algorithms.sh PLATFORM P KIND SIZES"
case ${1:-} in -h | --help) echo "$usage"; exit 0 ;; esac
[ $# -eq 4 ] || { echo "tools/smpi-algorithms.sh: $usage" >&2; exit 2; }
platform=$1 ranks=$2 kind=$3 sizes=$4
case $kind in
  allreduce | reduce_scatter | allgather | alltoall | reduce | gather | scatter | barrier) setting=$kind ;;
  broadcast) setting=bcast ;;
  *) echo "tools/smpi-algorithms.sh: no SMPI setting for kind '$kind'" >&2; exit 2 ;;
esac
work=$(mktemp -d /tmp/collc-smpi-algorithms.XXXXXX)
trap 'rm -rf "$work"' EXIT
# SMPI names its algorithms when asked for one it does not have.
COLLC_SMPI_CFG="--cfg=smpi/$setting:?" "$root/tools/simulate.sh" "$platform" 1 --sizes 8 --kinds "$kind" \
  > "$work/list" 2>&1 || true
names=$(sed -n "s/.*Valid algorithms: \(.*\)\.$/\1/p" "$work/list" | tr -d ' ' | tr ',' '\n' |
  grep -vx 'default\|ompi\|mpich\|mvapich2\|impi\|automatic' || true)
[ -n "$names" ] || { echo "tools/smpi-algorithms.sh: SMPI listed no algorithm for $setting" >&2; exit 1; }
good=()
for name in $names; do
  if timeout 600 "$root/tools/simulate.sh" "$platform" "$ranks" --kinds "$kind" --sizes "$sizes" \
      --trials 1 --warmups 1 --forced "$name" --leave-out-wrong --quiet > "$work/out" 2>&1; then
    wrong=$(sed -n "s/^collc-bench: left out: $kind mpi $name (\(.*\)): .*/\1/p" "$work/out" | paste -sd, -)
    if [ -z "$wrong" ]; then
      echo "$name: ok"
      good+=("$name")
    else
      echo "$name: wrong at $wrong"
    fi
  else
    echo "$name: failed: $(grep -v '^ *->\|^Backtrace\|^Execution failed\|--cfg=' "$work/out" | tail -1)"
  fi
done
echo "--forced $(IFS=,; echo "${good[*]}")"
