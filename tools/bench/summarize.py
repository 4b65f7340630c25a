#!/usr/bin/env python3
"""Summarizes one collc-bench CSV as the markdown table docs/benchmarks.md
shows: per size, the library's default, the best collc schedule (lowest
median), their ratio, the best schedule's p10..p90, and, given the link
rate (--rate 200mbit), the allreduce bandwidth bound 2(P-1)/P * M / rate
and the best schedule's median over it.

  tools/bench/summarize.py c.csv [--kind allreduce] [--rate 1gbit]

With --grid, instead: the best collc schedule's median over the default's
for every kind (rows) and size (columns), and the barrier's. With --hand,
the allreduce against the hand-written baselines: the generated ring over
the hand-written ring, the generated butterfly over hand-written
halving/doubling, and the best collc schedule over the default.

With --ab, an A/B of two builds run in turn (the CSV arguments are the
after runs, --before the before runs, each one round of the same command):
per kind and size, the geometric mean over collc's schedules of the
median over rounds of each run's ratio to the library's default, after
over before; the barrier on a line of its own.

  tools/bench/summarize.py new1.csv new2.csv --ab --before old1.csv old2.csv
"""
import math
import argparse
import csv
import re
import sys


def rate_bytes_per_us(text):
    m = re.fullmatch(r"(\d+)(k|m|g)?bit", text)
    if not m:
        sys.exit(f"summarize.py: error: --rate must look like 200mbit or 1gbit, got '{text}'")
    scale = {None: 1, "k": 1e3, "m": 1e6, "g": 1e9}[m.group(2)]
    return int(m.group(1)) * scale / 8 / 1e6


def us(x):
    x = float(x)
    return f"{x:.2f}" if x < 10 else f"{x:.1f}" if x < 1000 else f"{x:.0f}"


def size_text(b):
    if b >= 1048576 and b % 1048576 == 0:
        return f"{b // 1048576} MiB"
    if b >= 1024 and b % 1024 == 0:
        return f"{b // 1024} KiB"
    return f"{b} B"


def median(cases, source, algorithm):
    for r in cases:
        if r["source"] == source and r["algorithm"] == algorithm:
            return float(r["median_us"])
    sys.exit(f"summarize.py: error: no {source} {algorithm} row for {cases[0]['kind']} "
             f"at {cases[0]['bytes']} B")


def best_collc(cases):
    return min((r for r in cases if r["source"] == "collc"), key=lambda r: float(r["median_us"]))


def grid(rows):
    kinds, per_case = [], {}
    for r in rows:
        if r["kind"] not in kinds:
            kinds.append(r["kind"])
        per_case.setdefault((r["kind"], int(r["bytes"])), []).append(r)
    sizes = sorted({b for k, b in per_case if k != "barrier"})
    print("| kind | " + " | ".join(size_text(b) for b in sizes) + " |")
    print("|---|" + "---|" * len(sizes))
    for kind in kinds:
        if kind == "barrier":
            continue
        cells = []
        for b in sizes:
            cases = per_case.get((kind, b))
            cells.append(f"{float(best_collc(cases)['median_us']) / median(cases, 'mpi', 'default'):.2f}"
                         if cases else "-")
        print(f"| {kind} | " + " | ".join(cells) + " |")
    if ("barrier", 0) in per_case:
        cases = per_case[("barrier", 0)]
        best, d = best_collc(cases), median(cases, "mpi", "default")
        print(f"\nbarrier: best collc `{best['algorithm']}` {us(best['median_us'])} us, "
              f"default {us(d)} us ({float(best['median_us']) / d:.2f}x).")


