//===- SweepCommand.cpp - collc sweep -------------------------------------===//
//
// Seed 002's evaluation on collc's own routings: ReTri (balanced ternary)
// and Bruck (radix 2) from coll/digits.hpp, priced on an optical circuit
// switch with R* = argmin C(R) reconfigurations (passes/lib/cost), against
// the static ring (R = 0). Sizes 1 KiB .. 256 MiB and delays 1 us .. 50 ms
// in log steps.
//
//===----------------------------------------------------------------------===//
#include "SweepCommand.h"

#include "coll/Passes/CostModel.h"
#include "coll/reconfiguration.hpp"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace coll;

namespace {

struct Grid {
  std::vector<double> sizes, deltas; // bytes, us
  // speedup[d][s]
  std::vector<std::vector<double>> overStatic, overBruck;
  std::vector<std::vector<int>> bestR;
};

std::string sizeLabel(double bytes) {
  const char *units[] = {"B", "KiB", "MiB", "GiB"};
  int u = 0;
  while (u < 3 && bytes >= 1024) {
    bytes /= 1024;
    ++u;
  }
  return std::to_string(static_cast<long long>(std::llround(bytes))) + " " + units[u];
}

std::string delayLabel(double us) {
  if (us >= 1000)
    return std::to_string(static_cast<long long>(std::llround(us / 1000))) + " ms";
  return std::to_string(static_cast<long long>(std::llround(us))) + " us";
}

/// White (1x) to deep blue (the grid's maximum), log scale.
std::string color(double speedup, double top) {
  double t = top > 1 ? std::log(std::max(speedup, 1.0)) / std::log(top) : 0;
  int r = static_cast<int>(255 - 215 * t), g = static_cast<int>(255 - 160 * t),
      b = static_cast<int>(255 - 60 * t);
  std::string text;
  llvm::raw_string_ostream(text) << "rgb(" << r << "," << g << "," << b << ")";
  return text;
}

void writeSvg(llvm::raw_ostream &os, const Grid &grid, int retriN, int bruckN,
              const std::vector<RoutingPhase> &retri,
              const std::vector<RoutingPhase> &bruck, SwitchModel model,
              double lineDelta) {
  const double cell = 34, left = 90, top = 60;
  const double heatW = cell * grid.sizes.size(), heatH = cell * grid.deltas.size();
  const double plotLeft = left + heatW + 120, plotW = 420, plotH = heatH;
  const double width = plotLeft + plotW + 160, height = top + heatH + 90;
  double maxSpeedup = 1;
  for (const auto &row : grid.overBruck)
    for (double v : row)
      maxSpeedup = std::max(maxSpeedup, v);
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width
     << "\" height=\"" << height << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  os << "<text x=\"" << left << "\" y=\"20\" font-size=\"14\">Speedup of ReTri (n = "
     << retriN << ") over Bruck (n = " << bruckN
     << "), each with its best R</text>\n";
  // Heatmap: rows delays (top = smallest), columns sizes.
  for (size_t d = 0; d < grid.deltas.size(); ++d) {
    os << "<text x=\"" << left - 6 << "\" y=\"" << top + cell * (d + 0.6)
       << "\" text-anchor=\"end\">" << delayLabel(grid.deltas[d]) << "</text>\n";
    for (size_t s = 0; s < grid.sizes.size(); ++s) {
      double v = grid.overBruck[d][s];
      os << "<rect x=\"" << left + cell * s << "\" y=\"" << top + cell * d
         << "\" width=\"" << cell << "\" height=\"" << cell << "\" fill=\""
         << color(v, maxSpeedup) << "\" stroke=\"white\"/>\n";
      os << "<text x=\"" << left + cell * (s + 0.5) << "\" y=\""
         << top + cell * (d + 0.62) << "\" text-anchor=\"middle\" font-size=\"9\">"
         << llvm::format("%.1f", v) << "</text>\n";
    }
  }
  for (size_t s = 0; s < grid.sizes.size(); s += 2)
    os << "<text x=\"" << left + cell * (s + 0.5) << "\" y=\"" << top + heatH + 14
       << "\" text-anchor=\"middle\" font-size=\"9\">" << sizeLabel(grid.sizes[s])
       << "</text>\n";
  os << "<text x=\"" << left + heatW / 2 << "\" y=\"" << top + heatH + 34
     << "\" text-anchor=\"middle\">message size per node</text>\n";
  os << "<text x=\"20\" y=\"" << top + heatH / 2
     << "\" transform=\"rotate(-90 20 " << top + heatH / 2
     << ")\" text-anchor=\"middle\">reconfiguration delay</text>\n";

  // Line plot: time over size at one delay, log-log.
  model.delta = lineDelta;
  struct Series {
    const char *name, *stroke;
    std::vector<double> times;
  };
  std::vector<Series> series = {{"ReTri, best R", "#1f4e9c", {}},
                                {"ReTri, static", "#7aa6e0", {}},
                                {"Bruck, best R", "#b0331f", {}},
                                {"Bruck, static", "#e8a090", {}}};
  for (double m : grid.sizes) {
    series[0].times.push_back(reconfiguredCost(retri, model, m, bestReconfigurations(retri, model, m)));
    series[1].times.push_back(reconfiguredCost(retri, model, m, 0));
    series[2].times.push_back(reconfiguredCost(bruck, model, m, bestReconfigurations(bruck, model, m)));
    series[3].times.push_back(reconfiguredCost(bruck, model, m, 0));
  }
  double lo = 1e300, hi = 0;
  for (const Series &s : series)
    for (double t : s.times) {
      lo = std::min(lo, t);
      hi = std::max(hi, t);
    }
  auto x = [&](size_t i) {
    return plotLeft + plotW * i / std::max<size_t>(1, grid.sizes.size() - 1);
  };
  auto y = [&](double t) {
    return top + plotH - plotH * (std::log(t) - std::log(lo)) / (std::log(hi) - std::log(lo));
  };
  os << "<text x=\"" << plotLeft << "\" y=\"20\" font-size=\"14\">Time over size, delta = "
     << delayLabel(lineDelta) << " (log-log)</text>\n";
  os << "<rect x=\"" << plotLeft << "\" y=\"" << top << "\" width=\"" << plotW
     << "\" height=\"" << plotH << "\" fill=\"none\" stroke=\"#888\"/>\n";
  for (double decade = std::pow(10, std::ceil(std::log10(lo))); decade <= hi; decade *= 10)
    os << "<text x=\"" << plotLeft - 6 << "\" y=\"" << y(decade) + 4
       << "\" text-anchor=\"end\" font-size=\"9\">" << llvm::format("%g", decade)
       << " us</text>\n<line x1=\"" << plotLeft << "\" x2=\"" << plotLeft + plotW
       << "\" y1=\"" << y(decade) << "\" y2=\"" << y(decade)
       << "\" stroke=\"#eee\"/>\n";
  for (size_t s = 0; s < grid.sizes.size(); s += 2)
    os << "<text x=\"" << x(s) << "\" y=\"" << top + plotH + 14
       << "\" text-anchor=\"middle\" font-size=\"9\">" << sizeLabel(grid.sizes[s])
       << "</text>\n";
  for (size_t k = 0; k < series.size(); ++k) {
    os << "<polyline fill=\"none\" stroke-width=\"2\" stroke=\"" << series[k].stroke
       << "\" points=\"";
    for (size_t i = 0; i < series[k].times.size(); ++i)
      os << (i ? " " : "") << llvm::format("%.1f,%.1f", x(i), y(series[k].times[i]));
    os << "\"/>\n<text x=\"" << plotLeft + plotW + 8 << "\" y=\""
       << top + 14 + 16 * k << "\" fill=\"" << series[k].stroke << "\">"
       << series[k].name << "</text>\n";
  }
  os << "</svg>\n";
}

} // namespace

