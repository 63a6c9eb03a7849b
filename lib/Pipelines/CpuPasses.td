//===- CpuPasses.td - passes of the CPU code generation pipeline -*- tablegen -*-===//

#ifndef GRAPHC_PIPELINES_CPUPASSES_TD
#define GRAPHC_PIPELINES_CPUPASSES_TD

include "mlir/Pass/PassBase.td"

def CpuTileAndVectorize : Pass<"graphc-cpu-tile-and-vectorize",
                               "mlir::func::FuncOp"> {
  let summary = "Tile linalg ops for threads, caches and registers, then "
                "vectorise them";
  let description = [{
    Works on linalg ops over tensors, before bufferization:

    * Contractions (`linalg.matmul`, `linalg.batch_matmul`): an `scf.forall`
      over output tiles of `parallel-m` x `parallel-n` (one task per tile, the
      `linalg.fill` that initialises the tile fused into it), an `scf.for`
      over K blocks of `kc` so a B panel stays in L1, an `scf.for` nest over
      register tiles of `mr` x `nr` (N outer, so a B micro-panel is reused by
      every M tile; with `pack-b`, the default, the kc x nr B micro-panel
      is first copied into a contiguous buffer), and a K loop of step 1 whose body is vectorised into one
      `vector.contract` of `mr x 1` by `1 x nr`. After hoisting, the C tile
      lives in registers across the K loop: the BLIS micro-kernel shape.
      Defaults (`mr`, `nr`, `kc`, `unroll-k` 0), chosen per contraction
      from its static shape: with 16 lanes 8 x 32 and `kc` 256, but 6 x 64,
      balanced K blocks of at most 1024 and the K loop unrolled 4 times
      (after hoisting, by `graphc-cpu-hoist-vector-transfers`) for
      M >= 128, K >= 512 and N a multiple of 64 of at least 128 (the large
      matmuls of transformers and fully connected layers; the convolution
      GEMMs, whose N is the output pixels, keep 8 x 32); 6 x 16 with 8
      lanes. Columns past the last whole tile go in power-of-two groups of
      vectors. A nonzero option forces its value on every contraction.
      The B panel copy is one
      vector transfer per row. With one row of A and a row-major B (a GEMV),
      K goes in steps of 4 outside register tiles of 1 x 8 vectors over
      tasks of up to 2048 columns, and B is read in place.
    * `linalg.conv_2d_nchw_fchw` (`conv-gemm`, the default): rewritten into
      im2col (vector copies of input row segments, stride-2 ones compacted
      by a shuffle; a copy generic for rows under 4 elements or wider
      strides) and a `linalg.batch_matmul`
      with the filter broadcast over the batch, which takes the contraction
      strategy above (docs/design/conv-codegen.md). Task tiles divide the
      extent where a divisor near `parallel-m`/`parallel-n` exists, and a
      static edge that is not a multiple of `nr` is split into whole `nr`
      tiles, whole vectors and the rest. One whose output has fewer
      pixels than its filter has taps (autodiff's filter gradients)
      instead gets one `linalg.matmul` per chunk of input channels,
      accumulated: with under 8 output pixels (1x1 filters) the images in
      N, with a filter past 2 MiB the images and pixels in M against the
      filter transposed once; other such convolutions keep the per-image
      GEMM.
    * `linalg.conv_2d_ngchw_gfchw` with one input channel per group
      (depthwise, any channel multiplier): a direct kernel, an `scf.forall`
      over (image, group, multiplier) whose task walks blocks of 4 output
      rows by `vector-width` columns, unrolled over the filter window into
      vector loads (strided ones compacted by a shuffle) and `vector.fma`.
      With more input channels and up to 8 output channels per group: the
      small-group kernel, an `scf.forall` over (image, group) whose task
      pads the group's input planes and keeps 16 accumulators (rows x the
      group's channels) per column vector, FMAs of each input row segment
      with the channels' broadcast filter elements. Otherwise (and with
      `conv-gemm`): an `scf.for` over groups of `linalg.conv_2d_nchw_fchw`
      on the group's slices, each then im2col + GEMM as above.
    * `linalg.conv_2d_nhwc_hwcf` (and NCHW ones not rewritten): an
      `scf.forall` over batch and output channels, tiling of output rows and
      filter rows to 1, decomposition to 1-D convolutions, which the
      vectoriser handles (NHWC only; NCHW stays scalar).
    * Everything else with static shapes (elementwise generics, reductions,
      fills, transposes): an `scf.forall` over the outermost parallel loop,
      then tiles of 1 x ... x `vector-width` vectorised.

    An op the vectoriser rejects stays a scalar linalg op and later becomes
    loops: the pass never fails on valid IR. `vector-width` 0 means the host's
    widest f32 vector.

    Example: `graph-opt --graphc-cpu-tile-and-vectorize="mr=8 nr=32"`.
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"0",
           "f32 lanes per vector register (0: detect the host)">,
    Option<"mr", "mr", "int64_t", /*default=*/"0",
           "Rows of the matmul register tile (0: by vector width and shape)">,
    Option<"nr", "nr", "int64_t", /*default=*/"0",
           "Columns of the matmul register tile (0: by vector width and "
           "shape)">,
    Option<"kc", "kc", "int64_t", /*default=*/"0",
           "K block of a matmul, B panel of kc x nr kept near the core (0: "
           "by shape)">,
    Option<"unrollK", "unroll-k", "int64_t", /*default=*/"0",
           "Unroll factor of the matmul micro-kernel's K loop (0: by shape, "
           "1: not unrolled)">,
    Option<"parallelM", "parallel-m", "int64_t", /*default=*/"0",
           "Rows of one matmul task (scf.forall tile; 0: by shape, 256, or "
           "512 with the large-matmul tile)">,
    Option<"parallelN", "parallel-n", "int64_t", /*default=*/"0",
           "Columns of one matmul task (scf.forall tile; 0: by shape, 128, "
           "or 512 with the large-matmul tile when 512 divides N, the "
           "task's block of A is past 1 MiB and 4 tasks remain)">,
    Option<"parallel", "parallel", "bool", /*default=*/"true",
           "Create scf.forall loops for threads">,
    Option<"convGemm", "conv-gemm", "bool", /*default=*/"true",
           "Rewrite 2-D NCHW convolutions into im2col + GEMM">,
    Option<"packB", "pack-b", "bool", /*default=*/"true",
           "Copy each kc x nr micro-panel of a row-major B into a contiguous "
           "buffer before the register tiles that reuse it">,
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::scf::SCFDialect",
    "mlir::tensor::TensorDialect", "mlir::vector::VectorDialect",
    "mlir::linalg::LinalgDialect", "mlir::affine::AffineDialect"
  ];
  let statistics = [
    Statistic<"numMatmuls", "num-matmuls", "Contractions register-tiled">,
    Statistic<"numConvGemms", "num-conv-gemms",
              "2-D convolutions rewritten into im2col + GEMM">,
    Statistic<"numWideFilterGemms", "num-wide-filter-gemms",
              "2-D convolutions with a filter larger than their output "
              "(filter gradients) rewritten into im2col + GEMMs with the "
              "images in N or M">,
    Statistic<"numDepthwise", "num-depthwise-convs",
              "Depthwise 2-D convolutions given the direct vector kernel">,
    Statistic<"numSmallGroupConvs", "num-small-group-convs",
              "Grouped 2-D convolutions with few channels per group given "
              "the direct vector kernel">,
    Statistic<"numGroupedGemms", "num-grouped-1x1-gemms",
              "Grouped 1x1 convolutions rewritten into a batch matmul over "
              "the groups">,
    Statistic<"numPools", "num-pools",
              "2-D NCHW max/sum poolings given the direct vector kernel">,
    Statistic<"numVectorized", "num-vectorized", "Linalg ops vectorised">,
    Statistic<"numScalar", "num-scalar",
              "Linalg ops left scalar (the vectoriser rejected them)">,
    Statistic<"numPackedPanels", "num-packed-panels",
              "B micro-panels copied into contiguous buffers">,
    Statistic<"numBlockedTransposes", "num-blocked-transposes",
              "Transposed reads of a lanes x lanes tile turned into row "
              "reads and a register transpose">,
    Statistic<"numLaneReductions", "num-lane-reductions",
              "Sums over contiguous innermost elements split into lane "
              "partial sums, a tail and one horizontal sum per output">,
    Statistic<"numBlockCopies", "num-block-copies",
              "Transposing parallel ops whose contiguous innermost loops "
              "were collapsed into one (3x3 filters' tap blocks)">,
  ];
}

def CpuDirectConv : Pass<"graphc-cpu-direct-conv", "mlir::func::FuncOp"> {
  let summary = "Direct (im2col-free) vector kernels for 2-D NCHW "
                "convolutions";
  let description = [{
    Rewrites `linalg.conv_2d_nchw_fchw` over f32 with static shapes (input
    already padded) into a direct kernel that materialises no im2col
    buffer: an `scf.forall` over (image, chunk of output rows, chunk of
    output-channel blocks); each task walks, per channel block, its rows
    (the block's filter stays in cache) in register tiles of `ow-block`
    output columns by `f-vectors` vectors of output channels, and reduces
    over input channels and, inside, the filter taps (one loop) in `scf.for`
    loops that carry one accumulator vector per column. Per input channel
    and tap the kernel loads one filter row (the filter re-laid out to
    [F/fb, C*KH*KW, fb]: at compile time when it is a constant, read in
    place when graphc-cpu-prepack-conv-filters stored it so, else at run
    time by fb x 16 transposes in registers) and, per column, broadcasts
    one input element (`vector.fma`). Input and output stay NCHW: the tile
    is transposed in registers before it is stored. Rows narrower than
    half the tile share it with the next rows (2 x 7 columns), and a width
    with no divisor filling half the tile gets a narrower last tile. With
    several images, under 100 output pixels an image and over 1 MiB of
    filter, the tasks are (channel chunk whose filter fits 1 MiB, image),
    images inner, so a chunk's filter is reused over the images. The
    scheme of oneDNN's brgconv and ONNX Runtime's MLAS NCHWc kernels.
    1x1 convolutions get a pointwise kernel instead: pixels flattened and
    vectorised (8 output channels x 3 vectors of pixels, filter elements
    broadcast), tasks over pixel chunks or channel blocks, inside a task
    strips of pixel tiles whose input fits 256 KiB with the channel blocks
    outside the strip's tiles; a strided 1x1 convolution first copies the
    pixels it reads into a fresh input (one shuffle per output row vector).
    See "Direct convolution" in docs/design/cpu-codegen.md.

    Epilogue: when the convolution's init is a fill and its only user is an
    elementwise `linalg.generic` over its output (bias, batch norm,
    residual add, activation, as graphc-cpu-fuse-elementwise leaves them),
    whose inputs are the convolution, tensors of the output's shape,
    per-channel tensors (indexing map results `d1` or 0) or scalars, both
    kernels apply its body to each output tile in registers before the
    store and replace it: one pass over the activation less. Body ops on
    per-channel inputs alone run once per channel. See "Epilogues in the
    direct kernels" in docs/design/cpu-codegen.md.

    A convolution with more filter taps than output pixels (class `wgrad`:
    graph-autodiff's filter gradient, the forward input with its batch as
    channels convolved by the output adjoint) is first rewritten with its
    images moved into the output columns (its input transposed to
    [1, N, H, W*C]), so that a register tile spans `ow-block` channels of
    one tap instead of the filter's 3 columns, and its reduction is cut
    into accumulating chunks of images whose re-laid-out output adjoint
    stays in L2; see "Filter gradients on the direct kernel" in
    docs/design/conv-codegen.md.

    Grouped convolutions (`linalg.conv_2d_ngchw_gfchw`, 2 to C/G input
    channels per group, a filter larger than 1x1) whose output channels
    per group are whole vectors take the row kernel too, all groups in one
    task loop: the input and filter viewed as a 2-D convolution's, each
    channel block reducing over its group's input channels; see "Grouped
    convolutions on the direct kernels" in docs/design/conv-codegen.md.

    Skipped (left to `graphc-cpu-tile-and-vectorize`): other element types,
    dynamic shapes, output channels not a multiple of the vector width (of
    8 for the pointwise kernel), and classes not in `convs`. Run before `graphc-cpu-tile-and-vectorize`; the CPU pipeline
    runs it with `direct-conv`.

    Example: `graph-opt --graphc-cpu-direct-conv="convs=3x3 ow-block=8"`.
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"0",
           "f32 lanes per vector register (0: detect the host)">,
    Option<"owBlock", "ow-block", "int64_t", /*default=*/"14",
           "Output columns of the register tile (rows narrower than half of "
           "it share it with the next rows)">,
    Option<"fVectors", "f-vectors", "int64_t", /*default=*/"2",
           "Vectors of output channels in the register tile">,
    Option<"convs_", "convs", "std::string", /*default=*/"\"all\"",
           "Convolution classes rewritten: all, or a comma-separated list of "
           "3x3, 1x1, strided (any stride above 1), other, wgrad (more "
           "filter taps than output pixels: filter gradients)">,
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::scf::SCFDialect",
    "mlir::tensor::TensorDialect", "mlir::vector::VectorDialect",
    "mlir::linalg::LinalgDialect"
  ];
  let statistics = [
    Statistic<"numDirectConvs", "num-direct-convs",
              "2-D convolutions given the direct kernel">,
    Statistic<"numGroupedDirectConvs", "num-grouped-direct-convs",
              "Grouped 2-D convolutions given the direct row kernel">,
  ];
}

def CpuPrepackConvFilters : Pass<"graphc-cpu-prepack-conv-filters",
                                  "mlir::ModuleOp"> {
  let summary = "Store constant convolution filters in the direct kernel's "
                "packed layout, once, at compile time";
  let description = [{
    The direct convolution kernel (`graphc-cpu-direct-conv`) reads its
    filter re-laid out as `[F/fb, C*KH*KW, fb]` (fb output channels of one
    input channel and tap contiguous). A constant filter is re-laid out at
    compile time, but graphc makes every weight of at least
    `--weights-threshold` bytes a variable (`graph-hoist-weights`), and a
    variable filter was re-laid out on every step: one read and one write
    of every filter (ResNet-18: 45 MB a step, 10-13% of a batch-1 step).

    This pass runs on the graph before `graph-hoist-weights`. A constant
    `[F, C, KH, KW]` f32 filter of at least `min-bytes` bytes whose every
    use is the filter of a `graph.conv` that the direct kernel will take,
    all with the same channel block fb (the rule of the kernel:
    `f-vectors` x `vector-width` channels, else one vector, else half of
    one; 8 for the 1x1 pointwise kernel), is stored as `[F/fb, C, KH, KW,
    fb]` and read through `graph.transpose` (perm `[0, 4, 1, 2, 3]`) and
    `graph.reshape` back to `[F, C, KH, KW]`. The hoisted variable then
    holds the packed bytes, under the constant's name with `.packed`
    appended (`conv1.weight.packed`: what `graph-run --save` and
    checkpoints write is not the model's layout, and the name says so); the direct kernel recognises the transpose and
    reshape of its filter (lowered to `linalg.transpose` and
    `tensor.collapse_shape`) and reads the packed tensor in place, so the
    transpose is dead and nothing is re-laid out at run time. A convolution
    that does not take the kernel after all still computes the right
    result, through the transpose. Blobs referenced by anything else are
    left alone (as in `graph-pretranspose-weights`).
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"0",
           "f32 lanes per vector register (0: detect the host)">,
    Option<"fVectors", "f-vectors", "int64_t", /*default=*/"2",
           "Vectors of output channels in the direct kernel's register "
           "tile">,
    Option<"convs_", "convs", "std::string", /*default=*/"\"all\"",
           "Convolution classes the direct kernel takes (as "
           "graphc-cpu-direct-conv's convs)">,
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"0",
           "Smallest filter rewritten, in bytes (graphc: the weights "
           "threshold; smaller ones stay constants, packed by the kernel)">,
  ];
  let statistics = [
    Statistic<"numPrepacked", "num-prepacked",
              "Constant filters stored in the packed layout">,
  ];
}

def CpuHoistVectorTransfers : Pass<"graphc-cpu-hoist-vector-transfers",
                                   "mlir::func::FuncOp"> {
  let summary = "Keep loop-carried vector tiles in registers";
  let description = [{
    After bufferization, moves a `vector.transfer_read`/`transfer_write` pair
    on the same loop-invariant memref slice out of the loop and threads the
    vector through `iter_args`, so a matmul accumulator tile is loaded once
    before the K loop and stored once after it, and hoists loop-invariant
    broadcasts. Runs loop-invariant code motion first so the slices become
    invariant. Then unrolls each loop that `graphc-cpu-tile-and-vectorize`
    marked `__graphc_cpu_unroll_k = F` (the K loop of a large matmul's
    micro-kernel) F times, epilogue loop for the rest, and drops the mark.

    Example: `graph-opt --graphc-cpu-hoist-vector-transfers`.
  }];
  let dependentDialects = ["mlir::vector::VectorDialect"];
}

def CpuHoistSubsets : Pass<"graphc-cpu-hoist-subsets"> {
  let summary = "Loop-invariant subset hoisting without the solver for "
                "constant indices";
  let description = [{
    Upstream `loop-invariant-subset-hoisting` with the same result: for each
    loop, innermost first, an extraction/insertion pair of the same
    loop-invariant subset of an iter_arg (a `vector.transfer_read` and
    `transfer_write` of a matmul or convolution accumulator tile, a
    `tensor.extract_slice`/`insert_slice`), disjoint from every other subset
    op on the iter_arg's chain, moves out of the loop, the extracted value
    carried as a new iter_arg. Upstream asks the value-bounds constraint
    solver whether each pair of subset ops on a chain is the same subset or
    disjoint; here two vector transfers at constant indices are compared as
    intervals (what the solver proves for constants), so a direct
    convolution's tile of 28 reads and 28 writes costs microseconds instead
    of thousands of solver queries. Other pairs ask the ops' interface, as
    upstream does.

    Example: `graph-opt --graphc-cpu-hoist-subsets`.
  }];
}

def CpuFuseElementwise : Pass<"graphc-cpu-fuse-elementwise"> {
  let summary = "Fuse elementwise linalg ops, leaving contractions and "
                "convolutions intact";
  let description = [{
    Upstream `linalg-fuse-elementwise-ops` (elementwise fusion, reshape
    folding by expansion, constant folding and the same canonicalizations),
    except that nothing is fused into or folded through a contraction
    (`linalg.matmul`, `linalg.batch_matmul`, a contraction generic) or a
    convolution. Upstream folds the `collapse_shape` that turns a linear
    layer's `[B, S, K]` input into `[B*S, K]` back through the matmul,
    which becomes a generic with two reduction loops, and fuses a bias +
    ReLU producer into the next matmul, where it is recomputed for every
    output column; neither is a GEMM that `graphc-cpu-tile-and-vectorize`
    recognises, so both ran as scalar loop nests (a transformer encoder
    layer 12-22x slower than PyTorch). Elementwise chains, and producers of
    reductions (softmax, layer norm), fuse as upstream.

    `tensor.concat` is decomposed into a `tensor.empty` and one
    `tensor.insert_slice` per operand, so that empty-tensor elimination
    during bufferization lets each operand's producer write its slice of
    the concatenation in place instead of into a buffer of its own that a
    copy then moves.

    Example: `graph-opt --graphc-cpu-fuse-elementwise`.
  }];
  let dependentDialects = ["mlir::affine::AffineDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::tensor::TensorDialect"];
}

def CpuExpandCopies : Pass<"graphc-cpu-expand-copies", "mlir::func::FuncOp"> {
  let summary = "Turn memref.copy into linalg.copy, i.e. inline loops";
  let description = [{
    `finalize-memref-to-llvm` lowers a copy between non-contiguous memrefs
    to a call of `memrefCopy` from MLIR's C runner library, which a shared
    object built by graphc must not need at run time. This pass rewrites
    every `memref.copy` into loops: static copies whose rows are contiguous
    in both buffers (the padding copies of convolution inputs) into
    `scf.for` loops around vector transfers of each row (`vector-width`
    lanes, then power-of-two pieces), any other into a `linalg.copy`, which
    later becomes a loop nest. Copies of a buffer onto itself, or between
    two identical subviews of one buffer, which in-place slice updates
    leave behind, are erased.

    Example: `graph-opt --graphc-cpu-expand-copies`.
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "unsigned", /*default=*/"0",
           "Lanes of the row copies' vectors (0: the host's f32 lanes)">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::vector::VectorDialect",
                           "mlir::arith::ArithDialect"];
}

def CpuDropEquivalentResults : Pass<"graphc-cpu-drop-equivalent-results",
                                    "mlir::ModuleOp"> {
  let summary = "Drop results that are updated arguments, public functions "
                "included";
  let description = [{
    After bufferization a function whose result is its (writable) output
    argument updated in place returns that argument's buffer. Upstream
    `drop-equivalent-buffer-results` removes such results only from private
    functions; on a public one the deallocation pipeline then clones the
    buffer (a malloc and a full copy per call, owned by the caller). graphc
    compiles destination-passing kernels, so this pass applies the upstream
    rewrite to public functions too (callers in the module are updated) and
    keeps their visibility: the caller reads the result from the argument.

    Example: `graph-opt --graphc-cpu-drop-equivalent-results`.
  }];
}

def CpuPrepareWeights : Pass<"graphc-cpu-prepare-weights", "mlir::ModuleOp"> {
  let summary = "Move work that depends only on read-only variables into "
                "graphc_task_prepare, run once at load time";
  let description = [{
    In a task module (one made by `convert-dist-to-runtime`), finds the ops
    of `graphc_task_run` (and of its dynamic-batch chunk body) whose results
    depend on nothing but read-only variables and constants: a variable is
    read-only when its memref argument is only read through
    `bufferization.to_tensor`. Each such result that the rest of the step
    reads and that took work to make (not only a view or reshape of a
    variable: for example the direct convolution kernels' filter re-layout)
    is computed instead by a new function `graphc_task_prepare(ctx,
    services, variables...)` into a `memref.global`, which the step reads.
    The runtime calls `graphc_task_prepare` once after loading the
    variables and again after every write of them
    (`graphrt_task_descriptor_v1_t::prepare`), so the step no longer redoes
    the work each call. Identical work of the run function and its chunk
    body shares one global. Runs on tensors, before bufferization; modules
    that are not tasks are left alone.

    The cost is memory: each global is as large as its result (a packed
    filter: its weights once more).

    Example: `graph-opt --graphc-cpu-prepare-weights`.
  }];
  let dependentDialects = ["mlir::bufferization::BufferizationDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::LLVM::LLVMDialect"];
}

def CpuInPlaceStep : Pass<"graphc-cpu-in-place-step", "mlir::func::FuncOp"> {
  let summary = "Produce bucket members in the bucket and variable updates in "
                "the variable, before bufferization";
  let description = [{
    Two rewrites of a task's step on linalg-on-tensors, so that One-Shot
    Bufferize writes values where they end up instead of into temporaries
    that are then copied:

    * **Buckets.** A rank-1 `tensor.concat` (the gradient bucket of
      `dist-fuse-collectives`), or the chain of `tensor.insert_slice`s into
      a `tensor.empty` that its upstream decomposition makes, becomes a
      chain of inserts each placed right after its member is made. The
      bucket starts as the buffer its blocking all-reduce writes its result
      into, when `convert-dist-to-runtime` lowered it so (a writable
      `to_buffer` of the bucket passed to a call before a `memref.alloc`),
      so that the call reduces in place; otherwise as a `tensor.empty` of
      its own. Where a member is (a `collapse_shape` of) the result of a
      chain of destination-style ops (`linalg.matmul` on a `linalg.fill`, a
      `linalg.reduce`, ...) that starts at a `tensor.empty` and is used by
      nothing else, the chain's init becomes the member's slice of the
      bucket (`extract_slice`, `expand_shape` back to the member's shape):
      the gradient is computed in the bucket and the insert is a copy onto
      itself, which bufferization leaves out. A fill that CSE shared
      between chains is cloned; fills made before the previous insert move
      down to it; a member whose chain has other ops before that point is
      copied in as before.
    * **Variable updates.** Where a variable's new value (the
      `bufferization.to_buffer` that `convert-dist-to-runtime` copies into
      the variable's argument) is the result of a destination-style op
      whose init is a `tensor.empty` used only there, the init becomes the
      variable's own `bufferization.to_tensor`, marked `writable`: the
      update (`w - lr * g`, the momentum or Adam slot) is written into the
      variable's buffer and the copy is onto itself. One-Shot Bufferize
      still decides: where the old value is read after the update (an
      output, another variable's new value), it writes the update into a
      new buffer as before.

    Example: `graph-opt --graphc-cpu-in-place-step`.
  }];
  let dependentDialects = ["mlir::tensor::TensorDialect",
                           "mlir::bufferization::BufferizationDialect"];
  let statistics = [
    Statistic<"numMembersInPlace", "members-in-place",
              "Bucket members made in their slice of the bucket">,
    Statistic<"numUpdatesInPlace", "updates-in-place",
              "Variable updates written into the variable">,
  ];
}

def CpuLowerAllocaScopes : Pass<"graphc-cpu-lower-alloca-scopes",
                                 "mlir::func::FuncOp"> {
  let summary = "Turn memref.alloca_scope into LLVM stack save/restore";
  let description = [{
    `convert-scf-to-openmp` wraps each parallel loop body in a
    `memref.alloca_scope` so stack allocations are released per iteration.
    The scope's region must stay a single block, so lowering the loops
    nested in it to control flow (`convert-scf-to-cf`) produces invalid IR
    ("'memref.alloca_scope' op expects region #0 to have 0 or 1 blocks").
    This pass, run before `convert-scf-to-cf`, replaces each scope by
    `llvm.intr.stacksave` before its body (inlined in place) and
    `llvm.intr.stackrestore` after it: the same lifetime, without the
    single-block constraint.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def CpuSerialSmallTasks : Pass<"graphc-cpu-serial-small-tasks",
                                "mlir::func::FuncOp"> {
  let summary = "Run scf.forall loops too small to share as serial loops";
  let description = [{
    Runs on memrefs, after bufferization and before `scf.forall` becomes
    `scf.parallel` and OpenMP. Estimates the work of each `scf.forall`, in
    element operations: every op of its body counts once per lane of its
    widest vector operand or result (a `vector.contract` half a unit per
    point of its iteration space, since a register tile's multiply-adds
    retire about twice the lanes a cycle of a copy's loads and stores; a
    linalg op once per point of its loop ranges and per op of its body; a
    `memref.alloc` a hundred), times the static trip counts of the `scf.for`
    loops around it in the task and the forall's own trip count. A forall
    under `min-work` element operations becomes a serial `scf.for` nest:
    forking and joining a team of threads (a few microseconds, far more when
    a thread has lost its core) costs more than such a loop gains from a
    second thread. A body whose work is not static (a dynamic trip count, a
    call, an `scf.while`) keeps its forall. `min-work` 0 keeps every forall.

    mnist-8 at batch 1 on 2 threads: 0.040 ms a step (minimum) with its
    seven parallel regions, 0.026 ms with one (the default), 0.017 ms with
    none; higher thresholds cost ShuffleNet's mid-sized layers
    (docs/design/cpu-codegen.md, "Round two: the step thread, serial small
    tasks, max pooling").

    Example: `graph-opt --graphc-cpu-serial-small-tasks="min-work=131072"`.
  }];
  let options = [
    Option<"minWork", "min-work", "int64_t", /*default=*/"131072",
           "Element operations below which an scf.forall runs serially "
           "(0: never)">,
  ];
  let statistics = [
    Statistic<"numSerial", "num-serial-foralls",
              "scf.forall loops made serial">,
    Statistic<"numKept", "num-parallel-foralls",
              "scf.forall loops left parallel">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect"];
}

def CpuExpandBF16 : Pass<"graphc-cpu-expand-bf16", "mlir::func::FuncOp"> {
  let summary = "bf16 conversions as integer arithmetic";
  let description = [{
    Rewrites `arith.truncf` to bf16 and `arith.extf` from bf16 (scalars and
    vectors) into integer arithmetic with round-to-nearest-even, upstream's
    `populateExpandBFloat16Patterns` and nothing else of `arith-expand`.
    Without it, LLVM lowers a float-to-bf16 truncation on an x86 CPU
    without AVX512-BF16 (Zen 3, Skylake) to a call of `__truncsfbf2`, which
    a task's shared object has no library to resolve: the task would fail
    to load on exactly those machines.

    Example: `graph-opt --graphc-cpu-expand-bf16`.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::vector::VectorDialect"];
}

def CpuApproximateExp : Pass<"graphc-cpu-approximate-exp", "mlir::func::FuncOp"> {
  let summary = "f32 math.exp as a polynomial in vector arithmetic";
  let description = [{
    Rewrites f32 `math.exp` (scalars and vectors) into upstream's polynomial
    approximation (`populateMathPolynomialApproximationPatterns` for `exp`
    only: a range reduction by ln 2, a polynomial, and the exponent built in
    integer arithmetic; +-inf, NaN, overflow and underflow handled), all in
    vector arithmetic. Without it a vector `math.exp` becomes `llvm.exp` on a
    vector, which LLVM unrolls into one libm `expf` call per lane: 11.5% of
    a transformer encoder layer's step (d_model 256, seq 128, batch 1, one
    thread) went to `__expf_fma` for its softmax. The CPU pipeline runs it
    after `math-expand-ops`, so sigmoid and tanh, expanded into exp, take it
    too; f64 and other types keep the intrinsic.

    Example: `graph-opt --graphc-cpu-approximate-exp`.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::math::MathDialect",
                           "mlir::vector::VectorDialect"];
}

#endif // GRAPHC_PIPELINES_CPUPASSES_TD
