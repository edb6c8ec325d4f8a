// Helpers shared by the video tests: seeded randomness that prints its seed on failure,
// a Y4M stream builder that keeps the luma planes it wrote, and a drain-the-source loop.
#ifndef STREAMPIPE_TEST_VIDEO_VIDEO_TEST_UTIL_HPP_
#define STREAMPIPE_TEST_VIDEO_VIDEO_TEST_UTIL_HPP_

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "absl/status/status.h"
#include "streampipe/video/frame_source.hpp"

namespace streampipe::video::testing {

// STREAMPIPE_TEST_SEED replays a failure; otherwise a fresh seed per test.
inline std::uint64_t NewSeed() {
  std::uint64_t seed;
  if (const char* env = std::getenv("STREAMPIPE_TEST_SEED"); env != nullptr && *env != '\0') {
    seed = std::strtoull(env, nullptr, 10);
  } else {
    std::random_device rd;
    seed = (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
  }
  ::testing::Test::RecordProperty("seed", std::to_string(seed));
  return seed;
}

// Declares `std::mt19937_64 name` and makes every failure in scope print the seed.
#define VIDEO_TEST_RNG(name)                                                         \
  const std::uint64_t name##_seed = ::streampipe::video::testing::NewSeed();         \
  SCOPED_TRACE(::testing::Message() << "seed " << name##_seed                        \
                                    << " (replay with STREAMPIPE_TEST_SEED=" << name##_seed \
                                    << ")");                                         \
  std::mt19937_64 name(name##_seed)

inline std::vector<std::byte> RandomBytes(std::mt19937_64& rng, std::size_t n) {
  std::vector<std::byte> out(n);
  std::uniform_int_distribution<int> d(0, 255);
  for (std::byte& b : out) b = static_cast<std::byte>(d(rng));
  return out;
}

inline std::string AsString(const std::vector<std::byte>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size());
}

// Chroma bytes per frame, written out independently of FrameFormat::stored_bytes so the
// tests check it rather than reuse it.
inline std::size_t ChromaBytesByHand(const std::string& colorspace, int w, int h) {
  const std::size_t cw = (static_cast<std::size_t>(w) + 1) / 2;
  const std::size_t ch = (static_cast<std::size_t>(h) + 1) / 2;
  if (colorspace.rfind("420", 0) == 0 || colorspace.empty()) return 2 * cw * ch;
  if (colorspace == "422") return 2 * cw * static_cast<std::size_t>(h);
  if (colorspace == "444") return 2 * static_cast<std::size_t>(w) * h;
  return 0;  // mono
}

// Builds a Y4M stream from random planes and remembers each frame's luma plane.
class Y4mBuilder {
 public:
  explicit Y4mBuilder(std::mt19937_64* rng) : rng_(rng) {}

  // `colorspace` "" leaves out the C tag (420jpeg by default); `extra` is appended verbatim
  // after the tags, e.g. " F30000:1001 Ip A1:1 XYSCSS=420JPEG".
  Y4mBuilder& Header(int w, int h, const std::string& colorspace, const std::string& extra = "") {
    w_ = w;
    h_ = h;
    colorspace_ = colorspace;
    data_ += "YUV4MPEG2 W" + std::to_string(w) + " H" + std::to_string(h);
    if (!colorspace.empty()) data_ += " C" + colorspace;
    data_ += extra + "\n";
    return *this;
  }

  Y4mBuilder& Frame(const std::string& params = "") {
    data_ += "FRAME" + params + "\n";
    const std::size_t luma = static_cast<std::size_t>(w_) * h_;
    const std::vector<std::byte> y = RandomBytes(*rng_, luma);
    data_ += AsString(y);
    data_ += AsString(RandomBytes(*rng_, ChromaBytesByHand(colorspace_, w_, h_)));
    lumas_.push_back(y);
    return *this;
  }

  Y4mBuilder& Frames(int n) {
    for (int i = 0; i < n; ++i) Frame();
    return *this;
  }

  const std::string& data() const { return data_; }
  std::string& mutable_data() { return data_; }
  const std::vector<std::vector<std::byte>>& lumas() const { return lumas_; }
  std::size_t frame_bytes() const {
    return static_cast<std::size_t>(w_) * h_ + ChromaBytesByHand(colorspace_, w_, h_);
  }

 private:
  std::mt19937_64* rng_;
  int w_ = 0, h_ = 0;
  std::string colorspace_;
  std::string data_;
  std::vector<std::vector<std::byte>> lumas_;
};

// Everything a source gives until the end or an error.
struct Drained {
  std::vector<std::vector<std::byte>> items;  // one per frame
  std::vector<FrameFormat> formats;           // the format of each frame
  std::vector<std::int64_t> changes;          // frames_read() at each format_changed
  std::vector<std::int64_t> batch_sizes;      // ReadResult::frames of each call
  absl::Status status;                        // the error that stopped it, or OK at the end
  bool ended = false;
};

inline Drained Drain(FrameSource& source, std::int64_t batch, int max_calls = 1 << 20) {
  Drained d;
  std::vector<std::byte> buffer;
  for (int call = 0; call < max_calls; ++call) {
    const FrameFormat f = source.format();
    const std::size_t item = f.item_bytes();
    buffer.assign(static_cast<std::size_t>(batch) * item, std::byte{0xAB});
    absl::StatusOr<ReadResult> r = source.Read(buffer, batch);
    if (!r.ok()) {
      d.status = r.status();
      return d;
    }
    d.batch_sizes.push_back(r->frames);
    for (std::int64_t i = 0; i < r->frames; ++i) {
      d.items.emplace_back(buffer.begin() + i * item, buffer.begin() + (i + 1) * item);
      d.formats.push_back(f);
    }
    if (r->format_changed) d.changes.push_back(source.frames_read());
    if (r->end) {
      d.ended = true;
      return d;
    }
  }
  d.status = absl::DeadlineExceededError("Drain: too many calls");
  return d;
}

}  // namespace streampipe::video::testing

#endif  // STREAMPIPE_TEST_VIDEO_VIDEO_TEST_UTIL_HPP_
