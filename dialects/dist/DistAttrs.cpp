//===- DistAttrs.cpp - device and cluster attributes ----------------------===//
//
// The TensorFlow device-string parser, and parsing, printing, verification
// and helpers of #dist.device, #dist.job and #dist.cluster.
//
//===----------------------------------------------------------------------===//

#include "dist/DistAttrs.h"
#include "dist/DistDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace graphc::dist;

//===----------------------------------------------------------------------===//
// DeviceSpec: the device-string parser
//===----------------------------------------------------------------------===//

static bool isIdentifier(StringRef s, bool upperOnly) {
  if (s.empty() || !llvm::isAlpha(s.front())) {
    return false;
  }
  return llvm::all_of(s, [&](char c) {
    if (upperOnly && llvm::isLower(c)) {
      return false;
    }
    return llvm::isAlnum(c) || c == '_';
  });
}

bool graphc::dist::isValidJobName(StringRef name) {
  return isIdentifier(name, /*upperOnly=*/false);
}

bool graphc::dist::isValidDeviceType(StringRef type) {
  return isIdentifier(type, /*upperOnly=*/true);
}

namespace {
/// Parses one field of a device string; knows the whole string for messages.
struct DeviceStringParser {
  StringRef whole;
  std::string &error;

  LogicalResult fail(const Twine &message) {
    error = (message + " in device string '" + whole + "'").str();
    return failure();
  }

  /// `N` or `*` (unset) for the field `field`.
  LogicalResult parseIndex(StringRef field, StringRef value,
                           std::optional<int64_t> &out) {
    if (value == "*") {
      out = std::nullopt;
      return success();
    }
    uint64_t n;
    // getAsInteger accepts radix prefixes; a device index is plain decimal.
    if (value.empty() || !llvm::all_of(value, llvm::isDigit) ||
        value.getAsInteger(10, n) || n > uint64_t(INT64_MAX)) {
      return fail("bad " + field + " index '" + value +
                  "', expected a non-negative integer or '*'");
    }
    out = static_cast<int64_t>(n);
    return success();
  }

  LogicalResult parseDeviceType(StringRef value, std::string &out) {
    if (!isValidJobName(value)) {
      return fail("bad device type '" + value +
                  "', expected a letter followed by letters, digits or '_'");
    }
    out = value.upper();
    return success();
  }
};
} // namespace

FailureOr<DeviceSpec> DeviceSpec::parse(StringRef device, std::string &error) {
  DeviceSpec spec;
  if (device.empty()) {
    return spec;
  }
  DeviceStringParser p{device, error};
  if (!device.starts_with("/")) {
    (void)p.fail("expected '/' at the start");
    return failure();
  }

  bool seenJob = false, seenReplica = false, seenTask = false,
       seenDevice = false;
  SmallVector<StringRef> fields;
  device.drop_front().split(fields, '/', /*MaxSplit=*/-1, /*KeepEmpty=*/true);
  for (StringRef field : fields) {
    if (field.empty()) {
      (void)p.fail("empty field");
      return failure();
    }
    auto [name, value] = field.split(':');
    bool hasColon = field.contains(':');
    auto checkDuplicate = [&](bool &seen, StringRef what) -> LogicalResult {
      if (seen) {
        return p.fail("duplicate " + what + " field '" + field + "'");
      }
      seen = true;
      if (!hasColon) {
        return p.fail("field '" + field + "' has no value");
      }
      return success();
    };

    if (name == "job") {
      if (failed(checkDuplicate(seenJob, "job"))) {
        return failure();
      }
      if (value == "*") {
        continue;
      }
      if (!isValidJobName(value)) {
        (void)p.fail("bad job name '" + value +
                     "', expected a letter followed by letters, digits or '_'");
        return failure();
      }
      spec.job = value.str();
    } else if (name == "replica") {
      if (failed(checkDuplicate(seenReplica, "replica")) ||
          failed(p.parseIndex("replica", value, spec.replica))) {
        return failure();
      }
    } else if (name == "task") {
      if (failed(checkDuplicate(seenTask, "task")) ||
          failed(p.parseIndex("task", value, spec.task))) {
        return failure();
      }
    } else if (name == "device") {
      if (failed(checkDuplicate(seenDevice, "device"))) {
        return failure();
      }
      auto [type, index] = value.split(':');
      if (type == "*") {
        if (value.contains(':')) {
          (void)p.fail("device index '" + index + "' without a device type");
          return failure();
        }
        continue;
      }
      if (failed(p.parseDeviceType(type, spec.deviceType))) {
        return failure();
      }
      if (value.contains(':') &&
          failed(p.parseIndex("device", index, spec.deviceIndex))) {
        return failure();
      }
    } else if (name == "cpu" || name == "gpu") {
      // The legacy `/cpu:0` and `/gpu:1` forms TensorFlow still accepts.
      if (failed(checkDuplicate(seenDevice, "device")) ||
          failed(p.parseIndex("device", value, spec.deviceIndex))) {
        return failure();
      }
      spec.deviceType = name.upper();
    } else {
      (void)p.fail("unknown field '" + field +
                   "', expected job, replica, task, device, cpu or gpu");
      return failure();
    }
  }
  return spec;
}

