// ShmCollectives.cpp: the shared-memory segment, its futex barrier, the
// collectives over it and the setup handshake over the group's transport.
#include "ShmCollectives.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <poll.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <new>
#include <thread>

namespace graphrt {

namespace {
constexpr uint64_t kMagic = 0x31304d4853545247ull; // "GRTSHM01"
constexpr uint32_t kVersion = 1;
constexpr size_t kMinSlotBytes = 64 << 10;
} // namespace

/// One rank's line: its barrier count, who it is, and the call it is in.
struct alignas(64) ShmRankLine {
  std::atomic<uint32_t> arrived;
  std::atomic<int32_t> pid;
  std::atomic<uint64_t> pidNamespace;
  // Written before a call's first barrier, read by the others after it.
  uint32_t kind, dtype, op;
  int32_t root;
  uint64_t count;
};

struct ShmHeader {
  uint64_t magic;
  uint32_t version, ranks;
  uint64_t slotBytes;
  uint8_t cookie[32];
  // Bumped by every arrival and every wake-up; the futex word.
  alignas(64) std::atomic<uint32_t> seq;
  std::atomic<uint32_t> sleepers;
  // 1 + the rank that gave up first; 0 while all is well.
  alignas(64) std::atomic<uint32_t> failed;
  ShmRankLine line[kShmMaxRanks];
};

static_assert(std::atomic<uint32_t>::is_always_lock_free &&
                  std::atomic<uint64_t>::is_always_lock_free,
              "the barrier words are shared between processes");

namespace {

size_t headerBytes() { return (sizeof(ShmHeader) + 4095) / 4096 * 4096; }

size_t segmentBytes(int ranks, size_t slotBytes) {
  return headerBytes() + static_cast<size_t>(ranks + 1) * slotBytes;
}

Status errnoStatus(graphrt_status_code_t code, const std::string &what) {
  return Status(code, what + ": " + std::strerror(errno));
}

long futex(std::atomic<uint32_t> *word, int op, uint32_t val,
           const struct timespec *timeout) {
  // Not FUTEX_PRIVATE_FLAG: the word is shared between processes.
  return ::syscall(SYS_futex, reinterpret_cast<uint32_t *>(word), op, val,
                   timeout, nullptr, 0);
}

uint64_t pidNamespace() {
  struct stat st;
  return ::stat("/proc/self/ns/pid", &st) == 0 ? st.st_ino : 0;
}

std::string hex(const uint8_t *p, size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += digits[p[i] >> 4];
    s += digits[p[i] & 15];
  }
  return s;
}

void copyBytes(void *dst, const void *src, size_t bytes) {
  if (bytes) {
    std::memcpy(dst, src, bytes);
  }
}

// The ring reduces element i of block b (blockBegin over the whole call)
// starting from rank b+1 and ending at rank b, each rank combining its own
// value with what came from its left: acc = op(x_j, acc). Reducing in that
// order here gives the ring's result bit for bit. `src` holds every rank's
// data at the element range's start; the mean divides like finishMean. The
// result goes to `dst` and, when `dst2` is set, to `dst2` too (one pass
// writing both). Every source element of a tile is read before any of the
// tile is written, so `dst` may be one of the sources.
template <typename T, typename Op>
void reduceRingOrder(T *dst, T *dst2, const T *const *src, int k, int b,
                     size_t n, Op op, bool mean) {
  constexpr size_t kTile = 1024;
  alignas(64) T acc[kTile];
  for (size_t t = 0; t < n; t += kTile) {
    size_t m = std::min(kTile, n - t);
    const T *first = src[(b + 1) % k] + t;
    if (k == 2) {
      // The common case in one pass: acc = op(x_b, x_{b+1}).
      const T *s = src[b % k] + t;
      for (size_t i = 0; i < m; ++i) {
        acc[i] = op(s[i], first[i]);
      }
    } else {
      for (size_t i = 0; i < m; ++i) {
        acc[i] = first[i];
      }
      for (int j = 2; j <= k; ++j) {
        const T *s = src[(b + j) % k] + t;
        for (size_t i = 0; i < m; ++i) {
          acc[i] = op(s[i], acc[i]);
        }
      }
    }
    if (mean) {
      for (size_t i = 0; i < m; ++i) {
        acc[i] = static_cast<T>(acc[i] / static_cast<T>(k));
      }
    }
    std::memcpy(dst + t, acc, m * sizeof(T));
    if (dst2) {
      std::memcpy(dst2 + t, acc, m * sizeof(T));
    }
  }
}

template <typename T>
void reduceTypedRingOrder(graphrt_reduce_op_t op, T *dst, T *dst2,
                          const T *const *src, int k, int b, size_t n) {
  switch (op) {
  case GRAPHRT_REDUCE_SUM:
  case GRAPHRT_REDUCE_MEAN:
    reduceRingOrder(
        dst, dst2, src, k, b, n, [](T x, T acc) { return x + acc; },
        op == GRAPHRT_REDUCE_MEAN);
    break;
  case GRAPHRT_REDUCE_MAX:
    reduceRingOrder(
        dst, dst2, src, k, b, n, [](T x, T acc) { return std::max(x, acc); },
        false);
    break;
  case GRAPHRT_REDUCE_MIN:
    reduceRingOrder(
        dst, dst2, src, k, b, n, [](T x, T acc) { return std::min(x, acc); },
        false);
    break;
  }
}

// Reduces elements [begin, end) of a call of `total` elements, of which the
// sources hold [chunk, chunk + slot elements), into dst (indexed like the
// sources) and, when set, dst2 (likewise), splitting the range where the
// ring's blocks change order.
void reduceRange(graphrt_reduce_op_t op, graphrt_dtype_t wide, char *dst,
                 char *dst2, const char *const *sources, int k, size_t total,
                 size_t chunk, size_t begin, size_t end) {
  size_t esize = graphrt_dtype_size(wide);
  const char *src[kShmMaxRanks];
  while (begin < end) {
    // The ring block of element `begin` and where it ends.
    int b = 0;
    while (blockBegin(total, k, b + 1) <= begin) {
      ++b;
    }
    size_t stop = std::min(end, blockBegin(total, k, b + 1));
    size_t off = (begin - chunk) * esize, n = stop - begin;
    for (int j = 0; j < k; ++j) {
      src[j] = sources[j] + off;
    }
    char *d2 = dst2 ? dst2 + off : nullptr;
    switch (wide) {
    case GRAPHRT_DTYPE_F32:
      reduceTypedRingOrder(op, reinterpret_cast<float *>(dst + off),
                           reinterpret_cast<float *>(d2),
                           reinterpret_cast<const float *const *>(src), k, b,
                           n);
      break;
    case GRAPHRT_DTYPE_F64:
      reduceTypedRingOrder(op, reinterpret_cast<double *>(dst + off),
                           reinterpret_cast<double *>(d2),
                           reinterpret_cast<const double *const *>(src), k, b,
                           n);
      break;
    case GRAPHRT_DTYPE_I32:
      reduceTypedRingOrder(op, reinterpret_cast<int32_t *>(dst + off),
                           reinterpret_cast<int32_t *>(d2),
                           reinterpret_cast<const int32_t *const *>(src), k, b,
                           n);
      break;
    case GRAPHRT_DTYPE_I64:
      reduceTypedRingOrder(op, reinterpret_cast<int64_t *>(dst + off),
                           reinterpret_cast<int64_t *>(d2),
                           reinterpret_cast<const int64_t *const *>(src), k, b,
                           n);
      break;
    default:
      break;
    }
    begin = stop;
  }
}

Status checkReduction(graphrt_reduce_op_t op, graphrt_dtype_t dtype) {
  // reduceInto's checks, on an empty call.
  return reduceInto(op, dtype, nullptr, nullptr, 0);
}

} // namespace

