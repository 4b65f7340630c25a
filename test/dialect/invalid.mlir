// RUN: coll-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'coll.collective' op group xor(P) needs P to be a power of two, got P = 6}}
coll.collective @x {group = #coll.group<xor>, kind = #coll.kind<allreduce>, num_ranks = 6 : i64, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<butterfly>}

// -----

// expected-error @+1 {{'coll.collective' op group xor(P) needs P to be a power of two; constrain the ranks with `where P == 2^k`}}
coll.collective @x {group = #coll.group<xor>, kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<butterfly>}

// -----

// expected-error @+1 {{'coll.collective' op rank count must be at least 1, got 0}}
coll.collective @x {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_ranks = 0 : i64, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>}

// -----

coll.program @p attributes {kind = #coll.kind<allreduce>, num_parts = 2 : i64, num_ranks = 2 : i64, op = #coll.op<sum>} {
  // expected-error @+1 {{'coll.step' op transfer 0 -> 2 names a rank outside [0, 2)}}
  coll.step "reduce-scatter" combine {0 -> 2 [0]}
}

// -----

coll.program @p attributes {kind = #coll.kind<allreduce>, num_parts = 2 : i64, num_ranks = 2 : i64, op = #coll.op<sum>} {
  // expected-error @+1 {{'coll.step' op transfer 0 -> 1 names part 5 outside [0, 2)}}
  coll.step "reduce-scatter" combine {0 -> 1 [5]}
}

// -----

coll.program @p attributes {kind = #coll.kind<allreduce>, num_parts = 2 : i64, num_ranks = 2 : i64, op = #coll.op<sum>} {
  // expected-error @+1 {{'coll.step' op transfer 1 -> 1 sends to itself}}
  coll.step "reduce-scatter" combine {1 -> 1 [0]}
}

// -----

// expected-error @+1 {{'coll.program' op chunk_of_part is not a permutation of [0, 2)}}
coll.program @p attributes {chunk_of_part = array<i64: 0, 0>, kind = #coll.kind<allreduce>, num_parts = 2 : i64, num_ranks = 2 : i64, op = #coll.op<sum>} {
}

// -----

// expected-error @+1 {{'coll.program' op of kind broadcast needs a root rank}}
coll.program @p attributes {kind = #coll.kind<broadcast>, num_parts = 1 : i64, num_ranks = 2 : i64, op = #coll.op<sum>} {
}

// -----

// expected-error @+1 {{'coll.program' op root 2 is not a rank in [0, 2)}}
coll.program @p attributes {kind = #coll.kind<reduce>, num_parts = 1 : i64, num_ranks = 2 : i64, op = #coll.op<sum>, root = 2 : i64} {
}

// -----

// expected-error @+1 {{'coll.program' op a root is only for broadcast, reduce, gather and scatter, not allreduce}}
coll.program @p attributes {kind = #coll.kind<allreduce>, num_parts = 1 : i64, num_ranks = 2 : i64, op = #coll.op<sum>, root = 0 : i64} {
}

// -----

// expected-error @+1 {{'coll.program' op of kind allgather needs one part per rank (num_parts == num_ranks)}}
coll.program @p attributes {kind = #coll.kind<allgather>, num_parts = 1 : i64, num_ranks = 2 : i64, op = #coll.op<sum>} {
}

// -----

// expected-error @+1 {{'coll.collective' op group schedules serve allreduce, reduce_scatter and allgather, not broadcast; use a tree}}
coll.collective @c {group = #coll.group<cyclic>, kind = #coll.kind<broadcast>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, root = 0 : i64, schedule = #coll.schedule<linear>}

// -----

// expected-error @+1 {{'coll.collective' op a tree schedule (binomial) takes no group}}
coll.collective @c {group = #coll.group<cyclic>, kind = #coll.kind<broadcast>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, root = 0 : i64, schedule = #coll.schedule<binomial>}

// -----

// expected-error @+1 {{'coll.collective' op scans take schedule linear or doubling without a group, not flat}}
coll.collective @c {kind = #coll.kind<inclusive_scan>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<flat>}

// -----

// expected-error @+1 {{'coll.collective' op schedule linear without a group serves inclusive_scan and exclusive_scan, not allreduce}}
coll.collective @c {kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>}

// -----

// expected-error @+1 {{'coll.collective' op of kind gather needs a root rank}}
coll.collective @c {kind = #coll.kind<gather>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<flat>}

// -----

// expected-error @+1 {{'coll.collective' op a root is only for broadcast, reduce, gather and scatter, not allreduce}}
coll.collective @c {kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, root = 1 : i64, schedule = #coll.schedule<flat>}

// -----

// expected-error @+1 {{'coll.collective' op root 4 is not a rank in [0, 4)}}
coll.collective @c {kind = #coll.kind<reduce>, num_ranks = 4 : i64, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, root = 4 : i64, schedule = #coll.schedule<binomial>}

// -----

// expected-error @+1 {{'coll.collective' op a hierarchical tree needs arity and flat_below}}
coll.collective @c {arity = 4 : i64, kind = #coll.kind<reduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, root = 0 : i64, schedule = #coll.schedule<hierarchical>}

// -----

// expected-error @+1 {{'coll.collective' op arity and flat_below are only for the hierarchical tree}}
coll.collective @c {arity = 4 : i64, flat_below = 16 : i64, kind = #coll.kind<reduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, root = 0 : i64, schedule = #coll.schedule<binomial>}

// -----

// expected-error @+1 {{'coll.collective' op tree arity must be at least 2, got 1}}
coll.collective @c {arity = 1 : i64, flat_below = 16 : i64, kind = #coll.kind<reduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, root = 0 : i64, schedule = #coll.schedule<hierarchical>}

// -----

// expected-error @+1 {{'coll.program' op group xor needs a power-of-two rank count, got 6}}
coll.program @p attributes {group = #coll.group<xor>, kind = #coll.kind<allreduce>, num_parts = 6 : i64, num_ranks = 6 : i64, op = #coll.op<sum>} {
}

// -----

// expected-error @+1 {{'coll.collective' op schedule butterfly needs a group}}
coll.collective @c {kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<butterfly>}

// -----

// expected-error @+1 {{'coll.collective' op scans take schedule linear or doubling without a group, not butterfly}}
coll.collective @c {group = #coll.group<cyclic>, kind = #coll.kind<inclusive_scan>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<butterfly>}

// -----

// expected-error @+1 {{'coll.collective' op barrier takes a tree (flat, binomial, chain or hierarchical), not direct}}
coll.collective @c {kind = #coll.kind<barrier>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<direct>}

// -----

// expected-error @+1 {{'coll.collective' op alltoall takes a digit routing (direct, radix or balanced_ternary), not binomial}}
coll.collective @c {kind = #coll.kind<alltoall>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<binomial>}

// -----

// expected-error @+1 {{'coll.collective' op the radix routing needs a radix}}
coll.collective @c {kind = #coll.kind<alltoall>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<radix>}

// -----

// expected-error @+1 {{'coll.program' op of kind exclusive_scan needs two parts (part 0 carries the prefix, part 1 is the result)}}
coll.program @p attributes {kind = #coll.kind<exclusive_scan>, num_parts = 1 : i64, num_ranks = 2 : i64, op = #coll.op<sum>} {
}

// -----

coll.program @p attributes {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_parts = 14 : i64, num_ranks = 7 : i64, num_scratch_parts = 7 : i64, op = #coll.op<sum>} {
  // expected-error @+1 {{'coll.step' op vector move 3 -> 10 stays on its placement; only a copy step moves locally}}
  coll.step "reduce-scatter" fold vectors {3 -> 10}
}

// -----

coll.program @p attributes {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_parts = 14 : i64, num_ranks = 7 : i64, num_scratch_parts = 7 : i64, op = #coll.op<sum>} {
  // expected-error @+1 {{'coll.step' op vector move 3 -> 14 names a slot outside [0, 14)}}
  coll.step "all-gather" copy vectors {3 -> 14}
}

// -----

coll.program @p attributes {kind = #coll.kind<allreduce>, num_parts = 14 : i64, num_ranks = 7 : i64, num_scratch_parts = 7 : i64, op = #coll.op<sum>} {
  // expected-error @+1 {{'coll.step' op vector moves need a `group` on their coll.program}}
  coll.step "all-gather" copy vectors {3 -> 4}
}

// -----

// expected-error @+1 {{'coll.collective' op the generated group is not abelian: (0 1 2) and (0 1) do not commute (rank 0 goes to 2 one way and to 0 the other)}}
coll.collective @g {group = #coll.group<generated>, group_generators = [array<i64: 1, 2, 0>, array<i64: 1, 0, 2>], kind = #coll.kind<allreduce>, num_ranks = 3 : i64, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>}

// -----

// expected-error @+1 {{'coll.collective' op a generator is not a permutation of [0, 4)}}
coll.collective @g {group = #coll.group<generated>, group_generators = [array<i64: 1, 1, 3, 2>], kind = #coll.kind<allreduce>, num_ranks = 4 : i64, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>}

// -----

// expected-error @+1 {{'coll.collective' op the butterfly needs an enumeration of the group in which every halving moves by one element; this group has none}}
coll.collective @g {group = #coll.group<generated>, group_generators = [array<i64: 1, 2, 0, 4, 5, 3, 7, 8, 6>, array<i64: 3, 4, 5, 6, 7, 8, 0, 1, 2>], kind = #coll.kind<allreduce>, num_ranks = 9 : i64, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<butterfly>}

// -----

// expected-error @+1 {{'coll.program' op a generated group needs group_elements, and only it}}
coll.program @p attributes {group = #coll.group<generated>, kind = #coll.kind<allreduce>, num_parts = 2 : i64, num_ranks = 2 : i64, op = #coll.op<sum>} {
}
