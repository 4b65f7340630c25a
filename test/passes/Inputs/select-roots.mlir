coll.collective @at0 {choice_of = "bcast", kind = #coll.kind<broadcast>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, root = 0 : i64, schedule = #coll.schedule<binomial>}
// expected-error @+1 {{the candidates of choice 'bcast' share one root: 'at0' has root 0, 'at1' root 1}}
coll.collective @at1 {choice_of = "bcast", kind = #coll.kind<broadcast>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, root = 1 : i64, schedule = #coll.schedule<flat>}
