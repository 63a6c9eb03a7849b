// SecurityTest.cpp: every service of graph-worker refuses calls without valid
// credentials: a missing or wrong job token, and under mutual TLS a client
// without a certificate, with one from another CA, or without TLS at all.
// The TCP data plane admits only connections that present a nonce issued by
// the worker (and, under TLS, a certificate from the job's CA), and delivers
// what they carry into the rendezvous. The variable RPCs that checkpoints use
// are also checked here, on a loaded task, since they share the harness.
#include "Security.h"
#include "DataPlane.h"
#include "Worker.h"

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <functional>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace graphrt {
namespace {

struct Server {
  std::unique_ptr<WorkerService> service;
  std::unique_ptr<grpc::Server> server;
  std::string address;
  Server(const SecurityConfig &sec) {
    service = std::make_unique<WorkerService>(sec);
    grpc::ServerBuilder b;
    int port = 0;
    b.AddListeningPort("127.0.0.1:0", serverCredentials(sec), &port);
    b.RegisterService(static_cast<rpc::Worker::Service *>(service.get()));
    b.RegisterService(static_cast<rpc::Transport::Service *>(service.get()));
    server = b.BuildAndStart();
    address = "127.0.0.1:" + std::to_string(port);
  }
  ~Server() { server->Shutdown(std::chrono::system_clock::now()); }
};

using Call = std::function<grpc::Status(grpc::ClientContext *)>;

// One call of every RPC of both services, over `channel`. Shutdown goes last:
// when it is let through the worker stops serving.
std::vector<std::pair<std::string, Call>>
everyRpc(std::shared_ptr<grpc::Channel> channel) {
  auto worker =
      std::shared_ptr<rpc::Worker::Stub>(rpc::Worker::NewStub(channel));
  auto transport =
      std::shared_ptr<rpc::Transport::Stub>(rpc::Transport::NewStub(channel));
  return {
      {"LoadTask",
       [=](grpc::ClientContext *c) {
         rpc::LoadTaskRequest req;
         req.set_bundle_dir("/nonexistent");
         rpc::LoadTaskResponse resp;
         return worker->LoadTask(c, req, &resp);
       }},
      {"RunStep",
       [=](grpc::ClientContext *c) {
         rpc::RunStepResponse resp;
         return worker->RunStep(c, rpc::RunStepRequest(), &resp);
       }},
      {"Health",
       [=](grpc::ClientContext *c) {
         rpc::HealthResponse resp;
         return worker->Health(c, rpc::HealthRequest(), &resp);
       }},
      {"Abort",
       [=](grpc::ClientContext *c) {
         rpc::AbortResponse resp;
         return worker->Abort(c, rpc::AbortRequest(), &resp);
       }},
      {"ReadVariables",
       [=](grpc::ClientContext *c) {
         rpc::ReadVariablesResponse resp;
         return worker->ReadVariables(c, rpc::ReadVariablesRequest(), &resp);
       }},
      {"WriteVariables",
       [=](grpc::ClientContext *c) {
         rpc::WriteVariablesResponse resp;
         return worker->WriteVariables(c, rpc::WriteVariablesRequest(), &resp);
       }},
      {"Transfer",
       [=](grpc::ClientContext *c) {
         rpc::TransferAck ack;
         auto w = transport->Transfer(c, &ack);
         rpc::TensorChunk chunk;
         chunk.set_key("k");
         chunk.set_total_bytes(0);
         w->Write(chunk);
         w->WritesDone();
         return w->Finish();
       }},
      {"OpenData",
       [=](grpc::ClientContext *c) {
         rpc::OpenDataRequest req;
         req.set_src_task("t");
         rpc::OpenDataResponse resp;
         return transport->OpenData(c, req, &resp);
       }},
      {"Shutdown",
       [=](grpc::ClientContext *c) {
         rpc::ShutdownResponse resp;
         return worker->Shutdown(c, rpc::ShutdownRequest(), &resp);
       }},
  };
}

grpc::Status callWith(const Call &call, const std::string &token) {
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
  if (!token.empty()) {
    ctx.AddMetadata(kTokenMetadataKey, token);
  }
  return call(&ctx);
}

TEST(SecurityTest, TokenIsRequiredOnEveryRpc) {
  SecurityConfig sec;
  sec.token = randomToken();
  ASSERT_EQ(sec.token.size(), 64u);
  EXPECT_NE(sec.token, randomToken());
  Server s(sec);
  auto channel =
      grpc::CreateChannel(s.address, grpc::InsecureChannelCredentials());
  for (const auto &[name, call] : everyRpc(channel)) {
    SCOPED_TRACE(name);
    grpc::Status none = callWith(call, "");
    EXPECT_EQ(none.error_code(), grpc::StatusCode::UNAUTHENTICATED);
    EXPECT_EQ(none.error_message(), "the call carries no job token");
    grpc::Status wrong = callWith(call, randomToken());
    EXPECT_EQ(wrong.error_code(), grpc::StatusCode::UNAUTHENTICATED);
    EXPECT_EQ(wrong.error_message(), "the call's job token is not this job's");
    grpc::Status prefix = callWith(call, sec.token.substr(0, 10));
    EXPECT_EQ(prefix.error_code(), grpc::StatusCode::UNAUTHENTICATED);
    // With the token the call reaches the service (which may still refuse
    // it for its own reasons, e.g. no task loaded).
    grpc::Status ok = callWith(call, sec.token);
    EXPECT_NE(ok.error_code(), grpc::StatusCode::UNAUTHENTICATED)
        << ok.error_message();
  }
}

// ReadVariables/WriteVariables on a loaded task (the feed job's ps, which
// holds w = [1, -2, 3] and its slot w/momentum = 0): a write must give every
// variable with its manifest dtype and shape, and a refused write changes
// nothing.
TEST(VariablesTest, ReadAndWriteTheLoadedTasksVariables) {
  char tmpl[] = "/tmp/graphrt-vars-XXXXXX";
  ASSERT_NE(::mkdtemp(tmpl), nullptr);
  std::string dir = tmpl;
  std::string script = std::string(GRAPHRT_TEST_HELPER) + " feed-bundle " +
                       dir + " " + GRAPHRT_TEST_LIBS + " > /dev/null";
  ASSERT_EQ(std::system(script.c_str()), 0) << script;
  SecurityConfig sec;
  sec.token = randomToken();
  Server s(sec);
  auto stub = rpc::Worker::NewStub(
      grpc::CreateChannel(s.address, grpc::InsecureChannelCredentials()));
  auto call = [&](auto fn) {
    grpc::ClientContext ctx;
    ctx.AddMetadata(kTokenMetadataKey, sec.token);
    return fn(&ctx);
  };
  auto read = [&] {
    rpc::ReadVariablesResponse resp;
    grpc::Status st = call([&](grpc::ClientContext *c) {
      return stub->ReadVariables(c, rpc::ReadVariablesRequest(), &resp);
    });
    EXPECT_TRUE(st.ok()) << st.error_message();
    return resp;
  };
  auto write = [&](const rpc::WriteVariablesRequest &req) {
    rpc::WriteVariablesResponse resp;
    return call([&](grpc::ClientContext *c) {
      return stub->WriteVariables(c, req, &resp);
    });
  };
  EXPECT_EQ(write(rpc::WriteVariablesRequest()).error_message(),
            "no task is loaded; call LoadTask first");
  rpc::LoadTaskRequest load;
  load.set_bundle_dir(dir + "/feed.gjob");
  load.set_task("ps");
  grpc::Status st = call([&](grpc::ClientContext *c) {
    rpc::LoadTaskResponse resp;
    return stub->LoadTask(c, load, &resp);
  });
  ASSERT_TRUE(st.ok()) << st.error_message();

  // The ps's `prepare` (FeedTask.cpp) ran once, after the variables were
  // loaded; the task library is loaded in this process.
  void *lib =
      ::dlopen((dir + "/feed.gjob/ps.so").c_str(), RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(lib, nullptr) << ::dlerror();
  auto *prepareCalls =
      static_cast<int *>(::dlsym(lib, "graphrt_test_prepare_calls"));
  auto *preparedW0 =
      static_cast<float *>(::dlsym(lib, "graphrt_test_prepared_w0"));
  ASSERT_TRUE(prepareCalls && preparedW0);
  // The service thread wrote them; the RPC's reply orders that write before
  // these reads, through gRPC code ThreadSanitizer does not see: atomic
  // loads (and stores in FeedTask.cpp) say so.
  auto calls = [&] { return __atomic_load_n(prepareCalls, __ATOMIC_ACQUIRE); };
  auto w0 = [&] {
    float v;
    __atomic_load(preparedW0, &v, __ATOMIC_ACQUIRE);
    return v;
  };
  EXPECT_EQ(calls(), 1);
  EXPECT_EQ(w0(), 1.0f);

  rpc::ReadVariablesResponse got = read();
  ASSERT_EQ(got.variables_size(), 2);
  EXPECT_EQ(got.variables(0).name(), "w");
  EXPECT_EQ(got.variables(1).name(), "w/momentum");
  std::vector<float> w(3);
  std::memcpy(w.data(), got.variables(0).data().data(), 12);
  EXPECT_EQ(w, (std::vector<float>{1, -2, 3}));

  rpc::WriteVariablesRequest req;
  *req.add_variables() = got.variables(0);
  EXPECT_EQ(write(req).error_message(),
            "task 'ps': variable 'w/momentum' is missing; every variable "
            "must be written");
  *req.add_variables() = got.variables(1);
  const float seven[3] = {7, 7, 7};
  req.mutable_variables(0)->set_data(seven, sizeof seven);
  rpc::WriteVariablesRequest shortOne = req;
  shortOne.mutable_variables(1)->mutable_data()->resize(8);
  EXPECT_EQ(write(shortOne).error_message(),
            "task 'ps': variable 'w/momentum' must be f32[3], got f32 with 8 "
            "bytes");
  rpc::WriteVariablesRequest extra = req;
  *extra.add_variables() = got.variables(0);
  extra.mutable_variables(2)->set_name("v");
  EXPECT_EQ(write(extra).error_message(), "task 'ps' has no variable 'v'");
  EXPECT_EQ(read().variables(0).data(), got.variables(0).data())
      << "a refused write changed a variable";
  EXPECT_EQ(calls(), 1) << "a refused write prepared the task again";
  ASSERT_TRUE(write(req).ok());
  EXPECT_EQ(read().variables(0).data(),
            std::string(reinterpret_cast<const char *>(seven), sizeof seven));
  // What the task derives from its variables follows the write.
  EXPECT_EQ(calls(), 2);
  EXPECT_EQ(w0(), 7.0f);
  ::dlclose(lib);
  std::system(("rm -rf " + dir).c_str());
}

class TlsTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    char tmpl[] = "/tmp/graphrt-tls-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    std::string script =
        std::string(GRAPHRT_TEST_HELPER) + " certs " + dir_ + " > /dev/null";
    ASSERT_EQ(std::system(script.c_str()), 0) << script;
  }
  static void TearDownTestSuite() { std::system(("rm -rf " + dir_).c_str()); }
  static SecurityConfig config(const std::string &leaf,
                               const std::string &ca = "ca") {
    SecurityConfig sec;
    Status st =
        loadSecurity(dir_ + "/" + leaf + ".pem", dir_ + "/" + leaf + ".key",
                     dir_ + "/" + ca + ".pem", "", &sec);
    EXPECT_TRUE(st.isOk()) << st.message();
    sec.token.clear();
    return sec;
  }
  static std::string dir_;
};
std::string TlsTest::dir_;

TEST_F(TlsTest, MutualTlsRefusesClientsWithoutAValidCertificate) {
  SecurityConfig sec = config("node");
  ASSERT_TRUE(sec.tls());
  Server s(sec);

  grpc::SslCredentialsOptions noCert;
  noCert.pem_root_certs = sec.caPem;
  SecurityConfig rogue = config("rogue");
  rogue.caPem = sec.caPem; // trusts the server, but its own cert is foreign
  std::vector<std::pair<std::string, std::shared_ptr<grpc::ChannelCredentials>>>
      bad = {{"plaintext", grpc::InsecureChannelCredentials()},
             {"TLS without a client certificate", grpc::SslCredentials(noCert)},
             {"a certificate from another CA", channelCredentials(rogue)}};
  for (const auto &[what, creds] : bad) {
    SCOPED_TRACE(what);
    for (const auto &[name, call] :
         everyRpc(grpc::CreateChannel(s.address, creds))) {
      SCOPED_TRACE(name);
      grpc::Status st = callWith(call, "");
      EXPECT_EQ(st.error_code(), grpc::StatusCode::UNAVAILABLE)
          << st.error_message();
    }
  }
  // A client that does not trust the server's CA refuses it too.
  SecurityConfig distrust = config("node", "rogueca");
  grpc::Status st = callWith(
      everyRpc(grpc::CreateChannel(s.address, channelCredentials(distrust)))[2]
          .second,
      "");
  EXPECT_EQ(st.error_code(), grpc::StatusCode::UNAVAILABLE);

  // The right certificate gets through on every RPC.
  for (const auto &[name, call] :
       everyRpc(grpc::CreateChannel(s.address, channelCredentials(sec)))) {
    SCOPED_TRACE(name);
    grpc::Status ok = callWith(call, "");
    EXPECT_NE(ok.error_code(), grpc::StatusCode::UNAVAILABLE)
        << ok.error_message();
    EXPECT_NE(ok.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  }
}

TEST_F(TlsTest, LoadSecurityNamesTheBadFlag) {
  SecurityConfig sec;
  Status st = loadSecurity(dir_ + "/node.pem", "", "", "", &sec);
  EXPECT_EQ(st.message(), "--tls-cert, --tls-key and --tls-ca go together "
                          "(mutual TLS needs all three)");
  st = loadSecurity(dir_ + "/node.pem", dir_ + "/missing.key", dir_ + "/ca.pem",
                    "", &sec);
  EXPECT_EQ(st.message(), "--tls-key: cannot read '" + dir_ + "/missing.key'");
  st = loadSecurity(dir_ + "/node.pem", dir_ + "/node.key", dir_ + "/node.ext",
                    "", &sec);
  EXPECT_EQ(st.message(), "--tls-ca: '" + dir_ + "/node.ext' is not PEM");
}

//===----------------------------------------------------------------------===//
// The TCP data plane
//===----------------------------------------------------------------------===//

struct TestSink final : DataSink {
  Rendezvous rdv;
  std::atomic<int> progress{0};
  Rendezvous &rendezvous() override { return rdv; }
  void advance() override { ++progress; }
  std::chrono::milliseconds ioTimeout() const override {
    return std::chrono::milliseconds(5000);
  }
};

struct DataFixture {
  std::shared_ptr<TestSink> sink = std::make_shared<TestSink>();
  std::unique_ptr<DataServer> server;
  explicit DataFixture(std::shared_ptr<DataTls> tls) {
    server = std::make_unique<DataServer>(
        std::move(tls),
        [s = sink]() -> std::shared_ptr<DataSink> { return s; });
    Status st = server->start("127.0.0.1");
    EXPECT_TRUE(st.isOk()) << st.message();
  }
  Status connect(const std::string &nonce, const std::string &src,
                 std::shared_ptr<DataTls> tls,
                 std::unique_ptr<DataConnection> *out) {
    return DataConnection::connect("127.0.0.1", server->port(), nonce, src, tls,
                                   std::chrono::milliseconds(5000), out);
  }
  // Whether a message sent on `conn` reaches the rendezvous.
  bool delivers(DataConnection &conn, const std::string &key) {
    int v = 42, got = 0;
    if (!conn.send(key, &v, sizeof v).isOk()) {
      return false;
    }
    Status st = sink->rdv.take(key, &got, sizeof got,
                               Clock::now() + std::chrono::milliseconds(700));
    return st.isOk() && got == 42;
  }
};

std::vector<float> pattern(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) {
    v[i] = static_cast<float>(i % 1009) * 0.5f;
  }
  return v;
}

TEST(DataPlaneTest, DeliversIntoAPostedBufferAndStagesOtherwise) {
  DataFixture f(nullptr);
  std::unique_ptr<DataConnection> conn;
  ASSERT_TRUE(
      f.connect(f.server->issueNonce("src"), "src", nullptr, &conn).isOk());
  std::vector<float> big = pattern(3 << 20); // 12 MiB, several read slices
  // Posted before the send: the reader thread writes in place.
  std::vector<float> posted(big.size());
  f.sink->rdv.post("a", posted.data(), posted.size() * sizeof(float));
  ASSERT_TRUE(conn->send("a", big.data(), big.size() * sizeof(float)).isOk());
  // Not yet awaited: staged, copied at take. An empty message works too.
  ASSERT_TRUE(conn->send("b", big.data(), 4096).isOk());
  ASSERT_TRUE(conn->send("empty", nullptr, 0).isOk());
  auto deadline = Clock::now() + std::chrono::seconds(10);
  ASSERT_TRUE(
      f.sink->rdv
          .take("a", posted.data(), posted.size() * sizeof(float), deadline)
          .isOk());
  EXPECT_EQ(posted, big);
  std::vector<float> small(1024);
  ASSERT_TRUE(f.sink->rdv.take("b", small.data(), 4096, deadline).isOk());
  EXPECT_TRUE(std::equal(small.begin(), small.end(), big.begin()));
  EXPECT_TRUE(f.sink->rdv.take("empty", nullptr, 0, deadline).isOk());
  EXPECT_GE(f.sink->progress.load(), 3);
  // A size mismatch is the receiver's error, and the stream stays in step.
  ASSERT_TRUE(conn->send("c", big.data(), 8).isOk());
  EXPECT_EQ(f.sink->rdv.take("c", small.data(), 4, deadline).code(),
            GRAPHRT_STATUS_INVALID_ARGUMENT);
  EXPECT_TRUE(f.delivers(*conn, "after"));
}

TEST(DataPlaneTest, AdmitsOnlyIssuedOneShotNonces) {
  DataFixture f(nullptr);
  std::unique_ptr<DataConnection> conn;
  // A nonce never issued.
  ASSERT_TRUE(f.connect(randomToken(), "src", nullptr, &conn).isOk());
  EXPECT_FALSE(f.delivers(*conn, "forged"));
  // An issued nonce presented for another task.
  std::string nonce = f.server->issueNonce("src");
  ASSERT_TRUE(f.connect(nonce, "other", nullptr, &conn).isOk());
  EXPECT_FALSE(f.delivers(*conn, "impostor"));
  // The right nonce, once; a replay is refused.
  nonce = f.server->issueNonce("src");
  ASSERT_TRUE(f.connect(nonce, "src", nullptr, &conn).isOk());
  EXPECT_TRUE(f.delivers(*conn, "good"));
  std::unique_ptr<DataConnection> replay;
  ASSERT_TRUE(f.connect(nonce, "src", nullptr, &replay).isOk());
  EXPECT_FALSE(f.delivers(*replay, "replayed"));
  // closeAll (Abort) cuts admitted connections.
  f.server->closeAll();
  int v = 1;
  Status st;
  for (int i = 0; i < 50 && st.isOk(); ++i) {
    st = conn->send("x" + std::to_string(i), &v, sizeof v);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(st.code(), GRAPHRT_STATUS_UNAVAILABLE);
}

TEST_F(TlsTest, DataPlaneRequiresTheJobsCertificates) {
  std::shared_ptr<DataTls> serverTls, clientTls, rogueTls;
  ASSERT_TRUE(DataTls::create(config("node"), &serverTls).isOk());
  ASSERT_TRUE(serverTls);
  ASSERT_TRUE(DataTls::create(config("node"), &clientTls).isOk());
  SecurityConfig rogue = config("rogue");
  rogue.caFile = dir_ + "/ca.pem"; // trusts the server, foreign certificate
  ASSERT_TRUE(DataTls::create(rogue, &rogueTls).isOk());
  DataFixture f(serverTls);

  std::unique_ptr<DataConnection> conn;
  ASSERT_TRUE(
      f.connect(f.server->issueNonce("src"), "src", clientTls, &conn).isOk());
  std::vector<float> big = pattern(1 << 20);
  ASSERT_TRUE(conn->send("k", big.data(), big.size() * sizeof(float)).isOk());
  std::vector<float> got(big.size());
  ASSERT_TRUE(f.sink->rdv
                  .take("k", got.data(), got.size() * sizeof(float),
                        Clock::now() + std::chrono::seconds(10))
                  .isOk());
  EXPECT_EQ(got, big);

  // Plaintext, or a certificate from another CA, even with a valid nonce.
  Status st = f.connect(f.server->issueNonce("src"), "src", nullptr, &conn);
  EXPECT_TRUE(!st.isOk() || !f.delivers(*conn, "plain"));
  st = f.connect(f.server->issueNonce("src"), "src", rogueTls, &conn);
  EXPECT_TRUE(!st.isOk() || !f.delivers(*conn, "rogue"));
}

} // namespace
} // namespace graphrt
