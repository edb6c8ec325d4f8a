# Installs the build tree into a fresh prefix, then configures, builds and runs a small
# consumer project that finds streampipe with find_package and links streampipe::streampipe.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix}
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc})")
endif()
# The build's own nvcc, where it has one: the consumer then must build README's .cu example.
# (A CPU-only build has no architectures: an empty -DCMAKE_CUDA_ARCHITECTURES= failed the
# consumer's enable_language(CUDA) where the machine has nvcc, before session 50.)
set(cuda_args "")
if(CUDA_COMPILER)
  set(cuda_args -DCMAKE_CUDA_COMPILER=${CUDA_COMPILER})
endif()
if(CUDA_ARCH)
  list(APPEND cuda_args -DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCH})
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G Ninja
                        -DCMAKE_PREFIX_PATH=${prefix}
                        ${cuda_args}
                        "-DCMAKE_EXE_LINKER_FLAGS=${LINK_FLAGS}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer configure failed:\n${out}\n${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer build failed:\n${out}\n${err}")
endif()
execute_process(COMMAND ${WORK_DIR}/build/consumer RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer run failed (${rc}): ${out}")
endif()
message(STATUS "consumer: ${out}")
# README's example wrapped in a .cu file (built where the consumer found nvcc): with a GPU its
# batches are checked against the CPU (0); without one, Create says there is none (3).
if(CUDA_COMPILER AND NOT EXISTS ${WORK_DIR}/build/wrap_kernel)
  message(FATAL_ERROR "the consumer did not build wrap_kernel with ${CUDA_COMPILER}")
endif()
if(EXISTS ${WORK_DIR}/build/wrap_kernel)
  execute_process(COMMAND ${WORK_DIR}/build/wrap_kernel RESULT_VARIABLE rc OUTPUT_VARIABLE out)
  if(NOT (rc EQUAL 0 OR (rc EQUAL 3 AND out MATCHES "no CUDA device")))
    message(FATAL_ERROR "wrap_kernel failed (${rc}): ${out}")
  endif()
  message(STATUS "wrap_kernel: ${out}")
endif()
