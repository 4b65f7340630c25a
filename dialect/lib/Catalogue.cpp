//===- Catalogue.cpp - the algorithm families collc knows -----------------===//
#include "coll/Dialect/Catalogue.h"
#include "coll/Dialect/PermutationGroup.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

using namespace coll;
using K = CollectiveKind;

namespace {
const K kGroupKinds[] = {K::allreduce, K::reduce_scatter, K::allgather};
const K kAllreduce[] = {K::allreduce};
const K kButterflyKinds[] = {K::allreduce, K::barrier};
const K kTreeKinds[] = {K::allreduce, K::reduce_scatter, K::allgather,
                        K::broadcast, K::reduce,         K::gather,
                        K::scatter,   K::barrier};
const K kTreeSegments[] = {K::broadcast, K::reduce, K::allreduce};
const K kScans[] = {K::inclusive_scan, K::exclusive_scan};
const K kAlltoall[] = {K::alltoall};

const FamilyParam kShiftedR[] = {
    {"r", "butterfly r", 1, std::nullopt, std::nullopt,
     "reduction steps that also distribute (max: ceil(log2 P))"}};
const FamilyParam kHierarchical[] = {
    {"arity", "tree arity", 2, std::nullopt, std::nullopt,
     "children per node of the upper levels"},
    {"flat_below", "flat_below", 0, std::nullopt, 16,
     "subtrees of at most this many ranks are flat"}};
const FamilyParam kRadix[] = {
    {"radix", "radix", 2, std::nullopt, std::nullopt, "digit base k"}};
/// Every family with segment kinds takes it.
const FamilyParam kSegments = {"segments", "segments", 1, kMaxSegments, 1,
                               "pipelined segments of the buffer"};

using A = RunArg;
const A kGroupRun[] = {A::kind,    A::groupSchedule, A::group,
                       A::buffers, A::op,            A::segments};
const A kButterflyRun[] = {A::butterflyR, A::group, A::buffers, A::op,
                           A::kind};
const A kBuffersAndOp[] = {A::buffers, A::op};
const A kTreeRun[] = {A::kind,    A::tree, A::root,
                      A::buffers, A::op,   A::segments};
const A kScanRun[] = {A::kind, A::scanSchedule, A::buffers, A::op};
const A kDigitRun[] = {A::digits, A::buffers};

const FamilyInfo kFamilies[] = {
    {Family::ring, "the ring", "group G; schedule linear;",
     ScheduleKind::linear, GroupUse::any, kGroupKinds, kAllreduce, false, {},
     "xor(P) needs P = 2^k; a product or generated group needs a fixed P",
     "coll::groupMoves(linear) + coll::groupPlan", "coll::runGroup", kGroupRun},
    {Family::halving, "the halving butterfly",
     "group G; schedule butterfly;", ScheduleKind::butterfly, GroupUse::any,
     kGroupKinds, kAllreduce, false, {},
     "as the ring; a generated group needs an enumeration in which every "
     "halving moves by one element",
     "coll::groupMoves(butterfly) + coll::groupPlan", "coll::runGroup",
     kGroupRun},
    {Family::shiftedButterfly, "the shifted butterfly",
     "group G; schedule butterfly(r = N);", ScheduleKind::butterfly,
     GroupUse::any, kButterflyKinds, {}, false, kShiftedR,
     "r above ceil(log2 P) runs as ceil(log2 P); r = max on xor(P) is "
     "recursive doubling",
     "coll::butterflyPlan + coll::butterflyRankPlan", "coll::runButterfly",
     kButterflyRun},
    {Family::recursiveDoubling, "recursive doubling",
     "group xor(P); schedule butterfly(r = max);", ScheduleKind::butterfly,
     GroupUse::xorOnly, kAllreduce, {}, false, {}, "P = 2^k",
     "coll::doublingPlan", "coll::runDoubling", kBuffersAndOp},
    {Family::flatTree, "the flat tree", "tree flat;", ScheduleKind::flat,
     GroupUse::none, kTreeKinds, kTreeSegments, false, {},
     "rooted kinds need a root < P", "coll::treePlan", "coll::runTree", kTreeRun},
    {Family::binomialTree, "the binomial tree", "tree binomial;",
     ScheduleKind::binomial, GroupUse::none, kTreeKinds, kTreeSegments, false,
     {}, "rooted kinds need a root < P", "coll::treePlan", "coll::runTree", kTreeRun},
    {Family::chainTree, "the chain", "tree chain;", ScheduleKind::chain,
     GroupUse::none, kTreeKinds, kTreeSegments, false, {},
     "rooted kinds need a root < P", "coll::treePlan", "coll::runTree", kTreeRun},
    {Family::hierarchicalTree, "the hierarchical tree",
     "tree arity(k) flat_below(t);", ScheduleKind::hierarchical,
     GroupUse::none, kTreeKinds, kTreeSegments, false, kHierarchical,
     "rooted kinds need a root < P", "coll::treePlan", "coll::runTree", kTreeRun},
    {Family::chainScan, "the scan chain", "schedule linear;",
     ScheduleKind::linear, GroupUse::none, kScans, {}, false, {}, "",
     "coll::scanPlan", "coll::runScan", kScanRun},
    {Family::doublingScan, "the doubling scan", "schedule doubling;",
     ScheduleKind::doubling, GroupUse::none, kScans, {}, false, {}, "",
     "coll::scanPlan", "coll::runScan", kScanRun},
    {Family::pairwise, "the pairwise exchange", "schedule direct;",
     ScheduleKind::direct, GroupUse::none, kAlltoall, {}, false, {}, "",
     "coll::digitPlan", "coll::runDigitAlltoall", kDigitRun},
    {Family::bruck, "Bruck's routing", "digits radix(k);",
     ScheduleKind::radix, GroupUse::none, kAlltoall, {}, true, kRadix, "",
     "coll::digitPlan", "coll::runDigitAlltoall", kDigitRun},
    {Family::retri, "ReTri", "digits balanced_ternary;",
     ScheduleKind::balanced_ternary, GroupUse::none, kAlltoall, {}, true, {},
     "", "coll::digitPlan", "coll::runDigitAlltoall", kDigitRun},
    {Family::trivance, "Trivance", "digits balanced_ternary;",
     ScheduleKind::balanced_ternary, GroupUse::none, kAllreduce, {}, false, {},
     "", "coll::trivancePlan", "coll::runTrivance", kBuffersAndOp},
};

bool serves(const FamilyInfo &f, CollectiveKind kind) {
  return llvm::is_contained(f.kinds, kind);
}

/// "a, b and c".
std::string listText(llvm::ArrayRef<std::string> items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i)
    out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  return out;
}

