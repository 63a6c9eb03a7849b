// Collectives.cpp: ring all-reduce/all-gather/reduce-scatter, chain broadcast,
// pairwise all-to-all.
#include "Collectives.h"
#include "HalfFloat.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace graphrt {

size_t blockBegin(size_t count, int parts, int i) {
  return count * static_cast<size_t>(i) / static_cast<size_t>(parts);
}

namespace {

/// memmove that allows an empty tensor's null buffer: a collective over zero
/// elements is valid, but memmove/memcpy with a null pointer is undefined
/// even for zero bytes (UBSan reports it).
void moveBytes(void *dst, const void *src, size_t bytes) {
  if (bytes) {
    std::memmove(dst, src, bytes);
  }
}

template <typename T>
void reduceTyped(graphrt_reduce_op_t op, T *dst, const T *src, size_t n) {
  switch (op) {
  case GRAPHRT_REDUCE_SUM:
  case GRAPHRT_REDUCE_MEAN:
    for (size_t i = 0; i < n; ++i) {
      dst[i] += src[i];
    }
    break;
  case GRAPHRT_REDUCE_MAX:
    for (size_t i = 0; i < n; ++i) {
      dst[i] = std::max(dst[i], src[i]);
    }
    break;
  case GRAPHRT_REDUCE_MIN:
    for (size_t i = 0; i < n; ++i) {
      dst[i] = std::min(dst[i], src[i]);
    }
    break;
  }
}

template <typename T> void divideTyped(T *dst, size_t n, int by) {
  for (size_t i = 0; i < n; ++i) {
    dst[i] = static_cast<T>(dst[i] / static_cast<T>(by));
  }
}

Status checkOp(graphrt_reduce_op_t op, graphrt_dtype_t dtype) {
  if (op < GRAPHRT_REDUCE_SUM || op > GRAPHRT_REDUCE_MIN) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  "unknown reduce op " + std::to_string(op));
  }
  switch (dtype) {
  case GRAPHRT_DTYPE_F32:
  case GRAPHRT_DTYPE_F64:
  case GRAPHRT_DTYPE_I32:
  case GRAPHRT_DTYPE_I64:
  case GRAPHRT_DTYPE_F16:
  case GRAPHRT_DTYPE_BF16:
    return Status::ok();
  default:
    return Status(GRAPHRT_STATUS_UNIMPLEMENTED,
                  "reductions support f32, f64, f16, bf16, i32 and i64, not "
                  "dtype " +
                      std::to_string(dtype));
  }
}

Status finishMean(graphrt_reduce_op_t op, graphrt_dtype_t dtype, void *data,
                  size_t n, int size) {
  if (op != GRAPHRT_REDUCE_MEAN) {
    return Status::ok();
  }
  switch (dtype) {
  case GRAPHRT_DTYPE_F32:
    divideTyped(static_cast<float *>(data), n, size);
    break;
  case GRAPHRT_DTYPE_F64:
    divideTyped(static_cast<double *>(data), n, size);
    break;
  case GRAPHRT_DTYPE_I32:
    divideTyped(static_cast<int32_t *>(data), n, size);
    break;
  case GRAPHRT_DTYPE_I64:
    divideTyped(static_cast<int64_t *>(data), n, size);
    break;
  default:
    break;
  }
  return Status::ok();
}

int mod(int a, int n) { return ((a % n) + n) % n; }

std::string key(const CollectiveCall &c, const char *phase, int round,
                int from) {
  return c.keyPrefix + "/" + phase + std::to_string(round) + "/from" +
         std::to_string(from);
}

// Segments of a message of `bytes` (`count` elements): enough that reducing
// one overlaps with receiving the next, few enough that per-message costs
// stay small.
int segmentsFor(size_t count, size_t esize) {
  size_t bytes = count * esize;
  return static_cast<int>(
      std::max<size_t>(1, std::min<size_t>({16, bytes / (1 << 20), count})));
}

