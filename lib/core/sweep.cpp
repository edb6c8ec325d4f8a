#include "streampipe/core/sweep.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstddef>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "streampipe/core/statistics.hpp"
#include "streampipe/core/toml_schema.hpp"

namespace streampipe {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Tolerance of a range's end, in steps (arithmetic) or relative (geometric).
constexpr double kRangeTolerance = 1e-9;

// Debian's Abseil has its own string_view type.
absl::string_view Av(std::string_view s) { return absl::string_view(s.data(), s.size()); }

// The shortest text that parses back to exactly `v`; "" for NaN.
std::string FormatDouble(double v) {
  if (std::isnan(v)) return "";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  if (ec != std::errc()) return absl::StrFormat("%.17g", v);
  return std::string(buf, end);
}

std::string ModelColumn(std::string_view prefix, ModelKind kind) {
  return absl::StrCat(std::string(prefix), std::string(ModelName(kind)));
}

// ---- lists ----

struct ListItem {
  std::string text;
  std::size_t begin = 0, end = 0;  // its values: values[begin, end)
};

absl::Status ItemError(absl::string_view item, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("list item '", item, "': ", why));
}

absl::StatusOr<double> ParseItemNumber(absl::string_view text, absl::string_view item,
                                       absl::string_view what) {
  text = absl::StripAsciiWhitespace(text);
  if (text.empty()) return ItemError(item, absl::StrCat("missing ", what));
  double v = 0;
  if (!absl::SimpleAtod(text, &v)) {
    return ItemError(item, absl::StrCat(what, " '", text, "' is not a number"));
  }
  // Decimal (SimpleAtod also reads hexadecimal: `--streams=0x10` was 16 before session 51).
  if (absl::StrContains(text, 'x') || absl::StrContains(text, 'X')) {
    return ItemError(item, absl::StrCat(what, " '", text, "' is not a decimal number"));
  }
  if (!std::isfinite(v)) {
    return ItemError(item, absl::StrCat(what, " '", text, "' is not finite"));
  }
  return v;
}

absl::Status TooMany(absl::string_view item) {
  return ItemError(item, absl::StrCat("the list would have more than ", kMaxListValues, " values"));
}

// Appends the values of one item (already stripped, not empty).
absl::Status ExpandItem(absl::string_view item, std::vector<double>* values) {
  const std::size_t budget = kMaxListValues - values->size();
  const std::size_t dots = item.find("..");
  if (dots == absl::string_view::npos) {
    absl::StatusOr<double> v = ParseItemNumber(item, item, "value");
    if (!v.ok()) return v.status();
    if (budget < 1) return TooMany(item);
    values->push_back(*v);
    return absl::OkStatus();
  }
  const absl::string_view a_text = item.substr(0, dots);
  const absl::string_view rest = item.substr(dots + 2);
  // The step operator: '*', or a '+' that is neither b's sign nor an exponent's sign.
  char op = 0;
  std::size_t op_pos = rest.find('*');
  if (op_pos != absl::string_view::npos) {
    op = '*';
  } else {
    for (std::size_t i = 1; i < rest.size(); ++i) {
      if (rest[i] == '+' && rest[i - 1] != 'e' && rest[i - 1] != 'E') {
        op = '+';
        op_pos = i;
        break;
      }
    }
  }
  const absl::string_view b_text = op ? rest.substr(0, op_pos) : rest;
  absl::StatusOr<double> a = ParseItemNumber(a_text, item, "start");
  if (!a.ok()) return a.status();
  absl::StatusOr<double> b = ParseItemNumber(b_text, item, "end");
  if (!b.ok()) return b.status();
  double k = 1;
  if (op) {
    absl::StatusOr<double> parsed =
        ParseItemNumber(rest.substr(op_pos + 1), item, op == '*' ? "factor" : "step");
    if (!parsed.ok()) return parsed.status();
    k = *parsed;
  }
  if (*a > *b) {
    return ItemError(
        item, absl::StrCat("start ", FormatDouble(*a), " is greater than end ", FormatDouble(*b)));
  }
  if (op == '*') {
    if (k <= 1) return ItemError(item, absl::StrCat("factor ", FormatDouble(k), " must be > 1"));
    if (*a <= 0) {
      return ItemError(item,
                       absl::StrCat("a geometric range needs a start > 0, got ", FormatDouble(*a)));
    }
    const double steps = std::log(*b / *a) / std::log(k) + kRangeTolerance;
    if (!(steps < static_cast<double>(budget))) return TooMany(item);
    const std::size_t count = static_cast<std::size_t>(std::floor(steps)) + 1;
    for (std::size_t i = 0; i < count; ++i) {
      double v = *a * std::pow(k, static_cast<double>(i));
      if (std::abs(v - *b) <= kRangeTolerance * *b) v = *b;
      values->push_back(v);
    }
    return absl::OkStatus();
  }
  if (k <= 0) return ItemError(item, absl::StrCat("step ", FormatDouble(k), " must be > 0"));
  const double steps = (*b - *a) / k + kRangeTolerance;
  if (!(steps < static_cast<double>(budget))) return TooMany(item);
  const std::size_t count = static_cast<std::size_t>(std::floor(steps)) + 1;
  for (std::size_t i = 0; i < count; ++i) {
    double v = *a + static_cast<double>(i) * k;
    if (std::abs(v - *b) <= kRangeTolerance * k) v = *b;
    values->push_back(v);
  }
  return absl::OkStatus();
}

// Splits a comma-separated spec into stripped items; InvalidArgument for an empty spec or
// item.
absl::StatusOr<std::vector<absl::string_view>> SplitItems(std::string_view spec) {
  const absl::string_view s = Av(spec);
  if (absl::StripAsciiWhitespace(s).empty()) {
    return absl::InvalidArgumentError("empty list: expected comma-separated items");
  }
  std::vector<absl::string_view> items;
  int index = 0;
  for (absl::string_view piece : absl::StrSplit(s, ',')) {
    ++index;
    piece = absl::StripAsciiWhitespace(piece);
    if (piece.empty()) {
      return absl::InvalidArgumentError(absl::StrCat("empty item #", index, " in list '", s, "'"));
    }
    items.push_back(piece);
  }
  return items;
}

absl::Status ExpandList(std::string_view spec, std::vector<double>* values,
                        std::vector<ListItem>* items) {
  absl::StatusOr<std::vector<absl::string_view>> pieces = SplitItems(spec);
  if (!pieces.ok()) return pieces.status();
  for (absl::string_view piece : *pieces) {
    ListItem item{std::string(piece), values->size(), 0};
    if (absl::Status s = ExpandItem(piece, values); !s.ok()) return s;
    item.end = values->size();
    items->push_back(std::move(item));
  }
  return absl::OkStatus();
}

// ---- CSV (reading) ----

// A value read from a file, as a message shows it: bytes that are not printable ASCII escaped
// (\x1f, \n), and at most 64 of them (detail::ShownInMessage), so that a binary file names its
// bad value without writing raw bytes or a megabyte-long line to the terminal.
std::string Shown(absl::string_view value) {
  return detail::ShownInMessage(std::string_view(value.data(), value.size()),
                                detail::Utf8::kEscape);
}

std::vector<absl::string_view> SplitFields(absl::string_view line) {
  std::vector<absl::string_view> fields = absl::StrSplit(line, ',');
  for (absl::string_view& f : fields) f = absl::StripAsciiWhitespace(f);
  return fields;
}

// Reads the fields of one row in column order; errors name the line, column and value.
class RowReader {
 public:
  RowReader(const std::vector<absl::string_view>& fields, const std::vector<std::string>& columns,
            int line)
      : fields_(fields), columns_(columns), line_(line) {}

  // Free text (a workload, a grid, an order): printable ASCII, so that the messages that name a
  // configuration by it never carry a raw byte from the file.
  absl::Status String(std::string* out) {
    const std::size_t i = next_++;
    // Never empty where the sweep writes it: an empty one made a configuration of its own,
    // and the summary counted it (exit 0, before session 50).
    if (fields_[i].empty()) return Error(i, "is empty");
    if (absl::Status s = Printable(i); !s.ok()) return s;
    *out = std::string(fields_[i]);
    return absl::OkStatus();
  }

