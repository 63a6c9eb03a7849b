// Transfer.cpp: the chunked tensor stream format of the Transport service.
#include "Transfer.h"

#include <algorithm>
#include <cstring>

namespace graphrt {

bool writeChunks(const std::string &key, const std::string &srcTask,
                 const void *data, size_t bytes, size_t chunkBytes,
                 const std::function<bool(const rpc::TensorChunk &)> &write) {
  if (chunkBytes == 0) {
    chunkBytes = 1;
  }
  const char *p = static_cast<const char *>(data);
  rpc::TensorChunk chunk;
  chunk.set_key(key);
  chunk.set_src_task(srcTask);
  chunk.set_total_bytes(bytes);
  size_t offset = 0;
  do {
    size_t n = std::min(chunkBytes, bytes - offset);
    chunk.set_offset(offset);
    chunk.set_data(p + offset, n);
    if (!write(chunk)) {
      return false;
    }
    offset += n;
    // Only the first chunk needs the header.
    chunk.clear_key();
    chunk.clear_src_task();
  } while (offset < bytes);
  return true;
}

/// How far ahead of the bytes received a chunk may land (gRPC streams are
/// ordered; this leaves room for senders that reorder a little).
constexpr uint64_t kMaxChunkLead = 64 << 20;

Status receiveChunks(Rendezvous &rdv,
                     const std::function<bool(rpc::TensorChunk *)> &read,
                     uint64_t *out_bytes) {
  rpc::TensorChunk chunk;
  if (!read(&chunk)) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT, "empty transfer");
  }
  std::string key = chunk.key(), src = chunk.src_task();
  if (key.empty()) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  "the first chunk of a transfer has no key");
  }
  uint64_t total = chunk.total_bytes();
  char *target = nullptr;
  GRAPHRT_RETURN_IF_ERROR(rdv.beginIncoming(key, total, &target));
  uint64_t received = 0;
  do {
    uint64_t n = chunk.data().size();
    if (chunk.offset() > total || n > total - chunk.offset()) {
      Status bad(GRAPHRT_STATUS_INVALID_ARGUMENT,
                 "chunk of " + std::to_string(n) + " bytes at offset " +
                     std::to_string(chunk.offset()) + " overruns the " +
                     std::to_string(total) + "-byte tensor '" + key + "'");
      rdv.finishIncoming(key, bad);
      return bad;
    }
    // Chunks may come out of order, but not arbitrarily far ahead of what
    // has arrived: staging memory follows the bytes actually sent, not the
    // total the first chunk claims.
    if (chunk.offset() > received + kMaxChunkLead) {
      Status bad(GRAPHRT_STATUS_INVALID_ARGUMENT,
                 "chunk at offset " + std::to_string(chunk.offset()) +
                     " of tensor '" + key + "' is more than " +
                     std::to_string(kMaxChunkLead) + " bytes ahead of the " +
                     std::to_string(received) + " received");
      rdv.finishIncoming(key, bad);
      return bad;
    }
    // The one copy per chunk: from the message straight into place.
    if (n) {
      if (Status st = rdv.growIncoming(key, chunk.offset() + n, &target);
          !st.isOk()) {
        rdv.finishIncoming(key, st);
        return st;
      }
      std::memcpy(target + chunk.offset(), chunk.data().data(), n);
    }
    received += n;
  } while (read(&chunk));
  if (received != total) {
    Status lost(GRAPHRT_STATUS_DATA_LOSS,
                "transfer of '" + key + "' from task '" + src +
                    "' ended after " + std::to_string(received) + " of " +
                    std::to_string(total) + " bytes");
    rdv.finishIncoming(key, lost);
    return lost;
  }
  rdv.finishIncoming(key, Status::ok());
  *out_bytes = received;
  return Status::ok();
}

} // namespace graphrt
