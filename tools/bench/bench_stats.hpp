#pragma once
// Order statistics of a benchmark case's trials (seed 000's report: median,
// MAD, p10, p90, min, max). Plain C++17, no MPI, so the unit tests check it.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace collc_bench {

struct Summary {
  std::size_t trials = 0;
  double median = 0, mad = 0, p10 = 0, p90 = 0, min = 0, max = 0;
};

// The median of sorted values: the middle one, or the mean of the middle
// two for an even count.
inline double sortedMedian(const std::vector<double>& sorted) {
  const std::size_t n = sorted.size();
  return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

// The nearest-rank percentile q (0 < q <= 100) of sorted values: the
// smallest value with at least q% of the values at or below it.
inline double sortedPercentile(const std::vector<double>& sorted, double q) {
  const std::size_t n = sorted.size();
  std::size_t rank = static_cast<std::size_t>(std::ceil(q / 100.0 * static_cast<double>(n)));
  rank = std::clamp<std::size_t>(rank, 1, n);
  return sorted[rank - 1];
}

inline Summary summarize(std::vector<double> values) {
  if (values.empty()) throw std::invalid_argument("summarize: no values");
  std::sort(values.begin(), values.end());
  Summary s;
  s.trials = values.size();
  s.median = sortedMedian(values);
  s.p10 = sortedPercentile(values, 10);
  s.p90 = sortedPercentile(values, 90);
  s.min = values.front();
  s.max = values.back();
  std::vector<double> deviations;
  deviations.reserve(values.size());
  for (double v : values) deviations.push_back(std::fabs(v - s.median));
  std::sort(deviations.begin(), deviations.end());
  s.mad = sortedMedian(deviations);
  return s;
}

}  // namespace collc_bench
