// DType.h: the one table of element type names, manifest spelling <->
// graphrt_dtype_t.
#ifndef GRAPHRT_COMMON_DTYPE_H
#define GRAPHRT_COMMON_DTYPE_H

#include "graphrt/graphrt.h"

#include <string_view>
#include <vector>

namespace graphrt {

/// A dtype and how the manifest spells it. The element size is
/// graphrt_dtype_size (graphrt.h), not repeated here.
struct DTypeName {
  graphrt_dtype_t dtype;
  const char *name;
};

/// Every dtype the manifest can name, in graphrt_dtype_t order.
const std::vector<DTypeName> &allDTypes();

/// Parses a manifest dtype name ("f32"); GRAPHRT_DTYPE_INVALID if unknown.
graphrt_dtype_t parseDType(std::string_view name);

/// The manifest spelling of `dtype` ("f32"); "invalid" for unknown values.
const char *dtypeName(graphrt_dtype_t dtype);

} // namespace graphrt

#endif // GRAPHRT_COMMON_DTYPE_H
