//===- GraphBase.td - graph dialect definition and shared ODS -*- tablegen -*-===//
//
// The graph dialect: *what* to compute. Tensor-level machine-learning ops with
// value semantics over builtin tensor types.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_DIALECTS_GRAPH_GRAPHBASE_TD
#define GRAPHC_DIALECTS_GRAPH_GRAPHBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "graph/GraphInterfaces.td"

def Graph_Dialect : Dialect {
  let name = "graph";
  let cppNamespace = "::graphc::graph";
  let summary = "Tensor-level machine-learning ops with value semantics";
  let description = [{
    The `graph` dialect says *what* a model computes: constants, variables,
    elementwise math with NumPy broadcasting, contractions, convolutions,
    pooling, reductions, normalisation, data movement, losses and optimizer
    updates. Every op works on builtin tensor types and has value semantics;
    only the variable ops touch state.

    Every op:

    * infers its result types from its operands and attributes
      (`InferTypeOpInterface`); the verifier rejects a declared result type
      that contradicts the inferred one, and `graph-infer-shapes` refines
      dynamic result types to the inferred static ones;
    * reports its cost (`CostOpInterface`: floating-point operations and bytes
      moved) for placement and the communication report.

    Where an op may run is not part of this dialect: the `dist` dialect's
    `#dist.device` attribute, attached as `dist.device`, says that.
  }];
  let hasConstantMaterializer = 1;
  let useDefaultAttributePrinterParser = 1;
}

//===----------------------------------------------------------------------===//
// Enums and attributes
//===----------------------------------------------------------------------===//

def Graph_CompareDirection : I32EnumAttr<"CompareDirection",
    "elementwise comparison", [
      I32EnumAttrCase<"eq", 0>, I32EnumAttrCase<"ne", 1>,
      I32EnumAttrCase<"lt", 2>, I32EnumAttrCase<"le", 3>,
      I32EnumAttrCase<"gt", 4>, I32EnumAttrCase<"ge", 5>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::graphc::graph";
}
def Graph_CompareDirectionAttr
    : EnumAttr<Graph_Dialect, Graph_CompareDirection, "compare_direction"> {
  // Spelled `#graph<compare_direction lt>`, as in the op-set plan.
  let assemblyFormat = "$value";
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Graph_Tensor : AnyTypeOf<[AnyRankedTensor, AnyUnrankedTensor]>;
def Graph_FloatTensor : TensorOf<[AnyFloat]>;
def Graph_IntTensor : TensorOf<[AnySignlessInteger, AnyUnsignedInteger]>;
def Graph_BoolTensor : TensorOf<[I1]>;
def Graph_IndexTensor : TensorOf<[I32, I64]>;

//===----------------------------------------------------------------------===//
// Base op classes
//===----------------------------------------------------------------------===//

/// Every graph op infers its result types. Its cost comes from the
/// interface's default (one operation per result element, bytes of operands
/// and results) unless the op lists `Graph_CostOverride`.
/// Result types come from `inferReturnTypes(context, location, adaptor,
/// inferred)`, which each op defines in C++ and which also carries the op's
/// shape checks (it must emit an error at `location` when given one). A
/// declared result type is accepted when it is compatible with the inferred
/// one: same element type, same rank where both are ranked, equal static
/// dimensions where both are static.
def Graph_InferType : InferTypeOpAdaptorBase<[{
  static bool isCompatibleReturnTypes(::mlir::TypeRange l, ::mlir::TypeRange r) {
    return ::graphc::graph::detail::isCompatibleReturnTypes(l, r);
  }
}]>;

class Graph_Op<string mnemonic, list<Trait> traits = []>
    : Op<Graph_Dialect, mnemonic, !listconcat(traits, [Graph_InferType])>;

/// Declares that the op implements `getFlops` itself (in C++).
def Graph_CostOverride : DeclareOpInterfaceMethods<Graph_CostOpInterface,
                                                   ["getFlops"]>;
/// Declares that the op implements both cost methods itself.
def Graph_CostOverrideAll : DeclareOpInterfaceMethods<Graph_CostOpInterface,
                                                      ["getFlops", "getBytesMoved"]>;

#endif // GRAPHC_DIALECTS_GRAPH_GRAPHBASE_TD
