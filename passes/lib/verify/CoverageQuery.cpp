//===- CoverageQuery.cpp - coverage, one Z3 query -------------------------===//
//
// Coverage: every delivered slot ends with every contribution of its part
// exactly once, by the query that fits the program's shape (reduce then
// copy, by part, general paths, group moves), or by the replay.
//
//===----------------------------------------------------------------------===//

#include "QueryParts.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

using namespace coll;
using namespace coll::verify;

z3::expr coll::verify::backThroughCopies(Encoder &e, z3::solver &solver,
                                         const z3::expr &slot,
                                         const std::string &tag) {
  const SlotProgram &sp = e.program;
  z3::expr p = slot;
  for (size_t s = sp.steps.size(); s-- > sp.firstCopyStep();) {
    const SlotStep &step = sp.steps[s];
    reassign(p, e.name(solver, tag,
               z3::ite(e.received(step, p), e.sourceOf(step, p), p)));
  }
  return p;
}

/// Reduce-then-copy programs: while combining, a token moves along one path
/// (a combine hands the whole value on), so its place after the reduction
/// is a function Fwd(t); while copying, a final slot's value comes from one
/// slot, Bwd(y). Each contribution then reaches y exactly once iff
/// Fwd(t) == Bwd(y) for every token y needs, and for no other token.
static void coverageReduceThenCopy(z3::context &ctx, const SlotProgram &sp,
                                   const VerifyOptions &options,
                                   PropertyResult &result,
                                   PropertyResult &ownership) {
  result.method =
      sp.groupLevel
          ? "Z3: symbolic slot and contribution, reduce path == copy path"
          : "Z3: symbolic part, rank and contribution, reduce path == copy "
            "path, one term per block of transfers";
  Encoder e(ctx, sp);
  z3::solver solver = makeSolver(ctx, options);
  z3::expr y = e.slotVar("y"), t = e.slotVar("t");
  solver.add(e.inDomain(y) && e.inDomain(t));
  solver.add(e.isDelivered(y) && e.initiallyHeld(t)); // t exists
  size_t firstCopy = sp.firstCopyStep();
  z3::expr forward = t;
  for (size_t s = 0; s < firstCopy; ++s) {
    const SlotStep &step = sp.steps[s];
    reassign(forward, e.name(solver, "fwd",
                     z3::ite(e.sent(step, forward),
                             e.destinationOf(step, forward), forward)));
  }
  z3::expr backward = backThroughCopies(e, solver, y, "bwd");
  z3::expr needed = e.needs(y, t);
  solver.add((needed && forward != backward) ||
             (!needed && forward == backward));
  if (settled(solver, result))
    return;
  minimize(solver, {y, t});
  z3::model model = solver.get_model();
  explainCoverage(sp, e.slotValue(model, y), e.slotValue(model, t), result,
                  ownership);
}


