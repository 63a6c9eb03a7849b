//===- ReportWriters.cpp - the communication report as JSON and as a table
//---===//

#include "graphc/Analysis/DistReport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace graphc;

namespace {

// Times go out as integer nanoseconds: exact to compare and to FileCheck,
// and far below the model's accuracy.
int64_t ns(double seconds) { return int64_t(std::llround(seconds * 1e9)); }

std::string us(double seconds) {
  return llvm::formatv("{0:F3}", seconds * 1e6).str();
}

} // namespace

llvm::json::Value graphc::reportToJson(const DistReport &r) {
  llvm::json::Array tasks;
  for (const TaskReport &t : r.tasks) {
    llvm::json::Object counters;
    for (const auto &[name, c] : t.counters) {
      counters[name] = llvm::json::Object{{"bytes", int64_t(c.bytes)},
                                          {"messages", int64_t(c.messages)}};
    }
    tasks.push_back(llvm::json::Object{
        {"name", t.name},
        {"device", t.device},
        {"ops", int64_t(t.numOps)},
        {"unknown_cost_ops", int64_t(t.unknownCostOps)},
        {"flops", t.flops},
        {"bytes_moved", t.bytesMoved},
        {"compute_ns", ns(t.computeSeconds)},
        {"comm_ns", ns(t.commSeconds)},
        {"wait_ns", ns(t.waitSeconds)},
        {"busy_ns", ns(t.computeSeconds + t.commSeconds)},
        {"idle_ns", ns(r.stepSeconds - t.computeSeconds - t.commSeconds)},
        {"finish_ns", ns(t.finishSeconds)},
        {"counters", std::move(counters)}});
  }
  llvm::json::Array transfers;
  for (const TransferReport &t : r.transfers) {
    transfers.push_back(llvm::json::Object{{"from", t.from},
                                           {"to", t.to},
                                           {"key", t.key},
                                           {"type", t.type},
                                           {"bytes", t.bytes},
                                           {"ns", ns(t.seconds)}});
  }
  llvm::json::Array collectives;
  for (const CollectiveReport &c : r.collectives) {
    llvm::json::Array group, sent, messages;
    for (const std::string &g : c.group) {
      group.push_back(g);
    }
    for (int64_t b : c.sentBytes) {
      sent.push_back(b);
    }
    for (int64_t m : c.messages) {
      messages.push_back(m);
    }
    collectives.push_back(llvm::json::Object{{"kind", c.kind},
                                             {"key", c.key},
                                             {"group", std::move(group)},
                                             {"group_name", c.groupName},
                                             {"type", c.type},
                                             {"bytes", c.bytes},
                                             {"sent_bytes", std::move(sent)},
                                             {"messages", std::move(messages)},
                                             {"wire_bytes", c.wireBytes()},
                                             {"ns", ns(c.seconds)}});
  }
  llvm::json::Array path;
  for (const PathStep &p : r.criticalPath) {
    path.push_back(llvm::json::Object{{"task", p.task},
                                      {"kind", p.kind},
                                      {"name", p.name},
                                      {"start_ns", ns(p.startSeconds)},
                                      {"end_ns", ns(p.endSeconds)}});
  }
  llvm::json::Object out{
      {"machine_model", r.machine.toJson()},
      {"tasks", std::move(tasks)},
      {"transfers", std::move(transfers)},
      {"collectives", std::move(collectives)},
      {"bytes_per_step", llvm::json::Object{{"transfers", r.transferBytes},
                                            {"collectives", r.collectiveBytes},
                                            {"total", r.totalBytes()}}},
      {"estimate", llvm::json::Object{{"step_ns", ns(r.stepSeconds)},
                                      {"compute_slowdown", r.computeSlowdown},
                                      {"critical_path", std::move(path)}}}};
  if (r.pipeline) {
    const PipelineReport &p = *r.pipeline;
    llvm::json::Array stages;
    for (const StageReport &s : p.stages) {
      llvm::json::Array names;
      for (const std::string &t : s.tasks) {
        names.push_back(t);
      }
      stages.push_back(llvm::json::Object{
          {"tasks", std::move(names)},
          {"compute_ns", ns(s.computeSeconds)},
          {"microbatch_ns", ns(s.computeSeconds / double(p.microbatches))},
          {"busy_ns", ns(s.busySeconds)},
          {"idle_ns", ns(s.idleSeconds)}});
    }
    out["pipeline"] =
        llvm::json::Object{{"stages", std::move(stages)},
                           {"microbatches", p.microbatches},
                           {"replicas", p.replicas},
                           {"ideal_bubble_fraction", p.idealBubble},
                           {"bubble_fraction", p.bubble}};
  }
  if (r.autoChoice) {
    llvm::json::Array candidates, refused;
    for (const AutoCandidateReport &c : r.autoChoice->candidates) {
      if (c.refusal.empty()) {
        candidates.push_back(
            llvm::json::Object{{"name", c.label},
                               {"tasks", c.tasks},
                               {"step_ns", ns(c.stepSeconds)}});
      } else {
        refused.push_back(
            llvm::json::Object{{"name", c.label}, {"reason", c.refusal}});
      }
    }
    out["auto"] = llvm::json::Object{{"chosen", r.autoChoice->chosen},
                                     {"workers", r.autoChoice->workers},
                                     {"machine", r.autoChoice->machine},
                                     {"candidates", std::move(candidates)},
                                     {"refused", std::move(refused)}};
  }
  return out;
}

