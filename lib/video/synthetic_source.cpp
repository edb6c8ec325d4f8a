// Synthetic frames. Every frame is a pure function of (seed, index): a splitmix64 key per
// frame, then counter-mode splitmix64 words (no serial dependency between words, so the loop
// pipelines well and any frame can be made without the ones before it).
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "streampipe/video/frame_source.hpp"

namespace streampipe::video {
namespace {

constexpr std::uint64_t kGolden = 0x9e3779b97f4a7c15ULL;
constexpr std::uint64_t kMaxPixels = std::uint64_t{1} << 31;

constexpr std::uint64_t Mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t FrameKey(std::uint64_t seed, std::int64_t index, std::uint64_t salt) {
  return Mix(seed ^ Mix(static_cast<std::uint64_t>(index) * kGolden + salt));
}

// Bytes of `out` from counter-mode splitmix64 under `key`, each mapped through `table`
// (nullptr: raw bytes). Byte order is fixed (low byte first), so frames are the same on any
// host.
void FillRandom(std::uint64_t key, const std::uint8_t* table, std::span<std::byte> out) {
  std::byte* p = out.data();
  const std::size_t n = out.size();
  std::size_t i = 0;
  std::uint64_t counter = key;
  if (table == nullptr) {
    for (; i + 8 <= n; i += 8) {
      counter += kGolden;
      std::uint64_t w = Mix(counter);
      if constexpr (std::endian::native == std::endian::little) {
        std::memcpy(p + i, &w, 8);
      } else {
        for (int b = 0; b < 8; ++b, w >>= 8) p[i + b] = static_cast<std::byte>(w & 0xff);
      }
    }
  } else {
    for (; i + 8 <= n; i += 8) {
      counter += kGolden;
      std::uint64_t w = Mix(counter);
      for (int b = 0; b < 8; ++b, w >>= 8) p[i + b] = static_cast<std::byte>(table[w & 0xff]);
    }
  }
  if (i < n) {
    counter += kGolden;
    std::uint64_t w = Mix(counter);
    for (; i < n; ++i, w >>= 8) {
      p[i] = static_cast<std::byte>(table == nullptr ? (w & 0xff) : table[w & 0xff]);
    }
  }
}

// Acklam's rational approximation of the standard normal quantile (relative error < 1.2e-9),
// plenty for a 256-level lookup table.
double NormalQuantile(double p) {
  static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                 -2.759285104469687e+02, 1.383577518672690e+02,
                                 -3.066479806614716e+01, 2.506628277459239e+00};
  static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                 -1.556989798598866e+02, 6.680131188771972e+01,
                                 -1.328068155288572e+01};
  static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                 -2.400758277161838e+00, -2.549671324894264e+00,
                                 4.374664141464968e+00,  2.938163982698783e+00};
  static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                                 2.445134137142996e+00, 3.754408661907416e+00};
  constexpr double kLow = 0.02425;
  if (p < kLow) {
    const double q = std::sqrt(-2 * std::log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  if (p > 1 - kLow) return -NormalQuantile(1 - p);
  const double q = p - 0.5;
  const double r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
         (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

// z-scores of 256 equally likely levels: a uniform random byte through this table (scaled
// and shifted) is a quantised normal.
const std::array<double, 256>& NormalLevels() {
  static const std::array<double, 256> levels = [] {
    std::array<double, 256> z{};
    for (int i = 0; i < 256; ++i) z[i] = NormalQuantile((i + 0.5) / 256.0);
    return z;
  }();
  return levels;
}

// Scene s: mean in 24..100 for even s and 156..232 for odd s, so consecutive scenes are at
// least 56 apart; standard deviation 6..30.
std::array<std::uint8_t, 256> SceneTable(std::uint64_t seed, std::int64_t scene) {
  const std::uint64_t h = FrameKey(seed, scene, 0x5ce5ce5ce5ce5ceULL);
  const int mean = (scene % 2 == 0 ? 24 : 156) + static_cast<int>(h % 77);
  const int sd = 6 + static_cast<int>((h >> 16) % 25);
  std::array<std::uint8_t, 256> table{};
  const std::array<double, 256>& z = NormalLevels();
  for (int i = 0; i < 256; ++i) {
    const long v = std::lround(mean + sd * z[i]);
    table[i] = static_cast<std::uint8_t>(std::clamp(v, 0L, 255L));
  }
  return table;
}

class SyntheticSource final : public FrameSource {
 public:
  explicit SyntheticSource(const SyntheticOptions& options)
      : options_(options), format_(SyntheticFormatAt(options, 0)) {}

  const FrameFormat& format() const override { return format_; }
  std::int64_t frames_read() const override { return next_; }

  absl::StatusOr<ReadResult> Read(std::span<std::byte> dst, std::int64_t max_frames) override {
    const std::size_t item = format_.item_bytes();
    if (absl::Status bad = CheckReadRequest("synthetic source", item, dst.size(), max_frames);
        !bad.ok()) {
      return bad;
    }
    ReadResult r;
    while (r.frames < max_frames && next_ < options_.frames &&
           SyntheticFormatAt(options_, next_) == format_) {
      GenerateSyntheticFrame(options_, next_, format_,
                             dst.subspan(static_cast<std::size_t>(r.frames) * item, item));
      ++r.frames;
      ++next_;
    }
    // Unlike a pipe, looking ahead costs nothing here, so report both as early as possible.
    if (next_ >= options_.frames) {
      r.end = true;
    } else if (const FrameFormat f = SyntheticFormatAt(options_, next_); f != format_) {
      format_ = f;
      r.format_changed = true;
    }
    return r;
  }

 private:
  SyntheticOptions options_;
  FrameFormat format_;
  std::int64_t next_ = 0;
};

// The format of scene `scene` (SyntheticFormatAt's, and MakeSyntheticSource's check).
FrameFormat SceneFormat(const SyntheticOptions& options, std::int64_t scene) {
  FrameFormat f{options.width, options.height, options.format};
  if (options.pattern != SyntheticPattern::kResolutionChanges) return f;
  const int half_w = std::max(options.width / 2, 1);
  const int half_h = std::max(options.height / 2, 1);
  switch (scene % 3) {
    case 1:
      f.width = half_w;
      f.height = half_h;
      break;
    case 2:
      f.width = half_w + 1;
      f.height = half_h + 3;
      break;
    default:
      break;
  }
  return f;
}

}  // namespace

absl::StatusOr<std::unique_ptr<FrameSource>> MakeSyntheticSource(const SyntheticOptions& options) {
  if (options.width <= 0 || options.height <= 0 ||
      static_cast<std::uint64_t>(options.width) * static_cast<std::uint64_t>(options.height) >
          kMaxPixels) {
    return absl::InvalidArgumentError(absl::StrCat(
        "synthetic source: frame size ", options.width, "x", options.height,
        ": width and height must be positive and W*H at most 2^31"));
  }
  // Every scene's size, not the first's alone: the third scene of resolution-changes is
  // (W/2+1)x(H/2+3), 2^32 pixels from 2147483647x1, accepted before session 50.
  for (int scene = 1; scene < 3; ++scene) {
    const FrameFormat f = SceneFormat(options, scene);
    if (static_cast<std::uint64_t>(f.width) * static_cast<std::uint64_t>(f.height) > kMaxPixels) {
      return absl::InvalidArgumentError(absl::StrCat(
          "synthetic source: frame size ", options.width, "x", options.height,
          " gives resolution-changes a ", scene == 1 ? "second" : "third", " scene of ",
          f.width, "x", f.height,
          ": W*H must be at most 2^31 in every scene"));
    }
  }
  if (options.format != PixelFormat::kGray8 && options.format != PixelFormat::kRgb24) {
    return absl::InvalidArgumentError(absl::StrCat("synthetic source: pixel format ",
                                                   PixelFormatName(options.format),
                                                   " is not supported; use gray8 or rgb24"));
  }
  if (options.frames < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("synthetic source: frames = ", options.frames, " is negative"));
  }
  if (options.scene_length <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "synthetic source: scene_length = ", options.scene_length, " must be positive"));
  }
  return std::unique_ptr<FrameSource>(std::make_unique<SyntheticSource>(options));
}

