// A user of the installed library: choose n for the H100 anchors' batch.
#include <iostream>

#include <streampipe/streampipe.hpp>

int main() {
  streampipe::Workload w;
  w.times = {.h2d_ms = 1.23, .kernel_ms = 0.064, .d2h_ms = 1.222};
  const streampipe::DeviceTraits traits = streampipe::DeviceTraits::H100Anchors();
  auto terms = streampipe::ComputeModelTerms(traits, w);
  auto model = streampipe::MakeModel("auto", traits);
  if (!terms.ok() || !model.ok()) return 1;
  auto choice = streampipe::ChooseNumStreams(**model, *terms, {.max_streams = 64});
  if (!choice.ok()) return 1;
  std::cout << "chose " << choice->streams << " streams\n";
  return choice->streams > 1 ? 0 : 2;
}