std::string DeviceSpec::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (!job.empty()) {
    os << "/job:" << job;
  }
  if (replica) {
    os << "/replica:" << *replica;
  }
  if (task) {
    os << "/task:" << *task;
  }
  if (!deviceType.empty()) {
    os << "/device:" << deviceType << ':';
    if (deviceIndex) {
      os << *deviceIndex;
    } else {
      os << '*';
    }
  }
  return s;
}

bool DeviceSpec::operator==(const DeviceSpec &other) const {
  return job == other.job && replica == other.replica && task == other.task &&
         deviceType == other.deviceType && deviceIndex == other.deviceIndex;
}

//===----------------------------------------------------------------------===//
// DeviceAttr
//===----------------------------------------------------------------------===//

LogicalResult DeviceAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef job, std::optional<int64_t> replica,
                                 std::optional<int64_t> task,
                                 StringRef deviceType,
                                 std::optional<int64_t> deviceIndex) {
  if (!job.empty() && !isValidJobName(job)) {
    return emitError() << "bad job name '" << job << "'";
  }
  if (!deviceType.empty() && !isValidDeviceType(deviceType)) {
    return emitError() << "bad device type '" << deviceType
                       << "', expected upper case";
  }
  for (auto [name, value] :
       {std::make_pair("replica", replica), std::make_pair("task", task),
        std::make_pair("device", deviceIndex)}) {
    if (value && *value < 0) {
      return emitError() << name << " index " << *value << " is negative";
    }
  }
  if (deviceIndex && deviceType.empty()) {
    return emitError() << "device index " << *deviceIndex
                       << " without a device type";
  }
  return success();
}

Attribute DeviceAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  std::string device;
  if (parser.parseLess() || parser.parseString(&device) ||
      parser.parseGreater()) {
    return {};
  }
  std::string error;
  FailureOr<DeviceSpec> spec = DeviceSpec::parse(device, error);
  if (failed(spec)) {
    parser.emitError(loc, error);
    return {};
  }
  return DeviceAttr::get(parser.getContext(), *spec);
}

void DeviceAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printer.printString(str());
  printer << '>';
}

FailureOr<DeviceAttr> DeviceAttr::fromString(MLIRContext *context,
                                             StringRef device,
                                             std::string &error) {
  FailureOr<DeviceSpec> spec = DeviceSpec::parse(device, error);
  if (failed(spec)) {
    return failure();
  }
  return DeviceAttr::get(context, *spec);
}

DeviceSpec DeviceAttr::getSpec() const {
  return DeviceSpec{getJob().str(), getReplica(), getTask(),
                    getDeviceType().str(), getDeviceIndex()};
}

std::string DeviceAttr::str() const { return getSpec().str(); }

bool DeviceAttr::isFullySpecified() const {
  return !getJob().empty() && getReplica() && getTask() &&
         !getDeviceType().empty() && getDeviceIndex();
}

bool DeviceAttr::namesTask() const {
  return !getJob().empty() && getTask() && getDeviceType().empty() &&
         !getDeviceIndex();
}

/// Two values of one field agree when either is unset or both are equal.
template <typename T>
static bool agree(const std::optional<T> &a, const std::optional<T> &b) {
  return !a || !b || *a == *b;
}
static bool agree(StringRef a, StringRef b) {
  return a.empty() || b.empty() || a == b;
}

bool DeviceAttr::isCompatibleWith(DeviceAttr other) const {
  return agree(getJob(), other.getJob()) &&
         agree(getReplica(), other.getReplica()) &&
         agree(getTask(), other.getTask()) &&
         agree(getDeviceType(), other.getDeviceType()) &&
         agree(getDeviceIndex(), other.getDeviceIndex());
}

