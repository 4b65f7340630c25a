#!/usr/bin/env python3
"""Summarizes one collc-bench CSV as the markdown table docs/benchmarks.md
shows: per size, the library's default, the best collc schedule (lowest
median), their ratio, the best schedule's p10..p90, and, given the link
rate (--rate 200mbit), the allreduce bandwidth bound 2(P-1)/P * M / rate
and the best schedule's median over it.

  tools/bench/summarize.py c.csv [--kind allreduce] [--rate 1gbit]
"""
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("csv")
    parser.add_argument("--kind", default="allreduce")
    parser.add_argument("--rate")
    args = parser.parse_args()
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