  // One of `allowed`.
  absl::Status Choice(std::string* out, std::initializer_list<absl::string_view> allowed) {
    const std::size_t i = next_++;
    for (absl::string_view a : allowed) {
      if (fields_[i] == a) {
        *out = std::string(a);
        return absl::OkStatus();
      }
    }
    return Error(i, absl::StrCat("is not one of: ", absl::StrJoin(allowed, ", ")));
  }

  absl::Status Double(double* out) {
    const std::size_t i = next_++;
    if (fields_[i].empty()) {
      *out = kNaN;
      return absl::OkStatus();
    }
    // Decimal, as the sweep writes them: SimpleAtod also reads hexadecimal ("0x10" was 16).
    if (absl::StrContains(fields_[i], 'x') || absl::StrContains(fields_[i], 'X')) {
      return Error(i, "is not a decimal number");
    }
    if (!absl::SimpleAtod(fields_[i], out)) return Error(i, "is not a number");
    return absl::OkStatus();
  }

  // Settings (SweepPoint::settings): key=value tokens, each key once.
  absl::Status Settings(std::string* out) {
    const std::size_t i = next_++;
    if (absl::Status s = Printable(i); !s.ok()) return s;
    std::set<absl::string_view> keys;
    for (absl::string_view token : absl::StrSplit(fields_[i], ' ', absl::SkipEmpty())) {
      const absl::string_view key = token.substr(0, token.find('='));
      if (key.empty() || key.size() == token.size()) {
        return Error(i, absl::StrCat("has '", Shown(token), "', not key=value"));
      }
      if (!keys.insert(key).second) {
        return Error(i, absl::StrCat("names '", Shown(key), "' twice"));
      }
    }
    *out = std::string(fields_[i]);
    return absl::OkStatus();
  }

  absl::Status Int(int* out) {
    const std::size_t i = next_++;
    if (fields_[i].empty()) return Error(i, "is empty; expected an integer");
    if (!absl::SimpleAtoi(fields_[i], out)) return Error(i, "is not an integer");
    return absl::OkStatus();
  }

  // An integer >= lo.
  absl::Status IntAtLeast(int* out, int lo) {
    if (absl::Status s = Int(out); !s.ok()) return s;
    if (*out < lo) return Error(next_ - 1, absl::StrCat("is below ", lo));
    return absl::OkStatus();
  }

  // A size, a time or an intensity: finite and >= 0; empty (NaN) only where `optional`.
  absl::Status NonNegative(double* out, bool optional = false) {
    if (absl::Status s = Double(out); !s.ok()) return s;
    const std::size_t i = next_ - 1;
    if (fields_[i].empty()) return optional ? absl::OkStatus() : Error(i, "is empty");
    if (!std::isfinite(*out) || *out < 0.0) return Error(i, "is not a finite number >= 0");
    *out += 0.0;  // -0 is 0: written "-0" it keyed a configuration of its own
    return absl::OkStatus();
  }

 private:
  absl::Status Printable(std::size_t i) const {
    for (const char ch : fields_[i]) {
      if (static_cast<unsigned char>(ch) < 0x20 || static_cast<unsigned char>(ch) > 0x7e) {
        return Error(i, "holds a byte that is not printable ASCII");
      }
    }
    return absl::OkStatus();
  }
  absl::Status Error(std::size_t i, absl::string_view why) const {
    return absl::InvalidArgumentError(absl::StrCat("line ", line_, ", column ", i + 1, " '",
                                                   columns_[i], "': value '",
                                                   Shown(fields_[i]), "' ", why));
  }

  const std::vector<absl::string_view>& fields_;
  const std::vector<std::string>& columns_;
  int line_;
  std::size_t next_ = 0;
};

absl::Status CheckHeader(const std::vector<absl::string_view>& found,
                         const std::vector<std::string>& expected, int line) {
  const std::size_t common = std::min(found.size(), expected.size());
  for (std::size_t i = 0; i < common; ++i) {
    if (found[i] != expected[i]) {
      return absl::InvalidArgumentError(absl::StrCat("header (line ", line, ") column ", i + 1,
                                                     ": expected '", expected[i], "', found '",
                                                     Shown(found[i]), "'"));
    }
  }
  if (found.size() < expected.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "header (line ", line, ") has ", found.size(), " columns, expected ", expected.size(),
        ": column ", common + 1, " '", expected[common], "' is missing"));
  }
  if (found.size() > expected.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "header (line ", line, ") has ", found.size(), " columns, expected ", expected.size(),
        ": unexpected column ", common + 1, " '", Shown(found[common]), "'"));
  }
  return absl::OkStatus();
}

absl::StatusOr<SweepPoint> ParseRow(const std::vector<absl::string_view>& fields,
                                    const std::vector<std::string>& columns, int line) {
  RowReader r(fields, columns, line);
  SweepPoint p;
  absl::Status s;
  auto read_double = [&](double* out) {
    if (s.ok()) s = r.Double(out);
  };
  auto read_int = [&](int* out) {
    if (s.ok()) s = r.Int(out);
  };
  auto read_size = [&](double* out, bool optional = false) {
    if (s.ok()) s = r.NonNegative(out, optional);
  };
  auto read_at_least = [&](int* out, int lo) {
    if (s.ok()) s = r.IntAtLeast(out, lo);
  };
  // Sizes, times and counts are checked for range here, where the line and column can be named
  // (before session 49 a negative size or an unknown order was summarized as it was).
  s = r.String(&p.workload);
  if (s.ok()) s = r.String(&p.grid);
  read_size(&p.in_bytes);
  read_size(&p.out_bytes);
  read_size(&p.intensity);
  if (s.ok()) s = r.Choice(&p.order, {"depth-first", "breadth-first", "engine-per-stream"});
  read_int(&p.streams);  // Summarize names a streams below 1 with its configuration
  read_double(&p.median_ms);  // and a median that is not finite and > 0
  read_size(&p.p10_ms, true);
  read_size(&p.p90_ms, true);
  read_at_least(&p.repetitions, 1);
  read_size(&p.h2d_ms, true);
  read_size(&p.kernel_ms, true);
  read_size(&p.d2h_ms, true);
  // Predictions as the models gave them: veneva-regression's may be negative (docs/models.md).
  for (std::size_t m = 0; m < kSweepModelCount; ++m) read_double(&p.predicted_ms[m]);
  read_double(&p.calibrated_ms);
  // A chosen n of 0: not computed.
  for (std::size_t m = 0; m < kSweepModelCount; ++m) read_at_least(&p.chosen[m], 0);
  read_at_least(&p.adaptive_n, 0);
  // The optional last columns, where the header has them.
  if (std::find(columns.begin(), columns.end(), "issue_ms") != columns.end()) {
    read_size(&p.issue_ms, true);
  }
  if (s.ok() && std::find(columns.begin(), columns.end(), "issue") != columns.end()) {
    s = r.Choice(&p.issue, {"streams", "graph"});
  }
  const auto has = [&](std::string_view name) {
    return std::find(columns.begin(), columns.end(), name) != columns.end();
  };
  if (has("halves_ratio")) read_size(&p.halves_ratio, true);
  if (has("held_ms")) read_size(&p.held_ms, true);
  if (has("pred_calibrated_device")) read_double(&p.calibrated_device_ms);
  if (has("pred_current_device")) read_double(&p.current_device_ms);
  if (has("adaptive_runs")) read_int(&p.adaptive_runs);
  if (has("adaptive_deviation")) read_double(&p.adaptive_deviation);
  if (has("kernel_half_ms")) read_size(&p.kernel_half_ms, true);
  if (has("adaptive_batches")) read_int(&p.adaptive_batches);
  if (has("adaptive_calibrated")) read_int(&p.adaptive_calibrated);
  if (s.ok() && has("settings")) s = r.Settings(&p.settings);
  if (!s.ok()) return s;
  return p;
}

// ---- summary ----

std::string ConfigKey(const SweepPoint& p) {
  return absl::StrCat(p.workload, "\x1f", p.grid, "\x1f", FormatDouble(p.in_bytes), "\x1f",
                      FormatDouble(p.out_bytes), "\x1f", FormatDouble(p.intensity), "\x1f",
                      p.order, "\x1f", p.issue);
}

