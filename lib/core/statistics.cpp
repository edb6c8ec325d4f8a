#include "streampipe/core/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace streampipe {

namespace {

// No values, or a NaN among them (nth_element's answer then depends on the order: {1, NaN, 3}
// gave NaN and {NaN, 1, 3} gave 1, before session 51).
bool NoMedian(const std::vector<double>& values) {
  return values.empty() ||
         std::any_of(values.begin(), values.end(), [](double v) { return std::isnan(v); });
}

}  // namespace

double Median(std::vector<double> values) {
  if (NoMedian(values)) return std::numeric_limits<double>::quiet_NaN();
  const std::size_t h = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<long>(h), values.end());
  const double upper = values[h];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + static_cast<long>(h));
  return 0.5 * (lower + upper);
}

double LowMedian(std::vector<double> values) {
  if (NoMedian(values)) return std::numeric_limits<double>::quiet_NaN();
  const std::size_t h = (values.size() - 1) / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<long>(h), values.end());
  return values[h];
}

}  // namespace streampipe