//===----------------------------------------------------------------------===//
// ShmSegment
//===----------------------------------------------------------------------===//

ShmSegment::~ShmSegment() {
  unlink();
  if (base_) {
    ::munmap(base_, bytes_);
  }
}

const uint8_t *ShmSegment::cookie() const { return header_->cookie; }

char *ShmSegment::slot(int i) const {
  return static_cast<char *>(base_) + headerBytes() +
         static_cast<size_t>(i) * slotBytes_;
}

void ShmSegment::unlink() {
  if (linked_) {
    ::shm_unlink(name_.c_str());
    linked_ = false;
  }
}

Status ShmSegment::map(int fd, int ranks, size_t slotBytes,
                       std::unique_ptr<ShmSegment> *out) {
  size_t bytes = segmentBytes(ranks, slotBytes);
  int flags = fd < 0 ? MAP_SHARED | MAP_ANONYMOUS : MAP_SHARED;
  void *base = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, flags, fd, 0);
  if (base == MAP_FAILED) {
    return errnoStatus(GRAPHRT_STATUS_RESOURCE_EXHAUSTED,
                       "cannot map a shared segment of " +
                           std::to_string(bytes) + " bytes");
  }
  std::unique_ptr<ShmSegment> seg(new ShmSegment());
  seg->base_ = base;
  seg->bytes_ = bytes;
  seg->header_ = static_cast<ShmHeader *>(base);
  seg->ranks_ = ranks;
  seg->slotBytes_ = slotBytes;
  *out = std::move(seg);
  return Status::ok();
}

static Status checkShape(int ranks, size_t slotBytes) {
  if (ranks < 1 || ranks > kShmMaxRanks || slotBytes == 0 ||
      slotBytes > kShmMaxSlotBytes || slotBytes % 64) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  "a shared segment for " + std::to_string(ranks) +
                      " ranks with " + std::to_string(slotBytes) +
                      "-byte slots is not supported");
  }
  return Status::ok();
}

