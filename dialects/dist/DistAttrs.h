//===- DistAttrs.h - dist dialect attributes --------------------*- C++ -*-===//
//
// Device and cluster attributes, and the TensorFlow device-string parser that
// importers use without going through the MLIR parser.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_DIALECTS_DIST_DISTATTRS_H
#define GRAPHC_DIALECTS_DIST_DISTATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/LogicalResult.h"

#include <cstdint>
#include <optional>
#include <string>

namespace graphc::dist {

/// The fields of a TensorFlow device name. An empty string or an empty
/// optional means the field is unset.
struct DeviceSpec {
  std::string job;
  std::optional<int64_t> replica;
  std::optional<int64_t> task;
  std::string deviceType;
  std::optional<int64_t> deviceIndex;

  /// Parses `/job:NAME/replica:N/task:N/device:TYPE:N` and its partial and
  /// legacy (`/cpu:0`) forms. On failure sets `error` to a message that names
  /// the offending field and the whole string.
  static mlir::FailureOr<DeviceSpec> parse(llvm::StringRef device,
                                           std::string &error);
  /// The canonical string: set fields in the order job, replica, task,
  /// device; `/device:TYPE:*` when the index is unset.
  std::string str() const;

  bool operator==(const DeviceSpec &other) const;
  bool operator!=(const DeviceSpec &other) const { return !(*this == other); }
};

/// True for a valid job name: a letter, then letters, digits or `_`.
bool isValidJobName(llvm::StringRef name);
/// True for a valid canonical device type: an upper-case letter, then
/// upper-case letters, digits or `_`.
bool isValidDeviceType(llvm::StringRef type);

} // namespace graphc::dist

#define GET_ATTRDEF_CLASSES
#include "dist/DistAttrs.h.inc"

#endif // GRAPHC_DIALECTS_DIST_DISTATTRS_H
