// RendezvousTest.cpp: the rendezvous in both arrival orders, deadlines,
// cancellation.
#include "Rendezvous.h"

#include <gtest/gtest.h>

#include <cstring>
#include <thread>
#include <vector>

using namespace graphrt;
using namespace std::chrono_literals;

namespace {
Clock::time_point in(std::chrono::milliseconds ms) { return Clock::now() + ms; }
} // namespace

TEST(Rendezvous, SenderFirst) {
  Rendezvous r;
  int32_t v[4] = {1, 2, 3, 4}, out[4] = {};
  ASSERT_TRUE(r.deposit("k", v, sizeof v).isOk());
  ASSERT_TRUE(r.take("k", out, sizeof out, in(1000ms)).isOk());
  EXPECT_EQ(std::memcmp(v, out, sizeof v), 0);
  EXPECT_EQ(r.pending(), 0u);
}

TEST(Rendezvous, ReceiverFirstGetsDataWrittenInPlace) {
  Rendezvous r;
  int32_t out[4] = {};
  std::thread consumer(
      [&] { ASSERT_TRUE(r.take("k", out, sizeof out, in(5000ms)).isOk()); });
  // Wait until the consumer is registered, then produce in two chunks.
  while (r.waitingOn() != "k") {
    std::this_thread::sleep_for(1ms);
  }
  char *target = nullptr;
  ASSERT_TRUE(r.beginIncoming("k", sizeof out, &target).isOk());
  EXPECT_EQ(target, reinterpret_cast<char *>(out)); // no staging copy
  int32_t v[4] = {5, 6, 7, 8};
  std::memcpy(target, v, 8);
  std::memcpy(target + 8, v + 2, 8);
  r.finishIncoming("k", Status::ok());
  consumer.join();
  EXPECT_EQ(std::memcmp(v, out, sizeof v), 0);
  EXPECT_EQ(r.pending(), 0u);
}

TEST(Rendezvous, SizeMismatchIsAnError) {
  Rendezvous r;
  char v[3] = {1, 2, 3}, out[4];
  ASSERT_TRUE(r.deposit("k", v, 3).isOk());
  Status st = r.take("k", out, 4, in(1000ms));
  EXPECT_EQ(st.code(), GRAPHRT_STATUS_INVALID_ARGUMENT);
  EXPECT_NE(st.message().find("carried 3 bytes, the receiver expects 4"),
            std::string::npos);
}

TEST(Rendezvous, DuplicateSendIsRejected) {
  Rendezvous r;
  char v = 1;
  ASSERT_TRUE(r.deposit("k", &v, 1).isOk());
  EXPECT_EQ(r.deposit("k", &v, 1).code(), GRAPHRT_STATUS_ALREADY_EXISTS);
}

TEST(Rendezvous, DeadlineExpires) {
  Rendezvous r;
  char out;
  auto start = Clock::now();
  Status st = r.take("never", &out, 1, in(50ms));
  EXPECT_EQ(st.code(), GRAPHRT_STATUS_DEADLINE_EXCEEDED);
  EXPECT_GE(Clock::now() - start, 50ms);
  EXPECT_EQ(r.pending(), 0u);
}

TEST(Rendezvous, ProducerFailurePropagates) {
  Rendezvous r;
  char *target;
  ASSERT_TRUE(r.beginIncoming("k", 8, &target).isOk());
  r.finishIncoming("k", Status(GRAPHRT_STATUS_DATA_LOSS, "stream broke"));
  char out[8];
  EXPECT_EQ(r.take("k", out, 8, in(1000ms)).code(), GRAPHRT_STATUS_DATA_LOSS);
}

TEST(Rendezvous, CancelWakesWaiters) {
  Rendezvous r;
  char out;
  std::thread consumer([&] {
    Status st = r.take("k", &out, 1, in(10000ms));
    EXPECT_EQ(st.code(), GRAPHRT_STATUS_CANCELLED);
    EXPECT_EQ(st.message(), "job aborted");
  });
  while (r.waitingOn().empty()) {
    std::this_thread::sleep_for(1ms);
  }
  r.cancel(Status(GRAPHRT_STATUS_CANCELLED, "job aborted"));
  consumer.join();
  char v = 0;
  EXPECT_EQ(r.deposit("x", &v, 1).code(), GRAPHRT_STATUS_CANCELLED);
}

// Found by graphc-fuzz-data-plane: a frame that declares 2^63 bytes made the
// worker allocate them up front (std::length_error, then std::terminate).
// Staging memory now follows the bytes written, and writes past the
// declared size are refused.
TEST(Rendezvous, StagingFollowsWrittenBytesNotTheDeclaredSize) {
  Rendezvous r;
  char *target = nullptr;
  const size_t huge = size_t(1) << 62;
  ASSERT_TRUE(r.beginIncoming("k", huge, &target).isOk());
  ASSERT_TRUE(r.growIncoming("k", 3, &target).isOk());
  std::memcpy(target, "abc", 3);
  Status past = r.growIncoming("k", huge + 1, &target);
  EXPECT_EQ(past.code(), GRAPHRT_STATUS_INVALID_ARGUMENT);
  EXPECT_NE(past.message().find("written to a 4611686018427387904-byte tensor"),
            std::string::npos)
      << past.message();
  r.finishIncoming("k", Status(GRAPHRT_STATUS_DATA_LOSS, "sender stopped"));
  char out[3];
  EXPECT_EQ(r.take("k", out, 3, in(1000ms)).code(), GRAPHRT_STATUS_DATA_LOSS);
  EXPECT_EQ(r.growIncoming("k", 1, &target).code(), GRAPHRT_STATUS_INTERNAL);
}