std::string ConfigName(const SweepPoint& p) {
  return absl::StrCat(p.workload, "/", p.grid, " in_bytes=", FormatDouble(p.in_bytes),
                      " out_bytes=", FormatDouble(p.out_bytes),
                      " intensity=", FormatDouble(p.intensity), " order=", p.order,
                      p.issue == "streams" ? "" : absl::StrCat(" issue=", p.issue));
}

struct Config {
  std::size_t first = 0;         // index of its first point
  std::map<int, double> median;  // n -> median_ms
  int best_n = 0;
};

// Running mean of ratios.
struct Mean {
  double sum = 0;
  int count = 0;
  void Add(double x) {
    sum += x;
    ++count;
  }
  double Value() const { return count > 0 ? sum / count : kNaN; }
};

const double* Find(const std::map<int, double>& m, int n) {
  auto it = m.find(n);
  return it == m.end() ? nullptr : &it->second;
}

std::string Percent(double x) {
  return std::isfinite(x) ? absl::StrFormat("%.1f%%", 100 * x) : "n/a";
}
std::string Ratio(double x) { return std::isfinite(x) ? absl::StrFormat("%.3f", x) : "n/a"; }
std::string Times(double x) { return std::isfinite(x) ? absl::StrFormat("%.2fx", x) : "n/a"; }

// Median, largest and count over 10 % of relative errors (NaN and 0 where there are none).
ModelAccuracy AccuracyOf(std::string name, std::vector<double> errors) {
  ModelAccuracy a;
  a.model = std::move(name);
  a.points = static_cast<int>(errors.size());
  a.over_10_percent = static_cast<int>(
      std::count_if(errors.begin(), errors.end(), [](double x) { return x > 0.1; }));
  if (!errors.empty()) {
    a.max_rel_error = *std::max_element(errors.begin(), errors.end());
    a.median_rel_error = Median(std::move(errors));
  }
  return a;
}

std::string AdaptiveRunsSentence(const AdaptiveRuns& a) {
  return absl::StrCat("Adaptive runs: ", a.repeated, " of ", a.configs,
                      " configurations ran theirs again (its own batches off the rounds before "
                      "it by more than ",
                      Percent(kAdaptiveAgreementWithin), " over all its n or ",
                      Percent(kAdaptiveSampleWithin), " at one, or nothing sampled); ", a.off,
                      " still off after the last run (the run agreeing best is kept).",
                      a.calibration_recorded == 0
                          ? ""
                          : absl::StrCat(" Kept runs took ", FormatDouble(a.median_batches),
                                         " batches (median; at most ", a.max_batches, "); ",
                                         a.incomplete, " of ", a.calibration_recorded,
                                         " ended with their calibration incomplete at "
                                         "--adaptive-max-batches."));
}

// A row of the repeatability and device-time tables: predictor, points, median, max, over 10 %.
std::string MarkdownRow(const ModelAccuracy& a) {
  return absl::StrCat("| ", a.model, " | ", a.points, " | ", Percent(a.median_rel_error), " | ",
                      Percent(a.max_rel_error), " | ", a.over_10_percent, " |\n");
}
std::string TextRow(const ModelAccuracy& a) {
  return absl::StrFormat("  %-49s %7d %10s %10s %10d\n", a.model, a.points,
                         Percent(a.median_rel_error), Percent(a.max_rel_error),
                         a.over_10_percent);
}

// A cell of the per-grid table: "median / max (over 10 %)", or "n/a" where the predictor has
// no point there.
std::string GridCell(const ModelAccuracy& a) {
  if (a.points == 0) return "n/a";
  return absl::StrCat(Percent(a.median_rel_error), " / ", Percent(a.max_rel_error), " (",
                      a.over_10_percent, ")");
}

// A cell of the per-mode choice table: mean / worst ratio (mean / worst speed).
std::string ChoiceCell(const ChoiceQuality& q) {
  if (q.configs == 0) return "n/a";
  return absl::StrCat(Ratio(q.mean_ratio), " / ", Ratio(q.worst_ratio), " (",
                      Ratio(q.mean_speed), " / ", Ratio(q.worst_speed), ")");
}

// A table of one row label and one cell per column (a grid, an issue mode) in each row.
struct Columns {
  std::string corner;                // the label column's header
  std::vector<std::string> headers;  // a column's header each
  std::vector<std::pair<std::string, std::vector<std::string>>> rows;
};

// The rows of `per_column` (one list per column, its rows in the same order): each row labelled
// by `label` of the first column's entry, each cell `cell` of that column's entry.
template <typename T, typename Label, typename Cell>
Columns ColumnsOf(std::string corner, std::vector<std::string> headers,
                  const std::vector<const std::vector<T>*>& per_column, Label label, Cell cell) {
  Columns c{std::move(corner), std::move(headers), {}};
  if (per_column.empty()) return c;
  for (std::size_t row = 0; row < per_column.front()->size(); ++row) {
    std::vector<std::string> cells;
    for (const std::vector<T>* column : per_column) cells.push_back(cell((*column)[row]));
    c.rows.emplace_back(label((*per_column.front())[row]), std::move(cells));
  }
  return c;
}

std::string MarkdownColumns(const Columns& c) {
  std::string out = absl::StrCat("| ", c.corner, " |");
  std::string rule = "| --- |";
  for (const std::string& h : c.headers) {
    absl::StrAppend(&out, " ", h, " |");
    absl::StrAppend(&rule, " ---: |");
  }
  absl::StrAppend(&out, "\n", rule, "\n");
  for (const auto& [label, cells] : c.rows) {
    absl::StrAppend(&out, "| ", label, " |");
    for (const std::string& cell : cells) absl::StrAppend(&out, " ", cell, " |");
    absl::StrAppend(&out, "\n");
  }
  return out;
}

// Indented two spaces, labels in 20 columns, each cell right-aligned in `width`.
std::string TextColumns(const Columns& c, int width) {
  std::string out = absl::StrFormat("  %-20s", c.corner);
  for (const std::string& h : c.headers) absl::StrAppend(&out, absl::StrFormat(" %*s", width, h));
  absl::StrAppend(&out, "\n");
  for (const auto& [label, cells] : c.rows) {
    absl::StrAppend(&out, absl::StrFormat("  %-20s", label));
    for (const std::string& cell : cells) {
      absl::StrAppend(&out, absl::StrFormat(" %*s", width, cell));
    }
    absl::StrAppend(&out, "\n");
  }
  return out;
}

std::string ModelOf(const ModelAccuracy& a) { return a.model; }
std::string WhoOf(const ChoiceQuality& q) { return q.who; }

// The tables per grid and per issue mode: each predictor's accuracy in each, and each chooser's
// choice in each mode. `markdown` names the columns in full.
Columns GridAccuracyColumns(const SweepSummary& s) {
  std::vector<std::string> headers;
  std::vector<const std::vector<ModelAccuracy>*> columns;
  for (const GridAccuracy& g : s.grid_accuracy) {
    headers.push_back(absl::StrCat(g.grid, " (", g.points, ")"));
    columns.push_back(&g.accuracy);
  }
  return ColumnsOf("predictor", std::move(headers), columns, ModelOf, GridCell);
}
Columns ModeAccuracyColumns(const SweepSummary& s, bool markdown) {
  std::vector<std::string> headers;
  std::vector<const std::vector<ModelAccuracy>*> columns;
  for (const IssueModeSummary& m : s.issue_modes) {
    headers.push_back(markdown ? absl::StrCat(m.issue, " (", m.points, " points, ", m.configs,
                                              " configurations)")
                               : absl::StrCat(m.issue, " (", m.points, ")"));
    columns.push_back(&m.accuracy);
  }
  return ColumnsOf("predictor", std::move(headers), columns, ModelOf, GridCell);
}
Columns ModeChoiceColumns(const SweepSummary& s, bool markdown) {
  std::vector<std::string> headers;
  std::vector<const std::vector<ChoiceQuality>*> columns;
  for (const IssueModeSummary& m : s.issue_modes) {
    headers.push_back(markdown ? m.issue : absl::StrCat(m.issue, " (", m.configs, ")"));
    columns.push_back(&m.choices);
  }
  return ColumnsOf("chooser", std::move(headers), columns, WhoOf, ChoiceCell);
}

