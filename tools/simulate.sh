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
# The hosts of the platform's clusters, in order: prefix + each number of
# its radical ("0-63" or "0-3,8-11") + suffix, each once per core (the
# ranks of a node consecutive).
python3 - "$platform" "$ranks" > "$hosts" <<'PY'
import os, sys, xml.etree.ElementTree as ET
platform, ranks = sys.argv[1], int(sys.argv[2])
hosts = []
for c in ET.parse(platform).getroot().iter("cluster"):
    for part in c.get("radical").split(","):
        lo, _, hi = part.partition("-")
        for i in range(int(lo), int(hi or lo) + 1):
            hosts += [c.get("prefix", "") + str(i) + c.get("suffix", "")] * int(c.get("core", "1"))
if ranks > len(hosts):
    print(f"tools/simulate.sh: P = {ranks} but {platform} has {len(hosts)} host cores", file=sys.stderr)
    sys.exit(2)
if os.environ.get("COLLC_SMPI_PLACEMENT", "first") == "spread":
    hosts = [hosts[i * len(hosts) // ranks] for i in range(ranks)]
elif os.environ.get("COLLC_SMPI_PLACEMENT", "first") != "first":
    print("tools/simulate.sh: COLLC_SMPI_PLACEMENT must be first or spread", file=sys.stderr)
    sys.exit(2)
print("\n".join(hosts[:ranks]))
PY
# simulate-computation:no: the CPU time between MPI calls is not charged
# (SMPI charges none for its own collectives' reductions either).
# shellcheck disable=SC2086
exec smpirun -np "$ranks" -platform "$platform" -hostfile "$hosts" \
  --cfg=smpi/simulate-computation:no --cfg=smpi/coll-selector:"${COLLC_SMPI_SELECTOR:-ompi}" \
  --log=xbt_cfg.thres:warning --log=smpi_config.thres:warning --log=smpi_coll.thres:warning \
  --log=smpi_colls.thres:warning ${COLLC_SMPI_CFG:-} "$bench" "$@"
