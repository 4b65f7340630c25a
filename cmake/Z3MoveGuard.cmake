# The verifier compiles against a copy of <z3++.h> in which z3::expr's move
# assignment is deleted. Z3 4.8.12's move assignment leaks the term it
# replaces (see reassign() in passes/lib/verify/SlotProgram.h), so every
# `e = <temporary>` on an expr is a compile error naming its line, in every
# build of the compiler, and nothing has to be checked again after it.
# The copy's constructors and copy assignment are declared defaulted
# (declaring a move would otherwise suppress them): they do what the
# original's implicit ones do.
#
# Sets COLLC_Z3_GUARD_DIR, the directory to put before the system's on the
# include path. The configure fails if the header is not the one expected
# or if, through the copy, a move assignment still compiles.
find_file(COLLC_Z3_HEADER z3++.h HINTS ${Z3_INCLUDE_DIRS} REQUIRED)
file(READ ${COLLC_Z3_HEADER} z3_header)
set(z3_expr_opening "    class expr : public ast {\n    public:\n")
string(FIND "${z3_header}" "${z3_expr_opening}" z3_at)
if(z3_at EQUAL -1)
  message(FATAL_ERROR "${COLLC_Z3_HEADER}: z3::expr does not open as "
    "cmake/Z3MoveGuard.cmake expects; adapt the guard to this Z3")
endif()
string(REPLACE "${z3_expr_opening}"
  "${z3_expr_opening}        // collc: the move assignment leaks (cmake/Z3MoveGuard.cmake)
        expr(expr const &) = default;
        expr(expr &&) = default;
        expr & operator=(expr const &) = default;
        expr & operator=(expr &&) = delete;\n"
  z3_header "${z3_header}")
set(COLLC_Z3_GUARD_DIR ${CMAKE_BINARY_DIR}/z3-move-guard)
# (Written where it changes only when its text does, so a reconfigure
# recompiles nothing.)
file(WRITE ${CMAKE_BINARY_DIR}/CMakeFiles/z3++.h.guarded "${z3_header}")
configure_file(${CMAKE_BINARY_DIR}/CMakeFiles/z3++.h.guarded
  ${COLLC_Z3_GUARD_DIR}/z3++.h COPYONLY)

# The guard must bite: a move assignment through it does not compile, and
# a copy does.
include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_INCLUDES ${COLLC_Z3_GUARD_DIR})
set(CMAKE_REQUIRED_LIBRARIES PkgConfig::Z3)
set(CMAKE_REQUIRED_QUIET ON)
check_cxx_source_compiles("
#include <z3++.h>
int main() { z3::context c; z3::expr e = c.int_val(1); e = c.int_val(2); }"
  COLLC_Z3_MOVE_ASSIGN_COMPILES)
check_cxx_source_compiles("
#include <z3++.h>
int main() { z3::context c; z3::expr e = c.int_val(1), f = e; e = f; }"
  COLLC_Z3_COPY_ASSIGN_COMPILES)
unset(CMAKE_REQUIRED_INCLUDES)
unset(CMAKE_REQUIRED_LIBRARIES)
unset(CMAKE_REQUIRED_QUIET)
if(COLLC_Z3_MOVE_ASSIGN_COMPILES OR NOT COLLC_Z3_COPY_ASSIGN_COMPILES)
  message(FATAL_ERROR "cmake/Z3MoveGuard.cmake: the guarded z3++.h does not "
    "reject expr's move assignment and keep its copy (move compiles: "
    "${COLLC_Z3_MOVE_ASSIGN_COMPILES}, copy compiles: "
    "${COLLC_Z3_COPY_ASSIGN_COMPILES})")
endif()
