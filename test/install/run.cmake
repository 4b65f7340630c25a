# Installs collc into a fresh prefix, then configures, builds and runs the
# application in test/install/app with find_package(collc).
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${COLLC_BUILD_DIR}
                        --prefix ${WORK_DIR}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "cmake --install failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -G Ninja
                        -S ${COLLC_SOURCE_DIR}/test/install/app
                        -B ${WORK_DIR}/build
                        -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring the application failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the application failed")
endif()
execute_process(COMMAND mpirun --oversubscribe --bind-to none --mca pml ob1
                        -np 3 ${WORK_DIR}/build/app
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "the application failed")
endif()

# The installed collc builds a policy from the installed runtime sources
# (share/collc/mpi-policy, include/coll), and the installed
# libcollc_mpi.so loads it: the application's own MPI_Bcast is then
# served by the policy's binomial tree (a moving call: a policy of
# reductions takes longer to compile).
if(NOT EXISTS ${WORK_DIR}/prefix/share/collc/mpi-policy/PolicyTable.cpp)
  message(FATAL_ERROR "the policy's sources are not installed")
endif()
execute_process(COMMAND ${WORK_DIR}/prefix/bin/collc policy
                        ${COLLC_SOURCE_DIR}/test/install/bcast_policy.coll
                        -o ${WORK_DIR}/policy.so
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "the installed collc policy failed")
endif()
execute_process(COMMAND mpirun --oversubscribe --bind-to none --mca pml ob1
                        -x LD_PRELOAD=${WORK_DIR}/prefix/lib/libcollc_mpi.so
                        -x COLLC_MPI_POLICY=${WORK_DIR}/policy.so -x COLLC_MPI_VERBOSE=1
                        -np 3 ${WORK_DIR}/build/app
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(rc OR NOT out MATCHES "matches MPI_Allreduce"
   OR NOT err MATCHES "collc_mpi: policy [^\n]*/policy.so \\(bcast_policy.coll\\) served 1 calls: MPI_Bcast 1")
  message(FATAL_ERROR "the installed library did not serve MPI_Bcast with the installed collc's policy")
endif()