/// "a, b or c", duplicates dropped.
std::string choiceText(llvm::ArrayRef<std::string> items) {
  llvm::SmallVector<std::string> unique;
  for (const std::string &i : items)
    if (!llvm::is_contained(unique, i))
      unique.push_back(i);
  std::string out;
  for (size_t i = 0; i < unique.size(); ++i)
    out += (i == 0 ? "" : i + 1 == unique.size() ? " or " : ", ") + unique[i];
  return out;
}

/// The family that takes parameter `name` (arity, flat_below and radix
/// each belong to one).
const FamilyInfo *familyTaking(llvm::StringRef name) {
  for (const FamilyInfo &f : kFamilies)
    for (const FamilyParam &p : f.params)
      if (name == p.name)
        return &f;
  return nullptr;
}

const FamilyParam *findParam(llvm::StringRef name) {
  if (name == kSegments.name)
    return &kSegments;
  for (const FamilyInfo &f : kFamilies)
    for (const FamilyParam &p : f.params)
      if (name == p.name)
        return &p;
  return nullptr;
}
} // namespace

llvm::ArrayRef<FamilyInfo> coll::families() { return kFamilies; }

const FamilyInfo &coll::familyInfo(Family family) {
  return kFamilies[static_cast<size_t>(family)];
}

std::string coll::kindList(llvm::ArrayRef<CollectiveKind> kinds) {
  llvm::SmallVector<std::string> names;
  for (CollectiveKind k : kinds)
    names.push_back(stringifyCollectiveKind(k).str());
  return listText(names);
}

