// Two candidates of one choice with different roots, written as IR (the
// parser refuses the .coll form): test/frontend/root-any.test.
module {
  coll.collective @b_x {any_root, choice_of = "b", kind = #coll.kind<broadcast>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<binomial>}
  coll.collective @b_y {root = 0 : i64, choice_of = "b", kind = #coll.kind<broadcast>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<chain>, segments = 4 : i64}
}
