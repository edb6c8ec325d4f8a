// The streampipe facade: includes every public header of the library.
//
//   #include <streampipe/streampipe.hpp>
//
// Finer-grained headers live under streampipe/core (CPU-only models and decisions) and
// streampipe/cuda (the CUDA layer). docs/design.md maps them.
#ifndef STREAMPIPE_STREAMPIPE_HPP_
#define STREAMPIPE_STREAMPIPE_HPP_

#include "streampipe/core/json_writer.hpp"
#include "streampipe/core/least_squares.hpp"
#include "streampipe/core/model.hpp"
#include "streampipe/core/model_types.hpp"
#include "streampipe/core/occupancy.hpp"
#include "streampipe/core/optimizer.hpp"
#include "streampipe/core/veneva.hpp"
#include "streampipe/core/werkhoven.hpp"
#include "streampipe/status_macros.hpp"

#endif  // STREAMPIPE_STREAMPIPE_HPP_
