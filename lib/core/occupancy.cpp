#include "streampipe/core/occupancy.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"

namespace streampipe {
namespace {

int CeilDiv(int a, int b) { return (a + b - 1) / b; }
// The same in 64 bits, for the products of a kernel's counts with the SM's units: a count far
// past what the SM allows (2^25 registers a thread) must give "no block fits", not wrap.
std::int64_t CeilDiv64(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
int Saturate(std::int64_t v) {
  return static_cast<int>(std::min<std::int64_t>(v, std::numeric_limits<int>::max()));
}

}  // namespace

absl::StatusOr<SmLimits> SmLimits::ForComputeCapability(int major, int minor) {
  SmLimits l;
  l.threads_per_warp = 32;
  l.reg_alloc_unit = 256;
  l.warp_alloc_unit = 4;
  // A minor version is one digit: (2, 10) read as 3.0 and (8, 10) as 9.0 before session 51,
  // and a huge major overflowed the product.
  if (major < 1 || major > 99 || minor < 0 || minor > 9) {
    return absl::NotFoundError(absl::StrCat("compute capability ", major, ".", minor,
                                            " is no compute capability"));
  }
  const int cc = major * 10 + minor;
  switch (cc) {
    case 30:  // seed 001, Table I, as printed.
      l = {.max_blocks_per_sm = 16, .max_warps_per_sm = 64, .threads_per_warp = 32,
           .max_regs_per_thread = 64, .regs_per_sm = 65535, .smem_per_sm = 49152,
           .reg_alloc_unit = 256, .warp_alloc_unit = 4, .smem_alloc_unit = 256,
           .smem_reserved_per_block = 0};
      return l;
    case 50: case 52: case 53:
      l.max_blocks_per_sm = 32; l.max_warps_per_sm = 64; l.max_regs_per_thread = 255;
      l.regs_per_sm = 65536; l.smem_per_sm = cc == 52 ? 98304 : 65536; l.smem_alloc_unit = 256;
      return l;
    case 60: case 61: case 62:
      l.max_blocks_per_sm = 32; l.max_warps_per_sm = 64; l.max_regs_per_thread = 255;
      l.regs_per_sm = 65536; l.smem_per_sm = cc == 60 ? 65536 : 98304; l.smem_alloc_unit = 256;
      return l;
    case 70: case 72:
      l.max_blocks_per_sm = 32; l.max_warps_per_sm = 64; l.max_regs_per_thread = 255;
      l.regs_per_sm = 65536; l.smem_per_sm = 98304; l.smem_alloc_unit = 256;
      return l;
    case 75:
      l.max_blocks_per_sm = 16; l.max_warps_per_sm = 32; l.max_regs_per_thread = 255;
      l.regs_per_sm = 65536; l.smem_per_sm = 65536; l.smem_alloc_unit = 256;
      return l;
    case 80:
      l.max_blocks_per_sm = 32; l.max_warps_per_sm = 64; l.max_regs_per_thread = 255;
      l.regs_per_sm = 65536; l.smem_per_sm = 167936; l.smem_alloc_unit = 128;
      l.smem_reserved_per_block = 1024;
      return l;
    case 86: case 87: case 89:
      l.max_blocks_per_sm = cc == 87 ? 16 : (cc == 89 ? 24 : 16);
      l.max_warps_per_sm = 48; l.max_regs_per_thread = 255;
      l.regs_per_sm = 65536; l.smem_per_sm = cc == 87 ? 167936 : 102400; l.smem_alloc_unit = 128;
      l.smem_reserved_per_block = 1024;
      return l;
    case 90: case 100: case 103:
      l.max_blocks_per_sm = 32; l.max_warps_per_sm = 64; l.max_regs_per_thread = 255;
      l.regs_per_sm = 65536; l.smem_per_sm = 233472; l.smem_alloc_unit = 128;
      l.smem_reserved_per_block = 1024;
      return l;
    case 120: case 121:
      l.max_blocks_per_sm = 24; l.max_warps_per_sm = 48; l.max_regs_per_thread = 255;
      l.regs_per_sm = 65536; l.smem_per_sm = 102400; l.smem_alloc_unit = 128;
      l.smem_reserved_per_block = 1024;
      return l;
    default:
      return absl::NotFoundError(
          absl::StrCat("no SM limits known for compute capability ", major, ".", minor));
  }
}

absl::StatusOr<Occupancy> ComputeOccupancy(const KernelResources& k, const SmLimits& l) {
  // Limits a caller built by hand: every count and unit positive (a zero unit divides by zero
  // below), the reserve non-negative, and at most 2^24 (so that the 64-bit products below fit).
  for (const auto& [name, v] : {std::pair{"max_blocks_per_sm", l.max_blocks_per_sm},
                                {"max_warps_per_sm", l.max_warps_per_sm},
                                {"threads_per_warp", l.threads_per_warp},
                                {"max_regs_per_thread", l.max_regs_per_thread},
                                {"regs_per_sm", l.regs_per_sm},
                                {"smem_per_sm", l.smem_per_sm},
                                {"reg_alloc_unit", l.reg_alloc_unit},
                                {"warp_alloc_unit", l.warp_alloc_unit},
                                {"smem_alloc_unit", l.smem_alloc_unit}}) {
    if (v <= 0 || v > (1 << 24)) {
      return absl::InvalidArgumentError(
          absl::StrCat("SM limit ", name, " is ", v, "; it must be in [1, ", 1 << 24, "]"));
    }
  }
  if (l.smem_reserved_per_block < 0 || l.smem_reserved_per_block > (1 << 24)) {
    return absl::InvalidArgumentError(absl::StrCat("SM limit smem_reserved_per_block is ",
                                                   l.smem_reserved_per_block,
                                                   "; it must be in [0, ", 1 << 24, "]"));
  }
  const int max_threads =
      Saturate(std::int64_t{l.max_warps_per_sm} * l.threads_per_warp);
  if (k.threads_per_block <= 0 || k.threads_per_block > std::min(1024, max_threads)) {
    return absl::InvalidArgumentError(absl::StrCat("threads per block is ", k.threads_per_block,
                                                   "; it must be in [1, ",
                                                   std::min(1024, max_threads), "]"));
  }
  if (k.regs_per_thread < 0 || k.smem_per_block < 0) {
    return absl::InvalidArgumentError(absl::StrCat("registers per thread (", k.regs_per_thread,
                                                   ") and shared memory per block (",
                                                   k.smem_per_block, ") must be >= 0"));
  }
  Occupancy o;
  o.warps_per_block = CeilDiv(k.threads_per_block, l.threads_per_warp);  // eq. 4
  // eq. 3, with zeta rounded up to the allocation unit GSB (and the runtime's reserve). The
  // products of eqs. 3, 6 and 7 are taken in 64 bits and stored saturated: counts far past the
  // SM's give no block, not a wrapped value or a division by zero.
  const std::int64_t zeta =
      k.smem_per_block == 0
          ? 0
          : CeilDiv64(std::int64_t{k.smem_per_block} + l.smem_reserved_per_block,
                      l.smem_alloc_unit) *
                l.smem_alloc_unit;
  if (zeta == 0) {
    o.blocks_by_smem = l.max_blocks_per_sm;
  } else if (zeta > l.smem_per_sm) {
    o.blocks_by_smem = 0;
  } else {
    o.blocks_by_smem = static_cast<int>(l.smem_per_sm / zeta);
  }
  // eq. 7: registers of one warp, rounded to the allocation unit GRW.
  const std::int64_t regs_per_warp =
      CeilDiv64(std::int64_t{k.regs_per_thread} * l.threads_per_warp, l.reg_alloc_unit) *
      l.reg_alloc_unit;
  o.regs_per_warp = Saturate(regs_per_warp);
  // eq. 6: warps the register file holds, in units of GWMP.
  if (regs_per_warp == 0) {
    o.warps_by_regs = l.max_warps_per_sm;
  } else if (regs_per_warp > l.regs_per_sm) {
    o.warps_by_regs = 0;  // not one warp's registers fit
  } else {
    o.warps_by_regs = Saturate(l.regs_per_sm / (regs_per_warp * l.warp_alloc_unit) *
                               l.warp_alloc_unit);
  }
  // eq. 5
  if (k.regs_per_thread > l.max_regs_per_thread) {
    o.blocks_by_regs = 0;
  } else if (k.regs_per_thread == 0) {
    o.blocks_by_regs = l.max_blocks_per_sm;
  } else {
    o.blocks_by_regs = o.warps_by_regs / o.warps_per_block;
  }
  // eq. 8
  o.blocks_by_warps = std::min(l.max_blocks_per_sm, l.max_warps_per_sm / o.warps_per_block);
  // eq. 2
  o.blocks_per_sm = std::min({o.blocks_by_warps, o.blocks_by_regs, o.blocks_by_smem});
  o.threads_per_sm = Saturate(std::int64_t{o.blocks_per_sm} * k.threads_per_block);  // alpha
  // eq. 9
  o.occupancy = static_cast<double>(o.threads_per_sm) /
                (static_cast<double>(l.threads_per_warp) * l.max_warps_per_sm);
  return o;
}

absl::StatusOr<std::int64_t> RunningRounds(int threads_per_block, std::int64_t blocks,
                                           const Occupancy& occupancy, int sm_count) {
  if (occupancy.threads_per_sm <= 0 || sm_count <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "running rounds: the kernel fits ", occupancy.threads_per_sm, " threads per SM on ",
        sm_count, " SMs; both must be > 0"));
  }
  if (threads_per_block <= 0 || blocks < 0) {
    return absl::InvalidArgumentError(absl::StrCat("running rounds: ", blocks, " blocks of ",
                                                   threads_per_block, " threads"));
  }
  // eq. 1
  if (blocks > std::numeric_limits<std::int64_t>::max() / threads_per_block) {
    return absl::InvalidArgumentError(absl::StrCat("running rounds: ", blocks, " blocks of ",
                                                   threads_per_block,
                                                   " threads overflow a 64-bit count"));
  }
  const std::int64_t threads = static_cast<std::int64_t>(threads_per_block) * blocks;
  const std::int64_t per_round = static_cast<std::int64_t>(occupancy.threads_per_sm) * sm_count;
  // Rounded up without threads + per_round - 1, which overflowed near INT64_MAX (a negative
  // count of rounds, before session 51).
  return threads / per_round + (threads % per_round != 0 ? 1 : 0);
}

std::int64_t FullRoundBlocks(const Occupancy& occupancy, int sm_count) {
  return static_cast<std::int64_t>(occupancy.blocks_per_sm) * std::max(sm_count, 0);
}

}  // namespace streampipe
