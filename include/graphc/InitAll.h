//===- InitAll.h - register graphc's dialects and passes ----------*- C++
//-*-===//

#ifndef GRAPHC_INITALL_H
#define GRAPHC_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace graphc {

/// Adds graphc's own dialects (graph, dist) and the upstream dialects its
/// pipelines produce to `registry`.
void registerAllDialects(mlir::DialectRegistry &registry);

/// Registers every graphc pass and pipeline with the global pass registry.
/// Safe to call more than once.
void registerAllPasses();

} // namespace graphc

#endif // GRAPHC_INITALL_H