std::optional<Family> coll::familyOf(CollectiveKind kind,
                                     ScheduleKind schedule,
                                     std::optional<GroupKind> group,
                                     int64_t butterflyR) {
  switch (schedule) {
  case ScheduleKind::linear:
    return group ? Family::ring : Family::chainScan;
  case ScheduleKind::butterfly:
    if (!group)
      return std::nullopt;
    if (butterflyR == 0)
      return Family::halving;
    if (butterflyR == kButterflyMax && group == GroupKind::xor_)
      return Family::recursiveDoubling;
    return Family::shiftedButterfly;
  case ScheduleKind::balanced_ternary:
    if (group)
      return std::nullopt;
    return kind == CollectiveKind::allreduce ? Family::trivance
                                             : Family::retri;
  default:
    break;
  }
  if (group)
    return std::nullopt;
  for (const FamilyInfo &f : kFamilies)
    if (f.schedule == schedule)
      return f.id;
  return std::nullopt;
}

Family coll::familyOf(CollectiveOp spec) {
  std::optional<Family> family =
      familyOf(spec.getKind(), spec.getSchedule(), spec.getGroup(),
               static_cast<int64_t>(spec.getButterflyR()));
  assert(family && "a verified collective has a family");
  return *family;
}

/// "<the catalogue's family name> (<the .coll statements>)".
std::string coll::describeSchedule(CollectiveOp spec) {
  std::string statements;
  const std::string ranks =
      spec.getNumRanks() ? std::to_string(*spec.getNumRanks()) : "P";
  switch (spec.getSchedule()) {
  case ScheduleKind::linear:
  case ScheduleKind::butterfly:
    if (spec.getGroup())
      statements =
          std::string("group ") +
          (spec.getGroup() == GroupKind::cyclic ? "cyclic(" + ranks + ")"
           : spec.getGroup() == GroupKind::xor_
               ? "xor(" + ranks + ")"
               : "generated by " +
                     std::to_string(spec.getGroupGenerators()->size()) +
                     " permutations") +
          ", ";
    statements += "schedule ";
    statements += spec.getSchedule() == ScheduleKind::linear ? "linear"
                  : spec.getButterflyR() == kButterflyMax
                      ? "butterfly(r = max)"
                      : "butterfly(r = " +
                            std::to_string(spec.getButterflyR()) + ")";
    break;
  case ScheduleKind::flat:
    statements = "tree flat";
    break;
  case ScheduleKind::binomial:
    statements = "tree binomial";
    break;
  case ScheduleKind::chain:
    statements = "tree chain";
    break;
  case ScheduleKind::hierarchical:
    statements = "tree arity(" + std::to_string(*spec.getArity()) +
                 ") flat_below(" + std::to_string(*spec.getFlatBelow()) + ")";
    break;
  case ScheduleKind::direct:
    statements = "schedule direct";
    break;
  case ScheduleKind::radix:
    statements = "digits radix(" + std::to_string(*spec.getRadix()) + ")";
    break;
  case ScheduleKind::balanced_ternary:
    statements = "digits balanced_ternary";
    break;
  case ScheduleKind::doubling:
    statements = "schedule doubling";
    break;
  }
  if (spec.getRoot())
    statements += ", root " + std::to_string(*spec.getRoot());
  if (spec.getAnyRoot())
    statements += ", root any";
  if (std::optional<uint64_t> S = spec.getSegments(); S && *S > 1)
    statements += ", segments = " + std::to_string(*S);
  return std::string(familyInfo(familyOf(spec)).name) + " (" + statements +
         ")";
}

std::optional<std::string> coll::checkParameter(llvm::StringRef name,
                                                int64_t value) {
  if (name == "r") { // 0 (the halving butterfly), N > 0, or max
    if (value < kButterflyMax)
      return "butterfly r must be >= 0 or max (-1), got " +
             std::to_string(value);
    return std::nullopt;
  }
  const FamilyParam *p = findParam(name);
  if (!p || (value >= p->min && (!p->max || value <= *p->max)))
    return std::nullopt;
  std::string range = p->max ? "in " + std::to_string(p->min) + ".." +
                                   std::to_string(*p->max)
                             : "at least " + std::to_string(p->min);
  return std::string(p->spelled) + " must be " + range + ", got " +
         std::to_string(value);
}

