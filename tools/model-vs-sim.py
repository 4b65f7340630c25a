#!/usr/bin/env python3
"""collc's cost model against a simulated run (docs/scale.md, "The model
against the simulation"): for every kind and size of a collc-bench CSV,
each collc schedule's predicted time (collc cost, with the model of the
platform from tools/platform-model.py) beside its simulated time, and the
model's pick beside the simulated winner.

  tools/model-vs-sim.py RUN.csv --model OUT.model [--collc build/bin/collc]
                        [--schedules tools/bench/schedules.coll] [--brief]

--brief prints one line per kind and size: the pick, the winner, and the
pick's simulated time over the winner's (1.00: the model chose right).
"""
import argparse
import csv
import os
import subprocess
import sys
from collections import defaultdict

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def size_text(b):
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= scale and b % scale == 0:
            return f"{b // scale} {unit}"
    return f"{b} B"


def predictions(collc, schedules, model, ranks, sizes):
    """{(collective, bytes): predicted us} from `collc cost`."""
    cmd = [collc, "cost", schedules, "--model", model, "--ranks", str(ranks),
           "--sizes", ",".join(str(s) for s in sizes)]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"model-vs-sim.py: error: {' '.join(cmd)} failed:\n{run.stderr}")
    lines = run.stdout.splitlines()
    head = next(i for i, l in enumerate(lines) if l.startswith("payload"))
    names = lines[head].split()[1:]
    out = {}
    for size, line in zip(sizes, lines[head + 1:head + 1 + len(sizes)]):
        values = line.split()[-len(names):]
        for name, v in zip(names, values):
            try:
                out[(name, size)] = float(v)
            except ValueError:
                pass  # "-": the schedule does not accept this P
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("csv")
    p.add_argument("--model", required=True)
    p.add_argument("--collc", default=os.path.join(root, "build/bin/collc"))
    p.add_argument("--schedules", default=os.path.join(root, "tools/bench/schedules.coll"))
    p.add_argument("--brief", action="store_true")
    a = p.parse_args()
    rows = list(csv.DictReader(open(a.csv)))
    if not rows:
        sys.exit(f"model-vs-sim.py: error: {a.csv} has no cases")
    ranks = int(rows[0]["ranks"])
    cells = defaultdict(dict)  # (kind, bytes) -> {schedule: simulated}
    library = {}
    for r in rows:
        key = (r["kind"], int(r["bytes"]))
        if r["source"] == "collc":
            cells[key][r["algorithm"]] = float(r["median_us"])
        elif r["source"] == "mpi" and r["algorithm"] == "default":
            library[key] = float(r["median_us"])
    sizes = sorted({b for (_, b) in cells if b > 0}) or [8]
    predicted = predictions(a.collc, a.schedules, a.model, ranks, sizes)
    right = total = 0
    losses = []
    if a.brief:
        print("| kind | size | model's pick | simulated winner | pick / winner | library / winner |")
        print("|---|---|---|---|---|---|")
    for (kind, b), sims in sorted(cells.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        size = b if b > 0 else sizes[0]
        priced = {s: predicted[(s, size)] for s in sims if (s, size) in predicted}
        if not priced:
            continue
        pick = min(priced, key=priced.get)
        winner = min(sims, key=sims.get)
        loss = sims[pick] / sims[winner]
        total += 1
        right += pick == winner or loss == 1.0
        losses.append(loss)
        lib = library.get((kind, b))
        if a.brief:
            versus = f"{lib / sims[winner]:.2f}" if lib else "-"
            print(f"| {kind} | {size_text(b) if b else '-'} | {pick} | {winner} | {loss:.2f} | {versus} |")
            continue
        print(f"{kind}, {size_text(b) if b else '-'} (P = {ranks})")
        print(f"  {'schedule':28} {'predicted':>10} {'simulated':>10} {'pred/sim':>9}")
        for s in sorted(priced, key=lambda s: sims[s]):
            mark = ("<- pick" if s == pick else "") + (" <- winner" if s == winner else "")
            print(f"  {s:28} {priced[s]:10.2f} {sims[s]:10.2f} {priced[s] / sims[s]:9.2f} {mark}")
    worst = max(losses) if losses else 1.0
    print(f"\nmodel's pick is the simulated winner (or ties it) in {right} of {total} cells; "
          f"worst pick {worst:.2f}x the winner")


if __name__ == "__main__":
    main()