bool AnyHeld(const SweepSummary& s) {
  return std::any_of(s.device_accuracy.begin(), s.device_accuracy.end(),
                     [](const ModelAccuracy& a) { return a.points > 0; });
}

struct SpeedUpRow {
  std::string label;
  double mean;
  int configs;
};

std::vector<SpeedUpRow> SpeedUpRows(const SpeedUps& s) {
  return {{"adaptive n vs n=1", s.vs_non_streamed_mean, s.vs_non_streamed_configs},
          {"adaptive n vs n=4", s.vs_fixed4_mean, s.vs_fixed4_configs},
          {"adaptive n vs n=8", s.vs_fixed8_mean, s.vs_fixed8_configs},
          {"best n vs n=1", s.best_vs_non_streamed_mean, s.best_vs_non_streamed_configs},
          {"best n vs n=4", s.best_vs_fixed4_mean, s.best_vs_fixed4_configs},
          {"best n vs n=8", s.best_vs_fixed8_mean, s.best_vs_fixed8_configs}};
}

}  // namespace

// ---- CSV ----

std::vector<std::string> SweepCsvColumns() {
  std::vector<std::string> c = {"workload",    "grid",    "in_bytes",  "out_bytes", "intensity",
                                "order",       "streams", "median_ms", "p10_ms",    "p90_ms",
                                "repetitions", "h2d_ms",  "kernel_ms", "d2h_ms"};
  for (ModelKind k : kAllModelKinds) c.push_back(ModelColumn("pred_", k));
  c.push_back("pred_calibrated");
  for (ModelKind k : kAllModelKinds) c.push_back(ModelColumn("chosen_", k));
  c.push_back("chosen_adaptive");
  c.push_back("issue_ms");
  c.push_back("issue");
  c.push_back("halves_ratio");
  c.push_back("held_ms");
  c.push_back("pred_calibrated_device");
  c.push_back("pred_current_device");
  c.push_back("adaptive_runs");
  c.push_back("adaptive_deviation");
  c.push_back("kernel_half_ms");
  c.push_back("adaptive_batches");
  c.push_back("adaptive_calibrated");
  c.push_back("settings");
  return c;
}

std::string SweepCsvHeader() { return absl::StrCat(absl::StrJoin(SweepCsvColumns(), ","), "\n"); }

std::string SweepCsvRow(const SweepPoint& p) {
  std::vector<std::string> f = {p.workload,
                                p.grid,
                                FormatDouble(p.in_bytes),
                                FormatDouble(p.out_bytes),
                                FormatDouble(p.intensity),
                                p.order,
                                absl::StrCat(p.streams),
                                FormatDouble(p.median_ms),
                                FormatDouble(p.p10_ms),
                                FormatDouble(p.p90_ms),
                                absl::StrCat(p.repetitions),
                                FormatDouble(p.h2d_ms),
                                FormatDouble(p.kernel_ms),
                                FormatDouble(p.d2h_ms)};
  for (std::size_t m = 0; m < kSweepModelCount; ++m) {
    f.push_back(FormatDouble(m < p.predicted_ms.size() ? p.predicted_ms[m] : kNaN));
  }
  f.push_back(FormatDouble(p.calibrated_ms));
  for (std::size_t m = 0; m < kSweepModelCount; ++m) {
    f.push_back(absl::StrCat(m < p.chosen.size() ? p.chosen[m] : 0));
  }
  f.push_back(absl::StrCat(p.adaptive_n));
  f.push_back(FormatDouble(p.issue_ms));
  f.push_back(p.issue);
  f.push_back(FormatDouble(p.halves_ratio));
  f.push_back(FormatDouble(p.held_ms));
  f.push_back(FormatDouble(p.calibrated_device_ms));
  f.push_back(FormatDouble(p.current_device_ms));
  f.push_back(absl::StrCat(p.adaptive_runs));
  f.push_back(FormatDouble(p.adaptive_deviation));
  f.push_back(FormatDouble(p.kernel_half_ms));
  f.push_back(absl::StrCat(p.adaptive_batches));
  f.push_back(absl::StrCat(p.adaptive_calibrated));
  f.push_back(p.settings);
  return absl::StrCat(absl::StrJoin(f, ","), "\n");
}

SweepConfigKey ConfigKeyOf(const SweepPoint& p) {
  return {p.workload, p.grid, p.in_bytes, p.out_bytes, p.intensity, p.order, p.issue};
}

std::string ConfigKeyName(const SweepConfigKey& k) {
  return absl::StrCat(k.workload, " ", k.grid, ", ", FormatDouble(k.in_bytes), " B in, ",
                      FormatDouble(k.out_bytes), " B out, intensity ", FormatDouble(k.intensity),
                      ", ", k.order, ", ", k.issue);
}

absl::StatusOr<std::string> FormatSweepSettings(
    const std::vector<std::pair<std::string, std::string>>& settings) {
  std::set<std::string> keys;
  std::vector<std::string> tokens;
  for (const auto& [key, value] : settings) {
    const auto bad = [](std::string_view text) {
      return text.find_first_of(" =,\r\n") != std::string_view::npos;
    };
    if (key.empty() || bad(key) || bad(value)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "sweep setting '", key, "=", value,
          "': a key must be non-empty and neither may hold a space, '=', a comma or a line break"));
    }
    if (!keys.insert(key).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("sweep setting '", key, "' is given twice"));
    }
    tokens.push_back(absl::StrCat(key, "=", value));
  }
  return absl::StrJoin(tokens, " ");
}

std::vector<std::pair<std::string, std::string>> ParseSweepSettings(std::string_view settings) {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (absl::string_view token : absl::StrSplit(Av(settings), ' ', absl::SkipEmpty())) {
    const std::size_t eq = token.find('=');
    pairs.emplace_back(std::string(token.substr(0, eq)),
                       eq == absl::string_view::npos ? "" : std::string(token.substr(eq + 1)));
  }
  return pairs;
}

std::string SweepSettingNumber(double v) { return FormatDouble(v); }

std::string SweepSettingsDifference(std::string_view was, std::string_view now) {
  const std::vector<std::pair<std::string, std::string>> a = ParseSweepSettings(was);
  const std::vector<std::pair<std::string, std::string>> b = ParseSweepSettings(now);
  const std::map<std::string, std::string> b_map(b.begin(), b.end());
  const std::map<std::string, std::string> a_map(a.begin(), a.end());
  std::vector<std::string> differ;
  std::vector<std::string> one_side;
  for (const auto& [key, value] : a) {
    const auto it = b_map.find(key);
    if (it == b_map.end()) {
      one_side.push_back(absl::StrCat(key, ": ", value, " -> not set"));
    } else if (it->second != value) {
      differ.push_back(absl::StrCat(key, ": ", value, " -> ", it->second));
    }
  }
  for (const auto& [key, value] : b) {
    if (a_map.count(key) == 0) one_side.push_back(absl::StrCat(key, ": not set -> ", value));
  }
  differ.insert(differ.end(), one_side.begin(), one_side.end());
  return absl::StrJoin(differ, "; ");
}

absl::StatusOr<std::set<SweepConfigKey>> KeptConfigurations(const std::vector<SweepPoint>& rows,
                                                            const SweepResume& resume) {
  std::map<SweepConfigKey, std::vector<int>> found;
  for (const SweepPoint& p : rows) {
    const SweepConfigKey key = ConfigKeyOf(p);
    if (resume.streams.count(key) == 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the rows hold a configuration this sweep does not measure (", ConfigKeyName(key),
          "): another command line?"));
    }
    if (p.repetitions != resume.repetitions) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the row n = ", p.streams, " of ", ConfigKeyName(key),
          " was measured with --repetitions=", p.repetitions, ", this sweep's is ",
          resume.repetitions, ": resume with the stopped sweep's flags"));
    }
    if (p.settings != resume.settings) {
      // The same pairs in another order are the same settings.
      if (const std::string difference = SweepSettingsDifference(p.settings, resume.settings);
          !difference.empty()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "the row n = ", p.streams, " of ", ConfigKeyName(key),
            " was measured with other settings than this sweep's (its -> this sweep's: ", difference,
            "): resume with the stopped sweep's flags"));
      }
    }
    found[key].push_back(p.streams);
  }
  std::set<SweepConfigKey> kept;
  for (auto& [key, ns] : found) {
    std::sort(ns.begin(), ns.end());
    const std::vector<int>& want = resume.streams.at(key);
    if (ns != want) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the rows hold n = ", absl::StrJoin(ns, ","), " of ", ConfigKeyName(key),
          ", where this sweep measures n = ", absl::StrJoin(want, ","),
          ": another --streams, or rows cut short?"));
    }
    kept.insert(key);
  }
  return kept;
}

