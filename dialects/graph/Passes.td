//===- Passes.td - graph dialect passes --------------------*- tablegen -*-===//

#ifndef GRAPHC_DIALECTS_GRAPH_PASSES_TD
#define GRAPHC_DIALECTS_GRAPH_PASSES_TD

include "mlir/Pass/PassBase.td"

def GraphInferShapes : Pass<"graph-infer-shapes", "mlir::ModuleOp"> {
  let summary = "Refine graph op result types from their operands";
  let description = [{
    Walks every function in order and replaces each graph op's result type
    with the meet of its declared and its inferred type, so static shapes flow
    from static inputs through the whole graph. Function result types are
    updated to match what `func.return` returns; a user outside the graph
    dialect that needs the old type gets a `tensor.cast` back to it.

    Functions whose argument types should change first (for example a
    dynamic batch dimension that the user fixes) can be given
    `arg-shapes`: `name:1x3x224x224,...` keyed by function argument index
    (`0:1x3x224x224`) of the function named by `entry`.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"\"",
           "Function whose arguments `arg-shapes` refines">,
    ListOption<"argShapes", "arg-shapes", "std::string",
               "Argument shapes as INDEX:DxDx... for the `entry` function">,
  ];
  let dependentDialects = ["mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numRefined", "num-refined", "Number of result types refined">,
  ];
}

def GraphPrintCost : Pass<"graph-print-cost"> {
  let summary = "Report every graph op's cost as a remark";
  let description = [{
    Emits a remark `flops = F, bytes = B` (or `?` for an unknown figure) on
    each op that implements `CostOpInterface`, and a total per function. A
    debugging aid for placement and the communication report.
  }];
}

#endif // GRAPHC_DIALECTS_GRAPH_PASSES_TD
