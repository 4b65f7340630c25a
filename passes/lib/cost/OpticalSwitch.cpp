//===- OpticalSwitch.cpp - a topology that changes between phases ---------===//
#include "coll/Passes/OpticalSwitch.h"
#include "StepTraffic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

using namespace coll;
using namespace coll::detail;

static constexpr double kInfinity = std::numeric_limits<double>::infinity();

std::string coll::listText(const std::vector<int64_t> &values) {
  std::string text;
  for (int64_t v : values)
    text += (text.empty() ? "" : ", ") + std::to_string(v);
  return text;
}

std::optional<OpticalSwitch> OpticalSwitch::build(ProgramOp program,
                                                  const MachineModel &model,
                                                  std::string &error) {
  int64_t P = static_cast<int64_t>(program.getNumRanks());
  if (program.getSegments().value_or(1) > 1) {
    error = "the optical switch prices unsegmented programs; '" +
            program.getSymName().str() + "' has segments";
    return std::nullopt;
  }
  if (model.beta <= 0) {
    error = "an optical switch needs beta > 0 for its circuits' bandwidth";
    return std::nullopt;
  }
  if (model.delta < 0) {
    error = "an optical switch needs delta (us per reconfiguration)";
    return std::nullopt;
  }
  // Phases: where a communication step does not overlap the one before.
  std::vector<Traffic> traffic =
      trafficOfSteps(program, partBytes(program, kSlopeProbeBytes));
  std::vector<StepCost> uniform = priceSteps(traffic, model, nullptr);
  OpticalSwitch ocs;
  ocs.delta = model.delta;
  for (size_t i = 0; i < uniform.size(); ++i) {
    ocs.routes |= uniform[i].communicates;
    if (uniform[i].communicates && !uniform[i].overlapped)
      ocs.starts.push_back(static_cast<int64_t>(i));
  }
  if (ocs.starts.empty()) // nothing to route: one phase of local steps
    ocs.starts.push_back(0);
  ocs.starts.front() = 0; // local steps before the first message join it
  int64_t K = static_cast<int64_t>(ocs.starts.size());
  auto phaseEnd = [&](int64_t p) {
    return p + 1 < K ? ocs.starts[p + 1]
                     : static_cast<int64_t>(uniform.size());
  };

  // Each phase's circuits: its pairs of ranks; a setting when every node
  // needs at most `ports` of them.
  std::vector<std::set<std::pair<int64_t, int64_t>>> circuits(K);
  std::vector<std::string> tooMany(K); // why a phase cannot be a setting
  for (int64_t p = 0; p < K; ++p) {
    std::vector<int64_t> degree(static_cast<size_t>(P), 0);
    for (int64_t s = ocs.starts[p]; s < phaseEnd(p); ++s)
      for (const Message &m : traffic[s])
        if (m.src != m.dst &&
            circuits[p].insert(std::minmax(m.src, m.dst)).second) {
          ++degree[m.src];
          ++degree[m.dst];
        }
    auto most = std::max_element(degree.begin(), degree.end());
    bool fits = most == degree.end() || *most <= model.ports;
    ocs.canSet.push_back(fits);
    if (!fits)
      tooMany[p] = "phase " + std::to_string(p) + " needs " +
                   std::to_string(*most) + " circuits at rank " +
                   std::to_string(most - degree.begin()) +
                   "; the optical switch has ports = " +
                   std::to_string(model.ports) + " per node";
    if (p == 0 && !fits) {
      error = tooMany[p];
      return std::nullopt;
    }
  }

  // The topology of each distinct setting, then every phase on every
  // earlier setting.
  double bandwidth = 1e-3 / model.beta; // GB/s
  std::map<std::set<std::pair<int64_t, int64_t>>, Topology> topologies;
  std::vector<int64_t> identity(static_cast<size_t>(P));
  for (int64_t r = 0; r < P; ++r)
    identity[r] = r;
  ocs.phaseCost.assign(K, std::vector<AffineCost>(K, {kInfinity, 0}));
  for (int64_t s = 0; s < K; ++s) {
    if (!ocs.canSet[s])
      continue;
    auto it = topologies.find(circuits[s]);
    if (it == topologies.end()) {
      std::vector<Link> links;
      for (auto [a, b] : circuits[s]) {
        links.push_back({a, b, model.hopLatency, bandwidth});
        links.push_back({b, a, model.hopLatency, bandwidth});
      }
      it = topologies.emplace(circuits[s], Topology(P, links, identity)).first;
    }
    for (int64_t p = s; p < K; ++p) {
      llvm::ArrayRef<Traffic> phase(traffic.data() + ocs.starts[p],
                                    traffic.data() + phaseEnd(p));
      ocs.phaseCost[s][p] = affineOfTraffic(phase, model, &it->second);
    }
  }
  // A phase that cannot be a setting must travel over an earlier one.
  if (std::isinf(ocs.best(0).cost.fixed)) {
    for (int64_t p = 0; p < K; ++p)
      if (!ocs.canSet[p] &&
          llvm::all_of(llvm::seq<int64_t>(0, p), [&](int64_t s) {
            return std::isinf(ocs.phaseCost[s][p].fixed);
          })) {
        error = tooMany[p] + ", and no earlier setting reaches its peers";
        return std::nullopt;
      }
    error = "no settings of the optical switch route every phase";
    return std::nullopt;
  }
  return ocs;
}

