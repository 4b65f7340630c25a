// Groups given by generators (dialect/include/coll/Dialect/PermutationGroup.h):
// the regularity checks, the butterfly enumeration, and the closure they
// share with the runtime (coll::generatedTable).
#include "coll/Dialect/PermutationGroup.h"
#include "coll/groups.hpp"

#include <doctest/doctest.h>

#include <set>
#include <vector>

using namespace coll;

namespace {

/// e_{c+i} e_i^-1 is one element for every i < h of every halving: the
/// property that makes each butterfly move one permutation.
void checkHalvingsShareOneElement(const std::vector<Permutation> &elements,
                                  const std::vector<int64_t> &e) {
  const int64_t P = static_cast<int64_t>(elements.size());
  REQUIRE(e.size() == elements.size());
  CHECK(std::set<int64_t>(e.begin(), e.end()).size() == e.size());
  CHECK(e[0] == 0); // the identity sends rank 0 to 0
  for (int64_t n = P; n > 1; n = (n + 1) / 2) {
    const int64_t c = (n + 1) / 2, h = n / 2;
    // Where t_{c+i} t_i^-1 sends rank 0, i.e. t_{c+i}(t_i^-1(0)).
    std::set<int64_t> quotients;
    for (int64_t i = 0; i < h; ++i) {
      const Permutation &ti = elements[e[i]], &tci = elements[e[c + i]];
      int64_t preimage = 0;
      while (ti[preimage] != 0)
        ++preimage;
      quotients.insert(tci[preimage]);
    }
    CHECK(quotients.size() == 1);
  }
}

} // namespace

TEST_CASE("a product of cyclic groups acts digit by digit (mixed radix)") {
  std::vector<Permutation> g = productGenerators({3, 4});
  REQUIRE(g.size() == 2);
  CHECK(g[0][0] == 4);  // rank 0 = (0, 0) -> (1, 0) = 4
  CHECK(g[0][11] == 3); // (2, 3) -> (0, 3)
  CHECK(g[1][3] == 0);  // (0, 3) -> (0, 0)
  CHECK_FALSE(whyNotRegular(g, 12).has_value());
}

TEST_CASE("the regularity checks name what is wrong") {
  CHECK(*whyNotRegular({{1, 2, 0}, {1, 0, 2}}, 3) ==
        "is not abelian: (0 1 2) and (0 1) do not commute (rank 0 goes to 2 "
        "one way and to 0 the other)");
  CHECK(*whyNotRegular({{1, 0, 3, 2}}, 4) ==
        "is not transitive: rank 0 reaches only {0, 1} of the 4 ranks");
  CHECK_FALSE(whyNotRegular({{1, 0, 3, 2}, {2, 3, 0, 1}}, 4).has_value());
  CHECK(cycleNotation({1, 0, 3, 2}) == "(0 1)(2 3)");
  CHECK(cycleNotation({0, 1}) == "()");
}

TEST_CASE("the butterfly enumeration exists for these products and fits") {
  for (std::vector<int64_t> orders :
       {std::vector<int64_t>{2, 3}, {3, 4}, {2, 6}, {2, 2, 2}, {4, 2},
        {3, 5}, {2, 3, 4}, {4, 4, 4}, {8, 8}, {2, 2, 2, 2, 2, 2}, {5, 7}}) {
    int64_t P = 1;
    for (int64_t n : orders)
      P *= n;
    CAPTURE(P);
    std::vector<Permutation> elements = elementsOf(productGenerators(orders), P);
    std::optional<std::vector<int64_t>> e = butterflyEnumeration(elements);
    REQUIRE(e.has_value());
    checkHalvingsShareOneElement(elements, *e);
  }
}

TEST_CASE("Z_3 x Z_3 has no butterfly enumeration (exhaustive search)") {
  bool gaveUp = true;
  CHECK_FALSE(
      butterflyEnumeration(elementsOf(productGenerators({3, 3}), 9), &gaveUp)
          .has_value());
  CHECK_FALSE(gaveUp);
}

