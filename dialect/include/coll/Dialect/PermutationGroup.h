//===- PermutationGroup.h - groups given by generators ----------*- C++ -*-===//
//
// `group generated { (0 1)(2 3), ... }` and products `cyclic(3) * cyclic(4)`
// (design.md 3.1): an abelian group of permutations of the ranks 0..P-1
// that acts transitively, hence regularly, so that each element is fixed by
// where it sends rank 0. The frontend checks the user's generators here,
// and the expansion enumerates the elements in an order the butterfly can
// use: every halving moves its vectors by ONE element.
//
//===----------------------------------------------------------------------===//
#ifndef COLL_DIALECT_PERMUTATIONGROUP_H
#define COLL_DIALECT_PERMUTATIONGROUP_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace coll {

/// images[x] = where the permutation sends rank x.
using Permutation = std::vector<int64_t>;

/// The generators of `cyclic(n_1) * ... * cyclic(n_m)` on the ranks
/// x = a_1 * (n_2 ... n_m) + ... + a_m (mixed radix, the first factor most
/// significant): generator i adds 1 to digit a_i mod n_i.
std::vector<Permutation> productGenerators(const std::vector<int64_t> &orders);

/// Why `generators` (permutations of [0, P)) do not make a group that acts
/// regularly: not abelian, not transitive, or of another order than P.
/// std::nullopt when they do.
std::optional<std::string>
whyNotRegular(const std::vector<Permutation> &generators, int64_t P);

/// Why `table` (P rows of P images, row k = t_k) is not the element table
/// of an abelian group acting regularly on [0, P) with t_0 the identity,
/// which is what the verifier and the runtime assume of `group_elements`:
/// an entry outside [0, P), a row that is no permutation, row 0 not the
/// identity, two rows sending rank 0 to one rank (then the action is not
/// transitive), two elements that do not commute, or a product of elements
/// that is no row. std::nullopt when it is such a table. O(P^2 log P).
std::optional<std::string> whyNotGroupTable(const std::vector<int64_t> &table,
                                            int64_t P);

/// The group's elements, indexed by where they send rank 0 (regular action).
/// Requires whyNotRegular() to be nullopt.
std::vector<Permutation> elementsOf(const std::vector<Permutation> &generators,
                                    int64_t P);

/// An enumeration e_0 = id, e_1, ..., e_{P-1} of the elements (as indices
/// into elementsOf) such that every halving of the butterfly (N vectors,
/// c = ceil(N/2), h = floor(N/2)) has e_{c+i} e_i^-1 the same for all i < h:
/// each move is then one permutation. Found by a bounded depth-first search
/// over the element of each level; nullopt if there is none (or the search
/// gave up, which `gaveUp` reports).
std::optional<std::vector<int64_t>>
butterflyEnumeration(const std::vector<Permutation> &elements,
                     bool *gaveUp = nullptr);

/// "(0 1)(2 3)"; "()" for the identity.
std::string cycleNotation(const Permutation &p);

} // namespace coll

#endif
