// The occupancy ("running rounds") model of the G-SDMS paper (seed 001, eqs. 1-9): how many
// blocks an SM holds given warps, registers and shared memory. We use it to bound how small a
// sub-chunk may get: below one full round of blocks the GPU is under-filled.
//
//   auto limits = streampipe::SmLimits::ForComputeCapability(9, 0);
//   auto occ = streampipe::ComputeOccupancy({.threads_per_block = 256, .regs_per_thread = 32},
//                                           *limits);
//   int64_t min_blocks = streampipe::FullRoundBlocks(*occ, 132);   // beta * MP
#ifndef STREAMPIPE_CORE_OCCUPANCY_HPP_
#define STREAMPIPE_CORE_OCCUPANCY_HPP_

#include <cstdint>

#include "absl/status/statusor.h"

namespace streampipe {

// Per-SM constants (seed 001, Table I names in comments).
struct SmLimits {
  int max_blocks_per_sm = 0;       // MBMP
  int max_warps_per_sm = 0;        // MWMP
  int threads_per_warp = 32;       // MTW
  int max_regs_per_thread = 0;     // MRT
  int regs_per_sm = 0;             // MRMP
  int smem_per_sm = 0;             // MSMP (bytes)
  int reg_alloc_unit = 256;        // GRW
  int warp_alloc_unit = 4;         // GWMP
  int smem_alloc_unit = 256;       // GSB (bytes)
  int smem_reserved_per_block = 0; // runtime-reserved shared memory per block (1 KiB on cc>=8)

  // Table I of seed 001 for cc 3.0 (as printed, MRMP = 65535); NVIDIA's published limits for
  // 5.x-12.x. NotFound for other compute capabilities.
  static absl::StatusOr<SmLimits> ForComputeCapability(int major, int minor);
};

struct KernelResources {
  int threads_per_block = 256;  // T
  int regs_per_thread = 32;     // R
  int smem_per_block = 0;       // zeta (bytes)
};

struct Occupancy {
  int warps_per_block = 0;   // omega, eq. 4
  int regs_per_warp = 0;     // theta, eq. 7
  int warps_by_regs = 0;     // gamma, eq. 6
  int blocks_by_warps = 0;   // beta_W, eq. 8
  int blocks_by_regs = 0;    // beta_R, eq. 5
  int blocks_by_smem = 0;    // beta_S, eq. 3
  int blocks_per_sm = 0;     // beta, eq. 2
  int threads_per_sm = 0;    // alpha = beta * T
  double occupancy = 0.0;    // o, eq. 9
};

// Eqs. 2-9. InvalidArgument for T <= 0, T above the block limit, negative R or zeta.
// A kernel that cannot run (R > MRT, zeta > MSMP) gets blocks_per_sm = 0, not an error.
absl::StatusOr<Occupancy> ComputeOccupancy(const KernelResources& kernel, const SmLimits& limits);

// Eq. 1: ceil(T*B / (alpha*MP)). InvalidArgument when alpha or sm_count is 0.
absl::StatusOr<std::int64_t> RunningRounds(int threads_per_block, std::int64_t blocks,
                                           const Occupancy& occupancy, int sm_count);

// Blocks in one full running round, beta * MP: a sub-chunk with fewer leaves SMs idle.
std::int64_t FullRoundBlocks(const Occupancy& occupancy, int sm_count);

}  // namespace streampipe

#endif  // STREAMPIPE_CORE_OCCUPANCY_HPP_
