//===- PermutationGroup.cpp - groups given by generators ------------------===//
#include "coll/Dialect/PermutationGroup.h"

#include <algorithm>
#include <functional>

using namespace coll;

std::vector<Permutation>
coll::productGenerators(const std::vector<int64_t> &orders) {
  int64_t P = 1;
  for (int64_t n : orders)
    P *= n;
  std::vector<Permutation> generators;
  int64_t stride = P;
  for (int64_t n : orders) {
    stride /= n;
    Permutation g(static_cast<size_t>(P));
    for (int64_t x = 0; x < P; ++x) {
      int64_t digit = (x / stride) % n;
      g[static_cast<size_t>(x)] = x - digit * stride + ((digit + 1) % n) * stride;
    }
    generators.push_back(std::move(g));
  }
  return generators;
}

static Permutation compose(const Permutation &a, const Permutation &b) {
  Permutation ab(a.size()); // first b, then a
  for (size_t x = 0; x < a.size(); ++x)
    ab[x] = a[static_cast<size_t>(b[x])];
  return ab;
}

std::string coll::cycleNotation(const Permutation &p) {
  std::string text;
  std::vector<bool> seen(p.size(), false);
  for (size_t start = 0; start < p.size(); ++start) {
    if (seen[start] || p[start] == static_cast<int64_t>(start))
      continue;
    text += "(";
    for (size_t x = start; !seen[x]; x = static_cast<size_t>(p[x])) {
      seen[x] = true;
      text += (x == start ? "" : " ") + std::to_string(x);
    }
    text += ")";
  }
  return text.empty() ? "()" : text;
}

/// The elements reachable from the identity, at most `limit` of them.
static std::vector<Permutation> closure(const std::vector<Permutation> &gens,
                                        int64_t P, size_t limit) {
  Permutation identity(static_cast<size_t>(P));
  for (int64_t x = 0; x < P; ++x)
    identity[static_cast<size_t>(x)] = x;
  std::vector<Permutation> elements{identity};
  for (size_t i = 0; i < elements.size() && elements.size() <= limit; ++i)
    for (const Permutation &g : gens) {
      Permutation next = compose(g, elements[i]);
      if (std::find(elements.begin(), elements.end(), next) == elements.end())
        elements.push_back(std::move(next));
    }
  return elements;
}

std::optional<std::string>
coll::whyNotRegular(const std::vector<Permutation> &generators, int64_t P) {
  for (size_t i = 0; i < generators.size(); ++i)
    for (size_t j = i + 1; j < generators.size(); ++j)
      if (compose(generators[i], generators[j]) !=
          compose(generators[j], generators[i])) {
        const Permutation &a = generators[i], &b = generators[j];
        int64_t x = 0;
        while (a[static_cast<size_t>(b[static_cast<size_t>(x)])] ==
               b[static_cast<size_t>(a[static_cast<size_t>(x)])])
          ++x;
        return "is not abelian: " + cycleNotation(a) + " and " +
               cycleNotation(b) + " do not commute (rank " +
               std::to_string(x) + " goes to " +
               std::to_string(a[static_cast<size_t>(b[static_cast<size_t>(x)])]) +
               " one way and to " +
               std::to_string(b[static_cast<size_t>(a[static_cast<size_t>(x)])]) +
               " the other)";
      }
  // The orbit of rank 0.
  std::vector<bool> reached(static_cast<size_t>(P), false);
  std::vector<int64_t> stack{0};
  reached[0] = true;
  while (!stack.empty()) {
    int64_t x = stack.back();
    stack.pop_back();
    for (const Permutation &g : generators)
      if (!reached[static_cast<size_t>(g[static_cast<size_t>(x)])]) {
        reached[static_cast<size_t>(g[static_cast<size_t>(x)])] = true;
        stack.push_back(g[static_cast<size_t>(x)]);
      }
  }
  std::string orbit;
  int64_t size = 0;
  for (int64_t x = 0; x < P; ++x)
    if (reached[static_cast<size_t>(x)]) {
      orbit += (size++ ? ", " : "") + std::to_string(x);
    }
  if (size != P)
    return "is not transitive: rank 0 reaches only {" + orbit + "} of the " +
           std::to_string(P) + " ranks";
  // Abelian and transitive already imply regular (order P); checked anyway.
  size_t order = closure(generators, P, static_cast<size_t>(P)).size();
  if (order != static_cast<size_t>(P))
    return "has order " + std::string(order > static_cast<size_t>(P) ? "above " : "") +
           std::to_string(std::min(order, static_cast<size_t>(P))) +
           ", not the rank count " + std::to_string(P);
  return std::nullopt;
}

std::vector<Permutation>
coll::elementsOf(const std::vector<Permutation> &generators, int64_t P) {
  std::vector<Permutation> found = closure(generators, P, static_cast<size_t>(P));
  std::vector<Permutation> elements(static_cast<size_t>(P));
  for (Permutation &g : found)
    elements[static_cast<size_t>(g[0])] = std::move(g);
  return elements;
}

std::optional<std::vector<int64_t>>
coll::butterflyEnumeration(const std::vector<Permutation> &elements,
                           bool *gaveUp) {
  const int64_t P = static_cast<int64_t>(elements.size());
  if (gaveUp)
    *gaveUp = false;
  // Element index of a product: where it sends rank 0.
  auto times = [&](int64_t a, int64_t b) {
    return elements[static_cast<size_t>(a)][static_cast<size_t>(
        elements[static_cast<size_t>(b)][0])];
  };
  // A cyclic group (an element of order P, e.g. Z_5 x Z_7): its powers in
  // order, the enumeration of cyclic(P).
  for (int64_t g = 1; g < P; ++g) {
    std::vector<int64_t> powers{0};
    while (powers.size() < static_cast<size_t>(P) &&
           times(powers.back(), g) != 0)
      powers.push_back(times(powers.back(), g));
    if (powers.size() == static_cast<size_t>(P))
      return powers;
  }
  std::vector<int64_t> sizes{P};
  while (sizes.back() > 1)
    sizes.push_back((sizes.back() + 1) / 2);
  std::vector<int64_t> e{0}; // e_0 = identity
  std::vector<bool> used(static_cast<size_t>(P), false);
  used[0] = true;
  int64_t budget = 1000000; // nodes; plenty for P <= 4096 in practice
  // Level l (from the bottom) extends e from c to N = sizes[l] entries.
  std::function<bool(size_t)> extend = [&](size_t level) -> bool {
    if (level == 0)
      return true;
    const int64_t n = sizes[level - 1], c = (n + 1) / 2, h = n / 2;
    for (int64_t d = 1; d < P; ++d) {
      if (--budget < 0)
        return false;
      bool fits = true;
      for (int64_t i = 0; i < h && fits; ++i) {
        int64_t next = times(e[static_cast<size_t>(i)], d);
        fits = !used[static_cast<size_t>(next)];
        for (int64_t j = 0; j < i && fits; ++j)
          fits = times(e[static_cast<size_t>(j)], d) != next;
      }
      if (!fits)
        continue;
      for (int64_t i = 0; i < h; ++i) {
        e.push_back(times(e[static_cast<size_t>(i)], d));
        used[static_cast<size_t>(e.back())] = true;
      }
      if (extend(level - 1))
        return true;
      for (int64_t i = 0; i < h; ++i) {
        used[static_cast<size_t>(e.back())] = false;
        e.pop_back();
      }
      (void)c;
    }
    return false;
  };
  if (extend(sizes.size() - 1))
    return e;
  if (gaveUp)
    *gaveUp = budget < 0;
  return std::nullopt;
}
