// Status propagation helpers. Our Abseil (20220623) has no ABSL_RETURN_IF_ERROR, so we define
// the two macros once here.
//
//   absl::Status Load() {
//     STREAMPIPE_RETURN_IF_ERROR(Open());
//     STREAMPIPE_ASSIGN_OR_RETURN(Config cfg, Parse());
//     ...
//   }
#ifndef STREAMPIPE_STATUS_MACROS_HPP_
#define STREAMPIPE_STATUS_MACROS_HPP_

#include <string>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/cord.h"
#include "absl/strings/string_view.h"

namespace streampipe {

// Copies onto `to` each payload of `from` that `to` lacks (a status made from another, or two
// errors said as one, keeps what marks each: a sticky CUDA error, a GPU wait's timeout).
inline void AddPayloads(const absl::Status& from, absl::Status* to) {
  from.ForEachPayload([to](absl::string_view url, const absl::Cord& payload) {
    if (!to->GetPayload(url)) to->SetPayload(url, payload);
  });
}

// `status` with `message` instead of its own, same code and payloads (so that, e.g., a CUDA
// error stays recognisably sticky). OK stays OK.
inline absl::Status WithMessage(const absl::Status& status, absl::string_view message) {
  if (status.ok()) return status;
  absl::Status out(status.code(), message);
  AddPayloads(status, &out);
  return out;
}

// `status` with "<prefix>: " in front of its message, same code and payloads. OK stays OK.
inline absl::Status AnnotateStatus(const absl::Status& status, std::string_view prefix) {
  if (status.ok()) return status;
  std::string msg(prefix);
  msg += ": ";
  msg.append(status.message().data(), status.message().size());
  return WithMessage(status, msg);
}

}  // namespace streampipe

#define STREAMPIPE_STATUS_CONCAT_INNER_(a, b) a##b
#define STREAMPIPE_STATUS_CONCAT_(a, b) STREAMPIPE_STATUS_CONCAT_INNER_(a, b)

// Evaluates `expr` (an absl::Status) and returns it from the enclosing function if not OK.
#define STREAMPIPE_RETURN_IF_ERROR(expr)                                            \
  do {                                                                             \
    ::absl::Status streampipe_status_ = (expr);                                    \
    if (!streampipe_status_.ok()) return streampipe_status_;                       \
  } while (false)

// Evaluates `rexpr` (an absl::StatusOr<T>); on error returns its status, else moves the value
// into `lhs` (which may be a declaration such as `auto x`).
#define STREAMPIPE_ASSIGN_OR_RETURN(lhs, rexpr)                                     \
  STREAMPIPE_ASSIGN_OR_RETURN_IMPL_(                                               \
      STREAMPIPE_STATUS_CONCAT_(streampipe_statusor_, __LINE__), lhs, rexpr)

#define STREAMPIPE_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, rexpr)                     \
  auto statusor = (rexpr);                                                         \
  if (!statusor.ok()) return std::move(statusor).status();                         \
  lhs = std::move(statusor).value()

#endif  // STREAMPIPE_STATUS_MACROS_HPP_
