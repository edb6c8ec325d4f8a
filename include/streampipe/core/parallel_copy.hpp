// Host memcpy split across a small pool of persistent threads: one thread copies about
// 5-10 GB/s, below what PCIe moves, so staging pageable memory through pinned buffers needs
// several (docs/design.md, "Pageable memory").
//
//   streampipe::ParallelCopier copier(8);
//   copier.Copy(dst, src, bytes);   // returns when all bytes are copied
//
// Copy() is called from one thread at a time; the workers are joined in the destructor.
#ifndef STREAMPIPE_CORE_PARALLEL_COPY_HPP_
#define STREAMPIPE_CORE_PARALLEL_COPY_HPP_

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

namespace streampipe {

class ParallelCopier {
 public:
  // `threads` copying threads in all (the caller counts as one); 1 copies inline.
  explicit ParallelCopier(int threads);
  ~ParallelCopier();
  ParallelCopier(const ParallelCopier&) = delete;
  ParallelCopier& operator=(const ParallelCopier&) = delete;

  void Copy(void* dst, const void* src, std::size_t bytes);
  int threads() const { return static_cast<int>(workers_.size()) + 1; }

  // Pieces smaller than this are not split further.
  static constexpr std::size_t kMinPiece = std::size_t{256} << 10;

 private:
  void Work(int id);
  void CopyPiece(int part, int parts);

  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable start_cv_;
  std::condition_variable done_cv_;
  // The job, guarded by mu_ for publication.
  std::byte* dst_ = nullptr;
  const std::byte* src_ = nullptr;
  std::size_t bytes_ = 0;
  int parts_ = 0;
  unsigned long generation_ = 0;
  int pending_ = 0;
  bool stop_ = false;
};

}  // namespace streampipe

#endif  // STREAMPIPE_CORE_PARALLEL_COPY_HPP_
