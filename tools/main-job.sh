#!/usr/bin/env bash
# The main job on a fresh Debian 12 machine: install what is missing, build,
# then show each capability once: verify (a proof and a counterexample),
# compile every example into a header, trace, cost and explain, calibrate,
# and run the compiled collectives under mpirun against the MPI library.
# The full proofs (every example at P = 2..64, every mutant) are in the test
# suite (tools/test.sh); this is the demonstration, about a minute after
# the build on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
tools/build.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
collc=build/bin/collc
out=build/main-job
rm -rf "$out"
mkdir -p "$out"
started=$SECONDS
mpirun_args=(--oversubscribe --bind-to none --mca pml ob1 --mca btl self,vader
  --mca op ^avx)

section() { printf '\n== %s\n' "$*"; }
fail() { printf 'main job: %s\n' "$*" >&2; exit 1; }

# The model an example's compile needs (examples/models/examples.txt), as
# "--model FILE", or nothing.
model_args() {
  local model
  model=$(awk -v e="$1" '$1 == e { print $2 }' examples/models/examples.txt)
  [ -z "$model" ] || printf -- '--model\nexamples/models/%s\n' "$model"
}

section "verify: Z3 proofs per P and, where the schedule is a closed form in P, for all P; the exact simulation cross-checks each"
proven=0
for spec in "ring.coll 2..64" "butterfly.coll 2..64" "alltoall_retri.coll 2..64" \
    "scan_concat.coll 2..16" "trivance.coll 9,10,27"; do
  read -r file ranks <<<"$spec"
  echo "\$ collc verify examples/$file --ranks $ranks --cross-check"
  "$collc" verify "examples/$file" --ranks "$ranks" --cross-check | grep -v '^  P = ' ||
    fail "examples/$file is not proven"
  proven=$((proven + 1))
done

section "verify: a hand-edited ring (rank 3 forgets to send in step 0) gets a counterexample"
mutant=test/verify/mutants/13-ring-missing-transfer.mlir
echo "\$ collc verify $mutant"
code=0
"$collc" verify "$mutant" || code=$?
[ "$code" -eq 1 ] || fail "the broken ring was not caught (exit $code, expected 1)"
caught=1