def hand(rows):
    per_size = {}
    for r in rows:
        if r["kind"] == "allreduce":
            per_size.setdefault(int(r["bytes"]), []).append(r)
    print("| size | default (us) | hand ring | hand halving-doubling | collc ring | collc butterfly "
          "| collc ring / hand ring | collc butterfly / hand h-d | best collc | best / default "
          "| p10..p90 of best |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for size in sorted(per_size):
        c = per_size[size]
        d, hr, hh = (median(c, "mpi", "default"), median(c, "hand", "ring"),
                     median(c, "hand", "halving-doubling"))
        cr, cb = median(c, "collc", "allreduce_ring"), median(c, "collc", "allreduce_butterfly")
        best = best_collc(c)
        b = float(best["median_us"])
        print(f"| {size_text(size)} | {us(d)} | {us(hr)} | {us(hh)} | {us(cr)} | {us(cb)} "
              f"| {cr / hr:.2f} | {cb / hh:.2f} | {best['algorithm']} | {b / d:.2f} "
              f"| {us(best['p10_us'])}..{us(best['p90_us'])} |")


def ab(before, after):
    def ratios(files):
        """(kind, bytes, algorithm) -> the median over files of ratio_to_default."""
        per = {}
        for f in files:
            for r in csv.DictReader(open(f)):
                if r["source"] == "collc":
                    per.setdefault((r["kind"], int(r["bytes"]), r["algorithm"]), []).append(
                        float(r["ratio_to_default"]))
        return {k: sorted(v)[len(v) // 2] if len(v) % 2 else
                (sorted(v)[len(v) // 2 - 1] + sorted(v)[len(v) // 2]) / 2 for k, v in per.items()}
    old, new = ratios(before), ratios(after)
    cells = {}
    for key in new:
        if key in old and old[key] > 0:
            cells.setdefault(key[:2], []).append(new[key] / old[key])
    if not cells:
        sys.exit("summarize.py: error: --ab: no collc schedule in both the before and the after runs")
    gmean = {k: math.exp(sum(math.log(x) for x in v) / len(v)) for k, v in cells.items()}
    kinds = []
    for kind, _ in cells:
        if kind not in kinds and kind != "barrier":
            kinds.append(kind)
    sizes = sorted({b for k, b in cells if k != "barrier"})
    print("| kind | " + " | ".join(size_text(b) for b in sizes) + " |")
    print("|---|" + "---|" * len(sizes))
    for kind in kinds:
        print(f"| {kind} | " + " | ".join(f"{gmean[(kind, b)]:.2f}" if (kind, b) in gmean else "-"
                                         for b in sizes) + " |")
    if ("barrier", 0) in gmean:
        print(f"\nbarrier: {gmean[('barrier', 0)]:.2f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("csv", nargs="+")
    parser.add_argument("--ab", action="store_true")
    parser.add_argument("--before", nargs="+", default=[])
    parser.add_argument("--kind", default="allreduce")
    parser.add_argument("--rate")
    parser.add_argument("--grid", action="store_true")
    parser.add_argument("--hand", action="store_true")
    args = parser.parse_args()
    if args.ab:
        if not args.before:
            sys.exit("summarize.py: error: --ab needs --before CSV...")
        ab(args.before, args.csv)
        return
    if len(args.csv) != 1:
        sys.exit("summarize.py: error: one CSV, or several with --ab")
    args.csv = args.csv[0]
    if args.grid or args.hand:
        rows = list(csv.DictReader(open(args.csv)))
        if not rows:
            sys.exit(f"summarize.py: error: no rows in {args.csv}")
        grid(rows) if args.grid else hand(rows)
        return
    rows = [r for r in csv.DictReader(open(args.csv)) if r["kind"] == args.kind]
    if not rows:
        sys.exit(f"summarize.py: error: no {args.kind} rows in {args.csv}")
    library, ranks = rows[0]["library"], int(rows[0]["ranks"])
    per_size = {}
    for r in rows:
        per_size.setdefault(int(r["bytes"]), []).append(r)
    bw = rate_bytes_per_us(args.rate) if args.rate else None
    head = f"| size | {library} default (us) | p10..p90 | best collc | median (us) | p10..p90 | best / default |"
    rule = "|---|---|---|---|---|---|---|"
    if bw:
        head += " bound (us) | best / bound |"
        rule += "---|---|"
    print(f"{library}, P = {ranks}, {args.kind}" + (f", links at {args.rate}" if bw else ""))
    print()
    print(head)
    print(rule)
    for size in sorted(per_size):
        cases = per_size[size]
        default = next(r for r in cases if r["source"] == "mpi" and r["algorithm"] == "default")
        best = min((r for r in cases if r["source"] == "collc"), key=lambda r: float(r["median_us"]))
        d, b = float(default["median_us"]), float(best["median_us"])
        line = (f"| {size_text(size)} | {us(d)} | {us(default['p10_us'])}..{us(default['p90_us'])} "
                f"| {best['algorithm']} | {us(b)} | {us(best['p10_us'])}..{us(best['p90_us'])} "
                f"| {b / d:.2f} |")
        if bw:
            bound = 2 * (ranks - 1) / ranks * size / bw
            line += f" {us(bound)} | {b / bound:.2f} |"
        print(line)


if __name__ == "__main__":
    main()
