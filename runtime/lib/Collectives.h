// Collectives.h: bandwidth-optimal CPU collectives over a point-to-point
// transport.
#ifndef GRAPHRT_LIB_COLLECTIVES_H
#define GRAPHRT_LIB_COLLECTIVES_H

#include "Status.h"

#include <cstddef>
#include <string>
#include <vector>

namespace graphrt {

/// Point-to-point messages between the ranks of one group. `send` returns once
/// the peer's runtime holds the data (it never waits for the peer's `recv`),
/// which is what keeps the ring schedules below deadlock-free.
class PeerTransport {
public:
  virtual ~PeerTransport() = default;
  virtual Status send(int peerRank, const std::string &key, const void *data,
                      size_t bytes) = 0;
  virtual Status recv(int peerRank, const std::string &key, void *data,
                      size_t bytes) = 0;
  /// Offers `data` for the message `key` ahead of `recv(peerRank, key, data,
  /// bytes)`, so that it can land in place while this rank is still sending.
  /// Every posted buffer is then either received into or withdrawn with
  /// `unpost`. The default does nothing (`recv` copies on arrival).
  virtual void post(int peerRank, const std::string &key, void *data,
                    size_t bytes) {}
  /// Withdraws a posted buffer that will not be received into; afterwards
  /// nothing writes to it.
  virtual void unpost(int peerRank, const std::string &key, void *data,
                      size_t bytes) {}
};

/// One collective call: this rank's place in the group and a key prefix that
/// is unique to the call (every member computes the same prefix).
struct CollectiveCall {
  PeerTransport *transport;
  int rank;
  int size;
  std::string keyPrefix;
  /// Scratch memory reused across calls (may be null). Not shared between
  /// concurrent calls.
  std::vector<char> *workspace = nullptr;
};

/// The first element of block `i` when `count` elements are split into
/// `parts` nearly equal blocks (block `parts` begins at `count`).
size_t blockBegin(size_t count, int parts, int i);
/// Whether reductions of `dtype` run in f32 (f16, bf16).
bool isHalf(graphrt_dtype_t dtype);
/// f16/bf16 to f32 (exact) and back (rounded to nearest even), `n` elements.
void widenHalf(graphrt_dtype_t dtype, const void *src, float *dst, size_t n);
void narrowHalf(graphrt_dtype_t dtype, const float *src, void *dst, size_t n);

/// Element-wise `dst[i] = op(dst[i], src[i])` for `count` elements; MEAN
/// accumulates like SUM. f16 and bf16 are combined in f32 and rounded to
/// nearest even. UNIMPLEMENTED for dtypes other than f32/f64/f16/bf16/i32/i64.
Status reduceInto(graphrt_reduce_op_t op, graphrt_dtype_t dtype, void *dst,
                  const void *src, size_t count);

/// Ring reduce-scatter then ring all-gather: each rank sends and receives
/// 2 * (size-1)/size of the data. `input` may equal `output`. In every ring
/// step the receive is posted before the send, so both directions move at
/// once, and blocks of 1 MiB and more are cut into segments that are reduced
/// as they arrive while later segments are still in flight. For two ranks
/// this is the direct exchange: swap halves, reduce, swap the results.
/// f16 and bf16 are widened to f32, reduced (and, for MEAN, divided) as f32
/// and rounded to nearest even once at the end; ringReduceScatter likewise.
Status ringAllReduce(const CollectiveCall &call, graphrt_reduce_op_t op,
                     graphrt_dtype_t dtype, const void *input, void *output,
                     size_t count);
/// Ring all-gather of `count` elements per rank into `output`.
Status ringAllGather(const CollectiveCall &call, graphrt_dtype_t dtype,
                     const void *input, void *output, size_t count);
/// Ring reduce-scatter: `input` has count * size elements; `output` gets block
/// `rank` of the reduction.
Status ringReduceScatter(const CollectiveCall &call, graphrt_reduce_op_t op,
                         graphrt_dtype_t dtype, const void *input, void *output,
                         size_t count);
/// Pipelined chain broadcast from `root` along the ring, in segments.
Status pipelinedBroadcast(const CollectiveCall &call, int root,
                          graphrt_dtype_t dtype, void *buffer, size_t count);
/// Pairwise exchange all-to-all: `count` elements per block.
Status pairwiseAllToAll(const CollectiveCall &call, graphrt_dtype_t dtype,
                        const void *input, void *output, size_t count);

} // namespace graphrt

#endif // GRAPHRT_LIB_COLLECTIVES_H
