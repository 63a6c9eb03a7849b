// Template of run-conv-direct-pad.mlir (not a test itself): a zero
// tensor.pad of the rows (@PT@ top, @PB@ bottom) and columns (@PL@ left,
// @PR@ right) of an N x C x H x W input to N x C x HP x WP, then a
// convolution by F x C x KH x KW (strides SH, SW, dilations DH, DW) into a
// zero fill of N x F x OH x OW; input and filter made by @init with
// reference.py's formula (inputs 0, 1). The RUN lines substitute the
// @NAME@ placeholders with sed.

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// Element (i, j, k, l) = ((i * p0 + j * p1 + k * p2 + l * p3) mod 11) - 5.
func.func @init(%t: tensor<?x?x?x?xf32>, %p0: index, %p1: index, %p2: index,
                %p3: index) -> tensor<?x?x?x?xf32> {
  %c11 = arith.constant 11 : index
  %five = arith.constant 5.0 : f32
  %r = linalg.generic {indexing_maps = [#id4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%t : tensor<?x?x?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = linalg.index 2 : index
    %l = linalg.index 3 : index
    %a = arith.muli %i, %p0 : index
    %b = arith.muli %j, %p1 : index
    %c = arith.muli %k, %p2 : index
    %d = arith.muli %l, %p3 : index
    %s0 = arith.addi %a, %b : index
    %s1 = arith.addi %s0, %c : index
    %s2 = arith.addi %s1, %d : index
    %v = arith.remui %s2, %c11 : index
    %vi = arith.index_cast %v : index to i64
    %vf = arith.sitofp %vi : i64 to f32
    %e = arith.subf %vf, %five : f32
    linalg.yield %e : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

func.func @conv(%x: tensor<@N@x@C@x@H@x@W@xf32>, %w: tensor<@F@x@C@x@KH@x@KW@xf32>,
                %acc: tensor<@N@x@F@x@OH@x@OW@xf32>) -> tensor<@N@x@F@x@OH@x@OW@xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, @PT@, @PL@] high[0, 0, @PB@, @PR@] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<@N@x@C@x@H@x@W@xf32> to tensor<@N@x@C@x@HP@x@WP@xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%acc : tensor<@N@x@F@x@OH@x@OW@xf32>) -> tensor<@N@x@F@x@OH@x@OW@xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<[@DH@, @DW@]> : tensor<2xi64>,
                                 strides = dense<[@SH@, @SW@]> : tensor<2xi64>}
      ins(%p, %w : tensor<@N@x@C@x@HP@x@WP@xf32>, tensor<@F@x@C@x@KH@x@KW@xf32>)
      outs(%filled : tensor<@N@x@F@x@OH@x@OW@xf32>) -> tensor<@N@x@F@x@OH@x@OW@xf32>
  return %r : tensor<@N@x@F@x@OH@x@OW@xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %n = arith.constant @N@ : index
  %c = arith.constant @C@ : index
  %h = arith.constant @H@ : index
  %w = arith.constant @W@ : index
  %f = arith.constant @F@ : index
  %kh = arith.constant @KH@ : index
  %kw = arith.constant @KW@ : index
  %oh = arith.constant @OH@ : index
  %ow = arith.constant @OW@ : index
  %ex = tensor.empty(%n, %c, %h, %w) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%f, %c, %kh, %kw) : tensor<?x?x?x?xf32>
  %wt = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %eo = tensor.empty(%n, %f, %oh, %ow) : tensor<?x?x?x?xf32>
  %acc = call @init(%eo, %c3, %c7, %c2, %c5)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<@N@x@C@x@H@x@W@xf32>
  %ws = tensor.cast %wt : tensor<?x?x?x?xf32> to tensor<@F@x@C@x@KH@x@KW@xf32>
  %accs = tensor.cast %acc : tensor<?x?x?x?xf32> to tensor<@N@x@F@x@OH@x@OW@xf32>
  %r = call @conv(%xs, %ws, %accs)
      : (tensor<@N@x@C@x@H@x@W@xf32>, tensor<@F@x@C@x@KH@x@KW@xf32>, tensor<@N@x@F@x@OH@x@OW@xf32>) -> tensor<@N@x@F@x@OH@x@OW@xf32>
  %u = tensor.cast %r : tensor<@N@x@F@x@OH@x@OW@xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
