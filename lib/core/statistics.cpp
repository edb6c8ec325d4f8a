#include "streampipe/core/statistics.hpp"

#include <algorithm>
#include <limits>

namespace streampipe {

double Median(std::vector<double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  const std::size_t h = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<long>(h), values.end());
  const double upper = values[h];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + static_cast<long>(h));
  return 0.5 * (lower + upper);
}

double LowMedian(std::vector<double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  const std::size_t h = (values.size() - 1) / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<long>(h), values.end());
  return values[h];
}

}  // namespace streampipe
