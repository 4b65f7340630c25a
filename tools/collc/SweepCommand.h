//===- SweepCommand.h - collc sweep -----------------------------*- C++ -*-===//
#ifndef COLLC_SWEEPCOMMAND_H
#define COLLC_SWEEPCOMMAND_H

namespace collc {

/// `collc sweep --model M [--retri N] [--bruck N] [--svg OUT.svg]`:
/// ReTri and Bruck on an optical circuit switch (seed 002) over message
/// sizes x reconfiguration delays, each with its best R; prints the
/// speedup ranges and writes a heatmap and a line plot as SVG.
int runSweep(int argc, char **argv);

} // namespace collc

#endif