bool DeviceAttr::matches(DeviceAttr spec) const {
  auto covers = [](auto mine, auto wanted) {
    return !wanted || mine == wanted;
  };
  return (spec.getJob().empty() || getJob() == spec.getJob()) &&
         covers(getReplica(), spec.getReplica()) &&
         covers(getTask(), spec.getTask()) &&
         (spec.getDeviceType().empty() ||
          getDeviceType() == spec.getDeviceType()) &&
         covers(getDeviceIndex(), spec.getDeviceIndex());
}

FailureOr<DeviceAttr> DeviceAttr::mergedWith(DeviceAttr other,
                                             std::string *error) const {
  auto conflict = [&](StringRef field, const Twine &a,
                      const Twine &b) -> FailureOr<DeviceAttr> {
    if (error) {
      *error = ("cannot merge devices '" + str() + "' and '" + other.str() +
                "': " + field + " " + a + " conflicts with " + b)
                   .str();
    }
    return failure();
  };
  DeviceSpec mine = getSpec(), theirs = other.getSpec();
  DeviceSpec merged = mine;
  if (!agree(getJob(), other.getJob())) {
    return conflict("job", mine.job, theirs.job);
  }
  if (merged.job.empty()) {
    merged.job = theirs.job;
  }
  auto mergeIndex = [&](StringRef field, std::optional<int64_t> a,
                        std::optional<int64_t> b,
                        std::optional<int64_t> &out) -> LogicalResult {
    if (!agree(a, b)) {
      return conflict(field, Twine(*a), Twine(*b));
    }
    out = a ? a : b;
    return success();
  };
  if (failed(mergeIndex("replica", mine.replica, theirs.replica,
                        merged.replica)) ||
      failed(mergeIndex("task", mine.task, theirs.task, merged.task))) {
    return failure();
  }
  if (!agree(getDeviceType(), other.getDeviceType())) {
    return conflict("device type", mine.deviceType, theirs.deviceType);
  }
  if (merged.deviceType.empty()) {
    merged.deviceType = theirs.deviceType;
  }
  if (failed(mergeIndex("device index", mine.deviceIndex, theirs.deviceIndex,
                        merged.deviceIndex))) {
    return failure();
  }
  return DeviceAttr::get(getContext(), merged);
}

DeviceAttr DeviceAttr::getTaskAttr() const {
  std::optional<int64_t> replica = getReplica();
  if (replica == 0) {
    replica = std::nullopt;
  }
  return DeviceAttr::get(getContext(), getJob(), replica, getTask(), "",
                         std::nullopt);
}

//===----------------------------------------------------------------------===//
// JobAttr
//===----------------------------------------------------------------------===//

LogicalResult JobAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              StringRef name, int64_t numTasks,
                              ArrayRef<DeviceAttr> devices) {
  if (!isValidJobName(name)) {
    return emitError() << "bad job name '" << name << "'";
  }
  if (numTasks <= 0) {
    return emitError() << "job '" << name << "' has " << numTasks
                       << " tasks, expected at least one";
  }
  if (devices.empty()) {
    return emitError() << "job '" << name << "' has no devices";
  }
  for (auto [i, device] : llvm::enumerate(devices)) {
    if (!device || device.getDeviceType().empty() || !device.getDeviceIndex() ||
        !device.getJob().empty() || device.getReplica() || device.getTask()) {
      return emitError() << "device #" << i << " of job '" << name
                         << "' must be a device type and index only";
    }
    if (llvm::is_contained(devices.take_front(i), device)) {
      return emitError() << "job '" << name << "' lists device "
                         << device.getDeviceType() << ':'
                         << *device.getDeviceIndex() << " twice";
    }
  }
  return success();
}

void JobAttr::printBody(AsmPrinter &printer) const {
  printer << getName() << " = " << getNumTasks() << " x [";
  llvm::interleaveComma(getDevices(), printer, [&](DeviceAttr device) {
    printer << device.getDeviceType() << ':' << *device.getDeviceIndex();
  });
  printer << ']';
}