// Fills the header of a new (zeroed) mapping.
static void initHeader(ShmSegment &seg, const uint8_t cookie[32]) {
  ShmHeader *h = new (seg.header()) ShmHeader();
  h->magic = kMagic;
  h->version = kVersion;
  h->ranks = static_cast<uint32_t>(seg.ranks());
  h->slotBytes = seg.slotBytes();
  std::memcpy(h->cookie, cookie, sizeof h->cookie);
}

Status ShmSegment::create(int ranks, size_t slotBytes,
                          std::unique_ptr<ShmSegment> *out) {
  GRAPHRT_RETURN_IF_ERROR(checkShape(ranks, slotBytes));
  uint8_t random[64];
  if (::getrandom(random, sizeof random, 0) != sizeof random) {
    return errnoStatus(GRAPHRT_STATUS_INTERNAL, "getrandom");
  }
  std::string name = "/graphrt-" + hex(random, 32);
  int fd = ::shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC,
                      S_IRUSR | S_IWUSR);
  if (fd < 0) {
    return errnoStatus(GRAPHRT_STATUS_UNAVAILABLE,
                       "cannot create a shared memory segment in /dev/shm");
  }
  size_t bytes = segmentBytes(ranks, slotBytes);
  // The umask may have taken bits off 0600 but never adds any; make the
  // owner's read-write explicit.
  Status st;
  if (::fchmod(fd, S_IRUSR | S_IWUSR) != 0) {
    st = errnoStatus(GRAPHRT_STATUS_UNAVAILABLE, "fchmod");
  } else if (int e = ::posix_fallocate(fd, 0, static_cast<off_t>(bytes))) {
    errno = e;
    st = errnoStatus(GRAPHRT_STATUS_RESOURCE_EXHAUSTED,
                     "cannot reserve " + std::to_string(bytes) +
                         " bytes of shared memory in /dev/shm");
  } else {
    st = map(fd, ranks, slotBytes, out);
  }
  ::close(fd);
  if (!st.isOk()) {
    ::shm_unlink(name.c_str());
    return st;
  }
  (*out)->name_ = name;
  (*out)->linked_ = true;
  initHeader(**out, random + 32);
  return Status::ok();
}

Status ShmSegment::open(const std::string &name, const uint8_t cookie[32],
                        int ranks, size_t slotBytes,
                        std::unique_ptr<ShmSegment> *out) {
  GRAPHRT_RETURN_IF_ERROR(checkShape(ranks, slotBytes));
  if (name.compare(0, 9, "/graphrt-") != 0 ||
      name.find('/', 1) != std::string::npos) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  "'" + name + "' is not a graphrt segment name");
  }
  int fd = ::shm_open(name.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0);
  if (fd < 0) {
    return errnoStatus(GRAPHRT_STATUS_UNAVAILABLE,
                       "cannot open shared memory segment '" + name + "'");
  }
  size_t bytes = segmentBytes(ranks, slotBytes);
  struct stat st;
  Status s;
  if (::fstat(fd, &st) != 0) {
    s = errnoStatus(GRAPHRT_STATUS_UNAVAILABLE, "fstat");
  } else if (st.st_uid != ::geteuid() || (st.st_mode & 077) != 0 ||
             !S_ISREG(st.st_mode)) {
    s = Status(GRAPHRT_STATUS_PERMISSION_DENIED,
               "shared memory segment '" + name + "' is owned by uid " +
                   std::to_string(st.st_uid) + " with mode " +
                   std::to_string(st.st_mode & 0777) +
                   "; expected this user's, mode 0600");
  } else if (static_cast<size_t>(st.st_size) != bytes) {
    s = Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
               "shared memory segment '" + name + "' has " +
                   std::to_string(st.st_size) + " bytes, expected " +
                   std::to_string(bytes));
  } else {
    s = map(fd, ranks, slotBytes, out);
  }
  ::close(fd);
  GRAPHRT_RETURN_IF_ERROR(s);
  const ShmHeader *h = (*out)->header();
  if (h->magic != kMagic || h->version != kVersion ||
      h->ranks != static_cast<uint32_t>(ranks) || h->slotBytes != slotBytes ||
      CRYPTO_memcmp(h->cookie, cookie, sizeof h->cookie) != 0) {
    out->reset();
    return Status(GRAPHRT_STATUS_PERMISSION_DENIED,
                  "shared memory segment '" + name +
                      "' is not the one rank 0 announced");
  }
  (*out)->name_ = name;
  return Status::ok();
}

