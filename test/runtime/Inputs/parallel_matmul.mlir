// A matmul large enough that graphc parallelises it: its task library links libomp.so.5 (k8s-image.test).
func.func @main(%x: tensor<256x512xf32> {graph.name = "x"}, %w: tensor<512x512xf32> {graph.name = "w"})
    -> (tensor<256x512xf32> {graph.name = "y"}) {
  %m = graph.matmul %x, %w : (tensor<256x512xf32>, tensor<512x512xf32>) -> tensor<256x512xf32>
  return %m : tensor<256x512xf32>
}
