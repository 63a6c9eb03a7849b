//===- GraphInterfaces.td - graph op interfaces ------------*- tablegen -*-===//

#ifndef GRAPHC_DIALECTS_GRAPH_GRAPHINTERFACES_TD
#define GRAPHC_DIALECTS_GRAPH_GRAPHINTERFACES_TD

include "mlir/IR/OpBase.td"

def Graph_CostOpInterface : OpInterface<"CostOpInterface"> {
  let cppNamespace = "::graphc::graph";
  let description = [{
    The cost of one execution of an op: arithmetic operations and bytes read
    and written. Placement balances pipeline stages with it and the
    communication report compares compute with transfer time. Both return
    `std::nullopt` when a shape the cost depends on is not static.
  }];
  let methods = [
    InterfaceMethod<
      /*desc=*/[{Arithmetic operations (a multiply-add counts as two), or
                 std::nullopt when a needed shape is dynamic.}],
      /*retTy=*/"std::optional<int64_t>", /*methodName=*/"getFlops",
      /*args=*/(ins), /*methodBody=*/"",
      /*defaultImplementation=*/[{
        return ::graphc::graph::detail::defaultFlops($_op);
      }]>,
    InterfaceMethod<
      /*desc=*/[{Bytes of all tensor operands read plus all tensor results
                 written, or std::nullopt when a shape is dynamic.}],
      /*retTy=*/"std::optional<int64_t>", /*methodName=*/"getBytesMoved",
      /*args=*/(ins), /*methodBody=*/"",
      /*defaultImplementation=*/[{
        return ::graphc::graph::detail::defaultBytesMoved($_op);
      }]>,
  ];
}

#endif // GRAPHC_DIALECTS_GRAPH_GRAPHINTERFACES_TD