// Receives posted ahead of the matching sends; on an early return the
// destructor withdraws those not yet received.
class PostedRecvs {
public:
  explicit PostedRecvs(PeerTransport *t) : t_(t) {}
  ~PostedRecvs() {
    for (const Entry &e : entries_) {
      if (!e.done) {
        t_->unpost(e.peer, e.key, e.data, e.bytes);
      }
    }
  }
  void post(int peer, std::string key, char *data, size_t bytes) {
    t_->post(peer, key, data, bytes);
    entries_.push_back({peer, std::move(key), data, bytes, false});
  }
  size_t size() const { return entries_.size(); }
  Status recv(size_t i) {
    Entry &e = entries_[i];
    e.done = true;
    return t_->recv(e.peer, e.key, e.data, e.bytes);
  }

private:
  struct Entry {
    int peer;
    std::string key;
    char *data;
    size_t bytes;
    bool done;
  };
  PeerTransport *t_;
  std::vector<Entry> entries_;
};

// One step of a ring: sends `sendCount` elements at `sendData` to the right
// and receives `recvCount` elements from the left into `recvData`, each cut
// into segments. The receives are posted first, so the left neighbour's
// bytes land in place while this rank sends; `onSegment(begin, end)` (in
// elements of the received message) runs on each received segment as soon
// as it is in, between the sends of later segments.
template <typename OnSegment>
Status ringStep(const CollectiveCall &c, const char *phase, int step,
                size_t esize, const char *sendData, size_t sendCount,
                char *recvData, size_t recvCount, OnSegment onSegment) {
  int k = c.size, r = c.rank;
  int right = mod(r + 1, k), left = mod(r - 1, k);
  int sendSegs = segmentsFor(sendCount, esize),
      recvSegs = segmentsFor(recvCount, esize);
  std::string sendKey = key(c, phase, step, r) + "/",
              recvKey = key(c, phase, step, left) + "/";
  PostedRecvs posted(c.transport);
  for (int i = 0; i < recvSegs; ++i) {
    size_t b = blockBegin(recvCount, recvSegs, i),
           e = blockBegin(recvCount, recvSegs, i + 1);
    posted.post(left, recvKey + std::to_string(i), recvData + b * esize,
                (e - b) * esize);
  }
  auto receive = [&](int i) -> Status {
    GRAPHRT_RETURN_IF_ERROR(posted.recv(static_cast<size_t>(i)));
    return onSegment(blockBegin(recvCount, recvSegs, i),
                     blockBegin(recvCount, recvSegs, i + 1));
  };
  int received = 0;
  for (int i = 0; i < sendSegs; ++i) {
    size_t b = blockBegin(sendCount, sendSegs, i),
           e = blockBegin(sendCount, sendSegs, i + 1);
    GRAPHRT_RETURN_IF_ERROR(
        c.transport->send(right, sendKey + std::to_string(i),
                          sendData + b * esize, (e - b) * esize));
    // Work on what has arrived while the kernel drains the send.
    if (i > 0 && received < recvSegs) {
      GRAPHRT_RETURN_IF_ERROR(receive(received++));
    }
  }
  while (received < recvSegs) {
    GRAPHRT_RETURN_IF_ERROR(receive(received++));
  }
  return Status::ok();
}

