#!/usr/bin/env bash
# An emulated cluster on this machine: K hosts, each a network namespace
# with one veth link into a bridge that lives in a namespace of its own,
# every link rate-limited at both ends with tc tbf (this kernel has no
# netem, so no added delay). A command then runs across the hosts with
# mpirun over TCP. Everything the script creates is removed on exit,
# error or interrupt; it only uses addresses inside namespaces it made
# (10.77.0.0/24 by default).
#
#   tools/cluster.sh [--hosts K] [--rate 1gbit] [--queue MS] [--mpi openmpi|mpich]
#                    [--tcp-cc reno|...] [--timeout SECONDS] -- PROGRAM [ARGS...]
#
# runs PROGRAM on K ranks, one per host (needs root). --queue: how long a
# packet may wait in a link's queue (tbf's latency, default 50 ms); a deep
# queue also holds the ACKs of the flow coming the other way behind the
# outgoing data, which a ring's every step waits for
# (docs/history/benchmarks-2026-12.md).
# --tcp-cc: the hosts' TCP congestion control (default: the machine's).
# This machine's default is BBR, which runs a ring's 256 KiB steps at 1.3
# of the rate here (likely misled by the ACKs delayed behind data); reno,
# loss-based like Debian's default cubic (which a namespace here may not
# choose), runs them at 1.05. Example (the allreduce of
# docs/history/benchmarks-2026-12.md, 6 hosts at 200 Mbit/s):
#
#   tools/cluster.sh --hosts 6 --rate 200mbit --queue 5 --tcp-cc reno -- \
#     build/bin/collc-bench --kinds allreduce --sizes 8,1M --trials 11 --csv c.csv
#
# Open MPI runs with btl self,tcp (and rtc_hwloc_vmhole none: with many
# daemons on one machine, orted's shared-memory topology write can
# segfault in hwloc); MPICH (build-mpich/bin/...) with UCX
# over TCP and MPIR_CVAR_NOLOCAL, so that no two hosts share memory, and
# tools/cluster_yield.c preloaded (compiled here with cc): MPICH's
# progress loop never yields the core, which K ranks on two cores need as
# Open MPI's mpi_yield_when_idle gives it; and
# collc with COLLC_SHM=0 (the namespaces share this machine's memory, so
# its shared-memory channels would skip the links, as no real hosts can).
set -euo pipefail

hosts=4 rate=1gbit queue=50 mpi=openmpi limit=900 subnet=10.77.0 cc=
while (($#)); do
  case $1 in
    --hosts) hosts=$2; shift 2 ;;
    --rate) rate=$2; shift 2 ;;
    --queue) queue=$2; shift 2 ;;
    --mpi) mpi=$2; shift 2 ;;
    --timeout) limit=$2; shift 2 ;;
    --tcp-cc) cc=$2; shift 2 ;;
    --subnet) subnet=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "cluster.sh: error: unknown option '$1' (see the usage at the top of $0)" >&2; exit 2 ;;
  esac
