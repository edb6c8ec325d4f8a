#include "streampipe/core/parallel_copy.hpp"

#include <algorithm>
#include <cstring>

namespace streampipe {

ParallelCopier::ParallelCopier(int threads) {
  const int extra = std::max(0, threads - 1);
  workers_.reserve(static_cast<std::size_t>(extra));
  for (int i = 0; i < extra; ++i) workers_.emplace_back([this, i] { Work(i + 1); });
}

ParallelCopier::~ParallelCopier() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  start_cv_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ParallelCopier::CopyPiece(int part, int parts) {
  if (part >= parts) return;
  // Pieces aligned to 4 KiB pages.
  const std::size_t page = 4096;
  const std::size_t per = ((bytes_ / parts + page - 1) / page) * page;
  const std::size_t begin = std::min(bytes_, per * static_cast<std::size_t>(part));
  const std::size_t end = part + 1 == parts ? bytes_ : std::min(bytes_, begin + per);
  if (end > begin) std::memcpy(dst_ + begin, src_ + begin, end - begin);
}

void ParallelCopier::Work(int id) {
  unsigned long seen = 0;
  for (;;) {
    int parts = 0;
    {
      std::unique_lock<std::mutex> lock(mu_);
      start_cv_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      parts = parts_;
    }
    CopyPiece(id, parts);
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (--pending_ == 0) done_cv_.notify_one();
    }
  }
}

void ParallelCopier::Copy(void* dst, const void* src, std::size_t bytes) {
  if (bytes == 0) return;
  const int parts = static_cast<int>(
      std::clamp<std::size_t>(bytes / kMinPiece, 1, static_cast<std::size_t>(threads())));
  if (parts == 1 || workers_.empty()) {
    std::memcpy(dst, src, bytes);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    dst_ = static_cast<std::byte*>(dst);
    src_ = static_cast<const std::byte*>(src);
    bytes_ = bytes;
    parts_ = parts;
    pending_ = static_cast<int>(workers_.size());
    ++generation_;
  }
  start_cv_.notify_all();
  CopyPiece(0, parts);  // the caller copies the first piece
  std::unique_lock<std::mutex> lock(mu_);
  done_cv_.wait(lock, [&] { return pending_ == 0; });
}

}  // namespace streampipe
