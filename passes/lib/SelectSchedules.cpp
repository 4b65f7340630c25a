//===- SelectSchedules.cpp - the cost model's choices, as ops -------------===//
//
// Everything `collc compile` decides with the cost model, decided here and
// written into the module: a `choose` block's thresholds per P (a
// coll.choice) and a `reconfigure auto` collective's switch settings (a
// coll.switch_settings). The C++ translation only prints them, and `collc
// explain` prices with the same functions (coll/Passes/Selection.h), so the
// header and the explanation cannot disagree.
//
//===----------------------------------------------------------------------===//
#include "coll/Passes/CostModel.h"
#include "coll/Passes/Passes.h"
#include "coll/Passes/Selection.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>

namespace coll {
#define GEN_PASS_DEF_SELECTSCHEDULES
#include "coll/Passes/Passes.h.inc"
} // namespace coll

using namespace mlir;
using namespace coll;

namespace {

using Choices = llvm::MapVector<StringRef, SmallVector<CollectiveOp>>;

/// The choose blocks of `module`: per dispatcher, its candidates in order.
Choices choicesOf(ModuleOp module) {
  Choices choices;
  for (CollectiveOp spec : module.getOps<CollectiveOp>())
    if (std::optional<StringRef> of = spec.getChoiceOf())
      choices[*of].push_back(spec);
  return choices;
}

/// What needs no proof: a model where the header prices (with delta for a
/// switch), and one root per choice, since the dispatcher forwards one root
/// to whichever candidate it calls.
LogicalResult checkSelectionInputs(ModuleOp module, const MachineModel *model) {
  for (CollectiveOp spec : module.getOps<CollectiveOp>())
    if (spec.getReconfigure() && (!model || model->delta < 0))
      return spec.emitError("collective '")
             << spec.getSymName()
             << "' places optical switch settings (reconfigure auto), which "
                "needs a model with alpha (per phase), hop_latency, beta and "
                "delta (--model FILE)";
  for (auto &[name, all] : choicesOf(module)) {
    if (!model)
      return all.front().emitError("collective '")
             << name
             << "' chooses among candidates by message size, which needs a "
                "cost model: pass --model FILE";
    // A `.coll` choice states one root (the parser); a hand-written module
    // may not.
    for (CollectiveOp c : all)
      if (c.getRoot() != all.front().getRoot() ||
          c.getAnyRoot() != all.front().getAnyRoot()) {
        auto rootText = [](CollectiveOp op) {
          return op.getAnyRoot() ? std::string("root any")
                 : op.getRoot()  ? "root " + std::to_string(*op.getRoot())
                                 : std::string("no root");
        };
        return c.emitError("the candidates of choice '")
               << name << "' share one root: '" << all.front().getSymName()
               << "' has " << rootText(all.front()) << ", '"
               << c.getSymName() << "' " << rootText(c);
      }
  }
  return success();
}

/// The size ranges of `cheapest` as a header tests them: whole-byte bounds
/// (coll::thresholdBytes) and the candidate of each range. A bound beyond
/// INT64_MAX bytes ends the list: no buffer is that large.
void rangesOf(const std::vector<std::pair<double, size_t>> &cheapest,
              SmallVector<int64_t> &bounds, SmallVector<int64_t> &picks) {
  for (auto [until, candidate] : cheapest) {
    picks.push_back(static_cast<int64_t>(candidate));
    const uint64_t bound = thresholdBytes(until);
    if (bound > static_cast<uint64_t>(INT64_MAX))
      return;
    bounds.push_back(static_cast<int64_t>(bound));
  }
}

/// The coll.choice of the dispatcher `name` over `candidates`, priced at
/// every rank count the first candidate is compiled for.
LogicalResult selectCandidate(StringRef name, ArrayRef<CollectiveOp> all,
                              const MachineModel &model, OpBuilder &builder) {
  MLIRContext *context = builder.getContext();
  CollectiveOp first = all.front();
  std::vector<int64_t> counts = pricedRankCounts(first);
  SmallVector<Attribute> priced;
  // Per set of admitting candidates, the largest P priced with that set:
  // its thresholds stand for the P beyond the priced ones.
  std::map<std::vector<bool>, int64_t> largestBySet;
  // A topology that does not fit P (torus(2, 4) at P = 5) prices nothing
  // there; one that fits no P (an unreadable file, an unknown name) is an
  // error.
  std::string firstTopologyError;
  bool fitsSome = false;
  for (int64_t P : counts) {
    std::string topologyError;
    std::optional<PricedCandidates> prices =
        priceCandidates(all, P, model, topologyError);
    if (!prices && model.isOpticalSwitch())
      return first.emitError("choosing among the candidates of '")
             << name << "' at P = " << P << ": " << topologyError;
    if (!prices) {
      if (firstTopologyError.empty())
        firstTopologyError = topologyError;
      continue;
    }
    fitsSome = true;
    if (prices->cheapest.empty())
      continue; // no candidate admits P
    SmallVector<int64_t> bounds, picks;
    rangesOf(prices->cheapest, bounds, picks);
    SmallVector<Attribute> costs;
    std::vector<bool> admitted;
    for (const std::optional<AffineCost> &c : prices->costs) {
      costs.push_back(builder.getF64FloatAttr(c ? c->fixed : -1));
      costs.push_back(builder.getF64FloatAttr(c ? c->perByte : -1));
      admitted.push_back(c.has_value());
    }
    priced.push_back(PricedRankCountAttr::get(
        context, P, DenseI64ArrayAttr::get(context, bounds),
        DenseI64ArrayAttr::get(context, picks),
        builder.getArrayAttr(costs)));
    largestBySet[admitted] = P;
  }
  if (!fitsSome)
    return first.emitError("collective '")
           << name << "' chooses by the model's topology, which fits no "
           << "rank count it admits: " << firstTopologyError;
  SmallVector<int64_t> estimates;
  if (counts.size() > 1)
    for (auto &[admitted, P] : largestBySet)
      estimates.push_back(P);
  SmallVector<Attribute> names;
  for (CollectiveOp c : all)
    names.push_back(FlatSymbolRefAttr::get(c.getSymNameAttr()));
  builder.create<ChoiceOp>(
      first.getLoc(), builder.getStringAttr(name), builder.getArrayAttr(names),
      builder.getStringAttr(model.name), builder.getStringAttr(model.describe()),
      builder.getI64IntegerAttr(counts.back()), builder.getArrayAttr(priced),
      DenseI64ArrayAttr::get(context, estimates));
  return success();
}

/// The coll.switch_settings of `spec`: the constants the runtime finds R*
/// with, or on an optical switch model the cheapest settings per P and
/// size (coll/Passes/OpticalSwitch.h).
LogicalResult selectSwitchSettings(CollectiveOp spec, const MachineModel &model,
                                   OpBuilder &builder) {
  MLIRContext *context = builder.getContext();
  auto settingsOp = [&](DenseF64ArrayAttr constants, ArrayAttr table) {
    builder.create<SwitchSettingsOp>(
        spec.getLoc(), FlatSymbolRefAttr::get(spec.getSymNameAttr()),
        builder.getStringAttr(model.name),
        builder.getStringAttr(model.describe()), constants, table);
  };
  if (!model.isOpticalSwitch()) {
    settingsOp(DenseF64ArrayAttr::get(context, {model.alpha, model.hopLatency,
                                                model.beta, model.delta}),
               nullptr);
    return success();
  }
  SmallVector<Attribute> table;
  for (int64_t P : pricedRankCounts(spec)) {
    if (!spec.acceptsRanks(P))
      continue;
    std::string error;
    std::optional<PricedSwitch> priced = priceOnSwitch(spec, P, model, error);
    if (!priced)
      return spec.emitError("collective '")
             << spec.getSymName() << "' at P = " << P << ": " << error;
    SmallVector<int64_t> bounds;
    SmallVector<Attribute> settings;
    if (priced->routes)
      for (auto &[until, plan] : priced->plans) {
        settings.push_back(DenseI64ArrayAttr::get(context, plan.settings));
        const uint64_t bound = thresholdBytes(until);
        if (bound > static_cast<uint64_t>(INT64_MAX))
          break;
        bounds.push_back(static_cast<int64_t>(bound));
      }
    table.push_back(SwitchPlanAttr::get(context, P,
                                        DenseI64ArrayAttr::get(context, bounds),
                                        builder.getArrayAttr(settings)));
  }
  settingsOp(nullptr, builder.getArrayAttr(table));
  return success();
}

struct SelectSchedulesPass
    : public coll::impl::SelectSchedulesBase<SelectSchedulesPass> {
  using Base::Base;
  SelectSchedulesPass(const SelectSchedulesOptions &options,
                      const MachineModel *model)
      : Base(options), given(model) {}

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<MachineModel> loaded;
    const MachineModel *model = given;
    if (!model && !modelSpec.empty()) {
      MachineModel::LoadError error;
      if (!(loaded = MachineModel::load(modelSpec, error))) {
        InFlightDiagnostic diag = module.emitError("cannot use model '")
                                  << modelSpec << "': ";
        if (!error.where.empty())
          diag << error.where << ": ";
        diag << error.message;
        return signalPassFailure();
      }
      model = &*loaded;
    }
    for (Operation &op : llvm::make_early_inc_range(*module.getBody()))
      if (isa<ChoiceOp, SwitchSettingsOp>(op))
        op.erase();
    if (failed(checkSelectionInputs(module, model)))
      return signalPassFailure();
    OpBuilder builder(module.getContext());
    for (CollectiveOp spec : llvm::to_vector(module.getOps<CollectiveOp>())) {
      if (!spec.getReconfigure())
        continue;
      builder.setInsertionPointAfter(spec);
      if (failed(selectSwitchSettings(spec, *model, builder)))
        return signalPassFailure();
    }
    builder.setInsertionPointToEnd(module.getBody());
    for (auto &[name, candidates] : choicesOf(module))
      if (failed(selectCandidate(name, candidates, *model, builder)))
        return signalPassFailure();
  }

  const MachineModel *given = nullptr;
};

} // namespace

std::unique_ptr<Pass> coll::createSelectSchedules(const MachineModel &model) {
  return std::make_unique<SelectSchedulesPass>(SelectSchedulesOptions{},
                                               &model);
}
