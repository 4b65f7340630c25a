#!/usr/bin/env python3
"""Writes collc's cost model of a SimGrid platform (docs/scale.md, "The
model against the simulation"): the alpha-beta-gamma constants and a
topology file of the links the platform's P ranks use, placed as
tools/simulate.sh places them.

  tools/platform-model.py PLATFORM.xml P -o OUT.model [--placement first|spread]
  tools/platform-model.py PLATFORM.xml P --hosts [--placement first|spread]

writes OUT.model and OUT.topology (named by the model); with --hosts it
prints, instead, the host of each of the P ranks, one a line (the hostfile
tools/simulate.sh gives smpirun): the platform's clusters in order, each
host (prefix + each number of the radical + suffix) once per core, the
first P (first) or the host of core floor(i H / P) of the H (spread).
From the platform:
  overhead  its per-message CPU time, the mean of smpi/os and smpi/or (the
         <config> props): a message costs its sender and its receiver that
         (alpha, a step's startup, is 0: the links' latency is the rest);
  gamma  the charge of a merged element (COLLC_SMPI_MERGE_FLOPS, default 1,
         flops on the hosts' speed), per byte of doubles;
  beta   1 / the hosts' link bandwidth (the topology's links carry their own);
  links  one per platform link, its latency and bandwidth, both ways (the
         clusters' links are SPLITDUPLEX), of these cluster kinds:
         a flat cluster (private links to one backbone switch; with
         core = N a host's cores reach each other through its loopback),
         FAT_TREE with 2 levels (every leaf's uplinks as ONE link of their
         summed bandwidth to one spine: the model routes by fewest hops and
         would otherwise put every message on the first spine), TORUS (one
         way, in dimension order, so that the first shortest path the model
         finds is SimGrid's dimension-order route), and DRAGONFLY (routers,
         their green, black and blue links; fewest hops, not SimGrid's
         routes).
The model's step cost then is overhead times the most messages a rank
sends plus the most a rank receives + the longest path's latency + the most
loaded link's bytes over its bandwidth + gamma times the largest merge
(docs/cost-model.md); SMPI's platforms here state latency and bandwidth
for every size (smpi/lat-factor and bw-factor 1), so the two agree on what
a message costs and differ in how they share links and overlap steps.
"""
import argparse
import functools
import os
import re
import sys
import xml.etree.ElementTree as ET


def fail(message):
    sys.exit(f"platform-model.py: error: {message}")


def quantity(text, units, what):
    m = re.fullmatch(r"\s*([0-9.eE+-]+)\s*([A-Za-z]*)\s*", text or "")
    if not m or m.group(2) not in units:
        fail(f"cannot read {what} '{text}' (units: {', '.join(u for u in units if u)})")
    try:
        return float(m.group(1)) * units[m.group(2)]
    except ValueError:
        fail(f"cannot read {what} '{text}'")