std::optional<int64_t> coll::parameterDefault(llvm::StringRef name) {
  const FamilyParam *p = findParam(name);
  return p ? p->byDefault : std::nullopt;
}

llvm::SmallVector<int64_t> coll::autoValues(llvm::StringRef name,
                                            std::optional<int64_t> fixedRanks) {
  llvm::SmallVector<int64_t> values;
  if (name == "segments") {
    for (int64_t S = 1; S <= 256; S *= 2)
      values.push_back(S);
  } else if (name == "r") {
    int64_t top = fixedRanks ? llvm::Log2_64_Ceil(static_cast<uint64_t>(
                                   *fixedRanks))
                             : 6;
    for (int64_t r = 0; r < top; ++r)
      values.push_back(r);
    values.push_back(kButterflyMax);
  } else if (name == "arity") {
    for (int64_t k : {2, 3, 4, 8, 16})
      if (k == 2 || !fixedRanks || k < *fixedRanks)
        values.push_back(k);
  }
  return values;
}

std::string coll::schedulesFor(CollectiveKind kind) {
  llvm::SmallVector<std::string> takes;
  for (const FamilyInfo &f : kFamilies)
    if (serves(f, kind))
      takes.push_back(std::string("'") + f.spelling + "'");
  return choiceText(takes);
}