static void coverageByPart(z3::context &ctx, const SlotProgram &sp,
                           const VerifyOptions &options,
                           PropertyResult &result, PropertyResult &ownership) {
  result.method = "Z3: one query per part, symbolic rank and contribution, "
                  "reduce path == copy path, the part's moves composed";
  // movers[j]: (step, block) for every block that moves part j, in step
  // order.
  std::vector<std::vector<std::pair<size_t, const MoveBlock *>>> movers(
      sp.parts);
  for (size_t s = 0; s < sp.steps.size(); ++s)
    for (const MoveBlock &b : sp.steps[s].blocks)
      for (const PartRun &r : b.runs)
        for (int64_t j = r.sent; j < r.sent + r.length; ++j)
          movers[j].push_back({s, &b});
  Encoder e(ctx, sp);
  z3::solver solver = makeSolver(ctx, options);
  z3::expr x = ctx.bv_const("rank", e.fieldWidth),
           r = ctx.bv_const("from", e.fieldWidth);
  solver.add(z3::ult(x, e.field(sp.ranks)) && z3::ult(r, e.field(sp.ranks)));
  size_t firstCopy = sp.firstCopyStep();
  int64_t P = sp.ranks;
  for (int64_t j = 0; j < sp.parts; ++j) {
    z3::expr part = e.field(j);
    z3::expr delivered = e.deliveredAt(part, x), held = e.heldAt(part, r);
    if ((delivered && held).simplify().is_false())
      continue; // nothing of part j is delivered, or nothing starts there
    solver.push();
    solver.add(delivered && held);
    // The rank a contribution of part j is at, through the steps in one
    // direction. A step whose one block moves every rank adds its shift
    // (mod P), and consecutive such steps compose into one addition; a
    // step of partial blocks is an ite over them, each reading the rank
    // before the step.
    auto follow = [&](z3::expr at, bool forwards) {
      std::vector<std::pair<size_t, size_t>> bySteps; // [begin, end)
      for (size_t k = 0; k < movers[j].size(); ++k) {
        size_t s = movers[j][k].first;
        if (forwards != (s < firstCopy))
          continue;
        if (!bySteps.empty() && movers[j][bySteps.back().first].first == s)
          bySteps.back().second = k + 1;
        else
          bySteps.push_back({k, k + 1});
      }
      if (!forwards)
        std::reverse(bySteps.begin(), bySteps.end());
      int64_t pending = 0; // shift not yet applied
      auto by = [&](const MoveBlock &b) {
        return forwards ? b.shift : (P - b.shift) % P;
      };
      for (auto [begin, end] : bySteps) {
        const MoveBlock &only = *movers[j][begin].second;
        if (end == begin + 1 && only.senders() >= P) {
          pending = (pending + by(only)) % P;
          continue;
        }
        reassign(at, e.rankAfter(at, pending));
        pending = 0;
        z3::expr next = at;
        for (size_t k = end; k-- > begin;) {
          const MoveBlock &b = *movers[j][k].second;
          reassign(next, z3::ite(forwards ? e.sendsIn(b, at) : e.receivesIn(b, at),
                         e.rankThrough(b, at, forwards), next));
        }
        reassign(at, e.name(solver, "at", next));
      }
      return e.rankAfter(at, pending);
    };
    z3::expr forward = follow(r, /*forwards=*/true);
    z3::expr backward = follow(x, /*forwards=*/false);
    z3::expr needed = e.needsAt(part, x, part, r);
    solver.add((needed && forward != backward) ||
               (!needed && forward == backward));
    std::string reason;
    switch (check(solver, reason)) {
    case Outcome::unsat:
      solver.pop();
      continue;
    case Outcome::unknown:
      notProven(result, reason);
      return;
    case Outcome::sat:
      break;
    }
    minimize(solver, {x, r});
    z3::model model = solver.get_model();
    auto value = [&](const z3::expr &v) { return valueIn(model, v); };
    explainCoverage(sp, j * P + value(x), j * P + value(r), result, ownership);
    return;
  }
  result.verdict = Verdict::proven;
}