Status ShmSegment::anonymous(int ranks, size_t slotBytes,
                             std::unique_ptr<ShmSegment> *out) {
  GRAPHRT_RETURN_IF_ERROR(checkShape(ranks, slotBytes));
  GRAPHRT_RETURN_IF_ERROR(map(-1, ranks, slotBytes, out));
  uint8_t cookie[32] = {};
  initHeader(**out, cookie);
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// ShmGroup
//===----------------------------------------------------------------------===//

enum class ShmGroup::Kind : uint32_t {
  AllReduce = 1,
  AllGather,
  ReduceScatter,
  Broadcast
};

ShmGroup::ShmGroup(std::shared_ptr<ShmSegment> segment, int rank,
                   ShmOptions options)
    : segment_(std::move(segment)), h_(segment_->header()), rank_(rank),
      size_(segment_->ranks()), opt_(std::move(options)),
      pidfds_(static_cast<size_t>(size_), -1) {
  // Start where this rank's line says (a fresh segment: 0), so that every
  // rank's barrier count agrees.
  generation_ = h_->line[rank_].arrived.load(std::memory_order_relaxed);
  h_->line[rank_].pidNamespace.store(pidNamespace(), std::memory_order_relaxed);
  h_->line[rank_].pid.store(static_cast<int32_t>(::getpid()),
                            std::memory_order_release);
}

ShmGroup::~ShmGroup() {
  for (int fd : pidfds_) {
    if (fd >= 0) {
      ::close(fd);
    }
  }
}

std::string ShmGroup::who(int rank) const {
  std::string s = "rank " + std::to_string(rank);
  if (static_cast<size_t>(rank) < opt_.names.size()) {
    s += " (task '" + opt_.names[rank] + "')";
  }
  return s;
}

const char *ShmGroup::kindName() const {
  switch (kind_) {
  case Kind::AllReduce:
    return "all_reduce";
  case Kind::AllGather:
    return "all_gather";
  case Kind::ReduceScatter:
    return "reduce_scatter";
  case Kind::Broadcast:
    return "broadcast";
  }
  return "collective";
}

void ShmGroup::wake() {
  h_->seq.fetch_add(1, std::memory_order_seq_cst);
  futex(&h_->seq, FUTEX_WAKE, INT_MAX, nullptr);
}

std::string ShmGroup::waitingOn() const {
  if (!waiting_.load(std::memory_order_acquire)) {
    return "";
  }
  std::string out;
  uint32_t gen = waitGen_.load(std::memory_order_acquire);
  for (int j = 0; j < size_; ++j) {
    uint32_t a = h_->line[j].arrived.load(std::memory_order_acquire);
    if (static_cast<int32_t>(a - gen) < 0) {
      out += (out.empty() ? "" : ",") + who(j);
    }
  }
  return out.empty() ? "" : "shared-memory barrier (waiting for " + out + ")";
}

// A rank gives up: the segment is marked failed with its rank, so that the
// others stop waiting for it at once.
Status ShmGroup::fail(Status st) {
  uint32_t none = 0;
  h_->failed.compare_exchange_strong(none, static_cast<uint32_t>(rank_ + 1));
  wake();
  return Status(st.code(), std::string("shared-memory ") + kindName() + ": " +
                               st.message());
}

// A peer process that has exited (its pidfd turns readable). Only ranks in
// this process's pid namespace can be watched; the others are left to the
// deadline.
bool ShmGroup::peerExited(int j) {
  int32_t pid = h_->line[j].pid.load(std::memory_order_acquire);
  if (pid <= 0 || pid == ::getpid() ||
      h_->line[j].pidNamespace.load(std::memory_order_relaxed) !=
          pidNamespace()) {
    return false;
  }
  if (pidfds_[j] < 0) {
    pidfds_[j] = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
    if (pidfds_[j] < 0) {
      return errno == ESRCH;
    }
  }
  struct pollfd p = {pidfds_[j], POLLIN, 0};
  return ::poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

Status ShmGroup::barrier(bool checkCall) {
  uint32_t gen = ++generation_;
  h_->line[rank_].arrived.store(gen, std::memory_order_release);
  h_->seq.fetch_add(1, std::memory_order_seq_cst);
  if (h_->sleepers.load(std::memory_order_seq_cst) != 0) {
    futex(&h_->seq, FUTEX_WAKE, INT_MAX, nullptr);
  }
  auto missing = [&]() {
    for (int j = 0; j < size_; ++j) {
      uint32_t a = h_->line[j].arrived.load(std::memory_order_acquire);
      if (static_cast<int32_t>(a - gen) < 0) {
        return j;
      }
    }
    return -1;
  };
  auto start = std::chrono::steady_clock::now();
  auto deadline = start + opt_.timeout;
  // Spin for up to kSpin, yielding the core on every turn, then sleep on the
  // futex in slices, checking for dead peers between them. A peer on another
  // core is often microseconds away, and waking from the futex costs more
  // than that (on a VM, an interrupt to a halted virtual CPU); the yield
  // hands the core to any other runnable thread (the peer itself on an
  // oversubscribed machine, or this task's compute thread while its
  // communication thread waits), so the spin takes no time from them. A
  // 30 us spin without the yield made the MLP's 2-replica step 20-50%
  // slower under load (docs/design/runtime.md).
  constexpr auto kSpin = std::chrono::microseconds(500);
  constexpr auto kSlice = std::chrono::milliseconds(50);
  waitGen_.store(gen, std::memory_order_release);
  waiting_.store(true, std::memory_order_release);
  struct Done {
    std::atomic<bool> &w;
    std::chrono::steady_clock::duration &waited;
    std::chrono::steady_clock::time_point start;
    ~Done() {
      w.store(false, std::memory_order_release);
      waited += std::chrono::steady_clock::now() - start;
    }
  } done{waiting_, waited_, start};
  for (;;) {
    uint32_t seq = h_->seq.load(std::memory_order_seq_cst);
    int j = missing();
    if (j < 0) {
      break;
    }
    if (uint32_t f = h_->failed.load(std::memory_order_acquire)) {
      int r = static_cast<int>(f) - 1;
      // CANCELLED, like a receive whose peer went away: graph-run then
      // waits for the root cause (the rank that gave up) instead of blaming
      // this one.
      return Status(GRAPHRT_STATUS_CANCELLED,
                    std::string("shared-memory ") + kindName() + ": " + who(r) +
                        " gave up on the collective (see its error)");
    }
    if (opt_.cancelled && opt_.cancelled->load()) {
      return fail(Status(GRAPHRT_STATUS_CANCELLED,
                         "cancelled while waiting for " + who(j)));
    }
    auto now = std::chrono::steady_clock::now();
    if (now - start < kSpin) {
#if defined(__x86_64__)
      __builtin_ia32_pause();
#endif
      ::sched_yield();
      continue;
    }
    if (now >= deadline) {
      return fail(Status(GRAPHRT_STATUS_DEADLINE_EXCEEDED,
                         who(j) + " did not reach barrier " +
                             std::to_string(gen) + " within " +
                             std::to_string(opt_.timeout.count()) +
                             " ms (--recv-timeout); it is stuck or gone"));
    }
    if (now - start > kSlice && peerExited(j)) {
      return fail(Status(GRAPHRT_STATUS_UNAVAILABLE,
                         who(j) + " (pid " +
                             std::to_string(h_->line[j].pid.load()) +
                             ") exited during the collective"));
    }
    auto left =
        std::min<std::chrono::steady_clock::duration>(deadline - now, kSlice);
    auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(left);
    struct timespec ts = {static_cast<time_t>(ns.count() / 1000000000),
                          static_cast<long>(ns.count() % 1000000000)};
    // Counted as a sleeper before the last look at seq: an arrival after
    // that look either sees the count and wakes us, or changed seq, so the
    // futex does not sleep.
    h_->sleepers.fetch_add(1, std::memory_order_seq_cst);
    if (h_->seq.load(std::memory_order_seq_cst) == seq) {
      futex(&h_->seq, FUTEX_WAIT, seq, &ts);
    }
    h_->sleepers.fetch_sub(1, std::memory_order_seq_cst);
  }
  if (!checkCall) {
    return Status::ok();
  }
  const ShmRankLine &mine = h_->line[rank_];
  for (int j = 0; j < size_; ++j) {
    const ShmRankLine &l = h_->line[j];
    if (l.kind != mine.kind || l.dtype != mine.dtype || l.op != mine.op ||
        l.root != mine.root || l.count != mine.count) {
      auto describe = [](const ShmRankLine &c) {
        return "call " + std::to_string(c.kind) + " of " +
               std::to_string(c.count) + " elements of dtype " +
               std::to_string(c.dtype) + " (op " + std::to_string(c.op) +
               ", root " + std::to_string(c.root) + ")";
      };
      return fail(Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                         who(j) + " made " + describe(l) + " while " +
                             who(rank_) + " made " + describe(mine) +
                             "; every member must make the same call"));
    }
  }
  return Status::ok();
}

Status ShmGroup::begin(Kind kind, graphrt_reduce_op_t op, graphrt_dtype_t dtype,
                       int root, size_t count) {
  kind_ = kind;
  waited_ = {};
  if (uint32_t f = h_->failed.load(std::memory_order_acquire)) {
    return Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                  std::string("shared-memory ") + kindName() +
                      ": an earlier collective on this group failed (" +
                      who(static_cast<int>(f) - 1) + " gave up)");
  }
  if (graphrt_dtype_size(dtype) == 0) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  "invalid dtype " + std::to_string(dtype));
  }
  ShmRankLine &l = h_->line[rank_];
  l.kind = static_cast<uint32_t>(kind);
  l.dtype = static_cast<uint32_t>(dtype);
  l.op = static_cast<uint32_t>(op);
  l.root = root;
  l.count = count;
  return Status::ok();
}

