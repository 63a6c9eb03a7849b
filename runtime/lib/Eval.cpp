// Eval.cpp: graph-run --eval, held-out scoring with a training job's weights.
#include "Eval.h"

#include "Worker.h"
#include "graphrt/common/DType.h"
#include "graphrt/common/ManifestSchema.h"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <grpcpp/grpcpp.h>

#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace graphrt {
namespace {

Status invalid(const std::string &message) {
  return Status(GRAPHRT_STATUS_INVALID_ARGUMENT, message);
}

std::string namesOf(const std::vector<manifest::TensorSignature> &sigs) {
  std::string names;
  for (const manifest::TensorSignature &s : sigs) {
    names += (names.empty() ? "" : ", ") + s.name();
  }
  return names;
}

/// readDataFile speaks of --data; here the file came from --eval.
Status asEval(Status st) {
  std::string m = st.message();
  if (m.rfind("--data ", 0) == 0) {
    m = "--eval " + m.substr(7);
  }
  return Status(st.code(), m);
}

} // namespace

Evaluator::Evaluator() = default;
Evaluator::~Evaluator() = default;

Status Evaluator::open(const std::string &jobDir,
                       const std::map<std::string, std::string> &files,
                       std::unique_ptr<Evaluator> *out) {
  std::unique_ptr<Evaluator> e(new Evaluator());
  std::string dir = jobDir + "/eval";
  std::string infoPath = dir + "/eval.json";
  struct stat st;
  if (::stat(infoPath.c_str(), &st) != 0) {
    return invalid("--eval: '" + jobDir +
                   "' has no forward-only job (eval/eval.json); it is not "
                   "a training bundle of graphc --train, or one compiled "
                   "before --eval existed: compile the model again with "
                   "graphc --train");
  }
  Status s = readBundle(dir, &e->bundle_);
  if (!s.isOk()) {
    return Status(s.code(), "--eval: the forward-only job: " + s.message());
  }
  if (e->bundle_.manifest.tasks_size() != 1) {
    return invalid("--eval: the forward-only job in '" + dir + "' has " +
                   std::to_string(e->bundle_.manifest.tasks_size()) +
                   " tasks; graph-run runs one");
  }
  e->task_ = &e->bundle_.manifest.tasks(0);
  std::ifstream in(infoPath);
  std::stringstream text;
  text << in.rdbuf();
  google::protobuf::Struct info;
  if (!google::protobuf::util::JsonStringToMessage(text.str(), &info).ok()) {
    return invalid("--eval: '" + infoPath + "' is not valid JSON");
  }
  auto field = [&](const char *key) -> std::string {
    auto it = info.fields().find(key);
    return it == info.fields().end() ? "" : it->second.string_value();
  };
  std::string labels = field("labels");
  e->lossKind_ = field("loss");
  if (labels.empty() ||
      (e->lossKind_ != "softmax_cross_entropy" && e->lossKind_ != "mse")) {
    return invalid("--eval: '" + infoPath +
                   "' names no labels input or an unknown loss '" +
                   e->lossKind_ + "'");
  }
  std::string output = field("output");
  for (const manifest::TensorSignature &o : e->task_->outputs()) {
    if (o.name() == output) {
      e->output_ = &o;
    }
  }
  if (!e->output_) {
    auto it = info.fields().find("output_index");
    int64_t index = it == info.fields().end()
                        ? 0
                        : static_cast<int64_t>(it->second.number_value());
    if (index < 0 || index >= e->task_->outputs_size()) {
      return invalid("--eval: the forward-only job has no output " +
                     std::to_string(index) + " to score");
    }
    e->output_ = &e->task_->outputs(static_cast<int>(index));
  }
  if (e->output_->dtype() != "f32" || isBatched(*e->output_) ||
      e->output_->shape_size() < 1) {
    return invalid("--eval: output '" + e->output_->name() +
                   "' of the forward-only job is " + describe(*e->output_) +
                   "; --eval scores a static batch of f32");
  }
  e->batch_ = e->output_->shape(0);

  // The inputs the eval job reads, then the labels: each needs a file.
  for (const manifest::TensorSignature &sig : e->task_->inputs()) {
    e->sigs_.push_back(sig);
  }
  manifest::TensorSignature labelSig;
  labelSig.set_name(labels);
  if (e->lossKind_ == "mse") {
    labelSig.set_dtype(e->output_->dtype());
    *labelSig.mutable_shape() = e->output_->shape();
  } else {
    labelSig.set_dtype("i64");
    labelSig.add_shape(e->batch_);
  }
  e->sigs_.push_back(labelSig);
  for (const auto &[name, path] : files) {
    bool known = false;
    for (const manifest::TensorSignature &sig : e->sigs_) {
      known = known || sig.name() == name;
    }
    if (!known) {
      return invalid("--eval " + name + ": '" + name +
                     "' is neither an input of the model nor its labels; "
                     "--eval takes " +
                     namesOf(e->sigs_));
    }
  }
  for (const manifest::TensorSignature &sig : e->sigs_) {
    auto it = files.find(sig.name());
    if (it == files.end()) {
      return invalid(
          "--eval: no file for '" + sig.name() + "' (" +
          (sig.name() == labels ? "the labels" : "an input of the model") +
          "); pass --eval " + sig.name() + "=FILE for each of " +
          namesOf(e->sigs_));
    }
    if (isBatched(sig) || sig.shape_size() < 1 || sig.shape(0) != e->batch_) {
      return invalid("--eval: input '" + sig.name() +
                     "' of the forward-only job is " + describe(sig) +
                     ", not a batch of " + std::to_string(e->batch_) +
                     " as its output '" + e->output_->name() + "'");
    }
    DataFile f;
    Status rs = readDataFile(sig, it->second, &f);
    if (!rs.isOk()) {
      return asEval(rs);
    }
    if (!e->files_.empty() && f.examples != e->files_[0].examples) {
      return invalid("--eval files hold different numbers of examples: '" +
                     e->files_[0].path + "' (" + e->files_[0].input + ") has " +
                     std::to_string(e->files_[0].examples) + ", '" + f.path +
                     "' (" + f.input + ") has " + std::to_string(f.examples) +
                     "; give one row per held-out example in each");
    }
    if (f.examples == 0) {
      return invalid("--eval " + sig.name() + ": '" + f.path +
                     "' holds no examples");
    }
    e->files_.push_back(std::move(f));
  }

  // The eval task runs in this process: it is small, and it needs no peer.
  char real[PATH_MAX];
  if (!::realpath(dir.c_str(), real)) {
    return invalid("--eval: cannot resolve '" + dir + "'");
  }
  e->worker_ = std::make_unique<WorkerService>();
  rpc::LoadTaskRequest req;
  req.set_bundle_dir(real);
  req.set_task(e->task_->name());
  (*req.mutable_peers())[e->task_->name()] = "127.0.0.1:0";
  req.set_recv_timeout_ms(30000);
  req.set_data_plane("tcp");
  rpc::LoadTaskResponse resp;
  grpc::ServerContext ctx;
  grpc::Status load = e->worker_->LoadTask(&ctx, &req, &resp);
  if (!load.ok()) {
    return invalid("--eval: the forward-only job in '" + dir +
                   "' does not load: " + load.error_message());
  }
  *out = std::move(e);
  return Status::ok();
}

