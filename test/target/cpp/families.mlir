// The C++ target alone (no proof, no cost model): each family's body is
// its arguments' checks (coll::checkArguments: one rule per kind) and the
// one call the catalogue binds the family to (FamilyInfo::run and runArgs),
// its arguments printed from the spec.
// RUN: coll-translate --coll-to-cpp %s | FileCheck %s

// CHECK-LABEL: void ring(coll::Comm &comm
// CHECK: coll::checkArguments("collc::ring", coll::Kind::allreduce, comm.rank(), P, -1, send, recv, count);
// CHECK: coll::runGroup(comm, coll::Kind::allreduce, coll::GroupSchedule::linear, coll::CyclicGroup(P), send, recv, count, op);
// CHECK-LABEL: void halving(coll::Comm &comm
// CHECK: coll::checkArguments("collc::halving", coll::Kind::reduce_scatter, comm.rank(), P, -1, send, recv, count);
// CHECK: coll::runGroup(comm, coll::Kind::reduce_scatter, coll::GroupSchedule::butterfly, coll::XorGroup(P), send, recv, count, op);
// CHECK-LABEL: void klein(coll::Comm &comm
// CHECK: coll::checkArguments("collc::klein", coll::Kind::allgather, comm.rank(), P, -1, send, recv, count);
// CHECK: static const coll::TableGroup group = coll::TableGroup::generatedBy(4, kGenerators, 2, nullptr);
// CHECK: coll::runGroup(comm, coll::Kind::allgather, coll::GroupSchedule::butterfly, group, send, recv, count, coll::NoMerge{});
// CHECK-LABEL: void shifted(coll::Comm &comm
// CHECK: coll::checkArguments("collc::shifted", coll::Kind::allreduce, comm.rank(), P, -1, send, recv, count);
// CHECK: coll::runButterfly(comm, 1, coll::CyclicGroup(P), send, recv, count, op, coll::Kind::allreduce);
// CHECK-LABEL: void doubling(coll::Comm &comm
// CHECK: coll::checkArguments("collc::doubling", coll::Kind::allreduce, comm.rank(), P, -1, send, recv, count);
// CHECK: coll::runDoubling(comm, send, recv, count, op);
// CHECK-LABEL: void bfly_barrier(coll::Comm &comm
// CHECK: coll::runButterfly(comm, coll::kLatencyOptimal, coll::CyclicGroup(P), static_cast<const char *>(nullptr), static_cast<char *>(nullptr), 0, coll::NoMerge{}, coll::Kind::barrier);
// CHECK-LABEL: void flat(coll::Comm &comm
// CHECK: const int root = 0;
// CHECK: coll::checkArguments("collc::flat", coll::Kind::broadcast, comm.rank(), P, root, buffer, buffer, count);
// CHECK: coll::runTree(comm, coll::Kind::broadcast, coll::Tree{coll::TreeShape::flat, 2, 16}, root, static_cast<const T *>(buffer), buffer, count, coll::NoMerge{});
// CHECK-LABEL: void binomial(coll::Comm &comm
// CHECK: coll::checkArguments("collc::binomial", coll::Kind::reduce, comm.rank(), P, root, send, recv, count);
// CHECK: coll::runTree(comm, coll::Kind::reduce, coll::Tree{coll::TreeShape::binomial, 2, 16}, root, send, recv, count, op);
// CHECK-LABEL: void chain(coll::Comm &comm
// CHECK: coll::checkArguments("collc::chain", coll::Kind::allreduce, comm.rank(), P, -1, send, recv, count);
// CHECK: coll::runTree(comm, coll::Kind::allreduce, coll::Tree{coll::TreeShape::chain, 2, 16}, 0, send, recv, count, op, 4);
// CHECK-LABEL: void hier(coll::Comm &comm
// CHECK: const int root = 2;
// CHECK: coll::checkArguments("collc::hier", coll::Kind::gather, comm.rank(), P, root, send, recv, count);
// CHECK: coll::runTree(comm, coll::Kind::gather, coll::Tree{coll::TreeShape::hierarchical, 4, 8}, root, send, recv, count, coll::NoMerge{});
// CHECK-LABEL: void tree_barrier(coll::Comm &comm
// CHECK: coll::runTree(comm, coll::Kind::barrier, coll::Tree{coll::TreeShape::binomial, 2, 16}, 0, static_cast<const char *>(nullptr), static_cast<char *>(nullptr), 0, coll::NoMerge{});
// CHECK-LABEL: void scan(coll::Comm &comm
// CHECK: coll::checkArguments("collc::scan", coll::Kind::inclusive_scan, comm.rank(), P, -1, send, recv, count);
// CHECK: coll::runScan(comm, coll::Kind::inclusive_scan, coll::ScanSchedule::linear, send, recv, count, op);
// CHECK-LABEL: void exscan(coll::Comm &comm
// CHECK: coll::checkArguments("collc::exscan", coll::Kind::exclusive_scan, comm.rank(), P, -1, send, recv, count);
// CHECK: coll::runScan(comm, coll::Kind::exclusive_scan, coll::ScanSchedule::doubling, send, recv, count, op);
// CHECK-LABEL: void pairwise(coll::Comm &comm
// CHECK: coll::checkArguments("collc::pairwise", coll::Kind::alltoall, comm.rank(), P, -1, send, recv, count);
// CHECK: coll::runDigitAlltoall(comm, coll::Digits{coll::DigitSystem::direct, 2}, send, recv, count);
// CHECK-LABEL: void bruck(coll::Comm &comm
// CHECK: coll::checkArguments("collc::bruck", coll::Kind::alltoall, comm.rank(), P, -1, send, recv, count);
// CHECK: coll::runDigitAlltoall(comm, coll::Digits{coll::DigitSystem::radix, 4}, send, recv, count);
// CHECK-LABEL: void retri(coll::Comm &comm
// CHECK: coll::checkArguments("collc::retri", coll::Kind::alltoall, comm.rank(), P, -1, send, recv, count);
// CHECK: coll::runDigitAlltoall(comm, coll::Digits{coll::DigitSystem::balancedTernary, 3}, send, recv, count);
// CHECK-LABEL: void trivance(coll::Comm &comm
// CHECK: coll::checkArguments("collc::trivance", coll::Kind::allreduce, comm.rank(), P, -1, send, recv, count);
// CHECK: coll::runTrivance(comm, send, recv, count, op);
module {
  coll.collective @ring {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>}
  coll.collective @halving {group = #coll.group<xor>, kind = #coll.kind<reduce_scatter>, op = #coll.op<sum>, rank_constraint = #coll.ranks<power_of_two>, schedule = #coll.schedule<butterfly>}
  coll.collective @klein {group = #coll.group<generated>, group_generators = [array<i64: 1, 0, 3, 2>, array<i64: 2, 3, 0, 1>], kind = #coll.kind<allgather>, num_ranks = 4 : i64, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<butterfly>}
  coll.collective @shifted {butterfly_r = 1 : i64, group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<butterfly>}
  coll.collective @doubling {butterfly_r = -1 : i64, group = #coll.group<xor>, kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<power_of_two>, schedule = #coll.schedule<butterfly>}
  coll.collective @bfly_barrier {butterfly_r = -1 : i64, group = #coll.group<cyclic>, kind = #coll.kind<barrier>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<butterfly>}
  coll.collective @flat {kind = #coll.kind<broadcast>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, root = 0 : i64, schedule = #coll.schedule<flat>}
  coll.collective @binomial {any_root, kind = #coll.kind<reduce>, op = #coll.op<max>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<binomial>}
  coll.collective @chain {kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<chain>, segments = 4 : i64}
  coll.collective @hier {arity = 4 : i64, flat_below = 8 : i64, kind = #coll.kind<gather>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, root = 2 : i64, schedule = #coll.schedule<hierarchical>}
  coll.collective @tree_barrier {kind = #coll.kind<barrier>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<binomial>}
  coll.collective @scan {kind = #coll.kind<inclusive_scan>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>}
  coll.collective @exscan {kind = #coll.kind<exclusive_scan>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<doubling>}
  coll.collective @pairwise {kind = #coll.kind<alltoall>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<direct>}
  coll.collective @bruck {kind = #coll.kind<alltoall>, op = #coll.op<sum>, radix = 4 : i64, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<radix>}
  coll.collective @retri {kind = #coll.kind<alltoall>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<balanced_ternary>}
  coll.collective @trivance {kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<balanced_ternary>}
}