absl::StatusOr<std::vector<SweepPoint>> ParseSweepCsv(std::string_view text,
                                                      std::vector<int>* lines) {
  if (lines != nullptr) lines->clear();
  std::vector<std::string> columns = SweepCsvColumns();
  std::vector<SweepPoint> points;
  bool have_header = false;
  int line_no = 0;
  for (absl::string_view line : absl::StrSplit(Av(text), '\n')) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (absl::StripAsciiWhitespace(line).empty()) continue;
    const std::vector<absl::string_view> fields = SplitFields(line);
    if (!have_header) {
      // Files written before the optional last columns (issue_ms, issue, halves_ratio, then
      // held_ms, pred_calibrated_device and pred_current_device, then adaptive_runs and
      // adaptive_deviation, then kernel_half_ms, then adaptive_batches and
      // adaptive_calibrated, then settings) existed parse.
      for (int optional = 12; optional > 0 && fields.size() < columns.size(); --optional) {
        columns.pop_back();
      }
      if (absl::Status s = CheckHeader(fields, columns, line_no); !s.ok()) return s;
      have_header = true;
      continue;
    }
    if (fields.size() != columns.size()) {
      return absl::InvalidArgumentError(absl::StrCat("line ", line_no, ": ", fields.size(),
                                                     " fields, expected ", columns.size()));
    }
    absl::StatusOr<SweepPoint> p = ParseRow(fields, columns, line_no);
    if (!p.ok()) return p.status();
    points.push_back(*std::move(p));
    if (lines != nullptr) lines->push_back(line_no);
  }
  if (!have_header) return absl::InvalidArgumentError("empty sweep CSV: no header line");
  return points;
}

// ---- the adaptive run against the rounds ----

AdaptiveAgreement CompareAdaptiveRun(const std::vector<MeasuredN>& run, double reference_ms,
                                     const std::map<int, double>& rounds_ms,
                                     bool judge_reference) {
  const auto rounds_at = [&](int n) {
    const auto it = rounds_ms.find(n);
    return it != rounds_ms.end() && std::isfinite(it->second) && it->second > 0.0 ? it->second
                                                                                 : kNaN;
  };
  AdaptiveAgreement a;
  std::vector<double> ratios;
  double worst_off = -1.0;
  for (const MeasuredN& m : run) {
    const double rounds = rounds_at(m.streams);
    // Two samples at least: a single one is the batch the run switched on, or a lone probe.
    if (m.samples < 2 || !std::isfinite(m.median_ms) || !(m.median_ms > 0.0) ||
        !std::isfinite(rounds)) {
      continue;
    }
    const double ratio = m.median_ms / rounds;
    ratios.push_back(ratio);
    if (std::abs(ratio - 1.0) > worst_off) {
      worst_off = std::abs(ratio - 1.0);
      a.worst_ratio = ratio;
      a.worst_n = m.streams;
    }
  }
  a.compared = static_cast<int>(ratios.size());
  if (!ratios.empty()) a.samples_ratio = Median(std::move(ratios));
  const double one = rounds_at(1);
  if (std::isfinite(reference_ms) && reference_ms > 0.0 && std::isfinite(one)) {
    a.reference_ratio = reference_ms / one;
    a.reference_deviation =
        std::max(0.0, reference_ms - one) /
        std::max(kAdaptiveReferenceWithin * one, kAdaptiveReferenceFloorMs);
  }
  if (std::isfinite(a.samples_ratio)) {
    a.samples_deviation = std::max(std::abs(a.samples_ratio - 1.0) / kAdaptiveAgreementWithin,
                                   worst_off / kAdaptiveSampleWithin);
    a.deviation = judge_reference ? std::max(a.samples_deviation, a.reference_deviation)
                                  : a.samples_deviation;
  }
  return a;
}

// ---- lists ----

absl::StatusOr<std::vector<double>> ParseNumberList(std::string_view spec) {
  std::vector<double> values;
  std::vector<ListItem> items;
  if (absl::Status s = ExpandList(spec, &values, &items); !s.ok()) return s;
  return values;
}

absl::StatusOr<std::vector<int>> ParseIntList(std::string_view spec) {
  std::vector<double> values;
  std::vector<ListItem> items;
  if (absl::Status s = ExpandList(spec, &values, &items); !s.ok()) return s;
  std::vector<int> ints;
  ints.reserve(values.size());
  for (const ListItem& item : items) {
    for (std::size_t i = item.begin; i < item.end; ++i) {
      const double v = values[i];
      if (v != std::floor(v)) {
        return ItemError(item.text, absl::StrCat("value ", FormatDouble(v), " is not an integer"));
      }
      if (v < static_cast<double>(INT_MIN) || v > static_cast<double>(INT_MAX)) {
        return ItemError(item.text,
                         absl::StrCat("value ", FormatDouble(v), " is out of the range of int"));
      }
      ints.push_back(static_cast<int>(v));
    }
  }
  return ints;
}

absl::StatusOr<std::vector<std::string>> ParseNameList(std::string_view spec,
                                                       const std::vector<std::string>& allowed) {
  absl::StatusOr<std::vector<absl::string_view>> items = SplitItems(spec);
  if (!items.ok()) return items.status();
  std::vector<std::string> names;
  for (absl::string_view item : *items) {
    if (std::find(allowed.begin(), allowed.end(), item) == allowed.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown name '", item, "'; allowed: ", absl::StrJoin(allowed, ", ")));
    }
    names.emplace_back(item);
  }
  return names;
}

// ---- summary ----

