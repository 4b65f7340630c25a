// Structure facts of the all-to-all digit routings
// (runtime/include/coll/digits.hpp; seeds/002, design.md 3.2).
#include "coll/digits.hpp"

#include <doctest/doctest.h>

#include <cstddef>
#include <set>
#include <vector>

using namespace coll;

namespace {

const Digits kTernary{DigitSystem::balancedTernary, 3};
const Digits kDirect{DigitSystem::direct, 2};
Digits radix(int b) { return Digits{DigitSystem::radix, b}; }

int ceilLog(int base, int n) {
  int k = 0;
  for (long long reach = 1; reach < n; reach *= base)
    ++k;
  return k;
}

/// Every block reaches its destination: the offsets of the steps that carry
/// block j add up to j (mod n), and no step carries a block twice.
void checkDelivers(const Digits &digits, int n) {
  CAPTURE(n);
  std::vector<long long> moved(n, 0);
  for (const DigitStep &step : digitSteps(digits, n)) {
    CHECK(step.offset > 0);
    CHECK(step.offset < n);
    std::set<int> blocks(step.blocks.begin(), step.blocks.end());
    CHECK(blocks.size() == step.blocks.size());
    for (int j : step.blocks) {
      CHECK(j > 0); // block 0 stays home
      moved[j] += step.offset;
    }
  }
  for (int j = 0; j < n; ++j)
    CHECK(moved[j] % n == j);
}

} // namespace

TEST_CASE("every routing delivers every block, n = 1..200") {
  for (int n = 1; n <= 200; ++n) {
    checkDelivers(kTernary, n);
    checkDelivers(kDirect, n);
    for (int b : {2, 3, 4, 7})
      checkDelivers(radix(b), n);
  }
}

TEST_CASE("ReTri takes ceil(log3 n) phases, Bruck radix k ceil(log_k n), "
          "direct one") {
  for (int n = 2; n <= 300; ++n) {
    CAPTURE(n);
    CHECK(digitPhases(kTernary, n) == ceilLog(3, n));
    for (int b : {2, 3, 4, 5, 8})
      CHECK(digitPhases(radix(b), n) == ceilLog(b, n));
    CHECK(digitPhases(kDirect, n) == 1);
    CHECK(digitSteps(kDirect, n).size() == static_cast<std::size_t>(n - 1));
  }
  CHECK(digitPhases(kTernary, 81) == 4);
  CHECK(digitPhases(radix(2), 64) == 6);
}

TEST_CASE("ReTri for n = 3^s: every rank sends exactly n/3 blocks each way "
          "each phase (seeds/002, Lemma 2), to r + 3^k and r - 3^k") {
  for (int n : {3, 9, 27, 81, 243}) {
    CAPTURE(n);
    const std::vector<DigitStep> steps = digitSteps(kTernary, n);
    REQUIRE(steps.size() == static_cast<std::size_t>(2 * ceilLog(3, n)));
    int power = 1;
    for (std::size_t s = 0; s < steps.size(); s += 2, power *= 3) {
      const DigitStep &right = steps[s], &left = steps[s + 1];
      CHECK(right.phase == static_cast<int>(s / 2));
      CHECK(left.phase == right.phase);
      CHECK(right.offset == power);
      CHECK(left.offset == n - power);
      CHECK(right.blocks.size() == static_cast<std::size_t>(n / 3));
      CHECK(left.blocks.size() == static_cast<std::size_t>(n / 3));
    }
  }
}

TEST_CASE("ReTri on 9 ranks: the balanced-ternary digits of the centered "
          "offsets") {
  // Offsets 1..4 are +1..+4, 5..8 are -4..-1. Phase 0 sends digit +1 (1, 4,
  // 7 = -2 = -3 + 1) right and digit -1 (2 = 3 - 1, 5 = -4, 8 = -1) left.
  const std::vector<DigitStep> steps = digitSteps(kTernary, 9);
  CHECK(steps[0].blocks == std::vector<int>{1, 4, 7});
  CHECK(steps[1].blocks == std::vector<int>{2, 5, 8});
  CHECK(steps[2].blocks == std::vector<int>{2, 3, 4});
  CHECK(steps[3].blocks == std::vector<int>{5, 6, 7});
}

TEST_CASE("Trivance: log3 phases on the largest power of three, at most two "
          "bands of extra ranks") {
  for (int n = 1; n <= 200; ++n) {
    CAPTURE(n);
    TrivanceShape shape = trivanceShape(n);
    CHECK(shape.core <= n);
    CHECK(shape.core * 3 > n);
    int power = 1;
    for (int k = 0; k < shape.phases; ++k)
      power *= 3;
    CHECK(power == shape.core);
    CHECK(shape.bands <= 2);
    // The bands cover the extra ranks exactly: core * (bands + 1) >= n.
    CHECK(shape.core * (shape.bands + 1) >= n);
    CHECK(shape.core * shape.bands < n);
  }
  // n = 3^s: s phases and nothing to fold.
  CHECK(trivanceShape(81).phases == 4);
  CHECK(trivanceShape(81).bands == 0);
}
