#!/usr/bin/env bash
# collc-bench's smoke run (the benchmark itself never runs in CI): 2 ranks,
# 2 sizes, 3 trials, every result checked. Asserts the CSV has every kind
# with the library's default, collc's schedules and 3 trials per case, that
# the SVG is written, and that a wrong result aborts the run with its name.
#   smoke.sh BENCH WORKDIR MPIRUN...
set -euo pipefail
bench=$1 work=$2
shift 2
mkdir -p "$work"
cd "$work"
rm -f smoke.csv smoke.svg
"$@" -np 2 "$bench" --sizes 8,4K --trials 3 --warmups 1 --quiet --csv smoke.csv --svg smoke.svg > smoke.out
header=$(head -1 smoke.csv)
want="library,ranks,kind,bytes,source,algorithm,trials,median_us,mad_us,p10_us,p90_us,min_us,max_us,ratio_to_default,ratio_to_best_library"
[ "$header" = "$want" ] || { echo "smoke: CSV header is '$header'"; exit 1; }
for kind in allreduce reduce_scatter allgather alltoall broadcast reduce gather scatter inclusive_scan exclusive_scan barrier; do
  for bytes in 8 4096; do
    [ $kind = barrier ] && bytes=0
    grep -q "^\"[^\"]*\",2,$kind,$bytes,mpi,default,3," smoke.csv || { echo "smoke: no library default for $kind $bytes"; exit 1; }
    grep -q "^\"[^\"]*\",2,$kind,$bytes,collc,[a-z_0-9]*,3," smoke.csv || { echo "smoke: no collc schedule for $kind $bytes"; exit 1; }
  done
done
for hand in ring halving-doubling recursive-doubling; do
  grep -q ",allreduce,8,hand,$hand,3," smoke.csv || { echo "smoke: no hand-written $hand"; exit 1; }
done
rows=$(($(wc -l < smoke.csv) - 1))
bad=$(awk -F, 'NR > 1 && $7 != 3' smoke.csv | wc -l)
[ "$bad" = 0 ] || { echo "smoke: $bad rows without 3 trials"; exit 1; }
grep -q "^<svg " smoke.svg && grep -q "collc allreduce_ring" smoke.svg || { echo "smoke: no SVG"; exit 1; }
grep -q "best collc schedule per size" smoke.out || { echo "smoke: no summary"; exit 1; }
# A spoiled result must stop the run, naming the case.
rm -f corrupt.csv
if "$@" -np 2 "$bench" --sizes 8 --trials 3 --warmups 1 --quiet --kinds allreduce --corrupt allreduce_ring --csv corrupt.csv \
    > corrupt.out 2>&1; then
  echo "smoke: a wrong result did not stop the run"; exit 1
fi
grep -q "collc-bench: error: wrong result: allreduce collc allreduce_ring (8 B) at warm-up 1, rank 1, element 0: got 4, expected 3" corrupt.out ||
  { echo "smoke: the wrong result is not named:"; cat corrupt.out; exit 1; }
[ ! -e corrupt.csv ] || { echo "smoke: a stopped run wrote corrupt.csv"; exit 1; }
# Without warm-ups the first timed trial sees it (the times and checks of
# a pass over the cases are gathered after the pass).
rm -f corrupt.csv
if "$@" -np 2 "$bench" --sizes 8,64 --trials 3 --warmups 0 --quiet --kinds allreduce,allgather --corrupt allreduce_ring \
    --csv corrupt.csv > corrupt.out 2>&1; then
  echo "smoke: a wrong result in a trial did not stop the run"; exit 1
fi
grep -q "collc-bench: error: wrong result: allreduce collc allreduce_ring (64 B) at trial 1, rank 1, element 0: got 4, expected 3" corrupt.out ||
  { echo "smoke: the wrong trial result is not named:"; cat corrupt.out; exit 1; }
[ ! -e corrupt.csv ] || { echo "smoke: a stopped run wrote corrupt.csv"; exit 1; }
# Bad options: exit 2 with the reason.
if "$@" -np 1 "$bench" --sizes 7 > badsize.out 2>&1; then echo "smoke: --sizes 7 accepted"; exit 1; fi
grep -q "collc-bench: error: --sizes: '7' is not a size of whole doubles (8 B or more, a multiple of 8)" badsize.out ||
  { echo "smoke: bad --sizes not named:"; cat badsize.out; exit 1; }
# --schedules: only the named collc and hand-written ones beside the
# library's default; an unknown name is an error.
rm -f only.csv
"$@" -np 2 "$bench" --sizes 8 --trials 1 --warmups 0 --quiet --kinds allreduce --no-forced \
  --schedules allreduce_ring,ring --csv only.csv > only.out
ran=$(awk -F, 'NR > 1 { printf "%s/%s ", $5, $6 }' only.csv)
[ "$ran" = "mpi/default hand/ring collc/allreduce_ring " ] || { echo "smoke: --schedules ran '$ran'"; exit 1; }
# The hand-written halving-doubling with fewer elements than ranks (3 on
# 8: the first half holds all three), its result checked.
"$@" -np 8 "$bench" --sizes 24 --trials 1 --warmups 0 --quiet --kinds allreduce --no-forced \
  --schedules halving-doubling > few.out 2>&1 || { cat few.out; echo "smoke: 3 elements on 8 ranks failed"; exit 1; }
if "$@" -np 1 "$bench" --schedules allreduce_ring,bogus > bogus.out 2>&1; then echo "smoke: --schedules bogus accepted"; exit 1; fi
grep -q "^collc-bench: error: --schedules: unknown schedule 'bogus'$" bogus.out ||
  { echo "smoke: unknown --schedules not named:"; cat bogus.out; exit 1; }
echo "smoke: $rows cases, all checked"
