#pragma once
// Where the runtime's functions that depend on no element type or
// operator are compiled -- making and checking plans, recording, checked
// mode, the executor's errors. A program that links libcollc_runtime (its
// CMake target gives COLLC_RUNTIME_LIBRARY=1 to everything linking it), and
// libcollc_mpi.so, take them from runtime/lib/Runtime.cpp, compiled once;
// without the library (a policy.so, built by `collc policy -o` from
// sources) they are inline in every unit that uses them. Either way a
// header holds each function once: its declaration where it is documented,
// its definition in the header's COLLC_RUNTIME_DEFINITIONS block.

#if defined(COLLC_RUNTIME_SOURCE)
#define COLLC_RUNTIME_DEFINITIONS 1
#define COLLC_RUNTIME_INLINE
#elif defined(COLLC_RUNTIME_LIBRARY) && COLLC_RUNTIME_LIBRARY
#define COLLC_RUNTIME_DEFINITIONS 0
#define COLLC_RUNTIME_INLINE
#else
#define COLLC_RUNTIME_DEFINITIONS 1
#define COLLC_RUNTIME_INLINE inline
#endif