JobAttr JobAttr::parseBody(AsmParser &parser) {
  MLIRContext *context = parser.getContext();
  SMLoc loc = parser.getCurrentLocation();
  std::string name;
  int64_t numTasks;
  if (parser.parseKeywordOrString(&name) || parser.parseEqual() ||
      parser.parseInteger(numTasks)) {
    return {};
  }
  SmallVector<DeviceAttr> devices;
  if (succeeded(parser.parseOptionalKeyword("x"))) {
    auto parseDevice = [&]() -> ParseResult {
      SMLoc deviceLoc = parser.getCurrentLocation();
      std::string type;
      int64_t index;
      if (parser.parseKeywordOrString(&type) || parser.parseColon() ||
          parser.parseInteger(index)) {
        return failure();
      }
      if (!isValidDeviceType(type)) {
        return parser.emitError(deviceLoc, "bad device type '")
               << type << "', expected upper case";
      }
      devices.push_back(DeviceAttr::getChecked(
          [&] { return parser.emitError(deviceLoc); }, context, "",
          std::nullopt, std::nullopt, type, index));
      return success(static_cast<bool>(devices.back()));
    };
    if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                       parseDevice)) {
      return {};
    }
  } else {
    devices.push_back(
        DeviceAttr::get(context, "", std::nullopt, std::nullopt, "CPU", 0));
  }
  return JobAttr::getChecked([&] { return parser.emitError(loc); }, context,
                             name, numTasks, devices);
}

Attribute JobAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess()) {
    return {};
  }
  JobAttr job = parseBody(parser);
  if (!job || parser.parseGreater()) {
    return {};
  }
  return job;
}

void JobAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printBody(printer);
  printer << '>';
}

//===----------------------------------------------------------------------===//
// ClusterAttr
//===----------------------------------------------------------------------===//

LogicalResult ClusterAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<JobAttr> jobs) {
  if (jobs.empty()) {
    return emitError() << "cluster has no jobs";
  }
  llvm::StringSet<> names;
  for (JobAttr job : jobs) {
    if (!job) {
      return emitError() << "cluster has a null job";
    }
    if (!names.insert(job.getName()).second) {
      return emitError() << "job '" << job.getName() << "' appears twice";
    }
  }
  return success();
}

Attribute ClusterAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<JobAttr> jobs;
  auto parseJob = [&]() -> ParseResult {
    jobs.push_back(JobAttr::parseBody(parser));
    return success(static_cast<bool>(jobs.back()));
  };
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Braces, parseJob) ||
      parser.parseGreater()) {
    return {};
  }
  return ClusterAttr::getChecked([&] { return parser.emitError(loc); },
                                 parser.getContext(), jobs);
}

void ClusterAttr::print(AsmPrinter &printer) const {
  printer << "<{";
  llvm::interleaveComma(getJobs(), printer,
                        [&](JobAttr job) { job.printBody(printer); });
  printer << "}>";
}

JobAttr ClusterAttr::getJob(StringRef name) const {
  for (JobAttr job : getJobs()) {
    if (job.getName() == name) {
      return job;
    }
  }
  return {};
}

int64_t ClusterAttr::getNumTasks() const {
  int64_t n = 0;
  for (JobAttr job : getJobs()) {
    n += job.getNumTasks();
  }
  return n;
}

SmallVector<DeviceAttr> ClusterAttr::getTaskAttrs() const {
  SmallVector<DeviceAttr> tasks;
  for (JobAttr job : getJobs()) {
    for (int64_t t = 0; t < job.getNumTasks(); ++t) {
      tasks.push_back(DeviceAttr::get(getContext(), job.getName(), std::nullopt,
                                      t, "", std::nullopt));
    }
  }
  return tasks;
}

SmallVector<DeviceAttr> ClusterAttr::getDevices() const {
  SmallVector<DeviceAttr> devices;
  for (JobAttr job : getJobs()) {
    for (int64_t t = 0; t < job.getNumTasks(); ++t) {
      for (DeviceAttr d : job.getDevices()) {
        devices.push_back(DeviceAttr::get(getContext(), job.getName(), 0, t,
                                          d.getDeviceType(),
                                          d.getDeviceIndex()));
      }
    }
  }
  return devices;
}

bool ClusterAttr::contains(DeviceAttr spec) const {
  // Every task of a cluster is replica 0 (a ClusterSpec has no replicas).
  if (spec.getReplica().value_or(0) != 0) {
    return false;
  }
  for (JobAttr job : getJobs()) {
    if (!spec.getJob().empty() && spec.getJob() != job.getName()) {
      continue;
    }
    if (spec.getTask() && *spec.getTask() >= job.getNumTasks()) {
      continue;
    }
    for (DeviceAttr d : job.getDevices()) {
      if ((spec.getDeviceType().empty() ||
           spec.getDeviceType() == d.getDeviceType()) &&
          (!spec.getDeviceIndex() ||
           spec.getDeviceIndex() == d.getDeviceIndex())) {
        return true;
      }
    }
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

#define GET_ATTRDEF_CLASSES
#include "dist/DistAttrs.cpp.inc"

void DistDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dist/DistAttrs.cpp.inc"
      >();
}