done
(($#)) || { echo "cluster.sh: error: no program given (cluster.sh [options] -- PROGRAM ...)" >&2; exit 2; }
[[ $hosts =~ ^[0-9]+$ ]] && ((hosts >= 2 && hosts <= 32)) ||
  { echo "cluster.sh: error: --hosts must be 2..32, got '$hosts'" >&2; exit 2; }
[[ $rate =~ ^[0-9]+(k|m|g)?bit$ ]] ||
  { echo "cluster.sh: error: --rate must look like 200mbit or 1gbit, got '$rate'" >&2; exit 2; }
[[ $queue =~ ^[0-9]+$ ]] && ((queue >= 1 && queue <= 1000)) ||
  { echo "cluster.sh: error: --queue must be 1..1000 (milliseconds), got '$queue'" >&2; exit 2; }
[ "$mpi" = openmpi ] || [ "$mpi" = mpich ] ||
  { echo "cluster.sh: error: --mpi must be openmpi or mpich, got '$mpi'" >&2; exit 2; }
# A namespace may choose among the congestion controls the machine allows
# (available but not allowed ones are refused there).
allowed=$(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control 2>/dev/null || true)
[ -z "$cc" ] || [[ " $allowed " == *" $cc "* ]] ||
  { echo "cluster.sh: error: --tcp-cc must be one this machine allows ($allowed), got '$cc'" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "cluster.sh: error: network namespaces need root" >&2; exit 2; }

program=$(readlink -f "$1")
shift
[ -x "$program" ] || { echo "cluster.sh: error: '$program' is not an executable" >&2; exit 2; }

# Unique names: several clusters (or a stale one) never collide.
tag=cl$$
bridge_ns=$tag-br
host_ns() { echo "$tag-h$1"; }
work=$(mktemp -d /tmp/collc-cluster.XXXXXX)

cleanup() {
  local i
  for ((i = 0; i < hosts; i++)); do ip netns del "$(host_ns $i)" 2>/dev/null || true; done
  ip netns del "$bridge_ns" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ip netns add "$bridge_ns"
ip -n "$bridge_ns" link add br0 type bridge
ip -n "$bridge_ns" link set br0 up
hostlist=()
for ((i = 0; i < hosts; i++)); do
  ns=$(host_ns $i)
  ip netns add "$ns"
  ip link add "${tag}h$i" type veth peer name "${tag}b$i"
  ip link set "${tag}h$i" netns "$ns"
  ip link set "${tag}b$i" netns "$bridge_ns"
  ip -n "$ns" link set "${tag}h$i" name cl0
  ip -n "$ns" addr add "$subnet.$((i + 1))/24" dev cl0
  ip -n "$ns" link set lo up
  # A collective's messages follow idle gaps: TCP must not fall back to
  # slow start after each (the default), or a link never reaches its rate.
  ip netns exec "$ns" sysctl -q -w net.ipv4.tcp_slow_start_after_idle=0
  [ -z "$cc" ] || ip netns exec "$ns" sysctl -q -w net.ipv4.tcp_congestion_control="$cc"
  ip -n "$ns" link set cl0 up
  ip -n "$bridge_ns" link set "${tag}b$i" master br0 up
  # tbf drops a packet larger than its burst: keep the kernel's segment
  # offload packets (up to 64 KiB) well below it.
  ip -n "$ns" link set dev cl0 gso_max_size 16384
  ip -n "$bridge_ns" link set dev "${tag}b$i" gso_max_size 16384
  # Both directions of the link at the rate: the host's egress and the
  # bridge port's (the host's ingress).
  ip netns exec "$ns" tc qdisc add dev cl0 root tbf rate "$rate" burst 64kb latency "${queue}ms"
  ip netns exec "$bridge_ns" tc qdisc add dev "${tag}b$i" root tbf rate "$rate" burst 64kb latency "${queue}ms"
  hostlist+=("$subnet.$((i + 1))")
done

# The launcher's remote shell: runs the command in the namespace that owns
# the host address (ssh's "[options] HOST COMMAND..." form).
agent=$work/agent.sh
cat >"$agent" <<EOF
#!/usr/bin/env bash
while [[ \$1 == -* ]]; do shift; done
host=\$1
shift
exec ip netns exec "$tag-h\$((\${host##*.} - 1))" /bin/sh -c "\$*"
EOF
chmod +x "$agent"

hosts_csv=$(IFS=,; echo "${hostlist[*]}")
echo "cluster: $hosts hosts ($hosts_csv) behind $rate links (queues of $queue ms), $mpi" >&2
code=0
if [ "$mpi" = openmpi ]; then
  timeout --kill-after=10 "$limit" ip netns exec "$(host_ns 0)" \
    env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 COLLC_SHM=0 \
    mpirun.openmpi --host "$hosts_csv" -np "$hosts" --map-by node --bind-to none -x COLLC_SHM \
      --mca plm_rsh_agent "$agent" --mca pml ob1 --mca btl self,tcp \
      --mca btl_tcp_if_include cl0 --mca oob_tcp_if_include cl0 \
      --mca mpi_yield_when_idle 1 --mca op ^avx --mca rtc_hwloc_vmhole none \
      "$program" "$@" || code=$?
else
  yield_lib=$work/libcollc_cluster_yield.so
  cc -O2 -shared -fPIC -o "$yield_lib" "$(dirname "$(readlink -f "$0")")/cluster_yield.c" -ldl
  timeout --kill-after=10 "$limit" ip netns exec "$(host_ns 0)" \
    mpirun.mpich -genv LD_PRELOAD "$yield_lib" -hosts "$hosts_csv" -n "$hosts" -ppn 1 \
      -launcher ssh -launcher-exec "$agent" -iface cl0 \
      -genv MPIR_CVAR_NOLOCAL 1 -genv UCX_TLS tcp,self -genv UCX_NET_DEVICES cl0 -genv COLLC_SHM 0 \
      "$program" "$@" || code=$?
fi
[ "$code" -eq 124 ] && echo "cluster.sh: error: the run exceeded --timeout $limit s" >&2
exit "$code"