Status
Evaluator::evaluate(const std::vector<SafeTensor> &vars,
                    const std::vector<const manifest::TensorSignature *> &sigs,
                    EvalResult *out) {
  rpc::WriteVariablesRequest write;
  for (const manifest::TensorSignature &v : task_->variables()) {
    // The weight itself where a task holds it, else a replica's copy.
    const SafeTensor *from = nullptr;
    for (size_t i = 0; i < vars.size() && !from; ++i) {
      if (sigs[i]->name() == v.name() && !sigs[i]->has_slot_of()) {
        from = &vars[i];
      }
    }
    for (size_t i = 0; i < vars.size() && !from; ++i) {
      if (sigs[i]->replica_of() == v.name()) {
        from = &vars[i];
      }
    }
    if (!from) {
      return invalid("--eval: the training job has no variable '" + v.name() +
                     "' for the forward-only job's weight of that name; "
                     "compile both with the same graphc --train");
    }
    std::vector<int64_t> want(v.shape().begin(), v.shape().end());
    if (from->shape != want || dtypeName(from->dtype) != v.dtype()) {
      manifest::TensorSignature got;
      got.set_dtype(dtypeName(from->dtype));
      for (int64_t d : from->shape) {
        got.add_shape(d);
      }
      return invalid("--eval: variable '" + from->name +
                     "' of the training "
                     "job is " +
                     describe(got) + ", the forward-only job's '" + v.name() +
                     "' is " + describe(v) +
                     "; compile both with the same graphc "
                     "--train");
    }
    rpc::Tensor *t = write.add_variables();
    t->set_name(v.name());
    t->set_dtype(v.dtype());
    *t->mutable_shape() = v.shape();
    t->set_data(from->data);
  }
  rpc::WriteVariablesResponse written;
  grpc::ServerContext ctx;
  grpc::Status st = worker_->WriteVariables(&ctx, &write, &written);
  if (!st.ok()) {
    return invalid("--eval: the forward-only job refused the trained "
                   "weights: " +
                   st.error_message());
  }
  return runBatches(out);
}

