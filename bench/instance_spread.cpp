// Does the same workload at the same n run at the same speed on two pipelines of one process?
// `streampipe sweep` measures its rounds on one StreamPipeline and the adaptive run on another
// (its own device buffers and streams); a difference between pipelines at one n would look like
// a visit read off that a second visit does not correct (docs/results.md, session 31).
//
//   instance_spread [--instances=4] [--rounds=6] [--per-visit=3] [--size-mib=64 (at most 4096)]
//                   [--iters=1,200,500] [--orders=depth-first,breadth-first,engine-per-stream]
//                   [--issue=streams,graph] [--streams=1,2,4,8,16,32,64,128] [--host-per-instance]
//                   [--batches=FILE]   # a CSV row per timed batch too
//
// Per configuration, the instances are created one after the other and all stay alive; each
// round visits every instance (rotated) and in it every n (ascending in even rounds, descending
// in odd ones), one untimed batch then --per-visit timed ones, so a drift of the machine moves
// every instance alike. --rounds is even: its halves hold as many rounds each. Prints one CSV
// row per (configuration, instance, n): the median of its batches, and of its batches in the
// first and the second half of the rounds. Then every instance runs every n once more on an
// output buffer filled with NaN, each checked against the CPU's result on random input.
// On stderr, per configuration and n: in each half, the slowest instance and how far its median
// is over the instances' median in that half. A pipeline with a speed of its own is the same
// instance in both halves, well over; the lease's stretches pick one at random.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "bench_args.hpp"
#include "streampipe/core/statistics.hpp"
#include "streampipe/cuda/buffer.hpp"
#include "streampipe/cuda/device.hpp"
#include "streampipe/cuda/pipeline.hpp"
#include "streampipe/cuda/workloads.hpp"
#include "bench_help.hpp"

namespace streampipe {
namespace {

struct Args {
  int instances = 4;
  int rounds = 6;
  int per_visit = 3;
  int size_mib = 64;
  std::vector<int> iters = {1, 200, 500};
  std::vector<IssueOrder> orders = {IssueOrder::kDepthFirst, IssueOrder::kBreadthFirst,
                                    IssueOrder::kEnginePerStream};
  std::vector<IssueMode> modes = {IssueMode::kStreams, IssueMode::kGraph};
  std::vector<int> streams = {1, 2, 4, 8, 16, 32, 64, 128};
  bool host_per_instance = false;
  std::string batches;  // --batches=FILE: a row per timed batch (empty: none)
  bool batches_flag_given = false;
};

absl::StatusOr<Args> Parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const absl::string_view arg = argv[i];
    const auto value = [&](absl::string_view flag) { return bench::FlagValue(arg, flag); };
    constexpr int kMaxInt = std::numeric_limits<int>::max();
    absl::Status st;
    if (auto v = value("--instances=")) {
      st = bench::ParseIntFlag("--instances", *v, 1, kMaxInt, &a.instances);
    } else if (auto v = value("--rounds=")) {
      st = bench::ParseIntFlag("--rounds", *v, 1, kMaxInt, &a.rounds);
    } else if (auto v = value("--per-visit=")) {
      st = bench::ParseIntFlag("--per-visit", *v, 1, kMaxInt, &a.per_visit);
    } else if (auto v = value("--size-mib=")) {  // the host holds the input and the CPU's result
      st = bench::ParseIntFlag("--size-mib", *v, 1, 4096, &a.size_mib);
    } else if (auto v = value("--iters=")) {
      absl::StatusOr<std::vector<int>> x = bench::ParseIntListFlag("--iters", *v, 0, kMaxInt);
      if (!x.ok()) return x.status();
      a.iters = *std::move(x);
    } else if (auto v = value("--streams=")) {
      absl::StatusOr<std::vector<int>> x = bench::ParseIntListFlag("--streams", *v, 1, kMaxInt);
      if (!x.ok()) return x.status();
      a.streams = *std::move(x);
    } else if (auto v = value("--orders=")) {
      absl::StatusOr<std::vector<IssueOrder>> o =
          bench::ParseCommaList<IssueOrder>(*v, ParseIssueOrder);
      if (!o.ok()) return o.status();
      a.orders = *std::move(o);
    } else if (auto v = value("--issue=")) {
      absl::StatusOr<std::vector<IssueMode>> m =
          bench::ParseCommaList<IssueMode>(*v, ParseIssueMode);
      if (!m.ok()) return m.status();
      a.modes = *std::move(m);
    } else if (auto v = value("--batches=")) {
      a.batches = std::string(*v);
      a.batches_flag_given = true;
    } else if (arg == "--host-per-instance") {
      a.host_per_instance = true;
    } else {
      return absl::InvalidArgumentError(absl::StrCat("unknown argument '", arg, "'"));
    }
    if (!st.ok()) return st;
  }
  if (a.rounds % 2 != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--rounds: ", a.rounds, " is odd; the two halves of the rounds need as many rounds each"));
  }
  if (a.batches_flag_given && a.batches.empty()) {
    return absl::InvalidArgumentError("--batches: no file named");
  }
  std::sort(a.streams.begin(), a.streams.end());
  a.streams.erase(std::unique(a.streams.begin(), a.streams.end()), a.streams.end());
  return a;
}

