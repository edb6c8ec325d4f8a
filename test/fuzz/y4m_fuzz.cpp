// libFuzzer target for the YUV4MPEG2 reader: any input must give frames or a Status, never a
// crash, a leak or undefined behaviour. Built with clang (-fsanitize=fuzzer,address,undefined);
// seeds in test/fuzz/corpus/y4m/. Crashes found here become tests in
// test/video/y4m_source_test.cpp.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "streampipe/video/frame_source.hpp"

namespace {

// A header may claim up to 2^31 pixels; the fuzzer should spend its time on parsing, not on
// allocating what the header asks for.
constexpr std::size_t kMaxItemBytes = 16 << 20;
constexpr std::int64_t kBatch = 3;
constexpr std::int64_t kMaxFrames = 64;
constexpr int kMaxCalls = 256;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  absl::StatusOr<std::unique_ptr<streampipe::video::FrameSource>> source =
      streampipe::video::MakeY4mSource(in, "fuzz");
  if (!source.ok()) return 0;
  streampipe::video::FrameSource& src = **source;
  std::vector<std::byte> buffer;
  std::int64_t frames = 0;
  // Bounded by calls as well: a stream of headers alone returns no frames per call.
  for (int call = 0; call < kMaxCalls && frames < kMaxFrames; ++call) {
    const std::size_t item = src.format().item_bytes();
    if (item == 0 || item > kMaxItemBytes) break;
    buffer.resize(kBatch * item);
    absl::StatusOr<streampipe::video::ReadResult> r = src.Read(buffer, kBatch);
    if (!r.ok()) break;
    if (r->frames < 0 || r->frames > kBatch) __builtin_trap();  // the contract
    frames += r->frames;
    if (src.frames_read() != frames) __builtin_trap();
    if (r->end) {
      // Ended stays ended.
      absl::StatusOr<streampipe::video::ReadResult> again = src.Read(buffer, kBatch);
      if (!again.ok() || again->frames != 0 || !again->end) __builtin_trap();
      break;
    }
  }
  return 0;
}
