#!/usr/bin/env python3
"""Mutation fuzzing of tools/platform-model.py (docs/robustness.md): the
four cluster kinds of test/cost/platform.test with attribute values
replaced, cut short or garbled; every run must end with a model (exit 0)
or a named error (exit 1 or 2), never a Python traceback or a hang.

  tools/fuzz-platform-model.py RUNS [SEED]
"""
import contextlib
import importlib.util
import io
import os
import random
import re
import signal
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
BASE = """<?xml version='1.0'?>
<platform version="4.1">
  <config>
    <prop id="smpi/lat-factor" value="0:1"/>
    <prop id="smpi/bw-factor" value="0:1"/>
    <prop id="smpi/os" value="0:3e-7:0"/>
    <prop id="smpi/or" value="0:2e-7:0"/>
  </config>
  <cluster id="t" {kind} prefix="h" radical="0-3" suffix="" speed="1Gf" bw="10GBps" lat="0.5us"
           loopback_bw="40GBps" loopback_lat="0.1us"/>
</platform>
"""
KINDS = ['topology="FAT_TREE" topo_parameters="2;2,2;1,2;1,1"', 'topology="TORUS" topo_parameters="2,2"',
         'core="2" bb_bw="100GBps" bb_lat="0.2us"', 'topology="DRAGONFLY" topo_parameters="2,1;1,1;2,1;1"']
TOKENS = ["", "-", "0", "abc", "1e999", "nan", "2;2", "1,,2", "0-", "-3", "9" * 30, "GBps", "us", "<",
          "1.5.2", ";;;", ",", "99999", "3-1", "1e5", "2;2,2,2;1,1,1;1,1,1"]


class Hang(Exception):
    pass


def main():
    runs = int(sys.argv[1])
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    # The tool in this process (a run is then milliseconds, not an
    # interpreter's start); its exits are SystemExit.
    sys.dont_write_bytecode = True  # no __pycache__ in the source tree
    spec = importlib.util.spec_from_file_location("platform_model", os.path.join(HERE, "platform-model.py"))
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)

    def hang(signum, frame):
        raise Hang()

    signal.signal(signal.SIGALRM, hang)
    bad = 0
    with tempfile.TemporaryDirectory() as work:
        platform, model = os.path.join(work, "p.xml"), os.path.join(work, "p.model")
        for run in range(runs):
            text = BASE.format(kind=rng.choice(KINDS))
            for _ in range(rng.randint(1, 3)):
                values = list(re.finditer(r'="([^"]*)"', text))
                m = rng.choice(values)
                new = rng.choice(TOKENS) if rng.random() < 0.5 else \
                    m.group(1)[:rng.randint(0, len(m.group(1)))] + rng.choice(TOKENS)
                text = text[:m.start(1)] + new + text[m.end(1):]
            if rng.random() < 0.1:
                text = text[:rng.randint(0, len(text))]
            with open(platform, "w") as f:
                f.write(text)
            out = ["--hosts"] if rng.random() < 0.25 else ["-o", model]  # hostfile or model
            sys.argv = ["platform-model.py", platform, str(rng.randint(1, 6))] + out
            why = None
            signal.alarm(10)
            try:
                with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
                    tool.main()
            except SystemExit as e:
                if e.code not in (None, 0, 1, 2) and not str(e.code).startswith("platform-model.py: error: "):
                    why = f"exit {e.code}"
            except Hang:
                why = "no answer in 10 s"
            except Exception:  # noqa: BLE001 -- any other is the failure sought
                why = traceback.format_exc()[-400:]
            finally:
                signal.alarm(0)
            if why:
                bad += 1
                print(f"fuzz-platform-model: run {run}: {why}\n{text}", file=sys.stderr)
    print(f"fuzz-platform-model: {runs} runs, {bad} failed")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