Status Evaluator::runBatches(EvalResult *out) {
  *out = EvalResult();
  out->classification = lossKind_ == "softmax_cross_entropy";
  const DataFile &labels = files_.back();
  int64_t examples = labels.examples;
  int64_t perExample = 1;
  for (int i = 1; i < output_->shape_size(); ++i) {
    perExample *= output_->shape(i);
  }
  double lossSum = 0;
  for (int64_t first = 0; first < examples; first += batch_) {
    // The last batch repeats the first examples; only the real rows count.
    std::vector<int64_t> rows(static_cast<size_t>(batch_));
    for (int64_t r = 0; r < batch_; ++r) {
      rows[static_cast<size_t>(r)] = (first + r) % examples;
    }
    int64_t valid = std::min(batch_, examples - first);
    rpc::RunStepRequest req;
    req.set_step(runs_++);
    req.add_report_outputs(output_->name());
    for (size_t i = 0; i + 1 < files_.size(); ++i) {
      rpc::Tensor *t = req.add_inputs();
      t->set_name(sigs_[i].name());
      t->set_dtype(sigs_[i].dtype());
      *t->mutable_shape() = sigs_[i].shape();
      t->set_data(gatherRows(files_[i], rows));
    }
    rpc::RunStepResponse resp;
    grpc::ServerContext ctx;
    grpc::Status st = worker_->RunStep(&ctx, &req, &resp);
    if (!st.ok()) {
      return invalid("--eval: the forward-only job failed on examples " +
                     std::to_string(first) + ".." +
                     std::to_string(first + valid - 1) + ": " +
                     st.error_message());
    }
    const rpc::Tensor *result = nullptr;
    for (const rpc::Tensor &t : resp.outputs()) {
      if (t.name() == output_->name()) {
        result = &t;
      }
    }
    if (!result ||
        result->data().size() != static_cast<size_t>(batch_ * perExample) * 4) {
      return invalid("--eval: the forward-only job returned no output '" +
                     output_->name() + "' of " + describe(*output_));
    }
    const float *y = reinterpret_cast<const float *>(result->data().data());
    std::string want = gatherRows(labels, rows);
    for (int64_t r = 0; r < valid; ++r) {
      const float *row = y + r * perExample;
      if (out->classification) {
        int64_t label;
        std::memcpy(&label, want.data() + r * sizeof(int64_t), sizeof label);
        if (label < 0 || label >= perExample) {
          return invalid("--eval " + labels.input + ": example " +
                         std::to_string(first + r) + " of '" + labels.path +
                         "' has class " + std::to_string(label) +
                         ", the model scores classes 0.." +
                         std::to_string(perExample - 1));
        }
        int64_t best = 0;
        double top = row[0];
        for (int64_t c = 1; c < perExample; ++c) {
          if (row[c] > top) {
            top = row[c];
            best = c;
          }
        }
        double sum = 0;
        for (int64_t c = 0; c < perExample; ++c) {
          sum += std::exp(static_cast<double>(row[c]) - top);
        }
        lossSum += top + std::log(sum) - row[label];
        out->correct += best == label;
      } else {
        const float *target =
            reinterpret_cast<const float *>(want.data()) + r * perExample;
        for (int64_t c = 0; c < perExample; ++c) {
          double d = static_cast<double>(row[c]) - target[c];
          lossSum += d * d;
        }
      }
    }
    out->examples += valid;
  }
  out->loss = lossSum / static_cast<double>(out->classification
                                                ? examples
                                                : examples * perExample);
  return Status::ok();
}

} // namespace graphrt