SECONDS = {"": 1, "s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "ps": 1e-12}
BYTES_PER_S = {"Bps": 1, "kBps": 1e3, "KBps": 1e3, "MBps": 1e6, "GBps": 1e9, "TBps": 1e12,
               "KiBps": 2**10, "MiBps": 2**20, "GiBps": 2**30, "TiBps": 2**40,
               "bps": 1 / 8, "kbps": 1e3 / 8, "Mbps": 1e6 / 8, "Gbps": 1e9 / 8, "Tbps": 1e12 / 8}
FLOPS = {"f": 1, "kf": 1e3, "Mf": 1e6, "Gf": 1e9, "Tf": 1e12}


def first_factor(text, what):
    """The constant of the first piece of an SMPI factor ("0:3e-7:0")."""
    pieces = text.split(";")[0].split(":")
    try:
        return float(pieces[1]) if len(pieces) > 1 else 0.0
    except ValueError:
        fail(f"cannot read {what} '{text}'")


MOST_HOSTS = 65536  # a platform's hosts (or host cores) this reads


@functools.lru_cache(maxsize=None)  # host_name asks for each host
def radical(text):
    numbers = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        first, last = int(lo), int(hi or lo)
        if len(numbers) + max(0, last - first + 1) > MOST_HOSTS:
            fail(f"radical '{text}' names more than {MOST_HOSTS} hosts")
        numbers += range(first, last + 1)
    return tuple(numbers)


def host_name(cluster, i):
    """The name of the cluster's i-th host."""
    return f"{cluster.get('prefix', '')}{radical(cluster.get('radical'))[i]}{cluster.get('suffix', '')}"


def placed_slots(clusters, platform, ranks, placement):
    """The (cluster, host index, core) of each of the `ranks` ranks."""
    slots = []
    for c in clusters:
        cores = int(c.get("core", "1"))
        if not 1 <= cores <= MOST_HOSTS:
            fail(f"cluster '{c.get('id')}': core = {c.get('core')} is not 1..{MOST_HOSTS}")
        for i in range(len(radical(c.get("radical")))):
            slots += [(c, i, k) for k in range(cores)]
            if len(slots) > MOST_HOSTS:
                fail(f"{platform} has more than {MOST_HOSTS} host cores")
    if not 1 <= ranks <= len(slots):
        fail(f"P = {ranks} but {platform} has {len(slots)} host cores")
    if placement == "spread":
        return [slots[i * len(slots) // ranks] for i in range(ranks)]
    return slots[:ranks]


class Graph:
    def __init__(self):
        self.names, self.index, self.links = [], {}, []

    def node(self, name):
        if name not in self.index:
            self.index[name] = len(self.names)
            self.names.append(name)
        return self.index[name]

    def link(self, a, b, latency_s, bandwidth_Bps, duplex=True):
        self.links.append((self.node(a), self.node(b), latency_s * 1e6, bandwidth_Bps / 1e9, duplex))


def build(cluster, hosts_used, graph):
    """Adds the cluster's links among the hosts used (their numbers)."""
    kind = cluster.get("topology", "FLAT")
    params = cluster.get("topo_parameters", "")
    lat = quantity(cluster.get("lat"), SECONDS, "latency")
    bw = quantity(cluster.get("bw"), BYTES_PER_S, "bandwidth")
    numbers = radical(cluster.get("radical"))
    host = lambda i: host_name(cluster, i)
    if kind == "FLAT":
        if int(cluster.get("core", "1")) > 1:
            # A core's way out starts with half its host's loopback (below).
            lat = max(0.0, lat - quantity(cluster.get("loopback_lat", "0"), SECONDS, "latency") / 2)
        if cluster.get("bb_bw"):
            # Host -> backbone -> host: its private links; the backbone is
            # taken as non-blocking (bb_lat is added once on the way up).
            bb_lat = quantity(cluster.get("bb_lat", "0"), SECONDS, "latency")
            for i in hosts_used:
                graph.link(host(i), "backbone", lat + bb_lat / 2, bw)
        else:
            for i in hosts_used:
                graph.link(host(i), "backbone", lat, bw)
    elif kind == "FAT_TREE":
        p = [list(map(int, x.split(","))) for x in params.split(";")]
        if len(p) != 4 or p[0] != [2]:
            fail(f"FAT_TREE '{params}': only 2-level fat-trees are modelled")
        down, up, count = p[1], p[2], p[3]
        per_leaf = down[0]
        for i in hosts_used:
            graph.link(host(i), f"leaf-{i // per_leaf}", lat, bw * up[0] * count[0])
        for leaf in sorted({i // per_leaf for i in hosts_used}):
            graph.link(f"leaf-{leaf}", "spine", lat, bw * up[1] * count[1])
    elif kind == "TORUS":
        dims = list(map(int, params.split(",")))
        total = 1
        for d in dims:
            total *= d
        if total != len(numbers):
            fail(f"TORUS '{params}' has {total} hosts, the radical {len(numbers)}")
        # SimGrid routes dimension by dimension, the first (the fastest
        # varying in a host's number) first. The model routes by fewest
        # hops, the first path a breadth-first search finds; with every
        # host's links listed one way, in dimension order, that path is
        # the dimension-order one (it moves in the earlier dimensions
        # first), and two messages share a link where SimGrid's do.
        for i in range(total):
            graph.node(host(i))
        for i in range(total):
            coords, rest = [], i
            for d in dims:
                coords.append(rest % d)
                rest //= d
            stride = 1
            for k, d in enumerate(dims):
                for step in ((1, -1) if d > 2 else (1,) if d == 2 else ()):
                    j = i + ((coords[k] + step) % d - coords[k]) * stride
                    graph.link(host(i), host(j), lat, bw, duplex=False)
                stride *= d
    elif kind == "DRAGONFLY":
        p = [list(map(int, x.split(","))) for x in params.split(";")]
        (groups, blue), (chassis, black), (blades, green), (nodes,) = p
        router = lambda g, c, b: f"router-{g}-{c}-{b}"
        for i in hosts_used:
            r = i // nodes
            g, rest = divmod(r, chassis * blades)
            graph.link(host(i), router(g, *divmod(rest, blades)), lat, bw)
        for g in range(groups):
            for c in range(chassis):
                for b in range(blades):
                    for b2 in range(b + 1, blades):
                        graph.link(router(g, c, b), router(g, c, b2), lat, bw * green)
                    for c2 in range(c + 1, chassis):
                        graph.link(router(g, c, b), router(g, c2, b), lat, bw * black)
            for g2 in range(g + 1, groups):
                # Router n of group g leads to group n (SimGrid's choice).
                graph.link(router(g, *divmod(g2, blades)), router(g2, *divmod(g, blades)), lat, bw * blue)
    else:
        fail(f"cluster '{cluster.get('id')}': topology {kind} is not modelled")
    return lat, bw


def model():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("platform")
    parser.add_argument("ranks", type=int)
    parser.add_argument("-o", "--output")
    parser.add_argument("--hosts", action="store_true")
    parser.add_argument("--placement", choices=["first", "spread"], default="first")
    a = parser.parse_args()
    if bool(a.output) == a.hosts:
        parser.error("give either -o OUT.model or --hosts")
    try:
        root = ET.parse(a.platform).getroot()
    except (OSError, ET.ParseError) as e:
        fail(f"cannot read {a.platform}: {e}")
    clusters = list(root.iter("cluster"))
    if not clusters:
        fail(f"{a.platform} has no <cluster>")
    slots = placed_slots(clusters, a.platform, a.ranks, a.placement)
    if a.hosts:
        print("\n".join(host_name(c, i) for (c, i, _) in slots))
        return
    props = {p.get("id"): p.get("value") for c in root.iter("config") for p in c.iter("prop")}
    for key in ("smpi/lat-factor", "smpi/bw-factor"):
        if first_factor(props.get(key, "0:2"), key) != 1:
            print(f"platform-model.py: warning: {key} is not 1: SMPI scales latency or bandwidth "
                  "by message size, the model does not", file=sys.stderr)
    overhead = (first_factor(props.get("smpi/os", "0:0"), "smpi/os") +
                first_factor(props.get("smpi/or", "0:0"), "smpi/or")) / 2 * 1e6
    graph = Graph()
    speeds, bandwidths = set(), set()
    for c in clusters:
        used = sorted({i for (cc, i, _) in slots if cc is c})
        if not used:
            continue
        _, bw = build(c, used, graph)
        bandwidths.add(bw)
        speeds.add(quantity(c.get("speed"), FLOPS, "speed"))
    placement = []
    for (c, i, k) in slots:
        host = host_name(c, i)
        if int(c.get("core", "1")) == 1:
            placement.append(graph.node(host))
            continue
        # A core reaches its host's other cores through the loopback (half
        # its latency each way), and the network through the host.
        core = f"{host}/core-{k}"
        loop_lat = quantity(c.get("loopback_lat", "0"), SECONDS, "latency")
        loop_bw = quantity(c.get("loopback_bw") or c.get("bw"), BYTES_PER_S, "bandwidth")
        graph.link(core, host, loop_lat / 2, loop_bw)
        placement.append(graph.node(core))
    if len(speeds) != 1 or len(bandwidths) != 1:
        fail("the ranks' clusters differ in speed or bandwidth; one alpha-beta-gamma model cannot say both")
    flops = float(os.environ.get("COLLC_SMPI_MERGE_FLOPS", "1"))
    gamma = flops / speeds.pop() * 1e6 / 8
    beta = 1e6 / bandwidths.pop()
    topology = os.path.splitext(a.output)[0] + ".topology"
    name = os.path.splitext(os.path.basename(a.platform))[0]
    with open(topology + ".tmp", "w") as t:
        t.write(f"# {name}.xml, P = {a.ranks}, placement {a.placement}: tools/platform-model.py\n")
        t.write(f"nodes {len(graph.names)}\n")
        for (x, y, lat_us, bw_GBps, duplex) in graph.links:
            t.write(f"link {x} {y} latency={lat_us:.6g} bandwidth={bw_GBps:.6g}{' duplex' if duplex else ''}\n")
        t.write("place all " + " ".join(map(str, placement)) + "\n")
    with open(a.output + ".tmp", "w") as m:
        m.write(f"# {name}.xml for P = {a.ranks} ranks ({a.placement} placement), by tools/platform-model.py\n")
        m.write(f"name = {name}\n")
        m.write("alpha = 0        # us per step: the links' latency is in the topology\n")
        m.write(f"overhead = {overhead:.6g}        # us per message at each end: smpi/os, smpi/or\n")
        m.write(f"beta = {beta:.6g}        # us per byte of a host's link\n")
        m.write(f"gamma = {gamma:.6g}        # us per merged byte: COLLC_SMPI_MERGE_FLOPS per double\n")
        m.write(f"topology_file = {os.path.basename(topology)}\n")
    os.replace(topology + ".tmp", topology)
    os.replace(a.output + ".tmp", a.output)


def main():
    try:
        model()
    except (ValueError, KeyError, TypeError, AttributeError, IndexError, ZeroDivisionError) as e:
        # A platform attribute missing or not a number where one is needed.
        fail(f"cannot read the platform: {type(e).__name__}: {e}")


if __name__ == "__main__":
    main()
