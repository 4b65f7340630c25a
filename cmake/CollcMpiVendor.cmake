# Sets COLLC_MPI_VENDOR (openmpi or mpich) from the mpi.h that
# find_package(MPI) found, and the launch the tests and tools/main-job.sh
# use with it:
#   COLLC_MPIRUN          mpirun and the flags every test run passes;
#   COLLC_MPIRUN_EXPORT   flags that pass a variable's value to the ranks
#                         (followed by the variable's name);
#   COLLC_MPI_TEST_RANKS  the P each MPI check runs on (primes and
#                         non-powers of two among them).
# Open MPI: more ranks than cores need --oversubscribe; pml ob1 skips the
# ~0.2 s cm probe; shared memory only; op ^avx because its AVX reduction
# saturates 8-bit sums on some CPUs. MPICH's Hydra needs none of these.
set(COLLC_MPI_VENDOR "")
if(COLLC_MPI STREQUAL "smpi")
  # SimGrid's SMPI: a test names its platform (smpirun -platform FILE).
  set(COLLC_MPI_VENDOR smpi)
  set(COLLC_MPIRUN ${MPIEXEC_EXECUTABLE})
endif()
foreach(dir ${MPI_CXX_INCLUDE_DIRS})
  if(EXISTS "${dir}/mpi.h")
    file(STRINGS "${dir}/mpi.h" vendor_lines REGEX "define (OMPI_MAJOR_VERSION|MPICH_VERSION)")
    if(vendor_lines MATCHES "OMPI_MAJOR_VERSION")
      set(COLLC_MPI_VENDOR openmpi)
    elseif(vendor_lines MATCHES "MPICH_VERSION")
      set(COLLC_MPI_VENDOR mpich)
    endif()
    break()
  endif()
endforeach()
if(COLLC_MPI_VENDOR STREQUAL "openmpi")
  set(COLLC_MPIRUN ${MPIEXEC_EXECUTABLE} --oversubscribe --bind-to none
    --mca pml ob1 --mca btl self,vader --mca op ^avx)
  set(COLLC_MPIRUN_EXPORT -x)
  set(COLLC_MPI_TEST_RANKS 1 2 3 4 5 6 7 8)
elseif(COLLC_MPI_VENDOR STREQUAL "smpi")
elseif(COLLC_MPI_VENDOR STREQUAL "mpich")
  set(COLLC_MPIRUN ${MPIEXEC_EXECUTABLE})
  set(COLLC_MPIRUN_EXPORT -genvlist)
  # Debian's MPICH (ch4:ucx) busy-polls and never yields (nor with
  # MPIR_CVAR_POLLS_BEFORE_YIELD=1): with more ranks than the 2 cores the
  # 47 examples' checks take 0.9 s at P = 2, 23 s at P = 3, 32 s at P = 4
  # (Open MPI yields when oversubscribed: 2.7 s at P = 4). How a schedule
  # depends on P is checked on Open MPI's P = 1..8; the MPICH tree checks
  # the second library's ABI and semantics at P = 1, 2 (a power of two)
  # and 3 (a prime).
  set(COLLC_MPI_TEST_RANKS 1 2 3)
else()
  message(FATAL_ERROR "collc: the MPI in ${MPI_CXX_INCLUDE_DIRS} is neither Open MPI nor MPICH")
endif()
message(STATUS "collc: MPI is ${COLLC_MPI_VENDOR} (${MPI_CXX_COMPILER}, ${MPIEXEC_EXECUTABLE})")
