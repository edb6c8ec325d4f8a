// An owning CUDA graph and an owning executable graph (move-only RAII each).
//
//   STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
//   ... enqueue work on s (and on streams forked from it) ...
//   absl::StatusOr<streampipe::Graph> g = streampipe::Graph::EndCapture(s);
//   absl::StatusOr<streampipe::GraphExec> x = streampipe::GraphExec::Instantiate(*g);
//   STREAMPIPE_RETURN_IF_ERROR(x->Launch(s));
//
// Both are counted in LiveResources().graphs. Not thread-safe to destroy while another thread
// launches the executable graph.
#ifndef STREAMPIPE_CUDA_GRAPH_HPP_
#define STREAMPIPE_CUDA_GRAPH_HPP_

#include <cuda_runtime_api.h>

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "streampipe/cuda/stream.hpp"

namespace streampipe {

class Graph {
 public:
  // Ends the capture on `stream` (begun with cudaStreamBeginCapture) and owns the graph. A
  // capture that was invalidated (an illegal call while capturing) is an error naming it.
  static absl::StatusOr<Graph> EndCapture(StreamRef stream);

  Graph() = default;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  Graph(Graph&& other) noexcept : graph_(std::exchange(other.graph_, nullptr)) {}
  Graph& operator=(Graph&& other) noexcept {
    Graph tmp(std::move(other));
    std::swap(graph_, tmp.graph_);
    return *this;
  }
  ~Graph();

  cudaGraph_t get() const { return graph_; }
  explicit operator bool() const { return graph_ != nullptr; }

 private:
  explicit Graph(cudaGraph_t g) : graph_(g) {}
  cudaGraph_t graph_ = nullptr;
};

class GraphExec {
 public:
  static absl::StatusOr<GraphExec> Instantiate(const Graph& graph);

  GraphExec() = default;
  GraphExec(const GraphExec&) = delete;
  GraphExec& operator=(const GraphExec&) = delete;
  GraphExec(GraphExec&& other) noexcept : exec_(std::exchange(other.exec_, nullptr)) {}
  GraphExec& operator=(GraphExec&& other) noexcept {
    GraphExec tmp(std::move(other));
    std::swap(exec_, tmp.exec_);
    return *this;
  }
  ~GraphExec();

  // Enqueues the whole graph on `stream`: work after it on the stream waits for all of it.
  absl::Status Launch(StreamRef stream) const;

  cudaGraphExec_t get() const { return exec_; }
  explicit operator bool() const { return exec_ != nullptr; }

 private:
  explicit GraphExec(cudaGraphExec_t e) : exec_(e) {}
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace streampipe

#endif  // STREAMPIPE_CUDA_GRAPH_HPP_
