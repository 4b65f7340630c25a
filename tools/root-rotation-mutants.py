#!/usr/bin/env python3
"""Mutants of coll::isRootRotation (passes/lib/verify/RootRotation.cpp).

Each mutant drops one comparison the check makes; the unit test
"root = any: a root's plan that is root 0's renamed ..." must fail under
every one of them (docs/verification.md, "Every root"). Builds
collc-unit-tests once per mutant in BUILD (default: build), restores the
source at the end, and exits 1 if any mutant survives. About 4 minutes on
2 cores; not part of CI.

    tools/root-rotation-mutants.py [BUILD]
"""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE = ROOT / "passes/lib/verify/RootRotation.cpp"
TEST = "root = any: a root*"

# name: (text in the source, its replacement)
MUTANTS = {
    "a slot written twice is taken":
        ("      if (!written.insert({t.dst, part}).second)\n        return std::nullopt;",
         "      written.insert({t.dst, part});"),
    "blocks are not renamed":
        ("const bool blocksTurn = partsBelongToRanks(kind);",
         "const bool blocksTurn = false;"),
    "a noncommutative operator is taken":
        ("  if (base.getNoncommutative() || turned.getNoncommutative())\n    return false;", ""),
    "transfers compared in order":
        ("    std::sort(have->begin(), have->end(), transferBefore);", ""),
    "received parts not compared":
        ("  return std::tie(a.src, a.dst, a.sent, a.received) ==\n"
         "         std::tie(b.src, b.dst, b.sent, b.received);",
         "  return std::tie(a.src, a.dst, a.sent) == std::tie(b.src, b.dst, b.sent);"),
    "roots not compared":
        ("  if (base.getRoot().value_or(0) != 0 ||\n"
         "      turned.getRoot().value_or(0) != static_cast<uint64_t>(r))\n    return false;", ""),
    "step kinds not compared":
        ("        baseStep.getStepKind() != turnedStep.getStepKind())", "        false)"),
    "step counts not compared":
        ("  return b == baseOps.end() && t == turnedOps.end();", "  return true;"),
    "segments not compared":
        ("      turned.getSegments() != base.getSegments() || r < 0 || r >= P)",
         "      r < 0 || r >= P)"),
    "operators not compared":
        ("      turned.getOp() != base.getOp() || turned.getNumRanks()",
         "      turned.getNumRanks()"),
}


def main():
    build = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "build")
    original = SOURCE.read_text()
    survivors = []
    try:
        for name, (text, replacement) in MUTANTS.items():
            if text not in original:
                print(f"{name}: its text is no longer in {SOURCE.name}; update this script")
                survivors.append(name)
                continue
            SOURCE.write_text(original.replace(text, replacement, 1))
            subprocess.run(["ninja", "-C", str(build), "bin/collc-unit-tests"],
                           check=True, stdout=subprocess.DEVNULL)
            run = subprocess.run([str(build / "bin/collc-unit-tests"), "-tc=" + TEST],
                                 capture_output=True, text=True)
            caught = run.returncode != 0
            print(f"{name}: {'caught' if caught else 'SURVIVES'}")
            if not caught:
                survivors.append(name)
    finally:
        SOURCE.write_text(original)
        subprocess.run(["ninja", "-C", str(build), "bin/collc-unit-tests"],
                       stdout=subprocess.DEVNULL)
    print(f"{len(MUTANTS) - len(survivors)} of {len(MUTANTS)} mutants caught")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