int collc::runSweep(int argc, char **argv) {
  std::string modelPath, svg;
  int retriN = 81, bruckN = 64;
  for (int i = 2; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    auto next = [&]() -> std::optional<llvm::StringRef> {
      if (i + 1 < argc)
        return llvm::StringRef(argv[++i]);
      return std::nullopt;
    };
    std::optional<llvm::StringRef> value;
    if ((arg == "--model" || arg == "--svg" || arg == "--retri" ||
         arg == "--bruck") &&
        !(value = next())) {
      llvm::errs() << "collc: error: " << arg << " needs a value\n";
      return 2;
    }
    if (arg == "--model") {
      modelPath = value->str();
    } else if (arg == "--svg") {
      svg = value->str();
    } else if (arg == "--retri" || arg == "--bruck") {
      int n;
      if (value->getAsInteger(10, n) || n < 2) {
        llvm::errs() << "collc: error: " << arg
                     << " needs a node count >= 2, got '" << *value << "'\n";
        return 2;
      }
      (arg == "--retri" ? retriN : bruckN) = n;
    } else {
      llvm::errs() << "collc: error: unknown sweep option '" << arg
                   << "'; expected --model, --svg, --retri or --bruck\n";
      return 2;
    }
  }
  if (modelPath.empty()) {
    llvm::errs() << "collc: error: sweep needs --model FILE (alpha = us per "
                    "phase, hop_latency = us per hop, bandwidth = GB/s)\n";
    return 2;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(modelPath);
  if (!file) {
    llvm::errs() << "collc: error: cannot read '" << modelPath << "'\n";
    return 1;
  }
  std::string error;
  std::optional<MachineModel> machine =
      MachineModel::parse((*file)->getBuffer(), error);
  if (!machine) {
    llvm::errs() << modelPath << ":" << error.substr(0, error.find(": "))
                 << ": error: " << error.substr(error.find(": ") + 2) << "\n";
    return 1;
  }
  SwitchModel model;
  model.alphaPhase = machine->alpha;
  model.alphaHop = machine->hopLatency;
  model.beta = machine->beta;
  std::vector<RoutingPhase> retri =
      routingPhases(Digits{DigitSystem::balancedTernary, 3}, retriN);
  std::vector<RoutingPhase> bruck =
      routingPhases(Digits{DigitSystem::radix, 2}, bruckN);

  Grid grid;
  for (double m = 1024; m <= 256.0 * 1024 * 1024; m *= 2)
    grid.sizes.push_back(m);
  for (double d : {1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0, 10000.0,
                   30000.0, 50000.0})
    grid.deltas.push_back(d);
  double maxStatic = 0, maxBruck = 0, minBruck = 1e300;
  for (double d : grid.deltas) {
    model.delta = d;
    std::vector<double> rowStatic, rowBruck;
    std::vector<int> rowR;
    for (double m : grid.sizes) {
      int R = bestReconfigurations(retri, model, m);
      double best = reconfiguredCost(retri, model, m, R);
      double bruckBest = reconfiguredCost(
          bruck, model, m, bestReconfigurations(bruck, model, m));
      rowStatic.push_back(reconfiguredCost(retri, model, m, 0) / best);
      rowBruck.push_back(bruckBest / best);
      rowR.push_back(R);
      maxStatic = std::max(maxStatic, rowStatic.back());
      maxBruck = std::max(maxBruck, rowBruck.back());
      minBruck = std::min(minBruck, rowBruck.back());
    }
    grid.overStatic.push_back(rowStatic);
    grid.overBruck.push_back(rowBruck);
    grid.bestR.push_back(rowR);
  }

  llvm::raw_ostream &os = llvm::outs();
  os << "optical circuit switch: alpha_phase = "
     << llvm::format("%g", model.alphaPhase)
     << " us, alpha_hop = " << llvm::format("%g", model.alphaHop) << " us, "
     << llvm::format("%.3f", 1e-3 / model.beta) << " GB/s; ReTri n = " << retriN
     << " (" << retri.size() << " phases), Bruck n = " << bruckN << " ("
     << bruck.size() << " phases)\n";
  os << "best R for ReTri (rows: delta, columns: 1 KiB, 4 KiB, ... 256 MiB):\n";
  for (size_t d = 0; d < grid.deltas.size(); ++d) {
    os << "  " << llvm::left_justify(delayLabel(grid.deltas[d]), 8);
    for (size_t s = 0; s < grid.sizes.size(); s += 2)
      os << " " << grid.bestR[d][s];
    os << "\n";
  }
  os << "ReTri with R* over static ReTri (R = 0): up to "
     << llvm::format("%.2f", maxStatic) << "x\n";
  os << "ReTri with R* over Bruck with R*: " << llvm::format("%.2f", minBruck)
     << "x to " << llvm::format("%.2f", maxBruck) << "x\n";
  if (!svg.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream out(svg, ec, llvm::sys::fs::OF_Text);
    if (ec) {
      llvm::errs() << "collc: error: cannot write '" << svg
                   << "': " << ec.message() << "\n";
      return 1;
    }
    writeSvg(out, grid, retriN, bruckN, retri, bruck, model, 10.0);
    os << "wrote " << svg << "\n";
  }
  return 0;
}