struct HostBuffers {
  PinnedBuffer<float> in;
  PinnedBuffer<float> out;
};

absl::StatusOr<HostBuffers> MakeHost(const std::vector<float>& input) {
  absl::StatusOr<PinnedBuffer<float>> in = PinnedBuffer<float>::Create(input.size());
  if (!in.ok()) return in.status();
  absl::StatusOr<PinnedBuffer<float>> out = PinnedBuffer<float>::Create(input.size());
  if (!out.ok()) return out.status();
  std::copy(input.begin(), input.end(), in->span().begin());
  return HostBuffers{*std::move(in), *std::move(out)};
}

// One configuration: every instance at every n, in rounds; a CSV row per (instance, n). `ref`
// is the CPU's result on `input` at `iters`.
absl::Status Measure(const Args& a, int iters, IssueOrder order, IssueMode mode,
                     const std::vector<float>& input, const std::vector<float>& ref,
                     std::FILE* batches) {
  const std::int64_t items = static_cast<std::int64_t>(input.size());
  const int max_n = *std::max_element(a.streams.begin(), a.streams.end());
  PipelineOptions o;
  o.in_bytes_per_item = sizeof(float);
  o.out_bytes_per_item = sizeof(float);
  o.max_items_per_batch = items;
  o.launch = AddScalarLauncher(iters);
  o.max_streams = std::max(3, max_n);
  o.order = order;
  o.issue = mode;
  std::vector<StreamPipeline> ps;
  std::vector<HostBuffers> hosts;
  for (int k = 0; k < a.instances; ++k) {
    absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
    if (!p.ok()) return p.status();
    ps.push_back(*std::move(p));
    if (k == 0 || a.host_per_instance) {
      absl::StatusOr<HostBuffers> h = MakeHost(input);
      if (!h.ok()) return h.status();
      hosts.push_back(*std::move(h));
    }
  }
  const auto batch_of = [&](int k) {
    HostBuffers& h = hosts[a.host_per_instance ? k : 0];
    return HostBatch{h.in.data(), h.out.data(), items};
  };
  for (int k = 0; k < a.instances; ++k) {
    for (int n : a.streams) {
      for (int w = 0; w < 3; ++w) {
        absl::StatusOr<BatchStats> st = ps[k].Run(batch_of(k), n);
        if (!st.ok()) return st.status();
      }
    }
  }
  const std::string order_name(IssueOrderName(order));
  const std::string mode_name(IssueModeName(mode));
  const auto start = std::chrono::steady_clock::now();
  const std::size_t nn = a.streams.size();
  // [instance][n][half] -> batch times
  std::vector<std::vector<std::vector<std::vector<double>>>> ms(
      a.instances, std::vector<std::vector<std::vector<double>>>(
                       nn, std::vector<std::vector<double>>(2)));
  for (int r = 0; r < a.rounds; ++r) {
    const int half = 2 * r < a.rounds ? 0 : 1;
    for (int kk = 0; kk < a.instances; ++kk) {
      const int k = (kk + r) % a.instances;
      for (std::size_t jj = 0; jj < nn; ++jj) {
        const std::size_t j = r % 2 == 0 ? jj : nn - 1 - jj;
        absl::StatusOr<BatchStats> cold = ps[k].Run(batch_of(k), a.streams[j]);
        if (!cold.ok()) return cold.status();
        for (int b = 0; b < a.per_visit; ++b) {
          absl::StatusOr<BatchStats> st = ps[k].Run(batch_of(k), a.streams[j]);
          if (!st.ok()) return st.status();
          ms[k][j][half].push_back(st->elapsed_ms);
          if (batches != nullptr) {
            const double at_s =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            std::fprintf(batches, "%d,%s,%s,%d,%d,%d,%d,%.5f,%.5f,%.4f\n", iters, order_name.c_str(),
                         mode_name.c_str(), r, k, a.streams[j], b, st->elapsed_ms, st->issue_ms,
                         at_s);
          }
        }
      }
    }
  }
  // Every instance at every n once more, on an output filled with NaN, against the CPU's: a
  // wrong result makes the timing worthless, and a batch that wrote nothing must not pass on an
  // earlier batch's output.
  for (int k = 0; k < a.instances; ++k) {
    HostBuffers& h = hosts[a.host_per_instance ? k : 0];
    for (int n : a.streams) {
      std::fill(h.out.span().begin(), h.out.span().end(), std::numeric_limits<float>::quiet_NaN());
      absl::StatusOr<BatchStats> st = ps[k].Run(batch_of(k), n);
      if (!st.ok()) return st.status();
      for (std::int64_t i = 0; i < items; ++i) {
        if (h.out.span()[i] != ref[static_cast<std::size_t>(i)]) {
          return absl::InternalError(absl::StrCat("instance ", k, ", n = ", n, ": item ", i, " is ",
                                                  h.out.span()[i], ", the CPU's ",
                                                  ref[static_cast<std::size_t>(i)]));
        }
      }
    }
  }
  for (std::size_t j = 0; j < nn; ++j) {
    std::vector<double> half_median[2];
    for (int k = 0; k < a.instances; ++k) {
      std::vector<double> all = ms[k][j][0];
      all.insert(all.end(), ms[k][j][1].begin(), ms[k][j][1].end());
      const double m0 = Median(ms[k][j][0]), m1 = Median(ms[k][j][1]);
      std::printf("%d,%s,%s,%d,%d,%.5f,%.5f,%.5f,%zu\n", iters, order_name.c_str(),
                  mode_name.c_str(), k, a.streams[j], Median(all), m0, m1, all.size());
      half_median[0].push_back(m0);
      half_median[1].push_back(m1);
    }
    std::string line;
    for (int half = 0; half < 2; ++half) {
      const std::vector<double>& v = half_median[half];
      const auto slowest = std::max_element(v.begin(), v.end());
      absl::StrAppend(&line, half == 0 ? " first half: " : ", second half: ", "instance ",
                      slowest - v.begin(), " ",
                      absl::StrFormat("%+.2f%%", 100.0 * (*slowest / Median(v) - 1.0)));
    }
    std::fprintf(stderr, "%5d %-18s %-7s n=%-3d slowest in the%s\n", iters, order_name.c_str(),
                 mode_name.c_str(), a.streams[j], line.c_str());
  }
  std::fflush(stdout);
  return absl::OkStatus();
}

