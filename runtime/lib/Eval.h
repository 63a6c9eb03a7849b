// Eval.h: graph-run --eval, held-out scoring with a training job's weights.
#ifndef GRAPHRT_LIB_EVAL_H
#define GRAPHRT_LIB_EVAL_H

#include "DataFeed.h"
#include "Manifest.h"
#include "SafeTensors.h"
#include "Status.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace graphrt {

class WorkerService;

/// One scoring of the held-out examples.
struct EvalResult {
  int64_t examples = 0;
  /// softmax_cross_entropy: examples whose argmax is the label.
  int64_t correct = 0;
  bool classification = true;
  /// The mean loss over the examples (cross-entropy, or the mean squared
  /// error over every element for mse).
  double loss = 0;
  double accuracy() const {
    return examples ? 100.0 * static_cast<double>(correct) /
                          static_cast<double>(examples)
                    : 0;
  }
};

/// The forward-only job `graphc --train` writes to JOB/eval/ (a one-task
/// bundle and eval.json: the labels input, the scored output, the loss),
/// loaded into this process, and the --eval files it scores.
class Evaluator {
public:
  ~Evaluator();
  /// Reads JOB/eval/, checks `files` (--eval NAME=FILE: every input of the
  /// eval job and the labels, nothing else, one number of examples) and
  /// loads the eval task. `jobDir` is the training bundle.
  static Status open(const std::string &jobDir,
                     const std::map<std::string, std::string> &files,
                     std::unique_ptr<Evaluator> *out);
  /// Scores every held-out example in file order with the training job's
  /// variables `vars` (named TASK/VARIABLE, as Job::readVariables gives
  /// them, with their manifest signatures `sigs`): each eval variable NAME
  /// takes the first one named NAME or copying it (`replica_of`).
  Status evaluate(const std::vector<SafeTensor> &vars,
                  const std::vector<const manifest::TensorSignature *> &sigs,
                  EvalResult *out);

private:
  Evaluator();
  Status runBatches(EvalResult *out);

  Bundle bundle_;
  const manifest::Task *task_ = nullptr;
  std::string lossKind_;
  const manifest::TensorSignature *output_ = nullptr;
  /// The eval job's inputs, then the labels (last).
  std::vector<DataFile> files_;
  std::vector<manifest::TensorSignature> sigs_;
  int64_t batch_ = 0;
  std::unique_ptr<WorkerService> worker_;
  int64_t runs_ = 0;
};

} // namespace graphrt

#endif // GRAPHRT_LIB_EVAL_H