absl::StatusOr<SweepSummary> Summarize(const std::vector<SweepPoint>& points,
                                       const std::vector<int>* lines) {
  if (points.empty()) return absl::InvalidArgumentError("no sweep points to summarize");
  if (lines != nullptr && lines->size() != points.size()) {
    return absl::InvalidArgumentError(absl::StrCat("Summarize: ", lines->size(),
                                                   " line numbers for ", points.size(), " points"));
  }
  // points[idx] in a message: its line in the CSV it came from where known, else its n.
  const auto row = [&](std::size_t idx) {
    return lines != nullptr
               ? absl::StrCat("line ", (*lines)[idx], " (streams=", points[idx].streams, ")")
               : absl::StrCat("the row streams=", points[idx].streams);
  };
  std::vector<Config> configs;
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const SweepPoint& p = points[i];
    const std::string where =
        lines != nullptr
            ? absl::StrCat("line ", (*lines)[i], " (", ConfigName(p), " streams=", p.streams, ")")
            : absl::StrCat("points[", i, "] (", ConfigName(p), " streams=", p.streams, ")");
    if (!std::isfinite(p.median_ms) || p.median_ms <= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": median_ms must be finite and > 0, got ",
                       std::isnan(p.median_ms) ? std::string("NaN") : FormatDouble(p.median_ms)));
    }
    if (p.streams < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": streams must be >= 1, got ", p.streams));
    }
    if (!std::isnan(p.held_ms) && !(std::isfinite(p.held_ms) && p.held_ms > 0)) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": held_ms must be empty (not held) or finite and > 0, got ",
          FormatDouble(p.held_ms)));
    }
    if (p.predicted_ms.size() != kSweepModelCount || p.chosen.size() != kSweepModelCount) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": predicted_ms has ", p.predicted_ms.size(), " and chosen has ", p.chosen.size(),
          " entries, expected ", kSweepModelCount, " (one per model)"));
    }
    auto [it, inserted] = index.try_emplace(ConfigKey(p), configs.size());
    if (inserted) configs.push_back(Config{i, {}, 0});
    Config& c = configs[it->second];
    const SweepPoint& first = points[c.first];
    if (!c.median.emplace(p.streams, p.median_ms).second) {
      std::string where_else;  // the other point's line, from a CSV
      if (lines != nullptr) {
        for (std::size_t j = 0; j < i; ++j) {
          if (points[j].streams == p.streams && ConfigKey(points[j]) == ConfigKey(p)) {
            where_else = absl::StrCat(" (lines ", (*lines)[j], " and ", (*lines)[i], ")");
            break;
          }
        }
      }
      return absl::InvalidArgumentError(absl::StrCat("configuration ", ConfigName(p),
                                                     " has two points with streams=", p.streams,
                                                     where_else));
    }
    for (std::size_t m = 0; m < kSweepModelCount; ++m) {
      if (p.chosen[m] != first.chosen[m]) {
        return absl::InvalidArgumentError(absl::StrCat(
            "configuration ", ConfigName(p), ": ", ModelColumn("chosen_", kAllModelKinds[m]),
            " is ", first.chosen[m], " on ", row(c.first), " but ", p.chosen[m],
            " on ", row(i)));
      }
    }
    if (p.adaptive_n != first.adaptive_n) {
      return absl::InvalidArgumentError(
          absl::StrCat("configuration ", ConfigName(p), ": chosen_adaptive is ", first.adaptive_n,
                       " on ", row(c.first), " but ", p.adaptive_n,
                       " on ", row(i)));
    }
    if (p.adaptive_runs < 0) {
      return absl::InvalidArgumentError(absl::StrCat("configuration ", ConfigName(p),
                                                     ": adaptive_runs is ", p.adaptive_runs,
                                                     " on ", row(i),
                                                     "; it counts runs, >= 0"));
    }
    // One adaptive run per configuration: its count and deviation are the same on every row
    // (NaN equal to NaN).
    const bool same_deviation =
        p.adaptive_deviation == first.adaptive_deviation ||
        (std::isnan(p.adaptive_deviation) && std::isnan(first.adaptive_deviation));
    if (p.adaptive_runs != first.adaptive_runs || !same_deviation) {
      return absl::InvalidArgumentError(absl::StrCat(
          "configuration ", ConfigName(p), ": adaptive_runs / adaptive_deviation are ",
          first.adaptive_runs, " / ", FormatDouble(first.adaptive_deviation),
          " on ", row(c.first), " but ", p.adaptive_runs, " / ",
          FormatDouble(p.adaptive_deviation), " on ", row(i)));
    }
    if (p.adaptive_batches < 0 || p.adaptive_calibrated < -1 || p.adaptive_calibrated > 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "configuration ", ConfigName(p), ": adaptive_batches / adaptive_calibrated are ",
          p.adaptive_batches, " / ", p.adaptive_calibrated, " on ", row(i),
          "; batches are counted (>= 0) and the calibration is 1, 0 or -1 (not recorded)"));
    }
    if (p.adaptive_calibrated >= 0 && (p.adaptive_batches < 1 || p.adaptive_runs < 1)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "configuration ", ConfigName(p), ": adaptive_calibrated is ", p.adaptive_calibrated,
          " on ", row(i), " with adaptive_batches ", p.adaptive_batches,
          " and adaptive_runs ", p.adaptive_runs,
          "; a recorded calibration needs a kept run of at least one batch"));
    }
    if (p.adaptive_batches != first.adaptive_batches ||
        p.adaptive_calibrated != first.adaptive_calibrated) {
      return absl::InvalidArgumentError(absl::StrCat(
          "configuration ", ConfigName(p), ": adaptive_batches / adaptive_calibrated are ",
          first.adaptive_batches, " / ", first.adaptive_calibrated, " on ", row(c.first),
          " but ", p.adaptive_batches, " / ", p.adaptive_calibrated,
          " on ", row(i)));
    }
  }
  for (Config& c : configs) {
    double best = 0;
    for (const auto& [n, ms] : c.median) {  // ascending n: ties keep the smaller n
      if (c.best_n == 0 || ms < best) {
        c.best_n = n;
        best = ms;
      }
    }
  }

  SweepSummary summary;
  // Accuracy.
  // Each predictor's relative error against `measured` over the points where both are finite.
  auto against = [&](auto measured) {
    return [&points, measured](std::string name, auto predicted) {
      std::vector<double> errors;
      for (const SweepPoint& p : points) {
        const double pred = predicted(p);
        const double m = measured(p);
        if (std::isfinite(pred) && std::isfinite(m)) errors.push_back(std::abs(pred - m) / m);
      }
      return AccuracyOf(std::move(name), std::move(errors));
    };
  };
  const auto wall = against([](const SweepPoint& p) { return p.median_ms; });
  // Each model's accuracy, then the calibrated prediction's, over the points `keep` accepts (a
  // prediction elsewhere counts as not defined).
  auto accuracy_rows = [&wall](auto keep) {
    auto kept = [&keep](auto predicted) {
      return [&keep, predicted](const SweepPoint& p) { return keep(p) ? predicted(p) : kNaN; };
    };
    std::vector<ModelAccuracy> rows;
    for (std::size_t m = 0; m < kSweepModelCount; ++m) {
      rows.push_back(wall(std::string(ModelName(kAllModelKinds[m])),
                          kept([m](const SweepPoint& p) { return p.predicted_ms[m]; })));
    }
    rows.push_back(wall("calibrated", kept([](const SweepPoint& p) { return p.calibrated_ms; })));
    return rows;
  };
  summary.accuracy = accuracy_rows([](const SweepPoint&) { return true; });

  // The values of a string field of the points, in the order they first appear.
  const auto distinct = [&points](std::string SweepPoint::*field) {
    std::vector<std::string> out;
    for (const SweepPoint& p : points) {
      if (std::find(out.begin(), out.end(), p.*field) == out.end()) out.push_back(p.*field);
    }
    return out;
  };

  // Accuracy per grid, where the sweep has several.
  const std::vector<std::string> grids = distinct(&SweepPoint::grid);
  if (grids.size() > 1) {
    for (const std::string& grid : grids) {
      const auto on_grid = [&grid](const SweepPoint& p) { return p.grid == grid; };
      summary.grid_accuracy.push_back(
          {grid, static_cast<int>(std::count_if(points.begin(), points.end(), on_grid)),
           accuracy_rows(on_grid)});
    }
  }

  // Choice of n: each chooser's row over the configurations `keep` accepts (by their first
  // point).
  auto choice = [&](std::string who, auto chosen_n, auto keep) {
    Mean mean, speed;
    double worst = kNaN, slowest = kNaN;
    for (const Config& c : configs) {
      if (!keep(points[c.first])) continue;
      const double* t = Find(c.median, chosen_n(points[c.first]));
      if (t == nullptr) continue;  // not computed (0) or not measured
      const double ratio = *t / c.median.at(c.best_n);
      mean.Add(ratio);
      speed.Add(1.0 / ratio);
      if (!(ratio <= worst)) worst = ratio;
      if (!(1.0 / ratio >= slowest)) slowest = 1.0 / ratio;
    }
    ChoiceQuality q;
    q.who = std::move(who);
    q.configs = mean.count;
    q.mean_ratio = mean.Value();
    q.worst_ratio = worst;
    q.mean_speed = speed.Value();
    q.worst_speed = slowest;
    return q;
  };
  auto choice_rows = [&](auto keep) {
    std::vector<ChoiceQuality> rows;
    for (std::size_t m = 0; m < kSweepModelCount; ++m) {
      rows.push_back(choice(std::string(ModelName(kAllModelKinds[m])),
                            [m](const SweepPoint& p) { return p.chosen[m]; }, keep));
    }
    rows.push_back(choice("adaptive", [](const SweepPoint& p) { return p.adaptive_n; }, keep));
    return rows;
  };
  summary.choices = choice_rows([](const SweepPoint&) { return true; });

  // Accuracy and choice per issue mode, where the sweep has several.
  const std::vector<std::string> modes = distinct(&SweepPoint::issue);
  if (modes.size() > 1) {
    for (const std::string& mode : modes) {
      const auto in_mode = [&mode](const SweepPoint& p) { return p.issue == mode; };
      IssueModeSummary m;
      m.issue = mode;
      m.points = static_cast<int>(std::count_if(points.begin(), points.end(), in_mode));
      m.configs = static_cast<int>(std::count_if(
          configs.begin(), configs.end(),
          [&](const Config& c) { return in_mode(points[c.first]); }));
      m.accuracy = accuracy_rows(in_mode);
      m.choices = choice_rows(in_mode);
      summary.issue_modes.push_back(std::move(m));
    }
  }

  // Speed-ups.
  Mean adaptive_vs[3], best_vs[3];
  constexpr int kFixed[3] = {1, 4, 8};
  for (const Config& c : configs) {
    const double best = c.median.at(c.best_n);
    const double* adaptive = Find(c.median, points[c.first].adaptive_n);
    for (int j = 0; j < 3; ++j) {
      const double* fixed = Find(c.median, kFixed[j]);
      if (fixed == nullptr) continue;
      best_vs[j].Add(*fixed / best);
      if (adaptive != nullptr) adaptive_vs[j].Add(*fixed / *adaptive);
    }
  }
  SpeedUps& s = summary.speedups;
  s.configs = static_cast<int>(configs.size());
  s.vs_non_streamed_mean = adaptive_vs[0].Value();
  s.vs_non_streamed_configs = adaptive_vs[0].count;
  s.vs_fixed4_mean = adaptive_vs[1].Value();
  s.vs_fixed4_configs = adaptive_vs[1].count;
  s.vs_fixed8_mean = adaptive_vs[2].Value();
  s.vs_fixed8_configs = adaptive_vs[2].count;
  s.best_vs_non_streamed_mean = best_vs[0].Value();
  s.best_vs_non_streamed_configs = best_vs[0].count;
  s.best_vs_fixed4_mean = best_vs[1].Value();
  s.best_vs_fixed4_configs = best_vs[1].count;
  s.best_vs_fixed8_mean = best_vs[2].Value();
  s.best_vs_fixed8_configs = best_vs[2].count;

  // Repeatability.
  Repeatability& rep = summary.repeatability;
  std::vector<double> changes, all, repeatable;
  for (const SweepPoint& p : points) {
    if (!std::isfinite(p.halves_ratio)) continue;
    const double change = std::abs(p.halves_ratio - 1.0);
    changes.push_back(change);
    if (!std::isfinite(p.calibrated_ms)) continue;
    const double error = std::abs(p.calibrated_ms - p.median_ms) / p.median_ms;
    all.push_back(error);
    if (change <= kRepeatableWithin) repeatable.push_back(error);
  }
  rep.measurement = AccuracyOf("measurement, after / before", std::move(changes));
  rep.calibrated_all = AccuracyOf("calibrated, measured twice", std::move(all));
  rep.calibrated_repeatable = AccuracyOf(
      absl::StrCat("calibrated, repeating within ", Percent(kRepeatableWithin)),
      std::move(repeatable));
  std::vector<double> beyond;
  for (const SweepPoint& p : points) {
    if (!std::isfinite(p.calibrated_ms) || !(p.p10_ms > 0) || !(p.p90_ms > 0) ||
        !std::isfinite(p.p10_ms) || !std::isfinite(p.p90_ms)) {
      continue;
    }
    const double low = std::min(p.p10_ms, p.median_ms);
    const double high = std::max(p.p90_ms, p.median_ms);
    const double outside = p.calibrated_ms > high  ? p.calibrated_ms - high
                           : p.calibrated_ms < low ? low - p.calibrated_ms
                                                   : 0.0;
    beyond.push_back(outside / p.median_ms);
  }
  rep.calibrated_beyond_spread =
      AccuracyOf("calibrated, beyond the batches' p10-p90", std::move(beyond));
  rep.calibrated_agreeing =
      wall("calibrated, adaptive run agreeing with the rounds", [](const SweepPoint& p) {
        return p.adaptive_runs > 0 && p.adaptive_deviation <= 1.0 ? p.calibrated_ms : kNaN;
      });

  // The adaptive runs, one count per configuration (its first point stands for it).
  std::vector<double> batches;  // the kept runs' batches, where the calibration is recorded
  for (const Config& c : configs) {
    const SweepPoint& p = points[c.first];
    if (p.adaptive_runs <= 0) continue;
    ++summary.adaptive_runs.configs;
    if (p.adaptive_runs > 1) ++summary.adaptive_runs.repeated;
    if (!(p.adaptive_deviation <= 1.0)) ++summary.adaptive_runs.off;
    if (p.adaptive_calibrated >= 0) {
      ++summary.adaptive_runs.calibration_recorded;
      if (p.adaptive_calibrated == 0) ++summary.adaptive_runs.incomplete;
      batches.push_back(p.adaptive_batches);
    }
  }
  if (!batches.empty()) {
    summary.adaptive_runs.max_batches =
        static_cast<int>(*std::max_element(batches.begin(), batches.end()));
    summary.adaptive_runs.median_batches = Median(std::move(batches));
  }

  // The device's time alone.
  const auto held = against([](const SweepPoint& p) { return p.held_ms; });
  auto device = [&](std::string name, auto predicted) {
    summary.device_accuracy.push_back(held(std::move(name), predicted));
  };
  for (std::size_t m = 0; m < kSweepModelCount; ++m) {
    device(std::string(ModelName(kAllModelKinds[m])),
           [m](const SweepPoint& p) { return p.predicted_ms[m]; });
  }
  device("current, device paths", [](const SweepPoint& p) { return p.current_device_ms; });
  device("calibrated, device part", [](const SweepPoint& p) { return p.calibrated_device_ms; });

  // The settings the rows were measured with, in the order they first appear.
  for (const SweepPoint& p : points) {
    auto it = std::find_if(summary.settings.begin(), summary.settings.end(), [&p](const auto& e) {
      return e.first == p.settings || SweepSettingsDifference(e.first, p.settings).empty();
    });
    if (it == summary.settings.end()) {
      summary.settings.emplace_back(p.settings, 1);
    } else {
      ++it->second;
    }
  }
  return summary;
}

