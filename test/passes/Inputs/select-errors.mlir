// expected-error @+1 {{collective 'pick' chooses among candidates by message size, which needs a cost model: pass --model FILE}}
coll.collective @fast {butterfly_r = -1 : i64, choice_of = "pick", group = #coll.group<xor>, kind = #coll.kind<allreduce>, num_ranks = 4 : i64, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<butterfly>}
coll.collective @ring {choice_of = "pick", group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_ranks = 4 : i64, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>}