// coll::generatedTable (runtime/include/coll/groups.hpp) is the one closure:
// elementsOf, whyNotRegular and the headers' TableGroup::generatedBy all
// build their tables with it.
TEST_CASE("generatedTable: rows by where they send 0, in the given order") {
  const std::vector<int> klein = {1, 0, 3, 2, /**/ 2, 3, 0, 1};
  CHECK(generatedTable(4, klein.data(), 2, nullptr) ==
        std::vector<int>{0, 1, 2, 3, 1, 0, 3, 2, 2, 3, 0, 1, 3, 2, 1, 0});
  const std::vector<int> order = {0, 2, 1, 3};
  CHECK(generatedTable(4, klein.data(), 2, order.data()) ==
        std::vector<int>{0, 1, 2, 3, 2, 3, 0, 1, 1, 0, 3, 2, 3, 2, 1, 0});
  // Each product's table, against its closed form: row k adds k's mixed-radix
  // digits to x's, digit by digit (the element that sends 0 to k).
  for (std::vector<int64_t> orders : {std::vector<int64_t>{2, 3}, {4, 4}, {2, 2, 5}}) {
    int64_t P = 1;
    for (int64_t n : orders)
      P *= n;
    std::vector<int> flat;
    for (const Permutation &g : productGenerators(orders))
      flat.insert(flat.end(), g.begin(), g.end());
    std::vector<int> table = generatedTable(static_cast<int>(P), flat.data(),
                                            static_cast<int>(orders.size()), nullptr);
    REQUIRE(table.size() == static_cast<size_t>(P * P));
    for (int64_t k = 0; k < P; ++k)
      for (int64_t x = 0; x < P; ++x) {
        int64_t image = 0, stride = P;
        for (int64_t n : orders) {
          stride /= n;
          image += ((k / stride + x / stride) % n) * stride;
        }
        CHECK(table[k * P + x] == image);
      }
  }
}

TEST_CASE("generatedTable is empty for what is not a regular group or order") {
  const std::vector<int> notTransitive = {1, 0, 3, 2};  // (0 1)(2 3) alone
  CHECK(generatedTable(4, notTransitive.data(), 1, nullptr).empty());
  const std::vector<int> s3 = {1, 2, 0, /**/ 1, 0, 2};  // order 6 on 3 ranks
  CHECK(generatedTable(3, s3.data(), 2, nullptr).empty());
  const std::vector<int> outside = {1, 2, 3};
  CHECK(generatedTable(3, outside.data(), 1, nullptr).empty());
  const std::vector<int> cyclic3 = {1, 2, 0};
  CHECK(generatedTable(3, cyclic3.data(), 1, nullptr).size() == 9);
  const std::vector<int> repeated = {0, 1, 1}, short3 = {0, 1, 3};
  CHECK(generatedTable(3, cyclic3.data(), 1, repeated.data()).empty());
  CHECK(generatedTable(3, cyclic3.data(), 1, short3.data()).empty());
  CHECK(generatedTable(0, cyclic3.data(), 1, nullptr).empty());
  CHECK(generatedTable(3, nullptr, 1, nullptr).empty());
  // A group that is not one is an invalid TableGroup, of the size it was given.
  TableGroup bad = TableGroup::generatedBy(3, s3.data(), 2, nullptr);
  CHECK_FALSE(bad.valid());
  CHECK(bad.size() == 3);
  TableGroup good = TableGroup::generatedBy(3, cyclic3.data(), 1, nullptr);
  REQUIRE(good.valid());
  CHECK(good.act(1, 2) == 0);
  CHECK(good.inverse(1, 0) == 2);
  CHECK(good.compose(2, 2) == 1);
  CHECK(good.planKey() == TableGroup(3, good.elements().data()).planKey());
}
