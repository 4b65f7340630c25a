# collc_add_schedule(TARGET FILE.coll [NAMESPACE NS] [OUTPUT NAME.hpp]
#                    [MODEL MODEL])
#
# Compiles FILE.coll with collc at build time into a header NAME.hpp
# (default: the file's stem) in an include directory of its own, adds that
# directory to TARGET's include path and makes TARGET depend on it.
# MODEL (a cost model file; empty: none) sets the thresholds of `choose`
# blocks. The application then writes `#include "NAME.hpp"`. Targets
# asking for the same header (the same file, NAME, NS and MODEL) share one
# compile: build/collc-headers/STEM-DIGEST/NAME.hpp, proven and written
# once.
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
  set(model_args "")
  set(model_deps "")
  if(ARG_MODEL)
    get_filename_component(model "${ARG_MODEL}" ABSOLUTE)
    set(model_args --model "${model}")
    set(model_deps "${model}")
  endif()
  string(SHA1 digest "${source}|${ARG_OUTPUT}|${ARG_NAMESPACE}|${model_deps}")
  string(SUBSTRING "${digest}" 0 10 digest)
  set(outdir "${CMAKE_BINARY_DIR}/collc-headers/${stem}-${digest}")
  set(header "${outdir}/${ARG_OUTPUT}")
  set(gen "collc_header_${stem}_${digest}")
  if(TARGET ${gen})
    add_dependencies(${target} ${gen})
    target_include_directories(${target} PRIVATE "${outdir}")
    return()
  endif()
  set(ns_args "")
  if(ARG_NAMESPACE)
    set(ns_args --namespace ${ARG_NAMESPACE})
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
  add_custom_target(${gen} DEPENDS "${header}")
  add_dependencies(${target} ${gen})
  target_include_directories(${target} PRIVATE "${outdir}")
endfunction()
