#include "streampipe/video/histogram_cpu.hpp"

#include <algorithm>

namespace streampipe::video {

void HistogramOfItem(const FrameFormat& f, std::span<const std::byte> item, Histogram& out) {
  const std::size_t bytes = std::min(f.item_bytes(), item.size());
  const auto* p = reinterpret_cast<const std::uint8_t*>(item.data());
  // Four sub-histograms: runs of equal pixels (flat areas, the degenerate frames) would
  // otherwise serialise on one counter's store-to-load dependency.
  std::uint32_t sub[4][256] = {};
  if (f.format == PixelFormat::kRgb24) {
    const std::size_t pixels = bytes / 3;
    std::size_t i = 0;
    for (; i + 4 <= pixels; i += 4) {
      const std::uint8_t* q = p + 3 * i;
      ++sub[0][RgbToGray(q[0], q[1], q[2])];
      ++sub[1][RgbToGray(q[3], q[4], q[5])];
      ++sub[2][RgbToGray(q[6], q[7], q[8])];
      ++sub[3][RgbToGray(q[9], q[10], q[11])];
    }
    for (; i < pixels; ++i) ++sub[0][RgbToGray(p[3 * i], p[3 * i + 1], p[3 * i + 2])];
  } else {
    std::size_t i = 0;
    for (; i + 4 <= bytes; i += 4) {
      ++sub[0][p[i]];
      ++sub[1][p[i + 1]];
      ++sub[2][p[i + 2]];
      ++sub[3][p[i + 3]];
    }
    for (; i < bytes; ++i) ++sub[0][p[i]];
  }
  for (int b = 0; b < 256; ++b) out[b] = sub[0][b] + sub[1][b] + sub[2][b] + sub[3][b];
}

void HistogramsOfItems(const FrameFormat& f, std::span<const std::byte> items,
                       std::int64_t frames, std::span<Histogram> out) {
  const std::size_t item = f.item_bytes();
  std::size_t n = frames > 0 ? static_cast<std::size_t>(frames) : 0;
  n = std::min(n, out.size());
  if (item > 0) n = std::min(n, items.size() / item);
  for (std::size_t i = 0; i < n; ++i) HistogramOfItem(f, items.subspan(i * item, item), out[i]);
}

}  // namespace streampipe::video