/// The program run on token lists: every delivered slot ends held, with
/// each token it needs once and no other (else the first culprit, in slot
/// and token order, is explained).
static void finalSlotsByReplay(const SlotProgram &sp, PropertyResult &result,
                               PropertyResult &ownership) {
  Replay replay(sp);
  // What a slot needs depends on its rank only for scans and alltoall
  // (ProgramOp::expects); elsewhere slots of one part that share a token
  // list share its verdict, checked once: the culprit token, or -1.
  bool byRank = sp.rules.kind == CollectiveKind::inclusive_scan ||
                sp.rules.kind == CollectiveKind::exclusive_scan ||
                sp.rules.kind == CollectiveKind::alltoall;
  std::map<std::pair<const std::vector<int64_t> *, int64_t>, int64_t> verdictOf;
  for (int64_t slot = 0; slot < sp.numSlots; ++slot) {
    if (!sp.delivered[slot])
      continue;
    const std::vector<int64_t> *list = replay.listOf(slot);
    std::pair<const std::vector<int64_t> *, int64_t> key{list, sp.partOf(slot)};
    bool shared = !sp.groupLevel && !byRank && list;
    if (shared && replay.held[slot]) {
      auto it = verdictOf.find(key);
      if (it != verdictOf.end()) {
        if (it->second >= 0)
          return explainCoverage(sp, slot, it->second, result, ownership);
        continue;
      }
    }
    std::vector<int64_t> have = replay.tokens(slot);
    llvm::sort(have);
    auto twice = std::adjacent_find(have.begin(), have.end());
    if (twice != have.end())
      return explainCoverage(sp, slot, *twice, result, ownership);
    int64_t culprit = -1;
    if (sp.groupLevel) {
      for (int64_t t = 0; t < sp.numSlots && culprit < 0; ++t)
        if (sp.needsToken(slot, t) !=
            std::binary_search(have.begin(), have.end(), t))
          culprit = t;
    } else {
      // The first token (in token order) held and not needed, or needed
      // and not held. On the rank level a slot needs tokens of its own
      // part only, or, in an exclusive scan, of part 0 (ProgramOp::expects),
      // so only those parts' tokens can be missing: P per part instead of
      // every slot (O(slots^2) was 85 s for a ring at P = 256).
      for (int64_t t : have)
        if (!sp.needsToken(slot, t)) {
          culprit = t;
          break;
        }
      int64_t part = sp.partOf(slot);
      for (int64_t p : {int64_t(0), part}) {
        if (p != part && sp.rules.kind != CollectiveKind::exclusive_scan)
          continue;
        for (int64_t t = p * sp.ranks; t < (p + 1) * sp.ranks; ++t)
          if ((culprit < 0 || t < culprit) && sp.needsToken(slot, t) &&
              !std::binary_search(have.begin(), have.end(), t)) {
            culprit = t;
            break;
          }
      }
    }
    if (shared && replay.held[slot])
      verdictOf[key] = culprit;
    if (culprit >= 0 || !replay.held[slot])
      return explainCoverage(sp, slot, culprit < 0 ? 0 : culprit, result,
                             ownership);
  }
  result.verdict = Verdict::proven;
}

/// Any other program: Z3 looks for two different backward paths from a
/// final slot to one token (a contribution counted twice); an exact count
/// of paths per final slot then shows that each has as many tokens as it
/// needs, so with no duplicate every needed token is there once.
static void coverageGeneral(z3::context &ctx, const SlotProgram &sp,
                            const VerifyOptions &options,
                            PropertyResult &result, PropertyResult &ownership) {
  result.method =
      "Z3: symbolic paths per final slot (no contribution twice, none of "
      "another part), exact path count (none missing)";
  Encoder e(ctx, sp);
  // A backward path from slot `y` to the token it ends at, in `solver`;
  // `choices` gets whether it jumps at each combine step.
  auto backwardPath = [&](z3::solver &solver, const z3::expr &y,
                          const std::string &tag,
                          std::vector<z3::expr> &choices) {
    z3::expr p = y;
    for (size_t s = sp.steps.size(); s-- > 0;) {
      const SlotStep &step = sp.steps[s];
      z3::expr receives = e.received(step, p);
      if (!step.merges()) {
        reassign(p, e.name(solver, tag, z3::ite(receives, e.sourceOf(step, p), p)));
        continue;
      }
      z3::expr jump =
          ctx.bool_const(("jump!" + tag + std::to_string(s)).c_str());
      solver.add(z3::implies(jump, receives));
      // Staying on a slot this combine handed on reads an empty slot (a
      // fold keeps it).
      if (step.combines())
        solver.add(z3::implies(!jump, receives || !e.sent(step, p)));
      choices.push_back(jump);
      reassign(p, e.name(solver, tag, z3::ite(jump, e.sourceOf(step, p), p)));
    }
    return p;
  };
  auto found = [&](z3::solver &solver, const z3::expr &y,
                   const z3::expr &token) -> std::optional<Outcome> {
    std::string reason;
    Outcome outcome = check(solver, reason);
    if (outcome == Outcome::unknown)
      notProven(result, reason);
    if (outcome != Outcome::sat)
      return outcome;
    minimize(solver, {y, token});
    z3::model model = solver.get_model();
    explainCoverage(sp, e.slotValue(model, y), e.slotValue(model, token), result,
                    ownership);
    return outcome;
  };

  { // Two different paths from a delivered slot to one token.
    z3::solver solver = makeSolver(ctx, options);
    z3::expr y = e.slotVar("y");
    std::vector<z3::expr> ja, jb;
    z3::expr a = backwardPath(solver, y, "a", ja);
    z3::expr b = backwardPath(solver, y, "b", jb);
    z3::expr_vector differ(ctx);
    for (size_t k = 0; k < ja.size(); ++k)
      differ.push_back(ja[k] != jb[k]);
    if (!differ.empty()) {
      solver.add(e.inDomain(y) && e.isDelivered(y) && e.initiallyHeld(a));
      solver.add(z3::mk_or(differ) && a == b);
      if (found(solver, y, a) != Outcome::unsat)
        return;
    }
  }
  { // A path from a delivered slot to a token of another part.
    z3::solver solver = makeSolver(ctx, options);
    z3::expr y = e.slotVar("y");
    std::vector<z3::expr> choices;
    z3::expr a = backwardPath(solver, y, "f", choices);
    solver.add(e.inDomain(y) && e.isDelivered(y) && e.initiallyHeld(a));
    solver.add(!e.needs(y, a));
    if (found(solver, y, a) != Outcome::unsat)
      return;
  }

  // No token twice and none foreign: the exact replay shows that each final
  // slot holds every token it needs.
  finalSlotsByReplay(sp, result, ownership);
}