namespace {

// The settings as a paragraph or a line: nothing where no row records them; where rows of
// several settings were put together, each with its rows and how it differs from the first.
std::string SettingsReport(const SweepSummary& summary, bool markdown) {
  const auto& settings = summary.settings;
  if (settings.empty() || (settings.size() == 1 && settings.front().first.empty())) return "";
  const auto quote = [markdown](const std::string& s) {
    return s.empty() ? std::string("(not recorded)") : markdown ? absl::StrCat("`", s, "`") : s;
  };
  if (settings.size() == 1) {
    return markdown ? absl::StrCat("\n### Settings\n\nMeasured with ", quote(settings[0].first),
                                   ".\n")
                    : absl::StrCat("Settings: ", settings[0].first, "\n");
  }
  std::string out = markdown ? absl::StrCat("\n### Settings\n\nThe rows were measured with ",
                                            settings.size(),
                                            " settings, and the tables above mix them:\n\n")
                             : absl::StrCat("Warning: the rows were measured with ",
                                            settings.size(), " settings, and the tables mix them:\n");
  for (std::size_t i = 0; i < settings.size(); ++i) {
    const auto& [text, rows] = settings[i];
    absl::StrAppend(&out, markdown ? "- " : "  ", rows, rows == 1 ? " row: " : " rows: ",
                    quote(text));
    if (i > 0) {
      absl::StrAppend(&out, " (from the first: ",
                      SweepSettingsDifference(settings[0].first, text), ")");
    }
    absl::StrAppend(&out, "\n");
  }
  return out;
}

}  // namespace

