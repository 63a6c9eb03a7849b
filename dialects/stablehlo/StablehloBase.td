//===- StablehloBase.td - the StableHLO subset graphc emits --*- tablegen -*-===//
//
// The dialect, its enums, attributes and the token type. Every spelling here
// is the one upstream StableHLO (openxla/stablehlo) prints and parses, so a
// module graphc writes is read by XLA/PJRT as it is (docs/design/stablehlo.md).
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_DIALECTS_STABLEHLO_STABLEHLOBASE_TD
#define GRAPHC_DIALECTS_STABLEHLO_STABLEHLOBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Stablehlo_Dialect : Dialect {
  let name = "stablehlo";
  let cppNamespace = "::graphc::stablehlo";
  let summary = "The subset of StableHLO that graphc's TPU target emits";
  let description = [{
    StableHLO is the portable op set XLA compiles, the input of every PJRT
    plugin (`libtpu`, the CUDA and CPU plugins). MLIR 22 has no StableHLO
    dialect, so graphc defines the ops its `--target=tpu` (alias
    `stablehlo`) emits, under the upstream dialect name and with upstream's
    semantics (https://openxla.org/stablehlo/spec), each with a verifier for
    the constraints of the specification that the lowering relies on.

    **Spelling.** Ops print in the generic form (`"stablehlo.add"(%a, %b) :
    (...) -> ...`), which every StableHLO parser reads; their attributes
    print as an attribute dictionary, not as properties, so that a parser
    whose ops keep them either way accepts them. The dialect attributes use
    upstream's syntax exactly: `#stablehlo.dot<...>`, `#stablehlo.conv<[b, f,
    0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>`, `#stablehlo.gather<...>`,
    `#stablehlo.channel_handle<handle = 1, type = 1>`,
    `#stablehlo<comparison_direction LT>`, `#stablehlo<comparison_type
    FLOAT>` and the type `!stablehlo.token`.

    A task module is a `builtin.module` with one public `func.func @main`
    whose body holds these ops and ends in `func.return`; regions (reduce,
    reduce_window, all_reduce) end in `stablehlo.return`.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let usePropertiesForAttributes = 0;
  let extraClassDeclaration = [{
    void registerAttributes();
  }];
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Stablehlo_ComparisonDirection : I32EnumAttr<"ComparisonDirection",
    "comparison direction", [
      I32EnumAttrCase<"EQ", 0>, I32EnumAttrCase<"NE", 1>,
      I32EnumAttrCase<"GE", 2>, I32EnumAttrCase<"GT", 3>,
      I32EnumAttrCase<"LE", 4>, I32EnumAttrCase<"LT", 5>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::graphc::stablehlo";
}
// Printed `#stablehlo<comparison_direction LT>`, as upstream.
def Stablehlo_ComparisonDirectionAttr : EnumAttr<Stablehlo_Dialect,
    Stablehlo_ComparisonDirection, "comparison_direction">;

def Stablehlo_ComparisonType : I32EnumAttr<"ComparisonType",
    "comparison type", [
      I32EnumAttrCase<"NOTYPE", 0>, I32EnumAttrCase<"FLOAT", 1>,
      I32EnumAttrCase<"TOTALORDER", 2>, I32EnumAttrCase<"SIGNED", 3>,
      I32EnumAttrCase<"UNSIGNED", 4>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::graphc::stablehlo";
}
def Stablehlo_ComparisonTypeAttr : EnumAttr<Stablehlo_Dialect,
    Stablehlo_ComparisonType, "comparison_type">;

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

class Stablehlo_Attr<string name, string attrMnemonic>
    : AttrDef<Stablehlo_Dialect, name> {
  let mnemonic = attrMnemonic;
}

def Stablehlo_DotDimensionNumbers
    : Stablehlo_Attr<"DotDimensionNumbers", "dot"> {
  let summary = "Batching and contracting dimensions of a dot_general";
  let description = [{
    `#stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions =
    [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>`;
    an empty list is left out, as upstream prints it.
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$lhsBatchingDimensions,
    ArrayRefParameter<"int64_t">:$rhsBatchingDimensions,
    ArrayRefParameter<"int64_t">:$lhsContractingDimensions,
    ArrayRefParameter<"int64_t">:$rhsContractingDimensions);
  let hasCustomAssemblyFormat = 1;
}

def Stablehlo_ConvDimensionNumbers
    : Stablehlo_Attr<"ConvDimensionNumbers", "conv"> {
  let summary = "Which dimension of a convolution's operands is which";
  let description = [{
    Upstream's compact form: `#stablehlo.conv<[b, f, 0, 1]x[o, i, 0,
    1]->[b, f, 0, 1]>` lists, per dimension of the input, kernel and output,
    `b` (batch), `f` (feature), `i`/`o` (kernel input/output feature) or the
    index of the spatial dimension it is.
  }];
  let parameters = (ins
    "int64_t":$inputBatchDimension,
    "int64_t":$inputFeatureDimension,
    ArrayRefParameter<"int64_t">:$inputSpatialDimensions,
    "int64_t":$kernelInputFeatureDimension,
    "int64_t":$kernelOutputFeatureDimension,
    ArrayRefParameter<"int64_t">:$kernelSpatialDimensions,
    "int64_t":$outputBatchDimension,
    "int64_t":$outputFeatureDimension,
    ArrayRefParameter<"int64_t">:$outputSpatialDimensions);
  let hasCustomAssemblyFormat = 1;
}

def Stablehlo_GatherDimensionNumbers
    : Stablehlo_Attr<"GatherDimensionNumbers", "gather"> {
  let summary = "How a gather's indices address its operand";
  let description = [{
    `#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0],
    start_index_map = [0], index_vector_dim = 1>`; empty lists are left out.
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$offsetDims,
    ArrayRefParameter<"int64_t">:$collapsedSliceDims,
    ArrayRefParameter<"int64_t">:$startIndexMap,
    "int64_t":$indexVectorDim);
  let hasCustomAssemblyFormat = 1;
}

def Stablehlo_ChannelHandle : Stablehlo_Attr<"ChannelHandle", "channel_handle"> {
  let summary = "The channel of a cross-program communication";
  let description = [{
    `#stablehlo.channel_handle<handle = 1, type = 1>`: `type` 1 is
    DEVICE_TO_DEVICE (the only kind graphc emits), 2 DEVICE_TO_HOST and 3
    HOST_TO_DEVICE.
  }];
  let parameters = (ins "int64_t":$handle, "int64_t":$type);
  let assemblyFormat = "`<` struct(params) `>`";
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def Stablehlo_Token : TypeDef<Stablehlo_Dialect, "Token"> {
  let mnemonic = "token";
  let summary = "Orders side-effecting ops (send, recv)";
  let description = "`!stablehlo.token`";
}

#endif // GRAPHC_DIALECTS_STABLEHLO_STABLEHLOBASE_TD