/// Group-level programs of vector moves (the shifted butterfly): a few
/// P vector slots and P tokens, so the exact replay of every slot's
/// contributions is the proof; Z3's symbolic paths through the folds cost
/// seconds per P there.
static bool hasVectorMoves(const SlotProgram &sp) {
  return sp.groupLevel &&
         llvm::any_of(sp.steps, [](const SlotStep &s) { return !s.isRange; });
}

/// Coverage decided by the exact replay of every delivered slot, `method`
/// saying why.
static void coverageByReplay(const SlotProgram &sp, std::string method,
                             PropertyResult &result,
                             PropertyResult &ownership) {
  result.byReplay = true;
  result.method = std::move(method);
  finalSlotsByReplay(sp, result, ownership);
}

/// Group level: the part rank x sends for placement from+i is the part its
/// receiver g(x) files under placement to+i, for a symbolic step, rank and
/// vector index.
static void partIndicesOfMoves(z3::context &ctx, const SlotProgram &sp,
                               const VerifyOptions &options,
                               PropertyResult &result) {
  if (sp.group == GroupKind::generated) {
    // A table's moves are each read along their own permutation
    // t_q t_p^-1 (coll::vectorStep; a range that is not one permutation
    // arrives as the vector moves it really makes), so the receiver files
    // t_q^-1(t_q t_p^-1 x) = t_p^-1(x), the part sent, for every table the
    // op verifier accepts as a group: nothing to prove here. What can be
    // wrong is a step of two permutations, which twoPermutations finds.
    return;
  }
  SymbolicGroup g(ctx, *sp.group, sp.ranks);
  if (sp.steps.empty())
    return;
  size_t vectorMoves = 0;
  for (const SlotStep &st : sp.steps)
    vectorMoves += st.isRange ? 0 : st.moves.size();
  // Many vector moves (recursive doubling: P a step): first the claim for
  // every single-vector move of the group, of which the program's are
  // some; it holds for cyclic and xor groups alike, and is one row
  // instead of P a step. Only if it fails does the table of the
  // program's own moves decide (and name the step).
  for (bool generic : {true, false}) {
    if (generic && vectorMoves <= 256)
      continue;
    z3::solver solver = makeSolver(ctx, options);
    z3::expr from = ctx.bv_const("from", g.w), to = ctx.bv_const("to", g.w),
             v = ctx.bv_const("v", g.w), step = ctx.bv_const("step", 32);
    // Ranges with their length; a vector move is a range of one.
    z3::expr_vector table(ctx);
    if (generic)
      table.push_back(z3::ult(from, g.num(sp.ranks)) &&
                      z3::ult(to, g.num(sp.ranks)) && v == g.num(1));
    for (size_t s = 0; s < sp.steps.size(); ++s) {
      const SlotStep &st = sp.steps[s];
      z3::expr atStep = step == ctx.bv_val(static_cast<uint64_t>(s), 32);
      if (st.isRange)
        table.push_back(atStep && from == g.num(st.from) &&
                        to == g.num(st.to) && v == g.num(st.vectors));
      else if (!generic)
        for (const SlotMove &m : st.moves)
          table.push_back(atStep && from == g.num(m.src % sp.ranks) &&
                          to == g.num(m.dst % sp.ranks) && v == g.num(1));
    }
    solver.add(z3::mk_or(table));
    z3::expr x = ctx.bv_const("x", g.w), i = ctx.bv_const("i", g.w),
             j = ctx.bv_const("j", g.w);
    solver.add(z3::ult(x, g.num(sp.ranks)) && z3::ult(i, v) && z3::ult(j, v));
    z3::expr dest = g.act(to, g.inverse(from, x));
    z3::expr sentPart = g.inverse(from + i, x);
    z3::expr filedAs = g.inverse(to + i, dest);
    z3::expr wrong = sentPart != filedAs;
    z3::expr twice = i != j && sentPart == g.inverse(from + j, x);
    solver.add(wrong || twice);
    if (generic) {
      std::string reason;
      if (check(solver, reason) == Outcome::unsat) {
        result.verdict = Verdict::proven;
        return;
      }
      continue;
    }
    if (settled(solver, result))
      return;
    minimize(solver, {step, x, i});
    z3::model model = solver.get_model();
    auto val = [&](const z3::expr &e) { return valueIn(model, e); };
    result.verdict = Verdict::violated;
    int64_t s = val(step), xv = val(x);
    Counterexample c = makeCounterexample(
        sp, s, val(dest), val(filedAs),
        "rank " + std::to_string(xv) + " sends its part " +
            std::to_string(val(sentPart)) + " to rank " +
            std::to_string(val(dest)) + ", which files it as part " +
            std::to_string(val(filedAs)));
    c.expected = "part " + std::to_string(val(sentPart));
    c.found = "part " + std::to_string(val(filedAs));
    result.counterexample = c;
    return;
  }
}

