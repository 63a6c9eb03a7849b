//===- DistOps.cpp - dist dialect registration and ops --------------------===//

#include "dist/DistOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace graphc::dist;

#include "dist/DistDialect.cpp.inc"

void DistDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dist/DistOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "dist/DistOps.cpp.inc"
