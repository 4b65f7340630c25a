#!/usr/bin/env bash
# Runs an MPI program twice under mpirun, without and with libcollc_mpi.so
# preloaded, and requires: both runs pass (exit 0, a PASS line), their
# outputs (each rank's digest of its results) are identical, and the
# library's summary (COLLC_MPI_VERBOSE=1) shows SERVED calls served and
# PASSED passed to MPI (SERVED 'all': every one of the 11 calls served,
# none passed).
# With PRELOAD_POLICY set, the library runs with COLLC_MPI_POLICY=that
# policy.so, and its summary must say the policy served exactly the calls
# PRELOAD_POLICY_CALLS names ("MPI_Allreduce MPI_Bcast"), each at least
# once. PRELOAD_EXPECT: an extended regular expression some line the
# library printed must match. Each run must end within PRELOAD_TIMEOUT
# seconds (default 120): a hang fails the test, naming the run.
# PROGRAM_ARGS: the program's arguments.
#   run.sh openmpi|mpich NP LIBRARY SERVED PASSED PROGRAM MPIRUN [FLAGS...]
set -euo pipefail
vendor=$1 np=$2 library=$3 served=$4 passed=$5 program=$6
shift 6
case $vendor in
  openmpi) preload=(-x "LD_PRELOAD=$library" -x COLLC_MPI_VERBOSE=1) ;;
  mpich) preload=(-genv LD_PRELOAD "$library" -genv COLLC_MPI_VERBOSE 1) ;;
  *) echo "run.sh: unknown MPI vendor '$vendor'" >&2; exit 2 ;;
esac
if [ -n "${PRELOAD_POLICY:-}" ]; then
  case $vendor in
    openmpi) preload+=(-x "COLLC_MPI_POLICY=$PRELOAD_POLICY") ;;
    mpich) preload+=(-genv COLLC_MPI_POLICY "$PRELOAD_POLICY") ;;
  esac
fi
# PRELOAD_QUICK (collectives.cpp's lighter run) reaches the ranks of both runs.
forward=()
if [ -n "${PRELOAD_QUICK:-}" ]; then
  case $vendor in
    openmpi) forward=(-x PRELOAD_QUICK) ;;
    mpich) forward=(-genv PRELOAD_QUICK "$PRELOAD_QUICK") ;;
  esac
fi
read -r -a args <<< "${PROGRAM_ARGS:-}"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
limit=${PRELOAD_TIMEOUT:-120}
bounded() {  # bounded WHAT OUT COMMAND...: runs COMMAND within the limit
  local what=$1 to=$2 code=0
  shift 2
  timeout -k 10 "$limit" "$@" > "$out/$to" 2> "$out/$to.err" || code=$?
  if [ "$code" = 124 ] || [ "$code" = 137 ]; then
    echo "run.sh: the program did not finish within $limit s $what (a hang):"
    cat "$out/$to" "$out/$to.err"; exit 1
  elif [ "$code" != 0 ]; then
    echo "run.sh: the program failed $what:"; cat "$out/$to" "$out/$to.err"; exit 1
  fi
}
bounded "without the library" plain "$@" -np "$np" ${forward[@]+"${forward[@]}"} "$program" ${args[@]+"${args[@]}"}
bounded "with the library preloaded" preloaded "$@" -np "$np" ${forward[@]+"${forward[@]}"} "${preload[@]}" "$program" ${args[@]+"${args[@]}"}
grep -qx PASS "$out/plain" || { echo "run.sh: no PASS without the library:"; cat "$out/plain"; exit 1; }
grep -qx PASS "$out/preloaded" || { echo "run.sh: no PASS with the library:"; cat "$out/preloaded"; exit 1; }
if ! diff <(sort "$out/plain") <(sort "$out/preloaded"); then
  echo "run.sh: the results differ with the library preloaded (above: < without, > with)"; exit 1
fi
summary=$(grep '^collc_mpi: summary' "$out/preloaded.err" || true)
if [ -z "$summary" ]; then
  echo "run.sh: the library printed no summary:"; cat "$out/preloaded.err"; exit 1
fi
echo "$summary"
grep '^collc_mpi:   ' "$out/preloaded.err" || true
got_served=$(sed -E 's/.*: ([0-9]+) calls served by collc, ([0-9]+) passed to MPI$/\1/' <<< "$summary")
got_passed=$(sed -E 's/.*: ([0-9]+) calls served by collc, ([0-9]+) passed to MPI$/\2/' <<< "$summary")
check() {  # check NAME WANT GOT
  if [ "$2" != "$3" ]; then echo "run.sh: $3 calls $1, expected $2"; exit 1; fi
}
if [ "$served" = all ]; then
  lines=$(grep -cE '^collc_mpi:   MPI_[A-Za-z_]+ +served [1-9][0-9]*, passed 0$' "$out/preloaded.err" || true)
  [ "$lines" = 11 ] || { echo "run.sh: $lines of the 11 calls served with none passed"; exit 1; }
else
  check served "$served" "$got_served"
fi
check passed "$passed" "$got_passed"
if [ -n "${PRELOAD_POLICY:-}" ]; then
  line=$(grep "^collc_mpi: policy $PRELOAD_POLICY " "$out/preloaded.err" || true)
  [ -n "$line" ] || { echo "run.sh: no line of the policy $PRELOAD_POLICY in the summary:"; cat "$out/preloaded.err"; exit 1; }
  echo "$line"
  got=$(sed -E 's/.* served [0-9]+ calls(: )?//; s/ [0-9]+(, |$)/ /g' <<< "$line" | xargs -n1 | sort | xargs)
  want=$(xargs -n1 <<< "${PRELOAD_POLICY_CALLS:-}" | sort | xargs)
  [ "$got" = "$want" ] || { echo "run.sh: the policy served '$got', expected '$want'"; exit 1; }
fi
if [ -n "${PRELOAD_EXPECT:-}" ] && ! grep -qE "$PRELOAD_EXPECT" "$out/preloaded.err"; then
  echo "run.sh: no line of the library matches '$PRELOAD_EXPECT':"; cat "$out/preloaded.err"; exit 1
fi
echo "run.sh: identical results without and with libcollc_mpi.so at P = $np"
