// Transfer.h: cutting a tensor into TensorChunk messages and writing a chunk
// stream into a rendezvous, independent of gRPC's stream classes.
#ifndef GRAPHRT_LIB_TRANSFER_H
#define GRAPHRT_LIB_TRANSFER_H

#include "Rendezvous.h"
#include "worker.pb.h"

#include <functional>
#include <string>

namespace graphrt {

/// Writes `bytes` at `data` as chunks of at most `chunkBytes` (at least one
/// chunk, even for an empty tensor). Only the first chunk carries `key` and
/// `srcTask`. Returns false as soon as `write` does (the stream broke).
bool writeChunks(const std::string &key, const std::string &srcTask,
                 const void *data, size_t bytes, size_t chunkBytes,
                 const std::function<bool(const rpc::TensorChunk &)> &write);

/// Reads a chunk stream with `read` into `rdv`: each chunk is copied once,
/// straight to its offset in the consumer's buffer when the consumer is
/// already waiting. The consumer sees DATA_LOSS when the stream ends early
/// and INVALID_ARGUMENT when a chunk overruns the tensor; so does the caller.
Status receiveChunks(Rendezvous &rdv,
                     const std::function<bool(rpc::TensorChunk *)> &read,
                     uint64_t *out_bytes);

} // namespace graphrt

#endif // GRAPHRT_LIB_TRANSFER_H