section "compile: every example, proven for each admitted P in 1..64, then written as a header"
# The build proved them already (its headers): the proof cache it kept
# (collc compile --proof-cache) lets this collc reuse those proofs.
compile_one() {
  local name=$1 code=0
  mapfile -t model < <(model_args "$name")
  "$collc" compile "examples/$name.coll" -o "$out/$name.hpp" "${model[@]}" \
    --proof-cache build/collc-proof-cache \
    >"$out/$name.log" 2>&1 || code=$?
  echo "$code" >"$out/$name.code"
}
names=()
for f in examples/*.coll; do
  names+=("$(basename "$f" .coll)")
  while (($(jobs -rp | wc -l) >= $(nproc))); do wait -n || true; done
  compile_one "${names[-1]}" &
done
wait
headers=0
for name in "${names[@]}"; do
  if [ "$(cat "$out/$name.code")" != 0 ] || [ ! -s "$out/$name.hpp" ]; then
    cat "$out/$name.log" >&2
    fail "examples/$name.coll did not compile"
  fi
  headers=$((headers + 1))
  model=$(model_args "$name" | tail -n 1)
  echo "   examples/$name.coll -> $out/$name.hpp${model:+   (thresholds from $model)}"
done

section "trace: the ring all-reduce on 4 ranks, value by value (seeds/000)"
"$collc" trace examples/ring.coll --ranks 4

section "cost and explain: seed 000's machine (P = 8), and where the choice changes by size"
"$collc" cost examples/seed000_allreduce.coll --model examples/models/seed000.model
"$collc" explain examples/allreduce_choose.coll --ranks 4,7,8,16 \
  --model examples/models/seed000.model

section "calibrate: this machine's alpha, beta and gamma, and the thresholds they give"
"$collc" calibrate -o "$out/machine.model" --quick
"$collc" explain examples/allreduce_choose.coll --ranks 4,8 --model "$out/machine.model"

section "run: collectives compiled by collc under mpirun, compared element by element with the MPI library"
# One rank count per example, rotating through primes and non-powers of
# two (an example that does not admit it tries 4, then 8, then 6: the
# power-of-two and fixed specs); one mpirun launch a program and rank
# count runs all its examples, each printing its PASS line. The test suite
# runs every example for P = 1..8.
runs=0
launches=0
rotation=(5 6 7 3)
todo=() # "PROGRAM EXAMPLE P"
# build/test/mpi-checks.txt: "PROGRAM EXAMPLE" a line (test/CMakeLists.txt).
while read -r program example; do
  todo+=("$program $example ${rotation[$((${#todo[@]} % ${#rotation[@]}))]}")
done <build/test/mpi-checks.txt
for next_P in 4 8 6 none; do
  rejected=()
  while read -r program P; do
    mapfile -t examples < <(printf '%s\n' "${todo[@]}" |
      awk -v p="$program" -v n="$P" '$1 == p && $3 == n { print $2 }')
    output=$(mpirun "${mpirun_args[@]}" -np "$P" "build/bin/$program" "${examples[@]}" </dev/null) ||
      fail "$program at P = $P (${examples[*]}) did not match the MPI library"
    launches=$((launches + 1))
    for example in "${examples[@]}"; do
      line=$(grep "^PASS $example " <<<"$output") ||
        fail "$example ($program) at P = $P did not match the MPI library"
      if [[ "$line" == *" rejected: "* ]]; then
        [ "$next_P" != none ] || fail "$example admits none of the rank counts tried"
        rejected+=("$program $example $next_P")
      else
        echo "   $line"
        runs=$((runs + 1))
      fi
    done
  done < <(printf '%s\n' "${todo[@]}" | awk '{ print $1, $3 }' | sort -u -k2n)
  ((${#rejected[@]})) || break
  todo=("${rejected[@]}")
done
for P in 3 4 5; do
  mpirun "${mpirun_args[@]}" -np "$P" build/bin/allreduce_demo 100003
  runs=$((runs + 1))
  launches=$((launches + 1))
done

section "ucx: the same collectives over UCX instead of MPI's point-to-point (docs/ucx.md)"
# COLLC_TRANSPORT=ucx: every Comm{MPI_Comm} moves its messages with UCX
# (shared memory here, TCP below); and a program without MPI whose P
# processes meet through files.
ucx_runs=0
for spec in "check_examples ring sm 5" "check_examples alltoall_bruck tcp 3" "check_examples trivance sm 4"; do
  read -r exe example tls P <<<"$spec"
  line=$(COLLC_TRANSPORT=ucx UCX_TLS=$tls,self mpirun "${mpirun_args[@]}" -x COLLC_TRANSPORT -x UCX_TLS \
    -np "$P" "build/bin/$exe" "$example" | grep "^PASS $example ") ||
    fail "$example over UCX ($tls) at P = $P did not match the MPI library"
  echo "   UCX_TLS=$tls,self: $line"
  ucx_runs=$((ucx_runs + 1))
done
UCX_TLS=sm,self test/ucx/run_file_bootstrap.sh build/bin/ucx_file_bootstrap 3 | tail -1 | sed 's/^/   /' ||
  fail "the MPI-free UCX program failed"
ucx_runs=$((ucx_runs + 1))

section "preload: an MPI program written without collc, unchanged, with libcollc_mpi.so (docs/preload.md)"
# Every served call on 24 types and every operator, without and with the
# library: identical results, and the summary of what it served.
preloaded=0
for P in 3 5; do
  test/preload/run.sh openmpi "$P" "$PWD/build/lib/libcollc_mpi.so" all 0 \
    build/bin/preload_collectives mpirun "${mpirun_args[@]}" | sed 's/^/   /' ||
    fail "the preloaded program at P = $P differed from plain MPI"
  preloaded=$((preloaded + 1))
done
# Ranks describing the same bytes with different datatypes (n x MPI_INT on
# one, a vector, an indexed type in reverse, a struct with a gap on the
# next): every rank decides alike from the type signature.
test/preload/run.sh openmpi 3 "$PWD/build/lib/libcollc_mpi.so" all 0 \
  build/bin/preload_signatures mpirun "${mpirun_args[@]}" | sed 's/^/   /' ||
  fail "the program of mixed datatypes differed from plain MPI"
preloaded=$((preloaded + 1))
# A policy of one's own, built by `collc policy` and loaded at MPI_Init
# (COLLC_MPI_POLICY): it serves MPI_Allreduce and MPI_Allgather, the
# built-in policy the rest.
build/bin/collc policy examples/policies/ring_allreduce.coll \
  --model examples/models/seed000.model -o "$out/ring-policy.so" \
  --proof-cache build/collc-proof-cache ||
  fail "collc policy could not build examples/policies/ring_allreduce.coll"
PRELOAD_POLICY="$PWD/$out/ring-policy.so" PRELOAD_POLICY_CALLS="MPI_Allreduce MPI_Allgather" \
  test/preload/run.sh openmpi 4 "$PWD/build/lib/libcollc_mpi.so" all 0 \
  build/bin/preload_collectives mpirun "${mpirun_args[@]}" | sed 's/^/   /' ||
  fail "the program under the policy ring-policy.so differed from plain MPI"
preloaded=$((preloaded + 1))

section "summary"
echo "   proven:   $proven example specs (their rank ranges above, each cross-checked by the simulation), and $caught broken program caught with a counterexample"
echo "   compiled: $headers of $(ls examples/*.coll | wc -l) examples proven for each admitted P in 1..64 (what the build proved reused from its proof cache) and written to $out/"
echo "   ran:      $runs runs of compiled collectives matched the MPI library's results ($launches mpirun launches)"
echo "   ucx:      $ucx_runs runs over the UCX transport (with MPI, and without: processes meeting through files) matched"
echo "   preload:  $preloaded mpirun runs of unchanged MPI programs with libcollc_mpi.so (one of mixed datatypes, the last under a policy built by collc policy), results identical to plain MPI"
echo "   main job: $((SECONDS - started)) s after the build"
