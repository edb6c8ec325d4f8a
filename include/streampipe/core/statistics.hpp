// Small robust statistics shared by the controller, the sweep, calibration and benchmarks.
#ifndef STREAMPIPE_CORE_STATISTICS_HPP_
#define STREAMPIPE_CORE_STATISTICS_HPP_

#include <vector>

namespace streampipe {

// The median: the middle value, or the mean of the two middle values of an even count.
// NaN for no values.
double Median(std::vector<double> values);

}  // namespace streampipe

#endif  // STREAMPIPE_CORE_STATISTICS_HPP_
