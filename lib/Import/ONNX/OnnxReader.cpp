//===- OnnxReader.cpp - read ONNX models from disk
//--------------------------===//

#include "graphc/Import/ONNX/OnnxReader.h"

#include "ProtoParse.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "google/protobuf/io/zero_copy_stream_impl.h"

#include <climits>

using namespace llvm;

namespace graphc::import {

int64_t getOnnxOpset(const onnx::ModelProto &model) {
  for (const onnx::OperatorSetIdProto &opset : model.opset_import()) {
    if (opset.domain().empty() || opset.domain() == "ai.onnx") {
      return opset.version();
    }
  }
  return 1;
}

bool isLegacyOnnxModel(const onnx::ModelProto &model) {
  return model.ir_version() < 3 && model.opset_import_size() == 0;
}

Expected<std::unique_ptr<onnx::ModelProto>>
parseOnnxModel(StringRef data, StringRef path, const ReadLimits &limits) {
  auto model = std::make_unique<onnx::ModelProto>();
  if (Error err = parseBinaryProto(data, path, "ONNX model", limits, *model)) {
    return std::move(err);
  }
  if (Error err = checkOnnxModel(*model, path)) {
    return std::move(err);
  }
  return std::move(model);
}

Error checkOnnxModel(const onnx::ModelProto &modelRef, StringRef path) {
  const onnx::ModelProto *model = &modelRef;
  if (model->ir_version() <= 0 || !model->has_graph()) {
    return makeError(path, "", "not an ONNX model: no IR version or no graph");
  }
  int64_t opset = getOnnxOpset(*model);
  // IR versions 1 and 2 had no opset_import; onnx.checker (and ONNX
  // Runtime) read such a model as default-domain opset 1. The importer
  // takes old opsets only for the ops whose old forms it knows.
  if (isLegacyOnnxModel(*model)) {
    return Error::success();
  }
  if (opset < kMinOnnxOpset) {
    return makeError(path, "",
                     "ONNX opset " + Twine(opset) +
                         " does not exist (default-domain opsets start at " +
                         Twine(kMinOnnxOpset) + ")");
  }
  return Error::success();
}

Expected<std::unique_ptr<onnx::ModelProto>>
readOnnxModel(StringRef path, const ReadLimits &limits) {
  // Parse from the file through a small buffer rather than from a mapping of
  // the whole file: the parsed model already holds every initializer's
  // bytes, and holding the file too would double the peak memory.
  sys::fs::file_status status;
  if (std::error_code ec = sys::fs::status(path, status)) {
    return makeError(path, "", "cannot open: " + ec.message());
  }
  if (status.type() != sys::fs::file_type::regular_file) {
    return makeError(path, "", "not a regular file");
  }
  if (status.getSize() > limits.maxFileBytes) {
    return makeError(path, "",
                     "file is " + Twine(status.getSize()) +
                         " bytes, over the limit of " +
                         Twine(limits.maxFileBytes));
  }
  if (status.getSize() > uint64_t(INT_MAX)) {
    return makeError(path, "",
                     "file is " + Twine(status.getSize()) +
                         " bytes, over protobuf's 2 GiB message limit");
  }
  Expected<sys::fs::file_t> file = sys::fs::openNativeFileForRead(path);
  if (!file) {
    return makeError(path, "", "cannot read: " + toString(file.takeError()));
  }
  auto model = std::make_unique<onnx::ModelProto>();
  bool parsed;
  {
    google::protobuf::io::FileInputStream raw(*file, 1 << 20);
    google::protobuf::io::CodedInputStream stream(&raw);
    stream.SetRecursionLimit(limits.maxRecursionDepth);
    stream.SetTotalBytesLimit(INT_MAX);
    parsed = model->ParseFromCodedStream(&stream) &&
             stream.ConsumedEntireMessage() && raw.GetErrno() == 0;
  }
  sys::fs::closeFile(*file);
  if (!parsed) {
    return makeError(path, "",
                     "cannot parse ONNX model: the file is truncated, corrupt "
                     "or in another format");
  }
  if (Error err = checkOnnxModel(*model, path)) {
    return std::move(err);
  }
  return std::move(model);
}

Error freezeOnnxInputs(onnx::ModelProto &model, ArrayRef<std::string> specs,
                       StringRef modelPath, const ReadLimits &limits) {
  onnx::GraphProto &graph = *model.mutable_graph();
  for (StringRef spec : specs) {
    auto [name, file] = spec.split('=');
    if (name.empty() || file.empty()) {
      return makeError(modelPath, "",
                       "--freeze-input '" + spec +
                           "': expected NAME=FILE.pb (an ONNX TensorProto)");
    }
    int index = -1;
    for (int i = 0; i < graph.input_size(); ++i) {
      if (graph.input(i).name() == name) {
        index = i;
      }
    }
    if (index < 0) {
      return makeError(modelPath, "",
                       "--freeze-input '" + spec +
                           "': the model has no input '" + name + "'");
    }
    for (const onnx::TensorProto &init : graph.initializer()) {
      if (init.name() == name) {
        return makeError(modelPath, "",
                         "--freeze-input '" + spec + "': input '" + name +
                             "' already has an initializer");
      }
    }
    auto buffer = MemoryBuffer::getFile(file, /*IsText=*/false,
                                        /*RequiresNullTerminator=*/false);
    if (!buffer) {
      return makeError(file, "", "cannot read: " + buffer.getError().message());
    }
    if ((*buffer)->getBufferSize() > limits.maxFileBytes) {
      return makeError(file, "",
                       "file is " + Twine((*buffer)->getBufferSize()) +
                           " bytes, over the limit of " +
                           Twine(limits.maxFileBytes));
    }
    onnx::TensorProto tensor;
    if (Error err = parseBinaryProto((*buffer)->getBuffer(), file,
                                     "ONNX TensorProto", limits, tensor)) {
      return err;
    }
    if (tensor.has_data_location() &&
        tensor.data_location() == onnx::TensorProto::EXTERNAL) {
      return makeError(file, "",
                       "a frozen input's TensorProto must hold its data, not "
                       "point to an external file");
    }
    const onnx::ValueInfoProto &info = graph.input(index);
    if (info.type().has_tensor_type()) {
      const onnx::TypeProto::Tensor &type = info.type().tensor_type();
      if (type.elem_type() != 0 && type.elem_type() != tensor.data_type()) {
        return makeError(file, "",
                         "holds element type " + Twine(tensor.data_type()) +
                             " but input '" + name + "' has element type " +
                             Twine(type.elem_type()) +
                             " (ONNX TensorProto.DataType numbers)");
      }
      if (type.has_shape()) {
        bool fits = type.shape().dim_size() == tensor.dims_size();
        for (int i = 0; fits && i < tensor.dims_size(); ++i) {
          const auto &dim = type.shape().dim(i);
          fits = !dim.has_dim_value() || dim.dim_value() == tensor.dims(i);
        }
        if (!fits) {
          std::string dims;
          for (int64_t d : tensor.dims()) {
            dims += (dims.empty() ? "" : "x") + std::to_string(d);
          }
          return makeError(file, "",
                           "holds a tensor of shape [" + dims +
                               "] that does not fit input '" + name +
                               "''s declared shape");
        }
      }
    }
    tensor.set_name(name.str());
    *graph.add_initializer() = std::move(tensor);
    graph.mutable_input()->DeleteSubrange(index, 1);
  }
  return Error::success();
}

Expected<std::string> readOnnxExternalData(const onnx::TensorProto &tensor,
                                           StringRef modelDir,
                                           StringRef modelPath,
                                           const ReadLimits &limits) {
  StringRef name = tensor.name();
  std::string location;
  int64_t offset = 0, length = -1;
  for (const onnx::StringStringEntryProto &entry : tensor.external_data()) {
    if (entry.key() == "location") {
      location = entry.value();
    } else if (entry.key() == "offset" || entry.key() == "length") {
      int64_t value;
      if (StringRef(entry.value()).getAsInteger(10, value) || value < 0) {
        return makeError(modelPath, name,
                         "external data " + entry.key() + " '" + entry.value() +
                             "' is not a non-negative integer");
      }
      (entry.key() == "offset" ? offset : length) = value;
    }
  }
  if (location.empty()) {
    return makeError(modelPath, name, "external data has no location");
  }
  // Refuse anything that could name a file outside the model's directory
  // before touching the file system.
  if (sys::path::is_absolute(location) || sys::path::has_root_name(location) ||
      location.find('\0') != std::string::npos) {
    return makeError(modelPath, name,
                     "external data location '" + location +
                         "' is absolute; it must be relative to the model's "
                         "directory");
  }
  for (auto it = sys::path::begin(location), e = sys::path::end(location);
       it != e; ++it) {
    if (*it == "..") {
      return makeError(modelPath, name,
                       "external data location '" + location +
                           "' contains '..'; it must stay inside the model's "
                           "directory");
    }
  }
  SmallString<256> dirReal, fileReal, joined(modelDir.empty() ? "." : modelDir);
  sys::path::append(joined, location);
  if (std::error_code ec =
          sys::fs::real_path(modelDir.empty() ? "." : modelDir, dirReal)) {
    return makeError(modelPath, name,
                     "cannot resolve the model directory: " + ec.message());
  }
  if (std::error_code ec = sys::fs::real_path(joined, fileReal)) {
    return makeError(modelPath, name,
                     "cannot open external data '" + location +
                         "': " + ec.message());
  }
  // Symbolic links are resolved: the target itself must be inside.
  SmallString<256> dirPrefix(dirReal);
  if (!dirPrefix.ends_with("/")) {
    dirPrefix += "/";
  }
  if (!StringRef(fileReal).starts_with(dirPrefix)) {
    return makeError(modelPath, name,
                     "external data location '" + location + "' resolves to '" +
                         fileReal + "', outside the model's directory");
  }
  auto buffer = readFileBounded(fileReal, limits.maxExternalBytes);
  if (!buffer) {
    return makeError(modelPath, name, toString(buffer.takeError()));
  }
  uint64_t size = (*buffer)->getBufferSize();
  if (uint64_t(offset) > size ||
      (length >= 0 && uint64_t(length) > size - uint64_t(offset))) {
    return makeError(modelPath, name,
                     "external data [" + Twine(offset) + ", +" + Twine(length) +
                         ") lies outside '" + location + "' (" + Twine(size) +
                         " bytes)");
  }
  StringRef bytes = (*buffer)->getBuffer().drop_front(offset);
  if (length >= 0) {
    bytes = bytes.take_front(length);
  }
  return bytes.str();
}

} // namespace graphc::import
