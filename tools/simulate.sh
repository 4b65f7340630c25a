#!/usr/bin/env bash
# Runs collc-bench on a simulated cluster under SimGrid's SMPI
# (docs/scale.md): P ranks, rank i on the platform's i-th host, the
# library's collectives chosen by an MPI library's selector (SMPI's copies
# of its algorithms), computation not charged to either side.
#   tools/simulate.sh PLATFORM P [COLLC-BENCH OPTIONS...]
# Environment: COLLC_SMPI_SELECTOR (ompi, the default, or mpich, mvapich2,
# impi), COLLC_SMPI_PLACEMENT (first: rank i on the i-th host, the
# default; spread: rank i on host floor(i * H / P) of the H, as a job
# spread over the whole machine), COLLC_SMPI_BENCH (default
# build-smpi/bin/collc-bench; built by tools/build-smpi.sh),
# COLLC_SMPI_CFG (more --cfg=... for smpirun).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: tools/simulate.sh PLATFORM P [COLLC-BENCH OPTIONS...]"
case ${1:-} in -h | --help) echo "$usage"; exit 0 ;; esac
[ $# -ge 2 ] || { echo "tools/simulate.sh: $usage" >&2; exit 2; }
platform=$1 ranks=$2
shift 2
[ -f "$platform" ] || { echo "tools/simulate.sh: no platform file '$platform'" >&2; exit 2; }
[[ $ranks =~ ^[1-9][0-9]*$ ]] || { echo "tools/simulate.sh: P must be a positive number, not '$ranks'" >&2; exit 2; }
bench=${COLLC_SMPI_BENCH:-$root/build-smpi/bin/collc-bench}
[ -x "$bench" ] || { echo "tools/simulate.sh: no $bench (build it: tools/build-smpi.sh)" >&2; exit 2; }
hosts=$(mktemp /tmp/collc-hosts.XXXXXX)
trap 'rm -f "$hosts"' EXIT
# The hosts of the ranks, as tools/platform-model.py places them for its
# model: the platform's clusters in order, each host once per core.
placement=${COLLC_SMPI_PLACEMENT:-first}
case $placement in first | spread) ;; *)
  echo "tools/simulate.sh: COLLC_SMPI_PLACEMENT must be first or spread" >&2; exit 2 ;;
esac
python3 "$root/tools/platform-model.py" "$platform" "$ranks" --hosts --placement "$placement" > "$hosts" ||
  exit 2
# simulate-computation:no: the CPU time between MPI calls is not charged
# (SMPI charges none for its own collectives' reductions either).
# shellcheck disable=SC2086
exec smpirun -np "$ranks" -platform "$platform" -hostfile "$hosts" \
  --cfg=smpi/simulate-computation:no --cfg=smpi/coll-selector:"${COLLC_SMPI_SELECTOR:-ompi}" \
  --log=xbt_cfg.thres:warning --log=smpi_config.thres:warning --log=smpi_coll.thres:warning \
  --log=smpi_colls.thres:warning ${COLLC_SMPI_CFG:-} "$bench" "$@"
