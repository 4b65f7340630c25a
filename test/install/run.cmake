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