Status ShmGroup::allReduce(graphrt_reduce_op_t op, graphrt_dtype_t dtype,
                           const void *input, void *output, size_t count) {
  GRAPHRT_RETURN_IF_ERROR(checkReduction(op, dtype));
  GRAPHRT_RETURN_IF_ERROR(begin(Kind::AllReduce, op, dtype, 0, count));
  bool half = isHalf(dtype);
  graphrt_dtype_t wide = half ? GRAPHRT_DTYPE_F32 : dtype;
  size_t esize = graphrt_dtype_size(dtype), wsize = graphrt_dtype_size(wide);
  size_t per = segment_->slotBytes() / wsize;
  char *slots[kShmMaxRanks];
  for (int j = 0; j < size_; ++j) {
    slots[j] = segment_->slot(j);
  }
  char *result = segment_->slot(size_);
  const char *in = static_cast<const char *>(input);
  char *out = static_cast<char *>(output);
  bool first = true;
  // An empty call still meets at the barriers, so that the ranks agree.
  for (size_t chunk = 0; first || chunk < count; chunk += per) {
    size_t m = std::min(per, count - chunk);
    // This rank's share of the chunk: [mine, mineEnd) of it.
    size_t mine = blockBegin(m, size_, rank_),
           mineEnd = blockBegin(m, size_, rank_ + 1);
    const char *sources[kShmMaxRanks];
    for (int j = 0; j < size_; ++j) {
      sources[j] = slots[j];
    }
    if (half) {
      widenHalf(dtype, in + chunk * esize,
                reinterpret_cast<float *>(slots[rank_]), m);
    } else {
      // Only the others read this rank's slot, and only their shares: this
      // rank's own share it reduces straight from its input, and writes
      // straight to its output (and to the result area, for the others).
      copyBytes(slots[rank_], in + chunk * esize, mine * esize);
      copyBytes(slots[rank_] + mineEnd * esize, in + (chunk + mineEnd) * esize,
                (m - mineEnd) * esize);
      sources[rank_] = in + chunk * esize;
    }
    GRAPHRT_RETURN_IF_ERROR(barrier(first));
    first = false;
    // This rank's share of the chunk, reduced in the ring's order.
    reduceRange(op, wide, half ? result : out + chunk * esize,
                half ? nullptr : result, sources, size_, count, chunk,
                chunk + mine, chunk + mineEnd);
    GRAPHRT_RETURN_IF_ERROR(barrier(false));
    if (half) {
      narrowHalf(dtype, reinterpret_cast<const float *>(result),
                 out + chunk * esize, m);
    } else {
      copyBytes(out + chunk * esize, result, mine * esize);
      copyBytes(out + (chunk + mineEnd) * esize, result + mineEnd * esize,
                (m - mineEnd) * esize);
    }
    if (m == 0) {
      break;
    }
  }
  return Status::ok();
}

