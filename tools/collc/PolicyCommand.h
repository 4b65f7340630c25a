//===- PolicyCommand.h - collc policy ---------------------------*- C++ -*-===//
#ifndef COLLC_POLICYCOMMAND_H
#define COLLC_POLICYCOMMAND_H

namespace collc {

/// `collc policy FILE... [--model M] (-o POLICY.so | --sources DIR)`:
/// proves the collectives of the files, which name the MPI calls they
/// serve (policy_allreduce, ..., policy_scatter), and builds a policy for
/// libcollc_mpi.so (docs/preload.md): a shared object for COLLC_MPI_POLICY,
/// or with --sources only the generated header and the table of calls it
/// is built from. Exit codes as every command (ExitCode.h).
int runPolicy(int argc, char **argv);

} // namespace collc

#endif
