// The streampipe facade: every public header of the CPU core (the models, the controller, the
// detector, the configuration, the sweep's statistics; no CUDA header), and the status macros.
//
//   #include <streampipe/streampipe.hpp>
//
// The CUDA layer is not in it: its entry is streampipe/cuda/pipeline.hpp (StreamPipeline), the
// video input streampipe/video/frame_source.hpp. docs/design.md maps them. (Before session 50
// this comment said "every public header", and it held 8 of the core's 20.)
#ifndef STREAMPIPE_STREAMPIPE_HPP_
#define STREAMPIPE_STREAMPIPE_HPP_

#include "streampipe/core/config.hpp"
#include "streampipe/core/device_profile.hpp"
#include "streampipe/core/drift_detector.hpp"
#include "streampipe/core/histogram_kernel.hpp"
#include "streampipe/core/in_situ_fit.hpp"
#include "streampipe/core/json_writer.hpp"
#include "streampipe/core/least_squares.hpp"
#include "streampipe/core/model.hpp"
#include "streampipe/core/model_types.hpp"
#include "streampipe/core/occupancy.hpp"
#include "streampipe/core/optimizer.hpp"
#include "streampipe/core/parallel_copy.hpp"
#include "streampipe/core/statistics.hpp"
#include "streampipe/core/stream_controller.hpp"
#include "streampipe/core/sweep.hpp"
#include "streampipe/core/sweep_plan.hpp"
#include "streampipe/core/timeline.hpp"
#include "streampipe/core/toml_schema.hpp"
#include "streampipe/core/veneva.hpp"
#include "streampipe/core/werkhoven.hpp"
#include "streampipe/status_macros.hpp"

#endif  // STREAMPIPE_STREAMPIPE_HPP_
