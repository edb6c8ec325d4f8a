// Small robust statistics shared by the controller, the sweep, calibration and benchmarks.
#ifndef STREAMPIPE_CORE_STATISTICS_HPP_
#define STREAMPIPE_CORE_STATISTICS_HPP_

#include <vector>

namespace streampipe {

// The median: the middle value, or the mean of the two middle values of an even count.
// NaN for no values, or where one of them is NaN.
double Median(std::vector<double> values);

// The lower median: the middle value, or the smaller of the two middle values of an even
// count (of two values, the smaller). For times whose errors are one-sided: interference only
// slows a batch, so of two samples the larger is the suspect. The mean of two, which the median
// of two is, moved half of one slow batch into the estimate (run 97: a quarter of the tiny
// batches at n = 1 as graphs took 1.17x, the rest were within 2 %). NaN for no values, or
// where one of them is NaN.
double LowMedian(std::vector<double> values);

}  // namespace streampipe

#endif  // STREAMPIPE_CORE_STATISTICS_HPP_
