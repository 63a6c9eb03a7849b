//===- ProtoParse.h - bounded protobuf parsing shared by the readers
//-------===//

#ifndef GRAPHC_LIB_IMPORT_PROTOPARSE_H
#define GRAPHC_LIB_IMPORT_PROTOPARSE_H

#include "graphc/Import/ModelFormat.h"

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/message_lite.h"

#include <climits>

namespace graphc::import {

/// Parses binary `data` into `message` under `limits`; fails with "PATH:
/// cannot parse WHAT: ..." when the bytes are not a valid encoding.
inline llvm::Error parseBinaryProto(llvm::StringRef data, llvm::StringRef path,
                                    llvm::StringRef what,
                                    const ReadLimits &limits,
                                    google::protobuf::MessageLite &message) {
  if (data.size() > uint64_t(INT_MAX)) {
    return makeError(path, "",
                     "file is " + llvm::Twine(data.size()) +
                         " bytes, over protobuf's 2 GiB message limit");
  }
  google::protobuf::io::CodedInputStream stream(
      reinterpret_cast<const uint8_t *>(data.data()), int(data.size()));
  stream.SetRecursionLimit(limits.maxRecursionDepth);
  stream.SetTotalBytesLimit(INT_MAX);
  if (!message.ParseFromCodedStream(&stream) ||
      !stream.ConsumedEntireMessage()) {
    return makeError(path, "",
                     "cannot parse " + what +
                         ": the file is truncated, corrupt or in another "
                         "format");
  }
  return llvm::Error::success();
}

} // namespace graphc::import

#endif // GRAPHC_LIB_IMPORT_PROTOPARSE_H
