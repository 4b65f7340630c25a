module {
  coll.collective @fast {butterfly_r = -1 : i64, choice_of = "pick", group = #coll.group<xor>, kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<power_of_two>, schedule = #coll.schedule<butterfly>}
}