std::string SummaryMarkdown(const SweepSummary& summary) {
  std::string out =
      "### Prediction accuracy\n\n"
      "Relative error |predicted - measured| / measured over the points where the predictor "
      "is defined.\n\n"
      "| predictor | points | median error | max error |\n"
      "| --- | ---: | ---: | ---: |\n";
  for (const ModelAccuracy& a : summary.accuracy) {
    absl::StrAppend(&out, "| ", a.model, " | ", a.points, " | ", Percent(a.median_rel_error), " | ",
                    Percent(a.max_rel_error), " |\n");
  }
  if (!summary.grid_accuracy.empty()) {
    absl::StrAppend(&out,
                    "\n### Prediction accuracy per grid\n\n"
                    "Median / max relative error (points over 10 %) of each predictor over "
                    "each grid's points (the grid's points in the header).\n\n",
                    MarkdownColumns(GridAccuracyColumns(summary)));
  }
  absl::StrAppend(&out,
                  "\n### Choice of n\n\n"
                  "Ratio: measured time at the chosen n / measured time at the best measured n, "
                  "over the configurations where the chosen n was measured. Speed: its inverse, "
                  "the fraction of the best n's speed the chosen n reaches (the mean of the "
                  "speeds; the worst is the lowest).\n\n"
                  "| chooser | configurations | mean ratio | worst ratio | mean speed | worst "
                  "speed |\n"
                  "| --- | ---: | ---: | ---: | ---: | ---: |\n");
  for (const ChoiceQuality& q : summary.choices) {
    absl::StrAppend(&out, "| ", q.who, " | ", q.configs, " | ", Ratio(q.mean_ratio), " | ",
                    Ratio(q.worst_ratio), " | ", Ratio(q.mean_speed), " | ",
                    Ratio(q.worst_speed), " |\n");
  }
  if (!summary.issue_modes.empty()) {
    absl::StrAppend(&out,
                    "\n### Per issue mode\n\n"
                    "Each issue mode's points alone (the mode's points and configurations in the "
                    "header): median / max relative error (points over 10 %) of each predictor, "
                    "then each chooser's mean / worst ratio (mean / worst speed).\n\n",
                    MarkdownColumns(ModeAccuracyColumns(summary, /*markdown=*/true)), "\n",
                    MarkdownColumns(ModeChoiceColumns(summary, /*markdown=*/true)));
  }
  absl::StrAppend(&out,
                  "\n### Speed-ups\n\n"
                  "Measured time at the fixed n / measured time at the adaptive (or best) n, "
                  "mean over the configurations where both were measured (",
                  summary.speedups.configs,
                  " configurations in the sweep).\n\n"
                  "| comparison | mean speed-up | configurations |\n"
                  "| --- | ---: | ---: |\n");
  for (const SpeedUpRow& r : SpeedUpRows(summary.speedups)) {
    absl::StrAppend(&out, "| ", r.label, " | ", Times(r.mean), " | ", r.configs, " |\n");
  }
  const Repeatability& r = summary.repeatability;
  absl::StrAppend(&out,
                  "\n### Repeatability\n\n"
                  "Each point measured in rounds before and after the adaptive run: |median "
                  "after / median before - 1| (the measurement), and the calibrated prediction's "
                  "error over those points and over the ones that repeat within ",
                  Percent(kRepeatableWithin),
                  "; the calibrated prediction's error counted from the nearer edge of the "
                  "point's own batches' p10-p90 instead of their median (0 inside it); where the "
                  "sweep recorded its adaptive runs, also over the configurations "
                  "whose kept run agreed with the rounds before it (its batches within ",
                  Percent(kAdaptiveAgreementWithin), " over all its n, ",
                  Percent(kAdaptiveSampleWithin), " at each).\n\n"
                  "| over | points | median | max | over 10% |\n"
                  "| --- | ---: | ---: | ---: | ---: |\n");
  for (const ModelAccuracy* a : {&r.measurement, &r.calibrated_all, &r.calibrated_repeatable,
                                  &r.calibrated_beyond_spread}) {
    absl::StrAppend(&out, MarkdownRow(*a));
  }
  if (r.calibrated_agreeing.points > 0) absl::StrAppend(&out, MarkdownRow(r.calibrated_agreeing));
  if (const AdaptiveRuns& a = summary.adaptive_runs; a.configs > 0) {
    absl::StrAppend(&out, "\n", AdaptiveRunsSentence(a), "\n");
  }
  if (AnyHeld(summary)) {
    absl::StrAppend(&out,
                    "\n### Device time (the host's issue hidden)\n\n"
                    "Relative error against the median of batches held behind a gate until "
                    "the host had enqueued them all (held_ms): the device's time alone.\n\n"
                    "| predictor | points | median | max | over 10% |\n"
                    "| --- | ---: | ---: | ---: | ---: |\n");
    for (const ModelAccuracy& a : summary.device_accuracy) absl::StrAppend(&out, MarkdownRow(a));
  }
  absl::StrAppend(&out, SettingsReport(summary, /*markdown=*/true));
  return out;
}

std::string SummaryText(const SweepSummary& summary) {
  std::string out = "Prediction accuracy (|predicted - measured| / measured):\n";
  absl::StrAppend(
      &out, absl::StrFormat("  %-20s %7s %10s %10s\n", "predictor", "points", "median", "max"));
  for (const ModelAccuracy& a : summary.accuracy) {
    absl::StrAppend(&out, absl::StrFormat("  %-20s %7d %10s %10s\n", a.model, a.points,
                                          Percent(a.median_rel_error), Percent(a.max_rel_error)));
  }
  if (!summary.grid_accuracy.empty()) {
    absl::StrAppend(&out, "Prediction accuracy per grid (median / max, points over 10 %):\n",
                    TextColumns(GridAccuracyColumns(summary), 24));
  }
  absl::StrAppend(&out,
                  "Choice of n (ratio: time at chosen n / time at best n; speed: its inverse):\n");
  absl::StrAppend(&out, absl::StrFormat("  %-20s %7s %10s %10s %10s %10s\n", "chooser", "configs",
                                        "mean", "worst", "speed", "worst"));
  for (const ChoiceQuality& q : summary.choices) {
    absl::StrAppend(&out, absl::StrFormat("  %-20s %7d %10s %10s %10s %10s\n", q.who, q.configs,
                                          Ratio(q.mean_ratio), Ratio(q.worst_ratio),
                                          Ratio(q.mean_speed), Ratio(q.worst_speed)));
  }
  if (!summary.issue_modes.empty()) {
    absl::StrAppend(&out,
                    "Per issue mode (error: median / max, points over 10 %; choice: mean / worst "
                    "ratio, mean / worst speed):\n",
                    TextColumns(ModeAccuracyColumns(summary, /*markdown=*/false), 30),
                    TextColumns(ModeChoiceColumns(summary, /*markdown=*/false), 30));
  }
  absl::StrAppend(&out, absl::StrFormat("Speed-ups (mean over configurations; %d in the sweep):\n",
                                        summary.speedups.configs));
  absl::StrAppend(&out, absl::StrFormat("  %-20s %7s %10s\n", "comparison", "configs", "mean"));
  for (const SpeedUpRow& r : SpeedUpRows(summary.speedups)) {
    absl::StrAppend(&out, absl::StrFormat("  %-20s %7d %10s\n", r.label, r.configs, Times(r.mean)));
  }
  const Repeatability& r = summary.repeatability;
  absl::StrAppend(&out, "Repeatability (rounds after / before the adaptive run):\n");
  absl::StrAppend(&out, absl::StrFormat("  %-49s %7s %10s %10s %10s\n", "over", "points",
                                        "median", "max", "over 10%"));
  for (const ModelAccuracy* a : {&r.measurement, &r.calibrated_all, &r.calibrated_repeatable,
                                  &r.calibrated_beyond_spread}) {
    absl::StrAppend(&out, TextRow(*a));
  }
  if (r.calibrated_agreeing.points > 0) absl::StrAppend(&out, TextRow(r.calibrated_agreeing));
  if (const AdaptiveRuns& a = summary.adaptive_runs; a.configs > 0) {
    absl::StrAppend(&out, "  ", AdaptiveRunsSentence(a), "\n");
  }
  if (AnyHeld(summary)) {
    absl::StrAppend(&out, "Device time (against batches held until issued):\n");
    absl::StrAppend(&out, absl::StrFormat("  %-49s %7s %10s %10s %10s\n", "predictor", "points",
                                          "median", "max", "over 10%"));
    for (const ModelAccuracy& a : summary.device_accuracy) absl::StrAppend(&out, TextRow(a));
  }
  absl::StrAppend(&out, SettingsReport(summary, /*markdown=*/false));
  return out;
}

}  // namespace streampipe
