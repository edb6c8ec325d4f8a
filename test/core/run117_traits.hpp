// The H100 profile of run 117 (docs/evidence/run117/h100.toml), the one run 136 onwards used:
// c, c0 and s as measured there. Shared by the model and controller tests.
#ifndef STREAMPIPE_TEST_CORE_RUN117_TRAITS_HPP_
#define STREAMPIPE_TEST_CORE_RUN117_TRAITS_HPP_

#include "streampipe/core/model_types.hpp"

namespace streampipe::testing {

inline DeviceTraits Run117Traits() {
  DeviceTraits t;
  t.copy_engines = 3;
  t.h2d = {.latency_ms = 0.00448, .ms_per_byte = 2.0246e-08, .gap_ms = 0.002272,
           .duplex_ms_per_byte = 2.3570e-08};
  t.d2h = {.latency_ms = 0.003808, .ms_per_byte = 1.8416e-08, .gap_ms = 0.001927,
           .duplex_ms_per_byte = 2.1439e-08};
  t.stream_overhead_ms = 0.0072475;
  t.idle_stream_overhead_ms = 0.0013571;
  t.sub_chunk_cost_ms = 0.0126693;
  return t;
}

}  // namespace streampipe::testing

#endif  // STREAMPIPE_TEST_CORE_RUN117_TRAITS_HPP_
