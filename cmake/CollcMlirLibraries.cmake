# CollMLIR: the MLIR and LLVM libraries the compiler's tools link.
#
# Debian's MLIR and LLVM come as two shared libraries (libMLIR.so 66 MB,
# libLLVM.so) and as static archives. Loading the shared ones costs every
# process about 80 ms on this 2-core machine -- 430,000 relocations and
# the page faults they take -- while collc's own work on most inputs is a
# few milliseconds; the test suite starts collc and coll-opt some 700
# times (docs/testing.md, "Time"). Linked from the archives, collc starts
# in 12 ms. The archives' link interface names the shared libLLVM (Debian
# builds them against it), so the walk below points them at LLVM's
# archives instead. -DCOLLC_STATIC_MLIR=OFF links the shared libraries.
option(COLLC_STATIC_MLIR "Link MLIR and LLVM statically into collc's tools" ON)

add_library(CollMLIR INTERFACE)
if(COLLC_STATIC_MLIR)
  set(collc_mlir_roots MLIRParser MLIRPass MLIRIR MLIRSupport MLIRTranslateLib MLIROptLib)
  set(collc_mlir_seen "")
  set(collc_mlir_todo ${collc_mlir_roots})
  while(collc_mlir_todo)
    list(POP_FRONT collc_mlir_todo library)
    if(library IN_LIST collc_mlir_seen OR NOT library MATCHES "^MLIR." OR NOT TARGET ${library})
      continue()
    endif()
    list(APPEND collc_mlir_seen ${library})
    get_target_property(type ${library} TYPE)
    if(NOT type STREQUAL "STATIC_LIBRARY")
      message(FATAL_ERROR "COLLC_STATIC_MLIR: ${library} is no static library here; "
        "configure with -DCOLLC_STATIC_MLIR=OFF")
    endif()
    get_target_property(uses ${library} INTERFACE_LINK_LIBRARIES)
    if(uses)
      list(TRANSFORM uses REPLACE "^LLVM$" "LLVMSupport")
      set_target_properties(${library} PROPERTIES INTERFACE_LINK_LIBRARIES "${uses}")
      list(APPEND collc_mlir_todo ${uses})
    endif()
  endwhile()
  target_link_libraries(CollMLIR INTERFACE ${collc_mlir_roots} LLVMSupport)
  # (add_mlir_library and add_llvm_executable link libLLVM.so by itself
  # while this is on.)
  set(LLVM_LINK_LLVM_DYLIB OFF)
else()
  target_link_libraries(CollMLIR INTERFACE MLIR LLVM)
endif()
