# Precompiled headers for the compiler's targets: the MLIR, LLVM and
# standard headers most of its files include, parsed once per target
# instead of once per file. Parsing them is about 2.7 s of a pass file's
# 7 s at -O3 (clang 14), and some 60 files include them (docs/testing.md,
# "Time"). Only headers from outside the project are listed, so an edit to
# collc's own headers rebuilds no precompiled header. A target of
# add_mlir_library compiles in its object library, obj.TARGET.
# Only with clang: gcc 12's were a 212 MB file a set, and made the build
# slower (docs/history/testing-time-2026-12.md). The ASan tree's
# force-included cmake/AsanWithPlainLlvm.h is part of each set there.
# -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON builds without them.
set(COLLC_PRECOMPILED_HEADERS
  <algorithm> <functional> <map> <memory> <optional> <set> <string> <vector>
  <llvm/ADT/STLExtras.h> <llvm/ADT/StringRef.h> <llvm/Support/raw_ostream.h>
  <mlir/IR/Builders.h> <mlir/IR/BuiltinOps.h> <mlir/IR/Diagnostics.h>
  <mlir/IR/MLIRContext.h> <mlir/Pass/Pass.h> <mlir/Pass/PassManager.h>)

function(collc_compiling_target out target)
  if(TARGET obj.${target})
    set(${out} obj.${target} PARENT_SCOPE)
  else()
    set(${out} ${target} PARENT_SCOPE)
  endif()
endfunction()

# collc_precompile_mlir_headers(TARGET... [REUSING OWNER]): each TARGET
# gets its own precompiled header, or, with REUSING, uses OWNER's (for a
# target of a file or two compiled with OWNER's flags, where a header of
# its own would cost as much as it saves).
function(collc_precompile_mlir_headers)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    return()
  endif()
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "REUSING" "")
  if(arg_REUSING)
    collc_compiling_target(owner ${arg_REUSING})
  endif()
  foreach(target IN LISTS arg_UNPARSED_ARGUMENTS)
    collc_compiling_target(target ${target})
    if(arg_REUSING)
      target_precompile_headers(${target} REUSE_FROM ${owner})
    else()
      target_precompile_headers(${target} PRIVATE ${COLLC_PRECOMPILED_HEADERS})
    endif()
  endforeach()
endfunction()
