// coll-select-schedules alone: a choice priced at its fixed P, the model's
// constants for a reconfiguration, a switch model's table, and the errors
// that need no proof.
// RUN: coll-opt --coll-select-schedules="model=alpha=1,beta=0.001" --split-input-file %s | FileCheck %s
// RUN: coll-opt --coll-select-schedules="model=%examples/models/seed002_switch.model" %S/Inputs/reconfigure.mlir | FileCheck %s --check-prefix=TABLE
// RUN: coll-opt --coll-select-schedules="model=%examples/models/seed002_ocs.model" %S/Inputs/reconfigure.mlir | FileCheck %s --check-prefix=CONSTANTS
// RUN: not coll-opt --coll-select-schedules %S/Inputs/reconfigure.mlir 2>&1 | FileCheck %s --check-prefix=NOMODEL
// RUN: not coll-opt --coll-select-schedules="model=%examples/models/seed000.model" %S/Inputs/reconfigure.mlir 2>&1 | FileCheck %s --check-prefix=NODELTA
// RUN: not coll-opt --coll-select-schedules="model=no-such.model" %s --split-input-file 2>&1 | FileCheck %s --check-prefix=BADMODEL
// RUN: not coll-opt --coll-select-schedules="model=alpha=x,beta=1" %S/Inputs/reconfigure.mlir 2>&1 | FileCheck %s --check-prefix=BADINLINE
// RUN: echo "alhpa = 1" > %t.model
// RUN: not coll-opt --coll-select-schedules="model=%t.model" %S/Inputs/reconfigure.mlir 2>&1 | FileCheck %s --check-prefix=BADFILE
// RUN: coll-opt --coll-select-schedules --verify-diagnostics %S/Inputs/select-errors.mlir
// RUN: coll-opt --coll-select-schedules="model=alpha=1,beta=0.001" --verify-diagnostics %S/Inputs/select-roots.mlir

// At P = 4 recursive doubling costs 2 alpha + 2 beta M, the ring 6 alpha +
// 1.5 beta M: the doubling below M = 8000 B, the ring from there on.
// CHECK-LABEL: coll.collective @fast
// CHECK: coll.choice @pick {candidates = [@fast, @ring],
// CHECK-SAME: description = "alpha = 1 us, beta = 0.001 us/B (1.000 GB/s), gamma = 0 us/B", estimates = array<i64>, model = "inline",
// CHECK-SAME: priced = [#coll.priced<ranks = 4, bounds = [8000], picks = [0, 1], costs = [2.000000e+00, 2.000000e-03, 6.000000e+00, 1.500000e-03]>], priced_up_to = 4 : i64}
// BADMODEL: error: cannot use model 'no-such.model': neither a readable file nor 'alpha=...,beta=...'
// BADINLINE: error: cannot use model 'alpha=x,beta=1': expected a non-negative number for 'alpha', got 'x'
// BADFILE: error: cannot use model '{{.*}}.model': {{.*}}.model:1:1: unknown key 'alhpa'; expected name, alpha,
module {
  coll.collective @fast {butterfly_r = -1 : i64, choice_of = "pick", group = #coll.group<xor>, kind = #coll.kind<allreduce>, num_ranks = 4 : i64, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<butterfly>}
  coll.collective @ring {choice_of = "pick", group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_ranks = 4 : i64, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>}
}

// -----

// A symbolic P is priced at every P in 1..64; beyond 64 a communicator
// takes the ranges of the largest P admitted by the same candidates: 64
// where both admit it, 63 where only the ring does. A selection run again
// replaces the one before.
// CHECK-LABEL: coll.collective @pow2
// CHECK: coll.choice @any {candidates = [@pow2, @ring]
// CHECK-SAME: estimates = array<i64: 63, 64>
// CHECK-SAME: #coll.priced<ranks = 1, bounds = [], picks = [0], costs = [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]>
// CHECK-SAME: #coll.priced<ranks = 3, bounds = [], picks = [1], costs = [-1.000000e+00, -1.000000e+00,
// CHECK-SAME: priced_up_to = 64 : i64}
// CHECK-NOT: coll.choice
module {
  coll.collective @pow2 {butterfly_r = -1 : i64, choice_of = "any", group = #coll.group<xor>, kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<power_of_two>, schedule = #coll.schedule<butterfly>}
  coll.collective @ring {choice_of = "any", group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>}
  coll.choice @any {candidates = [@pow2, @ring], description = "stale", estimates = array<i64>, model = "stale", priced = [], priced_up_to = 1 : i64}
}

// TABLE: coll.switch_settings @retri {description = "alpha = 1.7 us, beta = 2e-05 us/B (50.000 GB/s), gamma = 0 us/B, optical switch: 2 circuits per node, 1 us per hop, delta = 100 us", model = "seed002_switch",
// TABLE-SAME: table = [#coll.switch_plan<ranks = 9, bounds = [816667], settings = [array<i64: 0>, array<i64: 0, 1>]>]}
// CONSTANTS: coll.switch_settings @retri {constants = array<f64: 1.700000e+00, 1.000000e+00, 2.000000e-05, 1.000000e+02>, description = "alpha = 1.7 us, beta = 2e-05 us/B (50.000 GB/s), gamma = 0 us/B", model = "seed002_ocs"}
// NOMODEL: error: collective 'retri' places optical switch settings (reconfigure auto), which needs a model with alpha (per phase), hop_latency, beta and delta (--model FILE)
// NODELTA: error: collective 'retri' places optical switch settings