// Ring reduce-scatter over `data` (count elements, blocks by blockBegin) in
// place; afterwards this rank's block `rank` holds the full reduction.
Status ringReduceScatterInPlace(const CollectiveCall &c, graphrt_reduce_op_t op,
                                graphrt_dtype_t dtype, char *data,
                                size_t count) {
  size_t esize = graphrt_dtype_size(dtype);
  int k = c.size, r = c.rank;
  // The caller's workspace is reused across calls: a fresh buffer per call
  // costs page faults that show at these sizes.
  std::vector<char> local;
  std::vector<char> &scratch = c.workspace ? *c.workspace : local;
  if (scratch.size() < (count / k + 1) * esize) {
    scratch.resize((count / k + 1) * esize);
  }
  for (int s = 0; s < k - 1; ++s) {
    int sendBlock = mod(r - s - 1, k), recvBlock = mod(r - s - 2, k);
    size_t sb = blockBegin(count, k, sendBlock),
           se = blockBegin(count, k, sendBlock + 1);
    size_t rb = blockBegin(count, k, recvBlock),
           re = blockBegin(count, k, recvBlock + 1);
    char *dst = data + rb * esize;
    GRAPHRT_RETURN_IF_ERROR(
        ringStep(c, "rs", s, esize, data + sb * esize, se - sb, scratch.data(),
                 re - rb, [&](size_t b, size_t e) {
                   return reduceInto(op, dtype, dst + b * esize,
                                     scratch.data() + b * esize, e - b);
                 }));
  }
  return Status::ok();
}

// Ring all-gather in place: block `rank` is already in place. Every block
// but this rank's is received exactly once and only sent after that, so all
// receives are posted up front: a neighbour that runs ahead lands its bytes in
// place instead of in a staging buffer.
Status ringAllGatherInPlace(const CollectiveCall &c, size_t esize, char *data,
                            size_t count) {
  int k = c.size, r = c.rank;
  int right = mod(r + 1, k), left = mod(r - 1, k);
  PostedRecvs posted(c.transport);
  std::vector<size_t> firstSeg;
  for (int s = 0; s < k - 1; ++s) {
    int recvBlock = mod(r - s - 1, k);
    size_t rb = blockBegin(count, k, recvBlock),
           re = blockBegin(count, k, recvBlock + 1);
    int segs = segmentsFor(re - rb, esize);
    firstSeg.push_back(posted.size());
    for (int i = 0; i < segs; ++i) {
      size_t b = rb + blockBegin(re - rb, segs, i),
             e = rb + blockBegin(re - rb, segs, i + 1);
      posted.post(left, key(c, "ag", s, left) + "/" + std::to_string(i),
                  data + b * esize, (e - b) * esize);
    }
  }
  firstSeg.push_back(posted.size());
  for (int s = 0; s < k - 1; ++s) {
    int sendBlock = mod(r - s, k);
    size_t sb = blockBegin(count, k, sendBlock),
           se = blockBegin(count, k, sendBlock + 1);
    int segs = segmentsFor(se - sb, esize);
    std::string sendKey = key(c, "ag", s, r) + "/";
    for (int i = 0; i < segs; ++i) {
      size_t b = sb + blockBegin(se - sb, segs, i),
             e = sb + blockBegin(se - sb, segs, i + 1);
      GRAPHRT_RETURN_IF_ERROR(
          c.transport->send(right, sendKey + std::to_string(i),
                            data + b * esize, (e - b) * esize));
    }
    // What this step receives is what the next step sends.
    for (size_t i = firstSeg[s]; i < firstSeg[s + 1]; ++i) {
      GRAPHRT_RETURN_IF_ERROR(posted.recv(i));
    }
  }
  return Status::ok();
}

Status checkCall(const CollectiveCall &c, graphrt_dtype_t dtype) {
  if (c.size < 1 || c.rank < 0 || c.rank >= c.size) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  "rank " + std::to_string(c.rank) + " is not in a group of " +
                      std::to_string(c.size));
  }
  if (graphrt_dtype_size(dtype) == 0) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  "invalid dtype " + std::to_string(dtype));
  }
  return Status::ok();
}

} // namespace

bool isHalf(graphrt_dtype_t dtype) {
  return dtype == GRAPHRT_DTYPE_F16 || dtype == GRAPHRT_DTYPE_BF16;
}

void widenHalf(graphrt_dtype_t dtype, const void *src, float *dst, size_t n) {
  const uint16_t *h = static_cast<const uint16_t *>(src);
  for (size_t i = 0; i < n; ++i) {
    dst[i] = dtype == GRAPHRT_DTYPE_BF16 ? bf16ToFloat(h[i]) : f16ToFloat(h[i]);
  }
}