SwitchPlan OpticalSwitch::plan(std::vector<int64_t> settings) const {
  SwitchPlan result;
  result.settings = std::move(settings);
  AffineCost &cost = result.cost;
  cost.fixed = delta * static_cast<double>(result.reconfigurations());
  size_t next = 0;
  int64_t current = 0;
  for (int64_t p = 0; p < numPhases(); ++p) {
    if (next < result.settings.size() && result.settings[next] == p) {
      current = p;
      ++next;
    }
    const AffineCost &c = phaseCost[current][p];
    if (std::isinf(c.fixed))
      return {result.settings, {kInfinity, 0}};
    cost.fixed += c.fixed;
    cost.perByte += c.perByte;
  }
  return result;
}

SwitchPlan OpticalSwitch::best(double bytes) const {
  int64_t K = numPhases();
  // Per setting s in force now, the cheapest run of the phases so far:
  // its time, its per-byte slope, its reconfigurations and settings. Ties
  // on time go to the smaller slope (the plan that stays cheapest just
  // above `bytes`, which plansBySize relies on), then to fewer
  // reconfigurations; all three add up along a plan, so the dynamic
  // program finds the least triple.
  struct State {
    double time = kInfinity, slope = 0;
    int64_t count = 0;
    std::vector<int64_t> settings;
  };
  auto better = [](const State &x, const State &y) {
    if (std::isinf(y.time))
      return !std::isinf(x.time);
    double tolerance = 1e-12 * std::max(1.0, std::abs(y.time));
    if (std::abs(x.time - y.time) > tolerance)
      return x.time < y.time;
    double slopeTolerance = 1e-12 * std::max(std::abs(x.slope), std::abs(y.slope));
    if (std::abs(x.slope - y.slope) > slopeTolerance)
      return x.slope < y.slope;
    return x.count < y.count;
  };
  auto add = [&](State &state, const AffineCost &c) {
    state.time += c.at(bytes); // stays infinite when unroutable
    state.slope += c.perByte;
  };
  std::vector<State> states(K);
  states[0].time = 0;
  states[0].settings = {0};
  add(states[0], phaseCost[0][0]);
  for (int64_t p = 1; p < K; ++p) {
    // Reconfigure before p: from the cheapest state of the phases before.
    std::optional<int64_t> prior;
    for (int64_t s = 0; s < p; ++s)
      if (!std::isinf(states[s].time) && (!prior || better(states[s], states[*prior])))
        prior = s;
    State reconfigured;
    if (canSet[p] && prior) {
      reconfigured = states[*prior];
      reconfigured.time += delta;
      ++reconfigured.count;
      reconfigured.settings.push_back(p);
      add(reconfigured, phaseCost[p][p]);
    }
    for (int64_t s = 0; s < p; ++s)
      add(states[s], phaseCost[s][p]);
    states[p] = std::move(reconfigured);
  }
  int64_t last = 0;
  for (int64_t s = 1; s < K; ++s)
    if (better(states[s], states[last]))
      last = s;
  return plan(states[last].settings);
}

std::vector<std::pair<double, SwitchPlan>> OpticalSwitch::plansBySize() const {
  // The plans are affine in the size and the cheapest is their minimum, so
  // each plan is cheapest on one interval: bisect between two sizes whose
  // plans differ at the crossing of their costs.
  std::vector<std::pair<double, SwitchPlan>> ranges;
  const double top = 1e18; // bytes
  std::vector<std::pair<double, SwitchPlan>> breaks; // (size, plan above)
  auto search = [&](auto &&self, double lo, const SwitchPlan &a, double hi,
                    const SwitchPlan &b, int depth) -> void {
    if (a.settings == b.settings)
      return;
    std::optional<double> at = crossover(a.cost, b.cost);
    if (!at || *at <= lo) { // b is as cheap at lo already
      breaks.push_back({lo, b});
      return;
    }
    if (*at >= hi || depth > 64) {
      breaks.push_back({hi, b});
      return;
    }
    SwitchPlan c = best(*at);
    double tolerance = 1e-9 * std::max(1.0, a.cost.at(*at));
    if (c.cost.at(*at) >= a.cost.at(*at) - tolerance ||
        c.settings == a.settings || c.settings == b.settings) {
      breaks.push_back({*at, b});
      return;
    }
    self(self, lo, a, *at, c, depth + 1);
    self(self, *at, c, hi, b, depth + 1);
  };
  SwitchPlan low = best(0), high = best(top);
  search(search, 0, low, top, high, 0);
  std::sort(breaks.begin(), breaks.end(),
            [](const auto &x, const auto &y) { return x.first < y.first; });
  SwitchPlan current = low;
  double from = 0;
  for (auto &[size, above] : breaks) {
    if (size > from) // no empty ranges
      ranges.push_back({size, current});
    current = above;
    from = size;
  }
  ranges.push_back({kInfinity, current});
  return ranges;
}
