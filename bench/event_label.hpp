// A short label for a re-derivation event in benchmark tables: the kind, and for a drift what
// caused it (the detector seeing slower or faster batches, a forced re-measurement, the learned
// level's check finding another workload, or the pipeline following the host falling behind or
// catching up).
#ifndef STREAMPIPE_BENCH_EVENT_LABEL_HPP_
#define STREAMPIPE_BENCH_EVENT_LABEL_HPP_

#include <string>

#include "streampipe/core/stream_controller.hpp"

namespace streampipe::bench {

inline std::string EventLabel(const RederivationEvent& e) {
  std::string label = EventKindName(e.kind);
  if (e.kind != EventKind::kDrift) return label;
  for (const auto& [needle, cause] : {std::pair{"the level learned", "level-check"},
                                      std::pair{"host fell behind", "host-behind"},
                                      std::pair{"overlap again", "overlap"},
                                      std::pair{"forced", "forced"},
                                      std::pair{"slower", "slower"},
                                      std::pair{"faster", "faster"}}) {
    if (e.reason.find(needle) != std::string::npos) return label + "(" + cause + ")";
  }
  return label;
}

}  // namespace streampipe::bench

#endif  // STREAMPIPE_BENCH_EVENT_LABEL_HPP_