void narrowHalf(graphrt_dtype_t dtype, const float *src, void *dst, size_t n) {
  uint16_t *h = static_cast<uint16_t *>(dst);
  for (size_t i = 0; i < n; ++i) {
    h[i] =
        dtype == GRAPHRT_DTYPE_BF16 ? floatToBf16(src[i]) : floatToF16(src[i]);
  }
}

Status reduceInto(graphrt_reduce_op_t op, graphrt_dtype_t dtype, void *dst,
                  const void *src, size_t count) {
  GRAPHRT_RETURN_IF_ERROR(checkOp(op, dtype));
  switch (dtype) {
  case GRAPHRT_DTYPE_F32:
    reduceTyped(op, static_cast<float *>(dst), static_cast<const float *>(src),
                count);
    break;
  case GRAPHRT_DTYPE_F64:
    reduceTyped(op, static_cast<double *>(dst),
                static_cast<const double *>(src), count);
    break;
  case GRAPHRT_DTYPE_I32:
    reduceTyped(op, static_cast<int32_t *>(dst),
                static_cast<const int32_t *>(src), count);
    break;
  case GRAPHRT_DTYPE_I64:
    reduceTyped(op, static_cast<int64_t *>(dst),
                static_cast<const int64_t *>(src), count);
    break;
  case GRAPHRT_DTYPE_F16:
  case GRAPHRT_DTYPE_BF16: {
    // In f32, rounded once per call.
    std::vector<float> a(count), b(count);
    widenHalf(dtype, dst, a.data(), count);
    widenHalf(dtype, src, b.data(), count);
    reduceTyped(op, a.data(), b.data(), count);
    narrowHalf(dtype, a.data(), dst, count);
    break;
  }
  default:
    break;
  }
  return Status::ok();
}

Status ringAllReduce(const CollectiveCall &c, graphrt_reduce_op_t op,
                     graphrt_dtype_t dtype, const void *input, void *output,
                     size_t count) {
  GRAPHRT_RETURN_IF_ERROR(checkCall(c, dtype));
  GRAPHRT_RETURN_IF_ERROR(checkOp(op, dtype));
  if (isHalf(dtype)) {
    // Reduced in f32 end to end (partial sums travel as f32, twice the
    // bytes), rounded once at the end: every rank rounds the same f32 sums,
    // so all get the same result, and it is the one-task sum rounded.
    std::vector<float> wide(count);
    widenHalf(dtype, input, wide.data(), count);
    GRAPHRT_RETURN_IF_ERROR(ringAllReduce(c, op, GRAPHRT_DTYPE_F32, wide.data(),
                                          wide.data(), count));
    narrowHalf(dtype, wide.data(), output, count);
    return Status::ok();
  }
  size_t esize = graphrt_dtype_size(dtype);
  if (input != output) {
    moveBytes(output, input, count * esize);
  }
  char *data = static_cast<char *>(output);
  GRAPHRT_RETURN_IF_ERROR(ringReduceScatterInPlace(c, op, dtype, data, count));
  size_t b = blockBegin(count, c.size, c.rank),
         e = blockBegin(count, c.size, c.rank + 1);
  GRAPHRT_RETURN_IF_ERROR(
      finishMean(op, dtype, data + b * esize, e - b, c.size));
  return ringAllGatherInPlace(c, esize, data, count);
}

Status ringAllGather(const CollectiveCall &c, graphrt_dtype_t dtype,
                     const void *input, void *output, size_t count) {
  GRAPHRT_RETURN_IF_ERROR(checkCall(c, dtype));
  size_t esize = graphrt_dtype_size(dtype);
  char *data = static_cast<char *>(output);
  moveBytes(data + c.rank * count * esize, input, count * esize);
  return ringAllGatherInPlace(c, esize, data, count * c.size);
}