Status ShmGroup::allGather(graphrt_dtype_t dtype, const void *input,
                           void *output, size_t count) {
  GRAPHRT_RETURN_IF_ERROR(
      begin(Kind::AllGather, GRAPHRT_REDUCE_SUM, dtype, 0, count));
  size_t esize = graphrt_dtype_size(dtype);
  size_t per = segment_->slotBytes() / esize;
  const char *in = static_cast<const char *>(input);
  char *out = static_cast<char *>(output);
  bool first = true;
  for (size_t chunk = 0; first || chunk < count; chunk += per) {
    size_t m = std::min(per, count - chunk);
    copyBytes(segment_->slot(rank_), in + chunk * esize, m * esize);
    GRAPHRT_RETURN_IF_ERROR(barrier(first));
    first = false;
    for (int j = 0; j < size_; ++j) {
      copyBytes(out + (j * count + chunk) * esize, segment_->slot(j),
                m * esize);
    }
    // The slots are read before the next call's writes.
    GRAPHRT_RETURN_IF_ERROR(barrier(false));
    if (m == 0) {
      break;
    }
  }
  return Status::ok();
}

Status ShmGroup::reduceScatter(graphrt_reduce_op_t op, graphrt_dtype_t dtype,
                               const void *input, void *output, size_t count) {
  GRAPHRT_RETURN_IF_ERROR(checkReduction(op, dtype));
  GRAPHRT_RETURN_IF_ERROR(begin(Kind::ReduceScatter, op, dtype, 0, count));
  bool half = isHalf(dtype);
  graphrt_dtype_t wide = half ? GRAPHRT_DTYPE_F32 : dtype;
  size_t esize = graphrt_dtype_size(dtype), wsize = graphrt_dtype_size(wide);
  int k = size_;
  // A chunk takes elements [chunk, chunk + m) of every block; slot j holds
  // them block after block.
  size_t per = std::max<size_t>(1, segment_->slotBytes() / (wsize * k));
  const char *in = static_cast<const char *>(input);
  char *out = static_cast<char *>(output);
  std::vector<char> staged(half ? std::min(per, count) * wsize : 0);
  const char *blockSlots[kShmMaxRanks];
  bool first = true;
  for (size_t chunk = 0; first || chunk < count; chunk += per) {
    size_t m = std::min(per, count - chunk);
    char *mine = segment_->slot(rank_);
    for (int b = 0; b < k; ++b) {
      const char *src = in + (b * count + chunk) * esize;
      char *dst = mine + b * m * wsize;
      if (half) {
        widenHalf(dtype, src, reinterpret_cast<float *>(dst), m);
      } else if (b != rank_) {
        // This rank's own block only it reduces: straight from its input.
        copyBytes(dst, src, m * esize);
      }
    }
    GRAPHRT_RETURN_IF_ERROR(barrier(first));
    first = false;
    for (int j = 0; j < k; ++j) {
      blockSlots[j] = segment_->slot(j) + rank_ * m * wsize;
    }
    if (!half) {
      blockSlots[rank_] = in + (rank_ * count + chunk) * esize;
    }
    // Block `rank` of the ring's partition of count * k elements starts at
    // rank * count: reduceRange reads its order from there.
    char *dst = half ? staged.data() : out + chunk * esize;
    reduceRange(op, wide, dst, nullptr, blockSlots, k, count * k,
                rank_ * count + chunk, rank_ * count + chunk,
                rank_ * count + chunk + m);
    if (half) {
      narrowHalf(dtype, reinterpret_cast<const float *>(staged.data()),
                 out + chunk * esize, m);
    }
    GRAPHRT_RETURN_IF_ERROR(barrier(false));
    if (m == 0) {
      break;
    }
  }
  return Status::ok();
}