std::optional<FamilyViolation> coll::checkFamily(const FamilySpec &spec) {
  auto violation = [](SpecField field, std::string message) {
    return std::optional<FamilyViolation>(
        FamilyViolation{field, std::move(message)});
  };
  std::string schedule = stringifyScheduleKind(spec.schedule).str();
  // A group on a family that takes none (a scan's `schedule linear;` would
  // otherwise read as the ring).
  if (spec.group)
    for (const FamilyInfo &f : kFamilies)
      if (f.schedule == spec.schedule && f.group == GroupUse::none &&
          serves(f, spec.kind))
        return violation(SpecField::group, std::string(f.name) + " ('" +
                                               f.spelling +
                                               "') takes no group");
  std::optional<Family> id =
      familyOf(spec.kind, spec.schedule, spec.group, spec.butterflyR);
  if (!id) {
    if (isTreeSchedule(spec.schedule))
      return violation(SpecField::group,
                       "a tree schedule (" + schedule + ") takes no group");
    if (isDigitSchedule(spec.schedule))
      return violation(SpecField::group,
                       "a digit routing (" + schedule + ") takes no group");
    if (spec.group)
      return violation(SpecField::group,
                       "schedule " + schedule + " takes no group");
    return violation(SpecField::schedule,
                     "schedule " + schedule + " needs a group");
  }
  const FamilyInfo &family = familyInfo(*id);
  std::string kind = stringifyCollectiveKind(spec.kind).str();
  if (!serves(family, spec.kind)) {
    bool shifted = spec.schedule == ScheduleKind::butterfly &&
                   spec.butterflyR != 0;
    return violation(shifted ? SpecField::butterflyR : SpecField::schedule,
                     std::string(family.name) + " ('" + family.spelling +
                         "') serves " + kindList(family.kinds) + ", not " +
                         kind + "; " + kind + " takes " +
                         schedulesFor(spec.kind));
  }
  if (spec.group == GroupKind::xor_) {
    if (spec.fixedRanks)
      if (std::optional<std::string> bad = checkXorOrder(*spec.fixedRanks))
        return violation(SpecField::group, *bad);
    if (!spec.fixedRanks && !spec.powerOfTwo)
      return violation(SpecField::group,
                       "group xor(P) needs P to be a power of two; constrain "
                       "the ranks with 'ranks P where P == 2^k;'");
  }
  // The parameters: each present iff the family has it, and in range.
  struct Given {
    const char *name;
    SpecField field;
    std::optional<int64_t> value;
  };
  for (const Given &g : {Given{"arity", SpecField::arity, spec.arity},
                         Given{"flat_below", SpecField::flatBelow,
                               spec.flatBelow},
                         Given{"radix", SpecField::radix, spec.radix}}) {
    bool takes = llvm::any_of(family.params, [&](const FamilyParam &p) {
      return llvm::StringRef(p.name) == g.name;
    });
    if (takes != g.value.has_value())
      return violation(g.field, takes ? std::string(family.name) +
                                            " needs " + g.name
                                      : std::string("only ") +
                                            familyTaking(g.name)->name +
                                            " takes " + g.name);
    if (g.value)
      if (std::optional<std::string> bad = checkParameter(g.name, *g.value))
        return violation(g.field, *bad);
  }
  if (spec.schedule != ScheduleKind::butterfly && spec.butterflyR != 0)
    return violation(SpecField::butterflyR,
                     "only the butterfly schedule takes a parameter r");
  if (std::optional<std::string> bad = checkParameter("r", spec.butterflyR))
    return violation(SpecField::butterflyR, *bad);
  if (spec.reconfigure && !family.reconfigure) {
    llvm::SmallVector<std::string> routings;
    for (const FamilyInfo &f : kFamilies)
      if (f.reconfigure)
        routings.push_back(std::string("'") + f.spelling + "'");
    return violation(SpecField::reconfigure,
                     "reconfigure auto places the optical switch settings of "
                     "the alltoall routings " +
                         choiceText(routings) + ", not of " + family.name +
                         " on " + kind);
  }
  if (spec.segments) {
    if (std::optional<std::string> bad =
            checkParameter("segments", *spec.segments))
      return violation(SpecField::segments, *bad);
    bool namedGroup = spec.group == GroupKind::cyclic ||
                      spec.group == GroupKind::xor_;
    if (!llvm::is_contained(family.segmentKinds, spec.kind) ||
        (family.group != GroupUse::none && !namedGroup)) {
      // Where segments apply, from the table: families with the same
      // kinds together.
      llvm::SmallVector<std::string> where;
      for (size_t i = 0; i < std::size(kFamilies); ++i) {
        const FamilyInfo &f = kFamilies[i];
        if (f.segmentKinds.empty() ||
            llvm::any_of(llvm::ArrayRef(kFamilies).take_front(i),
                         [&](const FamilyInfo &g) {
                           return g.segmentKinds == f.segmentKinds &&
                                  g.group == f.group;
                         }))
          continue;
        llvm::SmallVector<std::string> names;
        for (const FamilyInfo &g : kFamilies)
          if (g.segmentKinds == f.segmentKinds && g.group == f.group)
            names.push_back(g.name);
        where.push_back(kindList(f.segmentKinds) + " on " + listText(names) +
                        (f.group == GroupUse::none
                             ? ""
                             : " over cyclic(P) or xor(P)"));
      }
      std::string clauses;
      for (size_t i = 0; i < where.size(); ++i)
        clauses += (i == 0 ? "" : i + 1 == where.size() ? ", and " : ", ") +
                   where[i];
      return violation(SpecField::segments,
                       "segments = S does not pipeline " + kind + " on " +
                           family.name +
                           (family.group != GroupUse::none && !namedGroup
                                ? " over a generated group"
                                : "") +
                           "; it pipelines " + clauses);
    }
  }
  return std::nullopt;
}

std::optional<std::string>
coll::checkRoot(CollectiveKind kind, std::optional<int64_t> root,
                std::optional<int64_t> fixedRanks, bool anyRoot) {
  std::string kindName = stringifyCollectiveKind(kind).str();
  if (anyRoot && !isRooted(kind))
    return "a root is only for broadcast, reduce, gather and scatter, not " +
           kindName;
  if (anyRoot && root)
    return "a root is either fixed or any, not both";
  if (anyRoot)
    return std::nullopt;
  if (isRooted(kind) && !root)
    return "of kind " + kindName + " needs a root rank";
  if (!isRooted(kind) && root)
    return "a root is only for broadcast, reduce, gather and scatter, not " +
           kindName;
  if (root && *root < 0)
    return "root must be a rank >= 0, got " + std::to_string(*root);
  if (root && fixedRanks && *root >= *fixedRanks)
    return "root " + std::to_string(*root) + " is not a rank in [0, " +
           std::to_string(*fixedRanks) + ")";
  return std::nullopt;
}

