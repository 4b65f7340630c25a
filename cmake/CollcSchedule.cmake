# collc_add_schedule(TARGET FILE.coll [NAMESPACE NS] [OUTPUT NAME.hpp])
#
# Compiles FILE.coll with collc at build time into a header NAME.hpp
# (default: the file's stem) in a per-target include directory, adds that
# directory to TARGET's include path and makes TARGET depend on it.
# The application then writes `#include "NAME.hpp"`.
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
  add_custom_command(
    OUTPUT "${header}"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${outdir}"
    COMMAND "${COLLC_EXECUTABLE}" compile "${source}" -o "${header}" ${ns_args}
            ${model_args}
    DEPENDS "${source}" "${COLLC_EXECUTABLE}" ${model_deps}
    COMMENT "collc: compiling ${file}"
    VERBATIM)
  set(gen "${target}_collc_${stem}")
  add_custom_target(${gen} DEPENDS "${header}")
  add_dependencies(${target} ${gen})
  target_include_directories(${target} PRIVATE "${outdir}")
endfunction()