Status ShmGroup::broadcast(int root, graphrt_dtype_t dtype, void *buffer,
                           size_t count) {
  if (root < 0 || root >= size_) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  "broadcast root " + std::to_string(root) +
                      " is not in a group of " + std::to_string(size_));
  }
  GRAPHRT_RETURN_IF_ERROR(
      begin(Kind::Broadcast, GRAPHRT_REDUCE_SUM, dtype, root, count));
  size_t esize = graphrt_dtype_size(dtype);
  size_t per = segment_->slotBytes() / esize;
  char *data = static_cast<char *>(buffer);
  bool first = true;
  for (size_t chunk = 0; first || chunk < count; chunk += per) {
    size_t m = std::min(per, count - chunk);
    if (rank_ == root) {
      copyBytes(segment_->slot(0), data + chunk * esize, m * esize);
    }
    GRAPHRT_RETURN_IF_ERROR(barrier(first));
    first = false;
    if (rank_ != root) {
      copyBytes(data + chunk * esize, segment_->slot(0), m * esize);
    }
    GRAPHRT_RETURN_IF_ERROR(barrier(false));
    if (m == 0) {
      break;
    }
  }
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// Sizes and setup
//===----------------------------------------------------------------------===//

size_t shmSlotBytesFor(size_t bytes) {
  size_t s = kMinSlotBytes;
  while (s < bytes && s < kShmMaxSlotBytes) {
    s *= 2;
  }
  return s;
}

size_t shmAllReduceBytes(graphrt_dtype_t dtype, size_t count) {
  return count * (isHalf(dtype) ? sizeof(float) : graphrt_dtype_size(dtype));
}

size_t shmReduceScatterBytes(graphrt_dtype_t dtype, size_t count, int ranks) {
  return shmAllReduceBytes(dtype, count) * static_cast<size_t>(ranks);
}

namespace {

/// The three setup messages (offer from rank 0, each rank's answer, rank 0's
/// decision) have one fixed layout.
struct SetupMessage {
  char magic[8];
  uint32_t ok;
  uint32_t ranks;
  uint64_t slotBytes;
  char name[80];
  uint8_t cookie[32];
  char why[192];
};

void setText(char *dst, size_t size, const std::string &s) {
  size_t n = std::min(size - 1, s.size());
  std::memcpy(dst, s.data(), n);
  dst[n] = 0;
}

std::string text(const char *s, size_t size) {
  return std::string(s, strnlen(s, size));
}

SetupMessage message(bool ok, const std::string &why) {
  SetupMessage m;
  std::memset(&m, 0, sizeof m);
  std::memcpy(m.magic, "graphrt", 8);
  m.ok = ok ? 1 : 0;
  setText(m.why, sizeof m.why, why);
  return m;
}

Status checkMessage(const SetupMessage &m, int from) {
  if (std::memcmp(m.magic, "graphrt", 8) != 0) {
    return Status(GRAPHRT_STATUS_DATA_LOSS,
                  "rank " + std::to_string(from) +
                      " sent a malformed shared-memory setup message");
  }
  return Status::ok();
}

} // namespace