FrameFormat SyntheticFormatAt(const SyntheticOptions& options, std::int64_t index) {
  return SceneFormat(options, index / std::max(options.scene_length, 1));
}

void GenerateSyntheticFrame(const SyntheticOptions& options, std::int64_t index,
                            const FrameFormat& format, std::span<std::byte> out) {
  const std::size_t bytes = std::min(format.item_bytes(), out.size());
  const std::span<std::byte> item = out.first(bytes);
  if (options.pattern == SyntheticPattern::kSection44) {
    const std::uint64_t key = FrameKey(options.seed, index, 0x44);
    if (index < options.frames / 2) {
      FillRandom(key, nullptr, item);
      return;
    }
    // Degenerate half: one value (one colour for rgb24) for the whole frame.
    const std::uint64_t v = Mix(key);
    if (format.format == PixelFormat::kRgb24) {
      const std::byte rgb[3] = {static_cast<std::byte>(v & 0xff),
                                static_cast<std::byte>((v >> 8) & 0xff),
                                static_cast<std::byte>((v >> 16) & 0xff)};
      for (std::size_t i = 0; i + 3 <= bytes; i += 3) std::memcpy(item.data() + i, rgb, 3);
    } else {
      std::memset(item.data(), static_cast<int>(v & 0xff), bytes);
    }
    return;
  }
  const std::int64_t scene = index / std::max(options.scene_length, 1);
  const std::array<std::uint8_t, 256> table = SceneTable(options.seed, scene);
  FillRandom(FrameKey(options.seed, index, 0xc07), table.data(), item);
}

}  // namespace streampipe::video
