// TransferTest.cpp: chunking a tensor and reassembling the stream in a
// rendezvous.
#include "Transfer.h"

#include <gtest/gtest.h>

#include <deque>
#include <numeric>
#include <thread>

using namespace graphrt;
using namespace std::chrono_literals;

namespace {

std::vector<rpc::TensorChunk> chunk(const std::string &data,
                                    size_t chunkBytes) {
  std::vector<rpc::TensorChunk> out;
  EXPECT_TRUE(writeChunks("s0/p/k", "src", data.data(), data.size(), chunkBytes,
                          [&](const rpc::TensorChunk &c) {
                            out.push_back(c);
                            return true;
                          }));
  return out;
}

std::function<bool(rpc::TensorChunk *)>
reader(std::deque<rpc::TensorChunk> chunks) {
  auto q = std::make_shared<std::deque<rpc::TensorChunk>>(std::move(chunks));
  return [q](rpc::TensorChunk *c) {
    if (q->empty()) {
      return false;
    }
    *c = q->front();
    q->pop_front();
    return true;
  };
}

std::string pattern(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) {
    s[i] = static_cast<char>(i * 31 + 7);
  }
  return s;
}

} // namespace

TEST(Transfer, ChunkBoundaries) {
  struct Case {
    size_t bytes, chunkBytes, chunks;
  } cases[] = {{0, 4, 1}, {1, 4, 1}, {8, 4, 2}, {9, 4, 3}, {100, 1000, 1}};
  for (const Case &c : cases) {
    std::string data = pattern(c.bytes);
    std::vector<rpc::TensorChunk> chunks = chunk(data, c.chunkBytes);
    ASSERT_EQ(chunks.size(), c.chunks) << c.bytes << "/" << c.chunkBytes;
    EXPECT_EQ(chunks[0].key(), "s0/p/k");
    EXPECT_EQ(chunks[0].src_task(), "src");
    std::string joined;
    for (size_t i = 0; i < chunks.size(); ++i) {
      EXPECT_EQ(chunks[i].offset(), joined.size());
      EXPECT_EQ(chunks[i].total_bytes(), c.bytes);
      EXPECT_LE(chunks[i].data().size(), c.chunkBytes);
      if (i > 0) {
        EXPECT_TRUE(chunks[i].key().empty()); // header only once
      }
      joined += chunks[i].data();
    }
    EXPECT_EQ(joined, data);
  }
}

TEST(Transfer, StopsWhenTheStreamBreaks) {
  std::string data = pattern(40);
  int writes = 0;
  EXPECT_FALSE(
      writeChunks("k", "s", data.data(), data.size(), 10,
                  [&](const rpc::TensorChunk &) { return ++writes < 2; }));
  EXPECT_EQ(writes, 2);
}

TEST(Transfer, ReassemblesInEitherArrivalOrder) {
  std::string data = pattern(1000);
  // Sender first: staged, copied at take.
  {
    Rendezvous rdv;
    auto chunks = chunk(data, 64);
    uint64_t got = 0;
    ASSERT_TRUE(receiveChunks(rdv, reader({chunks.begin(), chunks.end()}), &got)
                    .isOk());
    EXPECT_EQ(got, 1000u);
    std::string out(1000, '\0');
    ASSERT_TRUE(
        rdv.take("s0/p/k", out.data(), out.size(), Clock::now() + 1s).isOk());
    EXPECT_EQ(out, data);
  }
  // Receiver first: chunks land in its buffer directly. Chunks may also
  // arrive out of order; offsets place them.
  {
    Rendezvous rdv;
    std::string out(1000, '\0');
    std::thread consumer([&] {
      EXPECT_TRUE(
          rdv.take("s0/p/k", out.data(), out.size(), Clock::now() + 5s).isOk());
    });
    while (rdv.waitingOn().empty()) {
      std::this_thread::sleep_for(1ms);
    }
    auto chunks = chunk(data, 64);
    std::deque<rpc::TensorChunk> q(chunks.begin(), chunks.end());
    std::swap(q[1], q[5]);
    uint64_t got = 0;
    ASSERT_TRUE(receiveChunks(rdv, reader(q), &got).isOk());
    consumer.join();
    EXPECT_EQ(out, data);
  }
}

TEST(Transfer, TruncatedAndOverrunningStreamsFailTheConsumer) {
  std::string data = pattern(100);
  auto chunks = chunk(data, 30);
  {
    Rendezvous rdv;
    uint64_t got = 0;
    Status st =
        receiveChunks(rdv, reader({chunks.begin(), chunks.end() - 1}), &got);
    EXPECT_EQ(st.code(), GRAPHRT_STATUS_DATA_LOSS);
    EXPECT_NE(st.message().find("ended after 90 of 100 bytes"),
              std::string::npos)
        << st.message();
    std::string out(100, '\0');
    EXPECT_EQ(rdv.take("s0/p/k", out.data(), 100, Clock::now() + 1s).code(),
              GRAPHRT_STATUS_DATA_LOSS);
  }
  {
    Rendezvous rdv;
    std::deque<rpc::TensorChunk> q(chunks.begin(), chunks.end());
    q[1].set_offset(90);
    uint64_t got = 0;
    Status st = receiveChunks(rdv, reader(q), &got);
    EXPECT_EQ(st.code(), GRAPHRT_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(st.message().find("chunk of 30 bytes at offset 90 overruns the "
                                "100-byte tensor"),
              std::string::npos)
        << st.message();
  }
  {
    Rendezvous rdv;
    uint64_t got = 0;
    EXPECT_EQ(receiveChunks(rdv, reader({}), &got).code(),
              GRAPHRT_STATUS_INVALID_ARGUMENT);
  }
  // A first chunk claiming 1 TiB and landing 1 GiB in must not make the
  // receiver stage a GiB (graphc-fuzz-worker-rpc's Transfer calls).
  {
    Rendezvous rdv;
    rpc::TensorChunk c;
    c.set_key("s0/p/k");
    c.set_total_bytes(uint64_t(1) << 40);
    c.set_offset(uint64_t(1) << 30);
    c.set_data("x");
    uint64_t got = 0;
    Status st = receiveChunks(rdv, reader({c}), &got);
    EXPECT_EQ(st.code(), GRAPHRT_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(st.message().find("is more than 67108864 bytes ahead of the 0 "
                                "received"),
              std::string::npos)
        << st.message();
  }
}