Status setupShmGroup(const CollectiveCall &call, size_t slotBytes,
                     ShmOptions options, std::unique_ptr<ShmGroup> *out,
                     std::string *why) {
  out->reset();
  PeerTransport *t = call.transport;
  int k = call.size, r = call.rank;
  auto key = [&](const char *phase, int from) {
    return call.keyPrefix + "/shm-" + phase + "/from" + std::to_string(from);
  };
  std::shared_ptr<ShmSegment> segment;
  bool mine = false;
  std::string myWhy;
  SetupMessage decision;
  if (r == 0) {
    std::unique_ptr<ShmSegment> created;
    Status st = ShmSegment::create(k, slotBytes, &created);
    SetupMessage offer = message(st.isOk(), st.message());
    if (st.isOk()) {
      offer.ranks = static_cast<uint32_t>(k);
      offer.slotBytes = slotBytes;
      setText(offer.name, sizeof offer.name, created->name());
      std::memcpy(offer.cookie, created->cookie(), sizeof offer.cookie);
      segment = std::move(created);
      mine = true;
    } else {
      myWhy = "rank 0 " + st.message();
    }
    for (int j = 1; j < k; ++j) {
      GRAPHRT_RETURN_IF_ERROR(
          t->send(j, key("offer", 0), &offer, sizeof offer));
    }
    // Every rank answers once it has mapped the segment or given up; the
    // name can go then (the segment was made with O_EXCL, so nobody else
    // could have made it in between).
    bool all = mine;
    for (int j = 1; j < k; ++j) {
      SetupMessage answer;
      Status st2 = t->recv(j, key("answer", j), &answer, sizeof answer);
      if (!st2.isOk()) {
        return st2; // the segment (and its name) goes with `segment`
      }
      GRAPHRT_RETURN_IF_ERROR(checkMessage(answer, j));
      if (!answer.ok && all) {
        all = false;
        myWhy = "rank " + std::to_string(j) + ": " +
                text(answer.why, sizeof answer.why);
      }
    }
    if (segment) {
      segment->unlink();
    }
    decision = message(all, myWhy);
    for (int j = 1; j < k; ++j) {
      GRAPHRT_RETURN_IF_ERROR(
          t->send(j, key("decision", 0), &decision, sizeof decision));
    }
  } else {
    SetupMessage offer;
    GRAPHRT_RETURN_IF_ERROR(t->recv(0, key("offer", 0), &offer, sizeof offer));
    GRAPHRT_RETURN_IF_ERROR(checkMessage(offer, 0));
    Status st = Status(GRAPHRT_STATUS_UNAVAILABLE, "rank 0 made no segment");
    if (offer.ok) {
      std::unique_ptr<ShmSegment> opened;
      st = offer.ranks == static_cast<uint32_t>(k) &&
                   offer.slotBytes == slotBytes
               ? ShmSegment::open(text(offer.name, sizeof offer.name),
                                  offer.cookie, k, slotBytes, &opened)
               : Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                        "rank 0 offered a segment of another shape");
      segment = std::move(opened);
    }
    SetupMessage answer = message(st.isOk(), st.message());
    GRAPHRT_RETURN_IF_ERROR(
        t->send(0, key("answer", r), &answer, sizeof answer));
    GRAPHRT_RETURN_IF_ERROR(
        t->recv(0, key("decision", 0), &decision, sizeof decision));
    GRAPHRT_RETURN_IF_ERROR(checkMessage(decision, 0));
  }
  if (!decision.ok || !segment) {
    *why = text(decision.why, sizeof decision.why);
    return Status::ok();
  }
  *out = std::make_unique<ShmGroup>(std::move(segment), r, std::move(options));
  return Status::ok();
}

bool addressesShareHost(const std::vector<std::string> &addresses,
                        std::string *why) {
  auto hostOf = [](const std::string &a) {
    size_t colon = a.rfind(':');
    return colon == std::string::npos ? a : a.substr(0, colon);
  };
  auto loopback = [](const std::string &h) {
    return h.compare(0, 4, "127.") == 0 || h == "[::1]" || h == "::1" ||
           h == "localhost";
  };
  if (addresses.empty()) {
    return true;
  }
  bool allLoopback = true, allSame = true;
  std::string first = hostOf(addresses[0]);
  for (const std::string &a : addresses) {
    std::string h = hostOf(a);
    allLoopback = allLoopback && loopback(h);
    allSame = allSame && h == first;
  }
  if (allLoopback || allSame) {
    return true;
  }
  for (const std::string &a : addresses) {
    if (hostOf(a) != first) {
      *why = "its members are on different hosts (" + addresses[0] + " and " +
             a + ")";
      break;
    }
  }
  return false;
}

} // namespace graphrt
