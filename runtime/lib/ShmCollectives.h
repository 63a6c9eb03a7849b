// ShmCollectives.h: collectives through one shared-memory segment among the
// ranks of a group that run on the same host.
#ifndef GRAPHRT_LIB_SHMCOLLECTIVES_H
#define GRAPHRT_LIB_SHMCOLLECTIVES_H

#include "Collectives.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace graphrt {

/// Groups larger than this run over the data plane (the header has one line
/// per rank).
constexpr int kShmMaxRanks = 64;
/// The largest slot; bigger calls run in chunks of a slot each.
constexpr size_t kShmMaxSlotBytes = size_t(16) << 20;

struct ShmHeader;

/// A mapping of one group's segment: a header (barrier words, one line per
/// rank), then `ranks` input slots and a result area of `slotBytes` each.
/// Not thread-safe; the mapping lives as long as the object.
class ShmSegment {
public:
  ~ShmSegment();
  ShmSegment(const ShmSegment &) = delete;
  ShmSegment &operator=(const ShmSegment &) = delete;

  /// Creates a segment under a fresh unguessable name (256 random bits),
  /// O_EXCL and mode 0600, with its memory reserved up front, so a /dev/shm
  /// too small for it is an error here rather than a SIGBUS on first touch.
  static Status create(int ranks, size_t slotBytes,
                       std::unique_ptr<ShmSegment> *out);
  /// Maps the segment `name` that create() made in another process, after
  /// checking that this user owns it, that nobody else may open it, and its
  /// size, layout and `cookie` (which travels with the name).
  static Status open(const std::string &name, const uint8_t cookie[32],
                     int ranks, size_t slotBytes,
                     std::unique_ptr<ShmSegment> *out);
  /// A nameless shared mapping, for ranks that are threads of one process or
  /// inherit it across fork() (tests).
  static Status anonymous(int ranks, size_t slotBytes,
                          std::unique_ptr<ShmSegment> *out);

  /// Removes the name (the memory stays until every mapping is gone). Called
  /// by the creator once every rank has mapped the segment or given up.
  void unlink();

  const std::string &name() const { return name_; }
  const uint8_t *cookie() const;
  int ranks() const { return ranks_; }
  size_t slotBytes() const { return slotBytes_; }
  ShmHeader *header() const { return header_; }
  /// Slot `i` of this segment; slot `ranks()` is the result area.
  char *slot(int i) const;

private:
  ShmSegment() = default;
  static Status map(int fd, int ranks, size_t slotBytes,
                    std::unique_ptr<ShmSegment> *out);
  std::string name_;
  bool linked_ = false;
  void *base_ = nullptr;
  size_t bytes_ = 0;
  ShmHeader *header_ = nullptr;
  int ranks_ = 0;
  size_t slotBytes_ = 0;
};

/// What a rank needs to wait well and to say who it waited for.
struct ShmOptions {
  /// Every barrier wait's deadline (the worker's --recv-timeout).
  std::chrono::milliseconds timeout{30000};
  /// Set by Abort; a waiting rank sees it once `wake` is called.
  const std::atomic<bool> *cancelled = nullptr;
  /// The task of each rank, for errors (empty: "rank N").
  std::vector<std::string> names;
};

/// One rank's membership in a segment. Each collective takes the same
/// arguments as its ring counterpart (Collectives.h) and gives the same
/// result, bit for bit: every element is reduced in the order the ring
/// reduces it, f16/bf16 in f32 with one rounding at the end. Every rank
/// copies its input into its slot, waits at a barrier, reduces (or copies)
/// its share, waits at a second barrier and copies the result out; calls
/// larger than a slot run in slot-sized chunks.
///
/// A call fails (and marks the segment failed, so that the others fail at
/// once instead of at their deadline) when a peer misses a barrier by
/// `timeout`, when a peer process has exited, when the ranks disagree on the
/// call, or when `cancelled` is set. After a failure every later call fails.
///
/// Not thread-safe, except `wake` and `waitingOn`, which any thread may call
/// while the owner runs a collective.
class ShmGroup {
public:
  ShmGroup(std::shared_ptr<ShmSegment> segment, int rank, ShmOptions options);
  ~ShmGroup();
  ShmGroup(const ShmGroup &) = delete;
  ShmGroup &operator=(const ShmGroup &) = delete;

  Status allReduce(graphrt_reduce_op_t op, graphrt_dtype_t dtype,
                   const void *input, void *output, size_t count);
  Status allGather(graphrt_dtype_t dtype, const void *input, void *output,
                   size_t count);
  Status reduceScatter(graphrt_reduce_op_t op, graphrt_dtype_t dtype,
                       const void *input, void *output, size_t count);
  Status broadcast(int root, graphrt_dtype_t dtype, void *buffer, size_t count);

  /// Wakes this rank if it waits at a barrier, so that it notices
  /// `cancelled`. Thread-safe.
  void wake();
  /// The ranks this rank waits for at a barrier ("" when it is not waiting).
  /// Thread-safe.
  std::string waitingOn() const;

  int rank() const { return rank_; }
  int size() const { return size_; }
  size_t slotBytes() const { return segment_->slotBytes(); }
  /// How long the last call waited at barriers for the other ranks, in
  /// microseconds (the rest of its time is copying and reducing).
  int64_t lastWaitUs() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(waited_)
        .count();
  }

private:
  enum class Kind : uint32_t;
  Status begin(Kind kind, graphrt_reduce_op_t op, graphrt_dtype_t dtype,
               int root, size_t count);
  Status barrier(bool checkCall);
  Status fail(Status st);
  std::string who(int rank) const;
  const char *kindName() const;
  bool peerExited(int rank);

  std::shared_ptr<ShmSegment> segment_;
  ShmHeader *h_;
  int rank_, size_;
  ShmOptions opt_;
  uint32_t generation_ = 0; // barriers this rank has passed
  std::chrono::steady_clock::duration waited_{}; // in barriers, this call
  Kind kind_{};
  std::vector<int> pidfds_;
  // What waitingOn reports, read by other threads.
  std::atomic<bool> waiting_{false};
  std::atomic<uint32_t> waitGen_{0};
};

/// The slot size for a call that wants `bytes` per slot: the next power of
/// two from 64 KiB up to kShmMaxSlotBytes (every rank computes the same).
size_t shmSlotBytesFor(size_t bytes);
/// Bytes per slot the collectives want for a whole call in one chunk.
size_t shmAllReduceBytes(graphrt_dtype_t dtype, size_t count);
size_t shmReduceScatterBytes(graphrt_dtype_t dtype, size_t count, int ranks);

/// Sets up a group's segment over the group's own (authenticated) transport:
/// rank 0 creates it and sends its name and cookie to every rank, each maps
/// it and answers, rank 0 unlinks the name and tells every rank whether all
/// of them mapped it. Every rank gets the same outcome: OK with `*out` set,
/// or OK with `*out` null and `*why` saying why shared memory cannot be used
/// (run over the transport instead). An error means the transport failed.
Status setupShmGroup(const CollectiveCall &call, size_t slotBytes,
                     ShmOptions options, std::unique_ptr<ShmGroup> *out,
                     std::string *why);

/// Whether the workers at these gRPC addresses ("host:port") share a host as
/// far as their addresses tell: all loopback, or all the same host. The
/// setup still checks that every rank can map the segment.
bool addressesShareHost(const std::vector<std::string> &addresses,
                        std::string *why);

} // namespace graphrt

#endif // GRAPHRT_LIB_SHMCOLLECTIVES_H