llvm::Error graphc::writeReportJson(const DistReport &report,
                                    llvm::StringRef path,
                                    llvm::json::Object extra) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    return llvm::createStringError(
        ec, llvm::formatv("cannot write report '{0}': {1}", path, ec.message())
                .str());
  }
  llvm::json::Value json = reportToJson(report);
  for (auto &[key, value] : extra) {
    json.getAsObject()->try_emplace(key, std::move(value));
  }
  os << llvm::formatv("{0:2}", json) << "\n";
  return llvm::Error::success();
}

/// strategy=auto's candidates, cheapest first, and what each costs next to
/// the chosen one.
static void printAutoTable(const AutoReport &a, llvm::raw_ostream &os) {
  os << llvm::formatv("strategy auto: chose {0} for {1} workers on {2}\n",
                      a.chosen, a.workers, a.machine);
  double best = 0;
  for (const AutoCandidateReport &c : a.candidates) {
    if (c.refusal.empty() && (best == 0 || c.stepSeconds < best)) {
      best = c.stepSeconds;
    }
  }
  os << llvm::formatv("  {0,-28} {1,5} {2,14} {3,9}\n", "candidate", "tasks",
                      "est. step us", "vs best");
  for (const AutoCandidateReport &c : a.candidates) {
    if (!c.refusal.empty()) {
      continue;
    }
    os << llvm::formatv("  {0,-28} {1,5} {2,14} {3,8:F2}x{4}\n", c.label,
                        c.tasks, us(c.stepSeconds),
                        best > 0 ? c.stepSeconds / best : 1.0,
                        c.label == a.chosen ? "  <- chosen" : "");
  }
  for (const AutoCandidateReport &c : a.candidates) {
    if (!c.refusal.empty()) {
      os << "  refused " << c.label << ": " << c.refusal << "\n";
    }
  }
}

void graphc::printReportTable(const DistReport &r, llvm::raw_ostream &os) {
  if (r.autoChoice) {
    printAutoTable(*r.autoChoice, os);
  }
  os << "communication report (machine model: " << r.machine.name << ")\n";
  if (r.computeSlowdown > 1) {
    os << llvm::formatv("the tasks share {0} cores: compute takes {1:f2}x as "
                        "long as on a core of its own (each op stretched by "
                        "the tasks computing beside it)\n",
                        int64_t(r.machine.sharedCores), r.computeSlowdown);
  }
  os << llvm::formatv("{0,-16} {1,-32} {2,6} {3,14} {4,12} {5,12} {6,12} "
                      "{7,12}\n",
                      "task", "device", "ops", "flops", "compute us", "comm us",
                      "wait us", "finish us");
  for (const TaskReport &t : r.tasks) {
    os << llvm::formatv("{0,-16} {1,-32} {2,6} {3,14} {4,12} {5,12} {6,12} "
                        "{7,12}\n",
                        t.name, t.device, t.numOps, t.flops,
                        us(t.computeSeconds), us(t.commSeconds),
                        us(t.waitSeconds), us(t.finishSeconds));
    for (const auto &[name, c] : t.counters) {
      os << llvm::formatv("  counter {0}: {1} bytes in {2} messages\n", name,
                          c.bytes, c.messages);
    }
    if (t.unknownCostOps) {
      os << "  (" << t.unknownCostOps
         << (t.unknownCostOps == 1 ? " op" : " ops")
         << " with dynamic shapes not in the estimate)\n";
    }
  }
  if (!r.transfers.empty()) {
    os << "transfers:\n";
    for (const TransferReport &t : r.transfers) {
      os << llvm::formatv("  {0} -> {1} key \"{2}\" {3}: {4} bytes, {5} us\n",
                          t.from, t.to, t.key, t.type, t.bytes, us(t.seconds));
    }
  }
  if (!r.collectives.empty()) {
    os << "collectives:\n";
    for (const CollectiveReport &c : r.collectives) {
      os << llvm::formatv("  {0} key \"{1}\" on {2} {3}: {4} bytes each, "
                          "sent",
                          c.kind, c.key, c.groupName, c.type, c.bytes);
      for (int64_t b : c.sentBytes) {
        os << " " << b;
      }
      os << llvm::formatv(" ({0} on the wire), {1} us\n", c.wireBytes(),
                          us(c.seconds));
    }
  }
  os << llvm::formatv("bytes per step: {0} (transfers {1}, collectives {2})\n",
                      r.totalBytes(), r.transferBytes, r.collectiveBytes);
  os << "estimated step: " << us(r.stepSeconds) << " us\n";
  if (r.pipeline) {
    const PipelineReport &p = *r.pipeline;
    os << llvm::formatv("pipeline: {0} stages x {1} microbatches, {2} "
                        "replica(s)\n",
                        p.stages.size(), p.microbatches, p.replicas);
    for (auto [k, s] : llvm::enumerate(p.stages)) {
      os << llvm::formatv("  stage {0} ({1}): compute {2} us ({3} us per "
                          "microbatch), busy {4} us, idle {5} us\n",
                          k, llvm::join(s.tasks, ", "), us(s.computeSeconds),
                          us(s.computeSeconds / double(p.microbatches)),
                          us(s.busySeconds), us(s.idleSeconds));
    }
    os << llvm::formatv("bubble: {0:P1} of the stages' step idle (GPipe's "
                        "(P-1)/(M+P-1) for equal stages: {1:P1})\n",
                        p.bubble, p.idealBubble);
  }
  if (!r.criticalPath.empty()) {
    os << "critical path:\n";
    for (const PathStep &p : r.criticalPath) {
      os << llvm::formatv("  {0,12} .. {1,12} us  {2} {3} {4}\n",
                          us(p.startSeconds), us(p.endSeconds), p.task, p.kind,
                          p.name);
    }
  }
}