int Main(int argc, char** argv) {
  if (streampipe::bench::PrintedHelp(
          argc, argv, "instance_spread",
          "[--instances=4] [--rounds=6] [--per-visit=3] [--size-mib=64 (at most 4096)] "
          "[--iters=1,200,500] [--orders=depth-first,breadth-first,engine-per-stream] "
          "[--issue=streams,graph] [--streams=1,2,4,8,16,32,64,128] [--host-per-instance] "
          "[--batches=FILE]")) {
    return 0;
  }
  absl::StatusOr<Args> args = Parse(argc, argv);
  if (!args.ok()) {
    std::fprintf(stderr, "instance_spread: %s\n", std::string(args.status().message()).c_str());
    return bench::kUsageExit;
  }
  if (CudaDeviceCount() == 0) {
    std::fprintf(stderr, "instance_spread: no CUDA device (%s)\n", NoDeviceReason().c_str());
    return 0;
  }
  std::FILE* batches = nullptr;
  if (!args->batches.empty()) {
    batches = std::fopen(args->batches.c_str(), "w");
    if (batches == nullptr) {
      std::fprintf(stderr, "instance_spread: --batches: cannot write '%s'\n", args->batches.c_str());
      return bench::kOutputExit;
    }
    std::fprintf(batches, "iters,order,issue,round,instance,streams,batch,elapsed_ms,issue_ms,at_s\n");
  }
  std::printf("iters,order,issue,instance,streams,median_ms,first_half_ms,second_half_ms,batches\n");
  // One random input for every configuration, and the CPU's result once per intensity (at 500
  // iterations over 16 M items it takes seconds).
  std::vector<float> input(static_cast<std::size_t>(args->size_mib) * (1 << 20) / 4);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (float& x : input) x = u(rng);
  std::vector<float> ref(input.size());
  for (int iters : args->iters) {
    AddScalarReference(input, ref, iters);
    for (IssueOrder order : args->orders) {
      for (IssueMode mode : args->modes) {
        absl::Status st = Measure(*args, iters, order, mode, input, ref, batches);
        if (!st.ok()) {
          std::fprintf(stderr, "instance_spread: %d iters, %s, %s: %s\n", iters,
                       std::string(IssueOrderName(order)).c_str(),
                       std::string(IssueModeName(mode)).c_str(),
                       std::string(st.message()).c_str());
          if (batches != nullptr) std::fclose(batches);
          return bench::kSoftwareExit;
        }
      }
    }
  }
  if (batches != nullptr) {
    const bool failed = std::ferror(batches) != 0;  // before fclose, which ends the stream
    if (std::fclose(batches) != 0 || failed) {
      std::fprintf(stderr, "instance_spread: --batches: writing '%s' failed\n",
                   args->batches.c_str());
      return bench::kOutputExit;
    }
  }
  if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0) {
    std::fprintf(stderr, "instance_spread: writing the CSV to stdout failed\n");
    return bench::kOutputExit;
  }
  return 0;
}

}  // namespace
}  // namespace streampipe

int main(int argc, char** argv) { return streampipe::Main(argc, argv); }
