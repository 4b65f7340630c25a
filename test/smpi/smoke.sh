#!/usr/bin/env bash
# collc-bench under SMPI on examples/platforms/fat_tree.xml: P = 64,
# 8 B and 64 KiB, one trial after a warm-up, every result checked (a wrong
# one fails the run). Asserts every kind has the library's default and
# collc's schedules, and two times the simulation fixes exactly (it is
# deterministic): the library's allreduce at 8 B (Open MPI's recursive
# doubling at P = 64) and collc's doubling, the same algorithm. Then the
# library's forced algorithms, one wrong at that size. Last, collc's cost
# model of the platform (tools/platform-model.py) against the run.
#   smoke.sh SOURCE_DIR BENCH WORKDIR COLLC
set -euo pipefail
src=$1 bench=$2 work=$3 collc=$4
mkdir -p "$work"
cd "$work"
rm -f smoke.csv
COLLC_SMPI_BENCH=$bench "$src/tools/simulate.sh" "$src/examples/platforms/fat_tree.xml" 64 \
  --sizes 8,64K --trials 1 --warmups 1 --no-forced --quiet --csv smoke.csv > smoke.out 2>&1 ||
  { cat smoke.out; echo "smpi smoke: the run failed"; exit 1; }
for kind in allreduce reduce_scatter allgather alltoall broadcast reduce gather scatter inclusive_scan exclusive_scan barrier; do
  for bytes in 8 65536; do
    [ $kind = barrier ] && bytes=0
    grep -q "^\"SMPI 3\.[0-9]* (ompi selector)\",64,$kind,$bytes,mpi,default,1," smoke.csv ||
      { echo "smpi smoke: no library default for $kind $bytes"; exit 1; }
    grep -q "^\"[^\"]*\",64,$kind,$bytes,collc,[a-z_0-9]*,1," smoke.csv ||
      { echo "smpi smoke: no collc schedule for $kind $bytes"; exit 1; }
  done
done
time_of() { awk -F, -v s="$1" -v a="$2" '$3 == "allreduce" && $4 == 8 && $5 == s && $6 == a { print $8 }' smoke.csv; }
library=$(time_of mpi default) doubling=$(time_of collc allreduce_doubling)
[ "$library" = "$doubling" ] ||
  { echo "smpi smoke: allreduce 8 B: the library $library us, collc's doubling $doubling us"; exit 1; }
cases=$(($(wc -l < smoke.csv) - 1))
# SMPI's forced algorithms: smp_rsag is wrong where a rank's block would
# be empty (8 B on 64 ranks). It ends a run, named by the ranks that see
# it, or with --leave-out-wrong is left out, named once; rdb (Open MPI's
# pick here) is measured beside the default, exactly as long.
bench() {
  COLLC_SMPI_BENCH=$bench "$src/tools/simulate.sh" "$src/examples/platforms/fat_tree.xml" 64 \
    --kinds allreduce --sizes 8 --trials 1 --warmups 1 --forced rdb,smp_rsag --quiet "$@"
}
code=0
bench --csv wrong.csv > wrong.out 2>&1 || code=$?
[ "$code" = 3 ] || { cat wrong.out; echo "smpi smoke: smp_rsag's wrong result did not end the run (exit $code)"; exit 1; }
grep -q "collc-bench: error: wrong result: allreduce mpi smp_rsag (8 B) at warm-up 1, rank 0," wrong.out ||
  { cat wrong.out; echo "smpi smoke: smp_rsag's wrong result is not named"; exit 1; }
rm -f left.csv
bench --leave-out-wrong --csv left.csv > left.out 2>&1 || { cat left.out; echo "smpi smoke: --leave-out-wrong failed"; exit 1; }
[ "$(grep -c "left out" left.out)" = 1 ] &&
  grep -q "^collc-bench: left out: allreduce mpi smp_rsag (8 B): a wrong result in the first warm-up$" left.out ||
  { cat left.out; echo "smpi smoke: smp_rsag is not left out once, named"; exit 1; }
! grep -q ",smp_rsag," left.csv || { echo "smpi smoke: a left-out algorithm is in the CSV"; exit 1; }
rdb=$(awk -F, '$5 == "mpi" && $6 == "rdb" { print $8 }' left.csv)
default=$(awk -F, '$5 == "mpi" && $6 == "default" { print $8 }' left.csv)
[ -n "$rdb" ] && [ "$rdb" = "$default" ] ||
  { echo "smpi smoke: forced rdb $rdb us, the default $default us"; exit 1; }
