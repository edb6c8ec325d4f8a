// Kernels for the GPU tests (test_kernels.cu).
#ifndef STREAMPIPE_TEST_CUDA_TEST_KERNELS_HPP_
#define STREAMPIPE_TEST_CUDA_TEST_KERNELS_HPP_

#include <cstdint>

#include "streampipe/cuda/pipeline_types.hpp"

namespace streampipe::testing {

// Items of different input and output sizes: in = 3 x uint32 (12 bytes), out = uint64 (8):
// out = a * b + c, exact.
struct Triple {
  std::uint32_t a, b, c;
};
KernelLauncher MulAddLauncher();

// A kernel whose cost grows with a device-side value `*spin` (read each launch), for tests of
// kernels whose cost changes mid-stream. out = in + 1 (floats).
KernelLauncher SpinLauncher(const int* d_spin);

// A kernel that traps (sticky error) when the sub-chunk contains item `fault_item`, else adds 1.
KernelLauncher TrapAtItemLauncher(std::int64_t fault_item);

// Launches on the legacy default stream instead of args.stream (a broken launcher).
KernelLauncher WrongStreamLauncher();

}  // namespace streampipe::testing

#endif  // STREAMPIPE_TEST_CUDA_TEST_KERNELS_HPP_
