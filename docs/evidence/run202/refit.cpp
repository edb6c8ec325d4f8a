// Reads what docs/evidence/run202/refit.sh extracts from calibration logs and refits c.
#include <cstdio>
#include <vector>
#include <string>
#include "streampipe/core/in_situ_fit.hpp"
using namespace streampipe;
int main() {
  double lh, ld, gh, gd, held, th, td, m1, logc; int n; double ms, model, issue;
  while (scanf("%lf %lf %lf %lf %lf %lf %lf %lf %lf", &lh, &ld, &gh, &gd, &held, &th, &td, &m1, &logc) == 9) {
    std::vector<InSituPoint> pts;
    for (int i = 0; i < 7; ++i) { scanf("%d %lf %lf %lf", &n, &ms, &model, &issue); pts.push_back({n, ms, issue}); }
    InSituTerms t; t.h2d_latency_ms = lh/1e3; t.d2h_latency_ms = ld/1e3; t.h2d_gap_ms = gh/1e3; t.d2h_gap_ms = gd/1e3;
    t.h2d_ms = th - t.h2d_latency_ms; t.d2h_ms = td - t.d2h_latency_ms; t.kernel_ms = m1 - th - td;
    auto f = FitInSituWithIdle(t, pts, held/1e3);
    if (f.ok()) printf("logged c %.2f us -> refit c %.2f us, misfit %.1f %%\n", logc, f->stream_overhead_ms*1e3, f->max_residual*100);
    else printf("logged c %.2f us -> %s\n", logc, std::string(f.status().message()).c_str());
  }
}
