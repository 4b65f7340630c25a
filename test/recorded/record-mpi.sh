#!/usr/bin/env bash
# COLLC_RECORD under mpirun: runs an MPI check program (test/mpi) with
# every collective call recorded into FILE, then requires that FILE holds
# one coll.program per call, numbered from 0, and that `collc verify`
# proves every one. ctest recorded.mpi.*.
#   record-mpi.sh COLLC FILE P EXE EXAMPLE MPIRUN [MPIRUN ARGS...]
# (EXE a check program of test/mpi, EXAMPLE the one of its checks to run)
# (the MPIRUN ARGS end with the flag that passes COLLC_RECORD to the ranks:
# Open MPI's -x COLLC_RECORD, MPICH's -genvlist COLLC_RECORD)
set -euo pipefail
collc=$1 file=$2 P=$3 exe=$4 example=$5
shift 5
rm -f "$file"
COLLC_RECORD=$file "$@" -np "$P" "$exe" "$example" | grep "^PASS $example "
calls=$(grep -c '^// collc recording: call [0-9]* on '"$P"' ranks$' "$file")
programs=$(grep -c '^coll.program @' "$file")
last=$(grep '^// collc recording: call' "$file" | tail -1 | cut -d' ' -f5)
if [ "$calls" -lt 1 ] || [ "$calls" != "$programs" ] || [ "$last" != $((calls - 1)) ]; then
  echo "record-mpi: $file has $calls call headers, $programs programs, last call $last" >&2
  exit 1
fi
proven=$("$collc" verify "$file" | grep -c ': all properties proven for P in {'"$P"'}')
if [ "$proven" != "$calls" ]; then
  echo "record-mpi: collc verify proves $proven of the $calls recorded calls in $file" >&2
  exit 1
fi
echo "record-mpi: $calls calls recorded, all proven"