void coll::verify::proveCoverage(z3::context &ctx, const SlotProgram &sp,
                                 const VerifyOptions &options,
                                 PropertyResult &result,
                                 PropertyResult &ownership) {
  if (hasVectorMoves(sp))
    coverageByReplay(sp,
                     "exact replay of every vector slot (group level: " +
                         std::to_string(sp.numSlots) + " slots, " +
                         std::to_string(sp.ranks) + " vectors)",
                     result, ownership);
  else if (decidedByReplay(sp, options))
    coverageByReplay(sp,
                     "exact replay of every slot's contributions (" +
                         std::to_string(sp.steps.size()) +
                         " steps: too deep a chain for Z3's symbolic slot)",
                     result, ownership);
  else if (sp.keepsPartIndices && (sp.parts == 1 || sp.pathsCompose))
    coverageByPart(ctx, sp, options, result, ownership);
  else if (sp.reduceThenCopy)
    coverageReduceThenCopy(ctx, sp, options, result, ownership);
  else if (!sp.groupLevel && !sp.movesKeepParts &&
           sp.numSlots > options.replayGeneralCoverageAboveSlots)
    coverageByReplay(sp,
                     "exact replay of every slot's contributions (" +
                         std::to_string(sp.numSlots) +
                         " slots: too many for Z3's symbolic paths through "
                         "folds between parts)",
                     result, ownership);
  else
    coverageGeneral(ctx, sp, options, result, ownership);
  if (sp.groupLevel && result.verdict == Verdict::proven &&
      !options.moveIndicesProven) {
    partIndicesOfMoves(ctx, sp, options, result);
    result.method += "; symbolic rank for the part indices of every move";
  }
}
