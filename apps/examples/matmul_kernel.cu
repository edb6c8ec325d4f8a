#include <cuda_runtime.h>

#include "matmul_kernel.hpp"
#include "streampipe/cuda/error.hpp"

namespace streampipe::examples {
namespace {

constexpr int kTile = 16;

// C[rows x n] = A[rows x p] * B[p x n], one 16 x 16 tile of C per block.
__global__ void MatmulTiled(const float* a, const float* b, float* c, int rows, int p, int n) {
  __shared__ float as[kTile][kTile];
  __shared__ float bs[kTile][kTile];
  const int row = blockIdx.y * kTile + threadIdx.y;
  const int col = blockIdx.x * kTile + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < p; t += kTile) {
    as[threadIdx.y][threadIdx.x] =
        row < rows && t + threadIdx.x < p ? a[static_cast<long long>(row) * p + t + threadIdx.x] : 0.0f;
    bs[threadIdx.y][threadIdx.x] =
        t + threadIdx.y < p && col < n ? b[static_cast<long long>(t + threadIdx.y) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < kTile; ++k) acc += as[threadIdx.y][k] * bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < rows && col < n) c[static_cast<long long>(row) * n + col] = acc;
}

}  // namespace

KernelLauncher MatmulRowsLauncher(const float* d_b, int p, int n) {
  return [=](const LaunchArgs& args) -> absl::Status {
    const int rows = static_cast<int>(args.num_items);
    const dim3 block(kTile, kTile);
    const dim3 grid((n + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    MatmulTiled<<<grid, block, 0, args.stream>>>(static_cast<const float*>(args.in), d_b,
                                                 static_cast<float*>(args.out), rows, p, n);
    STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaGetLastError());
    return absl::OkStatus();
  };
}

}  // namespace streampipe::examples
