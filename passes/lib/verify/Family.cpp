//===- Family.cpp - proofs for every rank count at once -------------------===//
//
// A group schedule is a closed form in P, so some of its properties can be
// proven with P symbolic instead of once per P:
//  - every move of the cyclic group (any from, to, vectors in range) and
//    every aligned move of the xor group is one permutation of the ranks,
//    and the receiver files each part under the index it was sent as;
//  - the linear schedule (ring) hands every contribution along the ring
//    and back, proven by induction over the step index j: the closed-form
//    invariants below hold before step 0 and each step keeps them;
//  - the linear allgather copies placement 0 along the ring, by the same
//    kind of induction;
//  - the butterfly on cyclic(P) with r = 0 halves the live placements
//    down to one and doubles them back, by induction over the live count;
//  - the binomial tree of every kind (reduce, gather, broadcast, scatter
//    and the two-pass allreduce, allgather, reduce-scatter and barrier)
//    keeps runs of virtual ranks per live rank, by induction over levels;
//  - the hierarchical tree of seed 000 partitions each node into smaller
//    balanced groups, deeper levels first, by induction over node size;
//  - the digit routings (Bruck, ReTri) on P = base^s route every block by
//    its digits, one query per s.
// The per-P check that a program is an instance of these closed forms is
// familyCovers(); the closed forms it compares against are written beside
// each proof, from the same formulas the queries state, not taken from the
// runtime's generators.
//
// This file binds each family (coll/Dialect/Catalogue.h) to its proof, if
// it has one, and holds what the proofs share; the proofs are in
// FamilyGroups.cpp, FamilyTrees.cpp and FamilyDigits.cpp.
//
//===----------------------------------------------------------------------===//

#include "FamilyProof.h"
#include "QueryParts.h"

#include "coll/Dialect/Catalogue.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <chrono>

using namespace coll;
using namespace coll::verify;

namespace {

/// Families with a proof for every P, and those proven per P only (the
/// flat and chain trees, the shifted butterfly, recursive doubling, the
/// direct routing, Trivance and the scans).
constexpr FamilyProof kPerPOnly{nullptr, nullptr};
constexpr FamilyProof kGroupProof{proveGroupFamily, groupFamilyCovers};
constexpr FamilyProof kTreeProof{proveTreeFamily, treeFamilyCovers};
constexpr FamilyProof kDigitProof{proveDigitFamily, digitFamilyCovers};

struct FamilyProofEntry {
  Family family;
  FamilyProof proof;
};

constexpr FamilyProofEntry kFamilyProofs[] = {
    {Family::ring, kGroupProof},
    {Family::halving, kGroupProof},
    {Family::shiftedButterfly, kPerPOnly},
    {Family::recursiveDoubling, kPerPOnly},
    {Family::flatTree, kPerPOnly},
    {Family::binomialTree, kTreeProof},
    {Family::chainTree, kPerPOnly},
    {Family::hierarchicalTree, kTreeProof},
    {Family::chainScan, kPerPOnly},
    {Family::doublingScan, kPerPOnly},
    {Family::pairwise, kPerPOnly},
    {Family::bruck, kDigitProof},
    {Family::retri, kDigitProof},
    {Family::trivance, kPerPOnly},
};

static_assert(bindsEveryFamilyInOrder(kFamilyProofs),
              "one entry per coll::Family, in its order");

const FamilyProof &familyProof(Family family) {
  return kFamilyProofs[static_cast<size_t>(family)].proof;
}

using Clock = std::chrono::steady_clock;

} // namespace

void coll::verify::settle(z3::solver &solver, PropertyResult &result) {
  auto start = Clock::now();
  const bool unsatOrUnknown = settled(solver, result);
  result.seconds += std::chrono::duration<double>(Clock::now() - start).count();
  if (unsatOrUnknown)
    return;
  // A model: the values of P and the step (and what else the query
  // declared) for which the closed form fails.
  result.verdict = Verdict::violated;
  z3::model model = solver.get_model();
  Counterexample c;
  std::vector<std::string> values;
  for (unsigned k = 0; k < model.num_consts(); ++k) {
    z3::func_decl d = model.get_const_decl(k);
    z3::expr v = model.get_const_interp(d);
    std::string text = v.is_numeral() ? v.get_decimal_string(0) : v.to_string();
    if (d.name().str() == "P")
      c.ranks = std::stoll(text);
    values.push_back(d.name().str() + " = " + text);
  }
  std::sort(values.begin(), values.end());
  c.message = "the closed form fails for";
  for (size_t k = 0; k < values.size(); ++k)
    c.message += (k ? ", " : " ") + values[k];
  result.counterexample = c;
}

Verdict coll::verify::addInduction(
    std::vector<PropertyResult> &results, Property property, std::string method,
    const std::string &scope, const VerifyOptions &options, const char *logic,
    const std::function<z3::expr(z3::context &, z3::solver &)> &breach) {
  PropertyResult r{property};
  r.method = std::move(method);
  z3::context ctx;
  z3::solver solver = makeSolver(ctx, options, logic);
  solver.add(breach(ctx, solver));
  settle(solver, r);
  r.scope = scope;
  results.push_back(r);
  return r.verdict;
}

PropertyResult coll::verify::legalityFromCoverage(const std::string &scope,
                                                  const char *why,
                                                  bool copiesOnly) {
  PropertyResult legality{Property::operatorLegality};
  legality.verdict = Verdict::proven;
  legality.scope = scope;
  legality.method = why;
  legality.note = copiesOnly ? "bitwise-identical results: yes (data is only "
                               "copied)"
                             : "bitwise-identical results: yes (each part is "
                               "reduced once, then copied)";
  return legality;
}

void coll::verify::ownershipNeedsCoverage(
    std::vector<PropertyResult> &results) {
  auto find = [&](Property p) {
    return llvm::find_if(
        results, [&](const PropertyResult &r) { return r.property == p; });
  };
  auto ownership = find(Property::ownership),
       coverage = find(Property::coverage);
  if (ownership == results.end() || coverage == results.end() ||
      coverage->verdict == Verdict::proven ||
      ownership->verdict != Verdict::proven)
    return;
  ownership->verdict = Verdict::notProven;
  ownership->note = "the induction's invariant needs its coverage query, "
                    "which is " +
                    std::string(verdictName(coverage->verdict));
}

std::vector<PropertyResult> coll::proveFamily(CollectiveOp spec,
                                              int64_t maxRanks,
                                              const VerifyOptions &options) {
  std::vector<PropertyResult> results;
  const FamilyProof &proof = familyProof(familyOf(spec));
  if (maxRanks < 2 || spec.getNumRanks() || !proof.prove)
    return results;
  results = proof.prove(spec, maxRanks, options);
  // The inductions' legality is that of a commutative operator; rank order
  // is decided per P (familyCovers leaves it to the per-P query).
  if (spec.getNoncommutative())
    llvm::erase_if(results, [](const PropertyResult &r) {
      return r.property == Property::operatorLegality;
    });
  return results;
}

bool coll::familyCovers(CollectiveOp spec, ProgramOp program,
                        Property property) {
  // The family proofs' scope starts at P = 2.
  if (spec.getNumRanks() || program.getNumRanks() < 2)
    return false;
  const FamilyProof &proof = familyProof(familyOf(spec));
  return proof.covers && proof.covers(spec, program, property);
}
