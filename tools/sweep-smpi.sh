#!/usr/bin/env bash
# A sweep of collc-bench on simulated clusters (docs/scale.md): every
# platform named and every P, by tools/simulate.sh, one warm-up and one
# trial per case (the simulation is deterministic).
#   tools/sweep-smpi.sh OUTDIR PLATFORMS PS SIZES [COLLC-BENCH OPTIONS...]
#   e.g. tools/sweep-smpi.sh /tmp/sweep fat_tree,torus 16,64,100,256 8,1K,64K,1M --no-forced
# PLATFORMS are names in examples/platforms/ (or paths to .xml files).
# Every simulated rank holds its buffers in this machine's memory, so each
# cell runs twice: the kinds of one vector (allreduce, broadcast, reduce,
# the scans, the barrier) at the SIZES whose 3 P SIZE bytes fit in
# COLLC_SWEEP_MEMORY (default 6 GiB), and the kinds of P blocks
# (reduce_scatter, allgather, alltoall, gather, scatter) at those whose
# 3 P^2 SIZE bytes do; the sizes left out are named. Writes
# OUTDIR/PLATFORM-P-SELECTOR-{vector,blocks}.csv, .svg and .out, appends
# "platform P selector part seconds status" to OUTDIR/times.txt, and
# prints the best collc schedule over the library's default per kind and
# size (tools/bench/summarize.py --grid).
# Above P = 512, unless the options name --schedules, only the schedules
# that send O(P log P) messages a call run: a ring's 2(P - 1) P messages
# take minutes to simulate there (COLLC_SWEEP_LARGE overrides the list).
# The environment of tools/simulate.sh applies (COLLC_SMPI_SELECTOR, ...).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: tools/sweep-smpi.sh OUTDIR PLATFORMS PS SIZES [COLLC-BENCH OPTIONS...]"
case ${1:-} in -h | --help) echo "$usage"; exit 0 ;; esac
[ $# -ge 4 ] || { echo "tools/sweep-smpi.sh: $usage" >&2; exit 2; }
out=$1 platforms=$2 ranks=$3 sizes=$4
shift 4
memory=${COLLC_SWEEP_MEMORY:-6442450944}
large=${COLLC_SWEEP_LARGE:-allreduce_butterfly,allreduce_halving,allreduce_doubling,allreduce_tree,allreduce_trivance,allreduce_choose,halving-doubling,recursive-doubling,reduce_scatter_butterfly,reduce_scatter_halving,reduce_scatter_tree,allgather_butterfly,allgather_doubling,allgather_tree,alltoall_bruck,alltoall_retri,broadcast_binomial,broadcast_arity4,broadcast_arity8,reduce_binomial,reduce_binomial_seg4,reduce_arity4,gather_binomial,scatter_binomial,scan_doubling,exscan_doubling,barrier_butterfly,barrier_binomial}
named=0
for a in "$@"; do [ "$a" = --schedules ] && named=1; done
selector=${COLLC_SMPI_SELECTOR:-ompi}
mkdir -p "$out"
IFS=, read -ra platformList <<< "$platforms"
IFS=, read -ra rankList <<< "$ranks"
for platform in "${platformList[@]}"; do
  file=$platform
  [ -f "$file" ] || file=$root/examples/platforms/$platform.xml
  [ -f "$file" ] || { echo "tools/sweep-smpi.sh: no platform '$platform'" >&2; exit 2; }
  name=$(basename "$file" .xml)
  for p in "${rankList[@]}"; do
    [[ $p =~ ^[1-9][0-9]*$ ]] || { echo "tools/sweep-smpi.sh: P must be a positive number, not '$p'" >&2; exit 2; }
    extra=()
    if [ "$p" -gt 512 ] && [ $named = 0 ]; then extra=(--schedules "$large"); fi
    for part in vector blocks; do
      if [ $part = vector ]; then
        kinds=allreduce,broadcast,reduce,inclusive_scan,exclusive_scan,barrier per=$((3 * p))
      else
        kinds=reduce_scatter,allgather,alltoall,gather,scatter per=$((3 * p * p))
      fi
      # The sizes that fit; collc-bench reads 1K, 1M as 1024, 1048576.
      fit=$(python3 -c '
import sys
per, memory = int(sys.argv[1]), int(sys.argv[2])
scale = {"": 1, "K": 1024, "M": 1 << 20, "G": 1 << 30}
keep, drop = [], []
for s in sys.argv[3].split(","):
    (keep if int(s.rstrip("KMG")) * scale[s[-1] if s[-1] in "KMG" else ""] * per <= memory else drop).append(s)
print(",".join(keep) + " " + ",".join(drop))' "$per" "$memory" "$sizes")
      keep=${fit% *} drop=${fit#* }
      [ -n "$drop" ] && echo "== $name, P = $p, $part kinds: left out $drop (over $memory bytes of buffers)"
      [ -n "$keep" ] || continue
      base=$out/$name-$p-$selector-$part
      rm -f "$base.csv"
      start=$(date +%s)
      status=ok
      "$root/tools/simulate.sh" "$file" "$p" --trials 1 --warmups 1 --quiet --csv "$base.csv" --svg "$base.svg" \
        --kinds $kinds --sizes "$keep" "${extra[@]}" "$@" > "$base.out" 2>&1 || status="failed ($?)"
      seconds=$(($(date +%s) - start))
      echo "$name $p $selector $part $seconds $status" >> "$out/times.txt"
      echo "== $name, P = $p, $selector selector, $part kinds: $seconds s, $status"
      if [ "$status" = ok ]; then
        python3 "$root/tools/bench/summarize.py" "$base.csv" --grid
      else
        tail -5 "$base.out"
      fi
    done
  done
done
