#!/usr/bin/env bash
# Runs mpi-only-bench (an MPI program that knows nothing of collc) without
# and with libcollc_mpi.so preloaded, alternately for ROUNDS rounds, and
# prints per call and size the median over rounds of each, and their ratio
# (preloaded / plain; below 1: collc faster). docs/benchmarks.md.
#   tools/bench/preload_compare.sh [-n P] [-r ROUNDS] [BUILD] [-- BENCH ARGS...]
# BUILD is the tree (default build; build-mpich for MPICH).
set -euo pipefail
cd "$(dirname "$0")/../.."
np=2 rounds=3 tree=build
while [ $# -gt 0 ]; do
  case $1 in
    -n) np=$2; shift 2 ;;
    -r) rounds=$2; shift 2 ;;
    --) shift; break ;;
    *) tree=$1; shift ;;
  esac
done
bench=$tree/bin/mpi-only-bench lib=$PWD/$tree/lib/libcollc_mpi.so
for f in "$bench" "$lib"; do
  [ -e "$f" ] || { echo "preload_compare.sh: error: $f is missing (cmake --build $tree)" >&2; exit 2; }
done
if ! grep -q "^COLLC_MPI:STRING=mpich" "$tree/CMakeCache.txt" 2>/dev/null; then  # Open MPI
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  run=(mpirun -np "$np" --bind-to none --mca pml ob1 --mca btl self,vader --mca op ^avx)
  preload=(-x "LD_PRELOAD=$lib")
else
  run=("$(sed -n "s/^MPIEXEC_EXECUTABLE:FILEPATH=//p" "$tree/CMakeCache.txt")" -np "$np")
  preload=(-genv LD_PRELOAD "$lib")
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for r in $(seq 1 "$rounds"); do
  "${run[@]}" "$bench" "$@" > "$out/plain$r.csv"
  "${run[@]}" "${preload[@]}" "$bench" "$@" > "$out/preloaded$r.csv"
done
python3 - "$out" "$rounds" "$np" <<'PY'
import csv, statistics, sys
out, rounds, np = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def load(name):
    rows = {}
    for r in range(1, rounds + 1):
        for row in csv.DictReader(open(f"{out}/{name}{r}.csv")):
            rows.setdefault((row["kind"], int(row["bytes"])), []).append(float(row["median_us"]))
    return rows
plain, pre = load("plain"), load("preloaded")
print(f"P = {np}, {rounds} rounds alternating; median over rounds of each run's median (us)")
print("| call | bytes | MPI | preloaded | preloaded / MPI |")
print("|---|---|---|---|---|")
for key in plain:
    a, b = statistics.median(plain[key]), statistics.median(pre[key])
    print(f"| {key[0]} | {key[1]} | {a:.2f} | {b:.2f} | {b / a:.2f} |")
PY
