#!/usr/bin/env bash
# tools/cluster.sh refuses bad options before it creates anything: exit 2
# and one line naming the option (no root needed, nothing to remove).
#   cluster_args.sh SOURCE_DIR
set -uo pipefail
cluster=$1/tools/cluster.sh
expect() {  # expect 'ERROR TEXT' ARGS...
  local want=$1 got rc
  shift
  got=$("$cluster" "$@" 2>&1 >/dev/null)
  rc=$?
  [ $rc -eq 2 ] || { echo "cluster_args: '$*' exited $rc, not 2"; exit 1; }
  [[ $got == "$want" ]] || { echo "cluster_args: '$*' said '$got', not '$want'"; exit 1; }
}
expect "cluster.sh: error: --hosts must be 2..32, got '1'" --hosts 1 -- true
expect "cluster.sh: error: --rate must look like 200mbit or 1gbit, got 'fast'" --rate fast -- true
expect "cluster.sh: error: --queue must be 1..1000 (milliseconds), got '0'" --queue 0 -- true
expect "cluster.sh: error: --mpi must be openmpi or mpich, got 'lam'" --mpi lam -- true
allowed=$(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control 2>/dev/null || true)
expect "cluster.sh: error: --tcp-cc must be one this machine allows ($allowed), got 'nosuch'" --tcp-cc nosuch -- true
expect "cluster.sh: error: unknown option '--hostz' (see the usage at the top of $cluster)" --hostz 4 -- true
expect "cluster.sh: error: no program given (cluster.sh [options] -- PROGRAM ...)" --hosts 4
echo "cluster_args: PASS"
