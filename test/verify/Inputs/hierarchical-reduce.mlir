// Input of trees.test: a hierarchical reduce, arity 4, never flat.
coll.collective @hier {arity = 4 : i64, flat_below = 0 : i64, kind = #coll.kind<reduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, root = 0 : i64, schedule = #coll.schedule<hierarchical>}