std::optional<std::string> coll::checkOperator(ReduceOp op,
                                               bool noncommutative) {
  if (noncommutative && op != ReduceOp::custom)
    return "only a custom operator can be noncommutative; " +
           stringifyReduceOp(op).str() + " commutes";
  return std::nullopt;
}

std::optional<std::string>
coll::checkGeneratedGroup(llvm::ArrayRef<std::vector<int64_t>> generators,
                          std::optional<int64_t> fixedRanks,
                          ScheduleKind schedule, llvm::StringRef spelled) {
  if (!fixedRanks)
    return "a " + spelled.str() + " needs a fixed rank count";
  if (generators.empty())
    return std::nullopt;
  int64_t P = *fixedRanks;
  for (const std::vector<int64_t> &images : generators) {
    if (static_cast<int64_t>(images.size()) != P)
      return "a generator has " + std::to_string(images.size()) +
             " images for " + std::to_string(P) + " ranks";
    std::vector<bool> seen(static_cast<size_t>(P), false);
    for (int64_t x : images) {
      if (x < 0 || x >= P || seen[static_cast<size_t>(x)])
        return "a generator is not a permutation of [0, " + std::to_string(P) +
               ")";
      seen[static_cast<size_t>(x)] = true;
    }
  }
  std::vector<Permutation> perms(generators.begin(), generators.end());
  if (std::optional<std::string> why = whyNotRegular(perms, P))
    return "the " + spelled.str() + " " + *why;
  bool gaveUp = false;
  if (schedule == ScheduleKind::butterfly &&
      !butterflyEnumeration(elementsOf(perms, P), &gaveUp))
    return "the butterfly needs an enumeration of the " + spelled.str() +
           " in which every halving moves its vectors by one element, and " +
           (gaveUp ? "the search for one gave up after a million candidates"
                   : "this group has none") +
           "; use schedule linear, which works on any such group";
  return std::nullopt;
}

std::optional<std::string> coll::checkXorOrder(int64_t order,
                                              llvm::StringRef name) {
  if (order >= 1 && llvm::isPowerOf2_64(static_cast<uint64_t>(order)))
    return std::nullopt;
  return "group xor(" + name.str() + ") needs " + name.str() +
         " to be a power of two, got " + name.str() + " = " +
         std::to_string(order);
}

std::string coll::describeFamilies() {
  std::string out;
  for (const FamilyInfo &f : kFamilies) {
    out += std::string(f.name) + ": " + f.spelling + "\n";
    out += "  kinds: " + kindList(f.kinds) + "\n";
    out += std::string("  group: ") +
           (f.group == GroupUse::none  ? "none"
            : f.group == GroupUse::any ? "cyclic(P), xor(P), a product or "
                                         "generated group"
                                       : "xor(P)") +
           "\n";
    for (const FamilyParam &p : f.params) {
      out += std::string("  parameter ") + p.name + ": " + p.meaning + "; " +
             (p.max ? std::to_string(p.min) + ".." + std::to_string(*p.max)
                    : ">= " + std::to_string(p.min));
      if (llvm::StringRef(p.name) == "r")
        out += " or max";
      out += p.byDefault ? ", default " + std::to_string(*p.byDefault)
                         : std::string(", required");
      out += "\n";
    }
    if (!f.segmentKinds.empty())
      out += "  segments = S (" + std::to_string(kSegments.min) + ".." +
             std::to_string(*kSegments.max) + "): " + kindList(f.segmentKinds) +
             (f.group == GroupUse::none ? "" : " on cyclic(P) or xor(P)") +
             "\n";
    if (f.reconfigure)
      out += "  reconfigure auto: yes\n";
    if (*f.restrictions)
      out += std::string("  restrictions: ") + f.restrictions + "\n";
    out += std::string("  plan: ") + f.plan + "; run: " + f.run + "\n";
  }
  return out;
}
