// RUN: coll-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'coll.collective' op group xor(P) needs P to be a power of two, got P = 6}}
coll.collective @x {group = #coll.group<xor>, kind = #coll.kind<allreduce>, num_ranks = 6 : i64, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<butterfly>}

// -----

// expected-error @+1 {{'coll.collective' op group xor(P) needs P to be a power of two; constrain the ranks with 'ranks P where P == 2^k;'}}
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

// expected-error @+1 {{'coll.program' op of kind allgather needs one data part per rank and no scratch part (num_parts == num_ranks, num_scratch_parts == 0), got 1 parts, 0 scratch, for 2 ranks}}
coll.program @p attributes {kind = #coll.kind<allgather>, num_parts = 1 : i64, num_ranks = 2 : i64, op = #coll.op<sum>} {
}

// -----

// expected-error @+1 {{'coll.collective' op the ring ('group G; schedule linear;') serves allreduce, reduce_scatter and allgather, not broadcast; broadcast takes 'tree flat;', 'tree binomial;', 'tree chain;' or 'tree arity(k) flat_below(t);'}}
coll.collective @c {group = #coll.group<cyclic>, kind = #coll.kind<broadcast>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, root = 0 : i64, schedule = #coll.schedule<linear>}

// -----

// expected-error @+1 {{'coll.collective' op the binomial tree ('tree binomial;') takes no group}}
coll.collective @c {group = #coll.group<cyclic>, kind = #coll.kind<broadcast>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, root = 0 : i64, schedule = #coll.schedule<binomial>}

// -----

// expected-error @+1 {{'coll.collective' op the flat tree ('tree flat;') serves allreduce, reduce_scatter, allgather, broadcast, reduce, gather, scatter and barrier, not inclusive_scan; inclusive_scan takes 'schedule linear;' or 'schedule doubling;'}}
coll.collective @c {kind = #coll.kind<inclusive_scan>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<flat>}

// -----

// expected-error @+1 {{'coll.collective' op the scan chain ('schedule linear;') serves inclusive_scan and exclusive_scan, not allreduce; allreduce takes 'group G; schedule linear;', 'group G; schedule butterfly;', 'group G; schedule butterfly(r = N);', 'group xor(P); schedule butterfly(r = max);', 'tree flat;', 'tree binomial;', 'tree chain;', 'tree arity(k) flat_below(t);' or 'digits balanced_ternary;'}}
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

// expected-error @+1 {{'coll.collective' op the hierarchical tree needs flat_below}}
coll.collective @c {arity = 4 : i64, kind = #coll.kind<reduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, root = 0 : i64, schedule = #coll.schedule<hierarchical>}

// -----

// expected-error @+1 {{'coll.collective' op only the hierarchical tree takes arity}}
coll.collective @c {arity = 4 : i64, flat_below = 16 : i64, kind = #coll.kind<reduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, root = 0 : i64, schedule = #coll.schedule<binomial>}

// -----

// expected-error @+1 {{'coll.collective' op tree arity must be at least 2, got 1}}
coll.collective @c {arity = 1 : i64, flat_below = 16 : i64, kind = #coll.kind<reduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, root = 0 : i64, schedule = #coll.schedule<hierarchical>}

// -----

// expected-error @+1 {{'coll.program' op group xor(P) needs P to be a power of two, got P = 6}}
coll.program @p attributes {group = #coll.group<xor>, kind = #coll.kind<allreduce>, num_parts = 6 : i64, num_ranks = 6 : i64, op = #coll.op<sum>} {
}

// -----

// expected-error @+1 {{'coll.collective' op schedule butterfly needs a group}}
coll.collective @c {kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<butterfly>}

// -----

// expected-error @+1 {{'coll.collective' op the halving butterfly ('group G; schedule butterfly;') serves allreduce, reduce_scatter and allgather, not inclusive_scan; inclusive_scan takes 'schedule linear;' or 'schedule doubling;'}}
coll.collective @c {group = #coll.group<cyclic>, kind = #coll.kind<inclusive_scan>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<butterfly>}

// -----

// expected-error @+1 {{'coll.collective' op the pairwise exchange ('schedule direct;') serves alltoall, not barrier; barrier takes 'group G; schedule butterfly(r = N);', 'tree flat;', 'tree binomial;', 'tree chain;' or 'tree arity(k) flat_below(t);'}}
coll.collective @c {kind = #coll.kind<barrier>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<direct>}

// -----

// expected-error @+1 {{'coll.collective' op the binomial tree ('tree binomial;') serves allreduce, reduce_scatter, allgather, broadcast, reduce, gather, scatter and barrier, not alltoall; alltoall takes 'schedule direct;', 'digits radix(k);' or 'digits balanced_ternary;'}}
coll.collective @c {kind = #coll.kind<alltoall>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<binomial>}

// -----

// expected-error @+1 {{'coll.collective' op Bruck's routing needs radix}}
coll.collective @c {kind = #coll.kind<alltoall>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<radix>}

// -----

// expected-error @+1 {{'coll.program' op of kind exclusive_scan needs two data parts (part 0 is the rank's value, part 1 the result), then any scratch parts}}
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

// expected-error @+1 {{'coll.collective' op the butterfly needs an enumeration of the generated group in which every halving moves its vectors by one element, and this group has none; use schedule linear, which works on any such group}}
coll.collective @g {group = #coll.group<generated>, group_generators = [array<i64: 1, 2, 0, 4, 5, 3, 7, 8, 6>, array<i64: 3, 4, 5, 6, 7, 8, 0, 1, 2>], kind = #coll.kind<allreduce>, num_ranks = 9 : i64, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<butterfly>}

// -----

// expected-error @+1 {{'coll.program' op a generated group needs group_elements, and only it}}
coll.program @p attributes {group = #coll.group<generated>, kind = #coll.kind<allreduce>, num_parts = 2 : i64, num_ranks = 2 : i64, op = #coll.op<sum>} {
}

// -----

// The catalogue's rules (dialect/lib/Catalogue.cpp), one case each.
// expected-error @+1 {{'coll.collective' op the doubling scan ('schedule doubling;') takes no group}}
coll.collective @c {group = #coll.group<cyclic>, kind = #coll.kind<inclusive_scan>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<doubling>}

// -----

// expected-error @+1 {{'coll.collective' op the pairwise exchange ('schedule direct;') takes no group}}
coll.collective @c {group = #coll.group<cyclic>, kind = #coll.kind<alltoall>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<direct>}

// -----

// expected-error @+1 {{'coll.collective' op only Bruck's routing takes radix}}
coll.collective @c {kind = #coll.kind<alltoall>, op = #coll.op<sum>, radix = 3 : i64, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<direct>}

// -----

// expected-error @+1 {{'coll.collective' op radix must be at least 2, got 1}}
coll.collective @c {kind = #coll.kind<alltoall>, op = #coll.op<sum>, radix = 1 : i64, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<radix>}

// -----

// expected-error @+1 {{'coll.collective' op flat_below must be at least 0, got -1}}
coll.collective @c {arity = 2 : i64, flat_below = -1 : i64, kind = #coll.kind<reduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, root = 0 : i64, schedule = #coll.schedule<hierarchical>}

// -----

// expected-error @+1 {{'coll.collective' op only the butterfly schedule takes a parameter r}}
coll.collective @c {butterfly_r = 2 : i64, group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>}

// -----

// expected-error @+1 {{'coll.collective' op butterfly r must be >= 0 or max (-1), got -2}}
coll.collective @c {butterfly_r = -2 : i64, group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<butterfly>}

// -----

// expected-error @+1 {{'coll.collective' op reconfigure auto places the optical switch settings of the alltoall routings 'digits radix(k);' or 'digits balanced_ternary;', not of the pairwise exchange on alltoall}}
coll.collective @c {kind = #coll.kind<alltoall>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, reconfigure, schedule = #coll.schedule<direct>}

// -----

// expected-error @+1 {{'coll.collective' op segments must be in 1..4096, got 4097}}
coll.collective @c {kind = #coll.kind<broadcast>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, root = 0 : i64, schedule = #coll.schedule<chain>, segments = 4097 : i64}

// -----

// expected-error @+1 {{'coll.collective' op segments = S does not pipeline allgather on the ring; it pipelines allreduce on the ring and the halving butterfly over cyclic(P) or xor(P), and broadcast, reduce and allreduce on the flat tree, the binomial tree, the chain and the hierarchical tree}}
coll.collective @c {group = #coll.group<cyclic>, kind = #coll.kind<allgather>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>, segments = 2 : i64}

// -----

// expected-error @+1 {{'coll.collective' op segments = S does not pipeline allreduce on the ring over a generated group; it pipelines allreduce on the ring and the halving butterfly over cyclic(P) or xor(P), and broadcast, reduce and allreduce on the flat tree, the binomial tree, the chain and the hierarchical tree}}
coll.collective @c {group = #coll.group<generated>, group_generators = [array<i64: 1, 2, 0>], kind = #coll.kind<allreduce>, num_ranks = 3 : i64, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>, segments = 2 : i64}

// -----

// expected-error @+1 {{'coll.collective' op a root is either fixed or any, not both}}
coll.collective @b {any_root, kind = #coll.kind<broadcast>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, root = 0 : i64, schedule = #coll.schedule<binomial>}

// -----

// expected-error @+1 {{'coll.collective' op a root is only for broadcast, reduce, gather and scatter, not allgather}}
coll.collective @g {any_root, kind = #coll.kind<allgather>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<binomial>}

// -----

// A step program's header is checked before any proof: no negative count
// of scratch parts (the verifier would read the parts' roles from it).
// expected-error @+1 {{'coll.program' op num_scratch_parts must not be negative, got -1}}
coll.program @p attributes {kind = #coll.kind<allreduce>, num_parts = 4 : i64, num_ranks = 4 : i64, num_scratch_parts = -1 : i64, op = #coll.op<sum>} {
}

// -----

// One part per rank, and none of them scratch: an all-to-all of one data
// part and three scratch parts with no step at all was once proven.
// expected-error @+1 {{'coll.program' op of kind alltoall needs one data part per rank and no scratch part (num_parts == num_ranks, num_scratch_parts == 0), got 4 parts, 3 scratch, for 4 ranks}}
coll.program @p attributes {kind = #coll.kind<alltoall>, num_parts = 4 : i64, num_ranks = 4 : i64, num_scratch_parts = 3 : i64, op = #coll.op<sum>} {
}

// -----

// expected-error @+1 {{'coll.program' op of kind gather needs one data part per rank and no scratch part (num_parts == num_ranks, num_scratch_parts == 0), got 4 parts, 1 scratch, for 4 ranks}}
coll.program @p attributes {kind = #coll.kind<gather>, num_parts = 4 : i64, num_ranks = 4 : i64, num_scratch_parts = 1 : i64, op = #coll.op<sum>, root = 0 : i64} {
}

// -----

// expected-error @+1 {{'coll.program' op of kind scatter needs one data part per rank and no scratch part (num_parts == num_ranks, num_scratch_parts == 0), got 5 parts, 0 scratch, for 4 ranks}}
coll.program @p attributes {kind = #coll.kind<scatter>, num_parts = 5 : i64, num_ranks = 4 : i64, op = #coll.op<sum>, root = 0 : i64} {
}

// -----

// expected-error @+1 {{'coll.program' op has a name that is not UTF-8}}
coll.program @"bad\FFname" attributes {kind = #coll.kind<allreduce>, num_parts = 1 : i64, num_ranks = 1 : i64, op = #coll.op<sum>} {
}

// -----

// expected-error @+1 {{'coll.collective' op has a name that is not UTF-8}}
coll.collective @"\C3\28" {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>}

// -----

coll.collective @fast {choice_of = "pick", group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>}
// expected-error @+1 {{'coll.choice' op candidate @ring is not a coll.collective}}
coll.choice @pick {candidates = [@fast, @ring], description = "d", estimates = array<i64>, model = "m", priced = [], priced_up_to = 1 : i64}

// -----

coll.collective @fast {choice_of = "other", group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>}
// expected-error @+1 {{'coll.choice' op candidate @fast is not a candidate of 'pick'}}
coll.choice @pick {candidates = [@fast], description = "d", estimates = array<i64>, model = "m", priced = [], priced_up_to = 1 : i64}

// -----

// expected-error @+1 {{'coll.choice' op prices 1 candidates, but P = 2 has 4 cost numbers}}
coll.choice @pick {candidates = [@fast], description = "d", estimates = array<i64>, model = "m", priced = [#coll.priced<ranks = 2, bounds = [], picks = [0], costs = [1.0, 1.0, 1.0, 1.0]>], priced_up_to = 2 : i64}

// -----

// expected-error @+1 {{'coll.choice' op needs its priced rank counts in ascending order}}
coll.choice @pick {candidates = [@fast], description = "d", estimates = array<i64>, model = "m", priced = [#coll.priced<ranks = 3, bounds = [], picks = [0], costs = [1.0, 1.0]>, #coll.priced<ranks = 2, bounds = [], picks = [0], costs = [1.0, 1.0]>], priced_up_to = 3 : i64}

// -----

// expected-error @+1 {{'coll.choice' op estimates from P = 5, which is not priced}}
coll.choice @pick {candidates = [@fast], description = "d", estimates = array<i64: 5>, model = "m", priced = [#coll.priced<ranks = 2, bounds = [], picks = [0], costs = [1.0, 1.0]>], priced_up_to = 64 : i64}

// -----

// expected-error @+1 {{'coll.choice' op priced_up_to 1 is below the priced P = 2}}
coll.choice @pick {candidates = [@fast], description = "d", estimates = array<i64>, model = "m", priced = [#coll.priced<ranks = 2, bounds = [], picks = [0], costs = [1.0, 1.0]>], priced_up_to = 1 : i64}

// -----

// expected-error @+1 {{needs one bound fewer than its 2 size ranges, got 2}}
coll.choice @pick {candidates = [@fast], description = "d", estimates = array<i64>, model = "m", priced = [#coll.priced<ranks = 2, bounds = [10, 20], picks = [0, 0], costs = [1.0, 1.0]>], priced_up_to = 2 : i64}

// -----

// expected-error @+1 {{needs positive bounds in ascending order, got 10 at 1}}
coll.choice @pick {candidates = [@fast], description = "d", estimates = array<i64>, model = "m", priced = [#coll.priced<ranks = 2, bounds = [20, 10], picks = [0, 0, 0], costs = [1.0, 1.0]>], priced_up_to = 2 : i64}

// -----

// expected-error @+1 {{picks candidate 1, which is not priced at P = 2}}
coll.choice @pick {candidates = [@fast, @ring], description = "d", estimates = array<i64>, model = "m", priced = [#coll.priced<ranks = 2, bounds = [], picks = [1], costs = [1.0, 1.0, -1.0, -1.0]>], priced_up_to = 2 : i64}

// -----

// expected-error @+1 {{needs f64 costs, got 1 : i64}}
coll.choice @pick {candidates = [@fast], description = "d", estimates = array<i64>, model = "m", priced = [#coll.priced<ranks = 2, bounds = [], picks = [0], costs = [1, 1.0]>], priced_up_to = 2 : i64}

// -----

coll.collective @retri {kind = #coll.kind<alltoall>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<balanced_ternary>}
// expected-error @+1 {{'coll.switch_settings' op names @retri, which does not reconfigure a switch}}
coll.switch_settings @retri {constants = array<f64: 1.0, 1.0, 1.0, 1.0>, description = "d", model = "m"}

// -----

// expected-error @+1 {{'coll.switch_settings' op needs either the model's constants or a table}}
coll.switch_settings @retri {description = "d", model = "m"}

// -----

// expected-error @+1 {{'coll.switch_settings' op needs four constants (alpha, hop latency, beta, delta), got 3}}
coll.switch_settings @retri {constants = array<f64: 1.0, 1.0, 1.0>, description = "d", model = "m"}

// -----

// expected-error @+1 {{needs settings that are phase lists starting with phase 0}}
coll.switch_settings @retri {description = "d", model = "m", table = [#coll.switch_plan<ranks = 9, bounds = [], settings = [array<i64: 1>]>]}

// -----

// expected-error @+1 {{needs phases in ascending order}}
coll.switch_settings @retri {description = "d", model = "m", table = [#coll.switch_plan<ranks = 9, bounds = [], settings = [array<i64: 0, 2, 1>]>]}

// -----

// expected-error @+1 {{without settings has no size ranges}}
coll.switch_settings @retri {description = "d", model = "m", table = [#coll.switch_plan<ranks = 9, bounds = [5], settings = []>]}
