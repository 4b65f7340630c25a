# collc_add_schedule(TARGET FILE.coll [NAMESPACE NS] [OUTPUT NAME.hpp])
#
# Compiles FILE.coll with collc at build time into a header NAME.hpp
# (default: the file's stem) in a per-target include directory, adds that
# directory to TARGET's include path and makes TARGET depend on it.
# The application then writes `#include "NAME.hpp"`.
#
# COLLC_PROOF_CACHE (default: collc-proof-cache in the top build
# directory; empty: none) is the directory where collc keeps the proofs it
# made, so the same schedule compiled for several targets, or by another
# build tree using the same collc, is proven once (`collc compile
# --proof-cache`; docs/collc.md). A new collc proves again.
set(COLLC_PROOF_CACHE "${CMAKE_BINARY_DIR}/collc-proof-cache" CACHE PATH
  "Directory where collc keeps its proofs between builds (empty: none)")

function(collc_add_schedule target file)
  cmake_parse_arguments(ARG "" "NAMESPACE;OUTPUT;MODEL" "" ${ARGN})
  if(NOT COLLC_EXECUTABLE)
    message(FATAL_ERROR "collc_add_schedule: COLLC_EXECUTABLE is not set")
  endif()
  get_filename_component(source "${file}" ABSOLUTE)
  get_filename_component(stem "${file}" NAME_WE)
  if(NOT ARG_OUTPUT)
    set(ARG_OUTPUT "${stem}.hpp")
  endif()
  set(outdir "${CMAKE_CURRENT_BINARY_DIR}/${target}_collc")
  set(header "${outdir}/${ARG_OUTPUT}")
  set(ns_args "")
  if(ARG_NAMESPACE)
    set(ns_args --namespace ${ARG_NAMESPACE})
  endif()
  # A cost model sets the thresholds of `choose` blocks.
  set(model_args "")
  set(model_deps "")
  if(ARG_MODEL)
    get_filename_component(model "${ARG_MODEL}" ABSOLUTE)
    set(model_args --model "${model}")
    set(model_deps "${model}")
  endif()
  set(cache_args "")
  if(COLLC_PROOF_CACHE)
    set(cache_args --proof-cache "${COLLC_PROOF_CACHE}")
  endif()
  add_custom_command(
    OUTPUT "${header}"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${outdir}"
    COMMAND "${COLLC_EXECUTABLE}" compile "${source}" -o "${header}" ${ns_args}
            ${model_args} ${cache_args}
    DEPENDS "${source}" "${COLLC_EXECUTABLE}" ${model_deps}
    COMMENT "collc: compiling ${file}"
    VERBATIM)
  set(gen "${target}_collc_${stem}")
  add_custom_target(${gen} DEPENDS "${header}")
  add_dependencies(${target} ${gen})
  target_include_directories(${target} PRIVATE "${outdir}")
endfunction()