Status ringReduceScatter(const CollectiveCall &c, graphrt_reduce_op_t op,
                         graphrt_dtype_t dtype, const void *input, void *output,
                         size_t count) {
  GRAPHRT_RETURN_IF_ERROR(checkCall(c, dtype));
  GRAPHRT_RETURN_IF_ERROR(checkOp(op, dtype));
  if (isHalf(dtype)) {
    // As ringAllReduce: in f32, rounded once.
    std::vector<float> wide(count * c.size), mine(count);
    widenHalf(dtype, input, wide.data(), wide.size());
    GRAPHRT_RETURN_IF_ERROR(ringReduceScatter(c, op, GRAPHRT_DTYPE_F32,
                                              wide.data(), mine.data(), count));
    narrowHalf(dtype, mine.data(), output, count);
    return Status::ok();
  }
  size_t esize = graphrt_dtype_size(dtype);
  std::vector<char> work(static_cast<const char *>(input),
                         static_cast<const char *>(input) +
                             count * c.size * esize);
  GRAPHRT_RETURN_IF_ERROR(
      ringReduceScatterInPlace(c, op, dtype, work.data(), count * c.size));
  moveBytes(output, work.data() + c.rank * count * esize, count * esize);
  return finishMean(op, dtype, output, count, c.size);
}

Status pipelinedBroadcast(const CollectiveCall &c, int root,
                          graphrt_dtype_t dtype, void *buffer, size_t count) {
  GRAPHRT_RETURN_IF_ERROR(checkCall(c, dtype));
  if (root < 0 || root >= c.size) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  "broadcast root " + std::to_string(root) +
                      " is not in a group of " + std::to_string(c.size));
  }
  int k = c.size;
  if (k == 1) {
    return Status::ok();
  }
  size_t esize = graphrt_dtype_size(dtype);
  int distance = mod(c.rank - root, k);
  int right = mod(c.rank + 1, k), left = mod(c.rank - 1, k);
  // Enough segments that every hop of the chain is busy at once, each at
  // least 64 KiB so per-message overhead stays small.
  size_t bytes = count * esize;
  int segments = static_cast<int>(
      std::max<size_t>(1, std::min<size_t>(4 * k, bytes / (64 << 10))));
  char *data = static_cast<char *>(buffer);
  for (int s = 0; s < segments; ++s) {
    size_t b = blockBegin(count, segments, s),
           e = blockBegin(count, segments, s + 1);
    if (distance > 0) {
      GRAPHRT_RETURN_IF_ERROR(c.transport->recv(
          left, key(c, "bc", s, left), data + b * esize, (e - b) * esize));
    }
    if (distance < k - 1) {
      GRAPHRT_RETURN_IF_ERROR(c.transport->send(
          right, key(c, "bc", s, c.rank), data + b * esize, (e - b) * esize));
    }
  }
  return Status::ok();
}

Status pairwiseAllToAll(const CollectiveCall &c, graphrt_dtype_t dtype,
                        const void *input, void *output, size_t count) {
  GRAPHRT_RETURN_IF_ERROR(checkCall(c, dtype));
  size_t block = count * graphrt_dtype_size(dtype);
  const char *in = static_cast<const char *>(input);
  char *out = static_cast<char *>(output);
  int k = c.size, r = c.rank;
  moveBytes(out + r * block, in + r * block, block);
  for (int j = 1; j < k; ++j) {
    int to = mod(r + j, k), from = mod(r - j, k);
    PostedRecvs posted(c.transport);
    posted.post(from, key(c, "a2a", j, from), out + from * block, block);
    GRAPHRT_RETURN_IF_ERROR(
        c.transport->send(to, key(c, "a2a", j, r), in + to * block, block));
    GRAPHRT_RETURN_IF_ERROR(posted.recv(0));
  }
  return Status::ok();
}

} // namespace graphrt
