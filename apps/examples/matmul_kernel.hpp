// The matrix multiplication of the 2012 paper's section 4.1, as a StreamPipeline launcher:
// C (m x n) = A (m x p) x B (p x n), A streamed by rows, B resident on the device. An item is
// one row: p floats of A in, n floats of C out. The kernel is the CUDA SDK's 16 x 16 tiled
// one, made to handle any size.
#ifndef STREAMPIPE_APPS_EXAMPLES_MATMUL_KERNEL_HPP_
#define STREAMPIPE_APPS_EXAMPLES_MATMUL_KERNEL_HPP_

#include "streampipe/cuda/pipeline_types.hpp"

namespace streampipe::examples {

// `d_b` is B (p x n, row-major) in device memory, owned by the caller for the launcher's life.
KernelLauncher MatmulRowsLauncher(const float* d_b, int p, int n);

}  // namespace streampipe::examples

#endif  // STREAMPIPE_APPS_EXAMPLES_MATMUL_KERNEL_HPP_
