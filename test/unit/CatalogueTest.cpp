// The catalogue of families (dialect/include/coll/Dialect/Catalogue.h):
// which family a schedule selects, the values auto tries, and parameter
// ranges. Its messages are pinned by the lit tests of the parser and the
// op verifier, which both report them.
#include "coll/Dialect/Catalogue.h"

#include <doctest/doctest.h>

using namespace coll;

TEST_CASE("families: one entry per Family, in order, each serving a kind") {
  REQUIRE(families().size() == 14);
  for (size_t i = 0; i < families().size(); ++i) {
    CHECK(static_cast<size_t>(families()[i].id) == i);
    CHECK(!families()[i].kinds.empty());
    CHECK(&familyInfo(families()[i].id) == &families()[i]);
  }
}

TEST_CASE("familyOf: schedule, group, kind and r select the family") {
  using K = CollectiveKind;
  using S = ScheduleKind;
  CHECK(familyOf(K::allreduce, S::linear, GroupKind::cyclic, 0) == Family::ring);
  CHECK(familyOf(K::inclusive_scan, S::linear, std::nullopt, 0) == Family::chainScan);
  CHECK(familyOf(K::allreduce, S::butterfly, GroupKind::xor_, 0) == Family::halving);
  CHECK(familyOf(K::allreduce, S::butterfly, GroupKind::xor_, kButterflyMax) ==
        Family::recursiveDoubling);
  CHECK(familyOf(K::allreduce, S::butterfly, GroupKind::cyclic, kButterflyMax) ==
        Family::shiftedButterfly);
  CHECK(familyOf(K::allreduce, S::butterfly, GroupKind::xor_, 2) == Family::shiftedButterfly);
  CHECK(familyOf(K::allreduce, S::butterfly, std::nullopt, 0) == std::nullopt);
  CHECK(familyOf(K::allreduce, S::balanced_ternary, std::nullopt, 0) == Family::trivance);
  CHECK(familyOf(K::alltoall, S::balanced_ternary, std::nullopt, 0) == Family::retri);
  CHECK(familyOf(K::alltoall, S::radix, std::nullopt, 0) == Family::bruck);
  CHECK(familyOf(K::alltoall, S::direct, std::nullopt, 0) == Family::pairwise);
  CHECK(familyOf(K::reduce, S::chain, std::nullopt, 0) == Family::chainTree);
  CHECK(familyOf(K::reduce, S::chain, GroupKind::cyclic, 0) == std::nullopt);
  CHECK(familyOf(K::inclusive_scan, S::doubling, GroupKind::cyclic, 0) == std::nullopt);
}

TEST_CASE("autoValues and checkParameter: the catalogue's ranges") {
  CHECK(autoValues("segments", std::nullopt) ==
        llvm::SmallVector<int64_t>{1, 2, 4, 8, 16, 32, 64, 128, 256});
  CHECK(autoValues("r", 8) == llvm::SmallVector<int64_t>{0, 1, 2, kButterflyMax});
  CHECK(autoValues("r", std::nullopt) ==
        llvm::SmallVector<int64_t>{0, 1, 2, 3, 4, 5, kButterflyMax});
  CHECK(autoValues("arity", 4) == llvm::SmallVector<int64_t>{2, 3});
  CHECK(autoValues("arity", std::nullopt) == llvm::SmallVector<int64_t>{2, 3, 4, 8, 16});
  CHECK(checkParameter("segments", 4096) == std::nullopt);
  CHECK(checkParameter("segments", 0) == "segments must be in 1..4096, got 0");
  CHECK(checkParameter("arity", 1) == "tree arity must be at least 2, got 1");
  CHECK(checkParameter("flat_below", 0) == std::nullopt);
  CHECK(checkParameter("radix", 2) == std::nullopt);
  CHECK(checkParameter("r", kButterflyMax) == std::nullopt);
  CHECK(checkParameter("r", -2) == "butterfly r must be >= 0 or max (-1), got -2");
}

TEST_CASE("checkFamily: the field a violation is about") {
  FamilySpec spec;
  spec.kind = CollectiveKind::reduce_scatter;
  spec.schedule = ScheduleKind::butterfly;
  spec.group = GroupKind::cyclic;
  spec.butterflyR = 2;
  std::optional<FamilyViolation> bad = checkFamily(spec);
  REQUIRE(bad);
  CHECK(bad->field == SpecField::butterflyR);
  spec.butterflyR = 0;
  CHECK(checkFamily(spec) == std::nullopt);
  spec.segments = 4;
  REQUIRE(checkFamily(spec));
  CHECK(checkFamily(spec)->field == SpecField::segments);
  spec.kind = CollectiveKind::allreduce;
  CHECK(checkFamily(spec) == std::nullopt);
  spec.group = GroupKind::xor_;
  spec.fixedRanks = 6;
  REQUIRE(checkFamily(spec));
  CHECK(checkFamily(spec)->field == SpecField::group);
  CHECK(checkFamily(spec)->message == "group xor(P) needs P to be a power of two, got P = 6");
}

TEST_CASE("rules stated once: xor orders, schedules per kind, groups on "
          "families that take none, generators") {
  CHECK(checkXorOrder(8) == std::nullopt);
  CHECK(checkXorOrder(1) == std::nullopt);
  CHECK(checkXorOrder(6) == "group xor(P) needs P to be a power of two, got P = 6");
  CHECK(checkXorOrder(0, "n") == "group xor(n) needs n to be a power of two, got n = 0");
  CHECK(schedulesFor(CollectiveKind::inclusive_scan) ==
        "'schedule linear;' or 'schedule doubling;'");
  CHECK(schedulesFor(CollectiveKind::alltoall) ==
        "'schedule direct;', 'digits radix(k);' or 'digits balanced_ternary;'");
  // `schedule linear;` with a group would read as the ring, which serves no
  // scan: the catalogue names the family the kind meant.
  FamilySpec scan;
  scan.kind = CollectiveKind::inclusive_scan;
  scan.schedule = ScheduleKind::linear;
  scan.group = GroupKind::cyclic;
  std::optional<FamilyViolation> v = checkFamily(scan);
  REQUIRE(v);
  CHECK(v->field == SpecField::group);
  CHECK(v->message == "the scan chain ('schedule linear;') takes no group");
  scan.group = std::nullopt;
  CHECK_FALSE(checkFamily(scan));
  // Generators as image lists (the op verifier's form).
  CHECK(checkGeneratedGroup({{1, 0, 3}}, 4, ScheduleKind::linear) ==
        "a generator has 3 images for 4 ranks");
  CHECK(checkGeneratedGroup({{1, 1, 3, 2}}, 4, ScheduleKind::linear) ==
        "a generator is not a permutation of [0, 4)");
  CHECK(checkGeneratedGroup({{1, 0, 3, 4}}, 4, ScheduleKind::linear) ==
        "a generator is not a permutation of [0, 4)");
  CHECK(checkGeneratedGroup({{1, 2, 3, 0}}, 4, ScheduleKind::linear) ==
        std::nullopt);
}