# The model of fat_tree.xml prices each schedule within 5 % of its
# simulated time here (doubling at 8 B: 6 x (0.6 + 0.5) us, 6.61 against
# 6.63) and picks the simulated winner, except where sends leave before
# they arrive, which a step-by-step sum does not see: the small broadcast
# (the 4-ary tree's root sends 3 back to back) and the 64 KiB gather and
# scatter (the flat tree's root posts all 63 at once; 1 % ahead).
python3 "$src/tools/platform-model.py" "$src/examples/platforms/fat_tree.xml" 64 -o fat_tree.model
python3 "$src/tools/model-vs-sim.py" smoke.csv --model fat_tree.model --collc "$collc" \
  --schedules "$src/tools/bench/schedules.coll" > model.out
python3 "$src/tools/model-vs-sim.py" smoke.csv --model fat_tree.model --collc "$collc" \
  --schedules "$src/tools/bench/schedules.coll" --brief > brief.out
grep -q "^  allreduce_doubling                 6.61       6.63      1.00 <- pick <- winner$" model.out ||
  { cat model.out; echo "smpi smoke: the model's 8 B allreduce"; exit 1; }
grep -q "^| broadcast | 8 B | broadcast_binomial | broadcast_arity4 | 1.29 | 1.00 |$" brief.out &&
  grep -q "^| scatter | 64 KiB | scatter_binomial | scatter_flat | 1.01 | 1.00 |$" brief.out &&
  grep -q "^model's pick is the simulated winner (or ties it) in 18 of 21 cells; worst pick 1.29x the winner$" brief.out ||
  { cat brief.out; echo "smpi smoke: the model's picks"; exit 1; }
# On the torus the model routes as SimGrid does (dimension order): the
# ring's 126 steps of 16 KiB between neighbours are priced within 0.1 %
# (a first-found shortest path put two of its messages on one link, 1.6x),
# and it picks the ring over halving at 1 MiB, as the simulation does.
COLLC_SMPI_BENCH=$bench "$src/tools/simulate.sh" "$src/examples/platforms/torus.xml" 64 \
  --kinds allreduce --sizes 1M --trials 1 --warmups 1 --no-forced --quiet \
  --schedules allreduce_ring,allreduce_halving --csv torus.csv > torus.out 2>&1 ||
  { cat torus.out; echo "smpi smoke: the torus run failed"; exit 1; }
python3 "$src/tools/platform-model.py" "$src/examples/platforms/torus.xml" 64 -o torus.model
python3 "$src/tools/model-vs-sim.py" torus.csv --model torus.model --collc "$collc" \
  --schedules "$src/tools/bench/schedules.coll" > torus-model.out
grep -q "^  allreduce_ring                   667.90     668.32      1.00 <- pick <- winner$" torus-model.out ||
  { cat torus-model.out; echo "smpi smoke: the model's ring on the torus"; exit 1; }
# The sweep script: two parts a cell, the sizes over its memory bound
# left out and named, a wall time each.
rm -rf sweep
COLLC_SMPI_BENCH=$bench COLLC_SWEEP_MEMORY=100000 "$src/tools/sweep-smpi.sh" sweep fat_tree 4 8,64K \
  --no-forced > sweep.out 2>&1 || { cat sweep.out; echo "smpi smoke: the sweep failed"; exit 1; }
grep -q "^== fat_tree, P = 4, vector kinds: left out 64K (over 100000 bytes of buffers)$" sweep.out &&
  grep -q "^== fat_tree, P = 4, blocks kinds: left out 64K (over 100000 bytes of buffers)$" sweep.out &&
  [ "$(awk '$4 == "vector" || $4 == "blocks" { print $1, $2, $3, $4, $6 }' sweep/times.txt | tr '\n' ';')" = \
    "fat_tree 4 ompi vector ok;fat_tree 4 ompi blocks ok;" ] &&
  [ -s sweep/fat_tree-4-ompi-vector.csv ] && [ -s sweep/fat_tree-4-ompi-blocks.svg ] &&
  grep -q "^| alltoall | " sweep.out || { cat sweep.out sweep/times.txt; echo "smpi smoke: the sweep's parts"; exit 1; }
echo "smpi smoke: $cases cases at P = 64, all checked"
