#!/usr/bin/env bash
# COLLC_MPI_POLICY naming a policy the library must not use: a missing
# file, a shared object that is no policy, a policy built by another collc
# (FAKE), and ranks that do not agree (one with the policy POLICY, one
# without). In each case the program still passes on the built-in policy,
# the library says why exactly once, and its summary names no policy.
# DIGEST is the library's runtime digest (COLLC_RUNTIME_DIGEST).
#   policy_errors.sh openmpi|mpich LIBRARY DIGEST POLICY FAKE PROGRAM MPIRUN [FLAGS...]
set -euo pipefail
vendor=$1 library=$2 digest=$3 policy=$4 fake=$5 program=$6
shift 6
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export PRELOAD_QUICK=1
# (Per program of the command line: a run of two programs gives each its own.)
case $vendor in
  openmpi) common=(-x "LD_PRELOAD=$library" -x COLLC_MPI_VERBOSE=1 -x PRELOAD_QUICK)
           env_of() { echo "-x COLLC_MPI_POLICY=$1"; } ;;
  mpich) common=(-env LD_PRELOAD "$library" -env COLLC_MPI_VERBOSE 1 -env PRELOAD_QUICK 1)
         env_of() { echo "-env COLLC_MPI_POLICY $1"; } ;;
  *) echo "policy_errors.sh: unknown MPI vendor '$vendor'" >&2; exit 2 ;;
esac
case $vendor in openmpi) np=-np ;; mpich) np=-n ;; esac

# expect NAME MESSAGE MPIRUN-ARGS...: the run passes and MESSAGE is the
# one line the library printed about the policy.
expect() {
  local name=$1 message=$2
  shift 2
  if ! "$@" > "$out/$name" 2> "$out/$name.err"; then
    echo "policy_errors.sh: $name: the program failed:"; cat "$out/$name" "$out/$name.err"; exit 1
  fi
  grep -qx PASS "$out/$name" || { echo "policy_errors.sh: $name: no PASS"; cat "$out/$name"; exit 1; }
  local said
  said=$(grep -E '^collc_mpi: (COLLC_MPI_POLICY|policy )' "$out/$name.err" || true)
  if [ "$said" != "$message" ]; then
    echo "policy_errors.sh: $name: the library said:"; echo "$said"; echo "expected:"; echo "$message"; exit 1
  fi
  grep -q '^collc_mpi: summary' "$out/$name.err" || { echo "policy_errors.sh: $name: no summary"; exit 1; }
  echo "policy_errors.sh: $name: $message"
}

missing=$out/no-such-policy.so
# shellcheck disable=SC2046
expect missing "collc_mpi: COLLC_MPI_POLICY=$missing: cannot load it: $missing: cannot open shared object file: No such file or directory (rank 0); every rank serves with the built-in policy" \
  "$@" "${common[@]}" $(env_of "$missing") $np 2 "$program"
# shellcheck disable=SC2046
expect not_a_policy "collc_mpi: COLLC_MPI_POLICY=$library: not a collc policy (no collc_mpi_policy_v1; build one with \`collc policy FILES... -o policy.so\`) (rank 0); every rank serves with the built-in policy" \
  "$@" "${common[@]}" $(env_of "$library") $np 2 "$program"
# shellcheck disable=SC2046
expect another_collc "collc_mpi: COLLC_MPI_POLICY=$fake: built by another collc (runtime 0123456789abcdef, this library's $digest): rebuild it with the collc policy of this installation (rank 0); every rank serves with the built-in policy" \
  "$@" "${common[@]}" $(env_of "$fake") $np 2 "$program"
# shellcheck disable=SC2046
expect disagree "collc_mpi: COLLC_MPI_POLICY: the ranks loaded different policies (or some none); every rank serves with the built-in policy" \
  "$@" "${common[@]}" $np 1 "$program" : "${common[@]}" $(env_of "$policy") $np 1 "$program"
echo "policy_errors.sh: every refused policy left the built-in one serving"
