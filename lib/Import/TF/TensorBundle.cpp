//===- TensorBundle.cpp - read TensorFlow V2 checkpoints ------------------===//
//
// The SSTable layout (LevelDB's table format, which TensorFlow's
// core/lib/io/table uses unchanged):
//
//   [data block 0][trailer] ... [metaindex block][trailer][index
//   block][trailer] [footer: metaindex handle, index handle (varints), padding
//   to 40 bytes,
//            magic 0xdb4775248b80fb57 (8 bytes little-endian)]
//
// A block is a run of prefix-compressed entries (shared, unshared, value
// length as varints, then the key suffix and the value), an array of uint32
// restart offsets and their count. The 5-byte trailer gives the compression
// (0 none, 1 Snappy) and a checksum. The index block maps the last key of
// each data block to that block's handle.
//
//===----------------------------------------------------------------------===//

#include "graphc/Import/TF/TensorBundle.h"

#include "ProtoParse.h"

#include "tensorflow/tensor_bundle.pb.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Endian.h"

#include <cstdio>

using namespace llvm;

namespace graphc::import {

namespace {

constexpr uint64_t kTableMagic = 0xdb4775248b80fb57ull;
constexpr size_t kFooterSize = 48;
constexpr size_t kBlockTrailerSize = 5;

/// Reads a varint of at most 64 bits from the front of `data`.
bool readVarint(StringRef &data, uint64_t &value) {
  value = 0;
  for (unsigned shift = 0; shift < 64 && !data.empty(); shift += 7) {
    uint8_t byte = data.front();
    data = data.drop_front();
    value |= uint64_t(byte & 0x7f) << shift;
    if (!(byte & 0x80)) {
      return true;
    }
  }
  return false;
}

struct BlockHandle {
  uint64_t offset = 0, size = 0;
};

bool readHandle(StringRef &data, BlockHandle &handle) {
  return readVarint(data, handle.offset) && readVarint(data, handle.size);
}

/// Returns the (decompressed) contents of the block at `handle`.
Expected<std::string> readBlock(StringRef file, BlockHandle handle,
                                StringRef path) {
  if (handle.offset > file.size() ||
      handle.size > file.size() - handle.offset ||
      kBlockTrailerSize > file.size() - handle.offset - handle.size) {
    return makeError(path, "",
                     "table block at " + Twine(handle.offset) + " size " +
                         Twine(handle.size) + " lies outside the file");
  }
  StringRef contents = file.substr(handle.offset, handle.size);
  uint8_t compression = file[handle.offset + handle.size];
  if (compression == 0) {
    return contents.str();
  }
  if (compression == 1) {
    // A block never legitimately expands past the whole table times the
    // best Snappy ratio; bound it so a corrupt length cannot exhaust memory.
    auto out = decompressSnappy(contents, uint64_t(file.size()) * 64 + 4096);
    if (!out) {
      return makeError(path, "",
                       "table block at " + Twine(handle.offset) + ": " +
                           toString(out.takeError()));
    }
    return out;
  }
  return makeError(path, "",
                   "table block at " + Twine(handle.offset) +
                       " has unknown compression " + Twine(compression));
}

/// Appends the entries of one block to `entries`.
Error readBlockEntries(StringRef block, StringRef path,
                       std::vector<std::pair<std::string, std::string>> &out) {
  if (block.size() < 4) {
    return makeError(path, "", "table block is shorter than its restart count");
  }
  uint32_t numRestarts =
      support::endian::read32le(block.data() + block.size() - 4);
  if (uint64_t(numRestarts) * 4 + 4 > block.size()) {
    return makeError(path, "",
                     "table block claims " + Twine(numRestarts) +
                         " restarts, more than fit in " + Twine(block.size()) +
                         " bytes");
  }
  StringRef entries = block.take_front(block.size() - 4 - numRestarts * 4);
  std::string key;
  while (!entries.empty()) {
    uint64_t shared, unshared, valueSize;
    if (!readVarint(entries, shared) || !readVarint(entries, unshared) ||
        !readVarint(entries, valueSize)) {
      return makeError(path, "", "truncated table entry header");
    }
    if (shared > key.size() || unshared > entries.size() ||
        valueSize > entries.size() - unshared) {
      return makeError(path, "", "table entry lengths exceed its block");
    }
    key.resize(shared);
    key.append(entries.data(), unshared);
    entries = entries.drop_front(unshared);
    out.emplace_back(key, entries.take_front(valueSize).str());
    entries = entries.drop_front(valueSize);
  }
  return Error::success();
}

} // namespace

Expected<std::string> decompressSnappy(StringRef data, uint64_t maxBytes) {
  uint64_t length;
  if (!readVarint(data, length)) {
    return createStringError(inconvertibleErrorCode(),
                             "truncated snappy length");
  }
  if (length > maxBytes) {
    return createStringError(inconvertibleErrorCode(),
                             "snappy block claims " + Twine(length).str() +
                                 " bytes, over the limit");
  }
  std::string out;
  out.reserve(length);
  while (!data.empty()) {
    uint8_t tag = data.front();
    data = data.drop_front();
    uint64_t len = 0, offset = 0;
    switch (tag & 3) {
    case 0: { // literal
      len = tag >> 2;
      if (len >= 60) {
        unsigned bytes = len - 59;
        if (data.size() < bytes) {
          return createStringError(inconvertibleErrorCode(),
                                   "truncated snappy literal");
        }
        len = 0;
        for (unsigned i = 0; i < bytes; ++i) {
          len |= uint64_t(uint8_t(data[i])) << (8 * i);
        }
        data = data.drop_front(bytes);
      }
      len += 1;
      if (len > data.size() || out.size() + len > length) {
        return createStringError(inconvertibleErrorCode(),
                                 "snappy literal overruns its block");
      }
      out.append(data.data(), len);
      data = data.drop_front(len);
      continue;
    }
    case 1:
      if (data.empty()) {
        return createStringError(inconvertibleErrorCode(),
                                 "truncated snappy copy");
      }
      len = ((tag >> 2) & 7) + 4;
      offset = (uint64_t(tag >> 5) << 8) | uint8_t(data.front());
      data = data.drop_front();
      break;
    case 2:
      if (data.size() < 2) {
        return createStringError(inconvertibleErrorCode(),
                                 "truncated snappy copy");
      }
      len = (tag >> 2) + 1;
      offset = support::endian::read16le(data.data());
      data = data.drop_front(2);
      break;
    case 3:
      if (data.size() < 4) {
        return createStringError(inconvertibleErrorCode(),
                                 "truncated snappy copy");
      }
      len = (tag >> 2) + 1;
      offset = support::endian::read32le(data.data());
      data = data.drop_front(4);
      break;
    }
    if (offset == 0 || offset > out.size() || out.size() + len > length) {
      return createStringError(inconvertibleErrorCode(),
                               "snappy copy reaches outside its block");
    }
    // Copies may overlap their own output (run-length encoding).
    size_t from = out.size() - offset;
    for (uint64_t i = 0; i < len; ++i) {
      out.push_back(out[from + i]);
    }
  }
  if (out.size() != length) {
    return createStringError(inconvertibleErrorCode(),
                             "snappy block decodes to " +
                                 Twine(out.size()).str() + " bytes, not " +
                                 Twine(length).str());
  }
  return std::move(out);
}

Expected<std::vector<std::pair<std::string, std::string>>>
readSSTable(StringRef file, StringRef path) {
  if (file.size() < kFooterSize) {
    return makeError(path, "", "too short to be a table");
  }
  StringRef footer = file.take_back(kFooterSize);
  if (support::endian::read64le(footer.data() + 40) != kTableMagic) {
    return makeError(path, "", "not a table: bad magic number");
  }
  BlockHandle metaindex, index;
  if (!readHandle(footer, metaindex) || !readHandle(footer, index)) {
    return makeError(path, "", "corrupt table footer");
  }
  auto indexBlock = readBlock(file, index, path);
  if (!indexBlock) {
    return indexBlock.takeError();
  }
  std::vector<std::pair<std::string, std::string>> indexEntries;
  if (Error err = readBlockEntries(*indexBlock, path, indexEntries)) {
    return std::move(err);
  }
  std::vector<std::pair<std::string, std::string>> entries;
  for (auto &[lastKey, handleBytes] : indexEntries) {
    StringRef bytes = handleBytes;
    BlockHandle handle;
    if (!readHandle(bytes, handle)) {
      return makeError(path, "", "corrupt block handle in the table index");
    }
    auto block = readBlock(file, handle, path);
    if (!block) {
      return block.takeError();
    }
    if (Error err = readBlockEntries(*block, path, entries)) {
      return std::move(err);
    }
  }
  return std::move(entries);
}

Expected<TensorBundle> readTensorBundle(StringRef prefix,
                                        const ReadLimits &limits) {
  std::string indexPath = (prefix + ".index").str();
  auto indexFile = readFileBounded(indexPath, limits.maxFileBytes);
  if (!indexFile) {
    return indexFile.takeError();
  }
  auto entries = readSSTable((*indexFile)->getBuffer(), indexPath);
  if (!entries) {
    return entries.takeError();
  }
  if (entries->empty() || !entries->front().first.empty()) {
    return makeError(indexPath, "", "checkpoint index has no header entry");
  }
  tensorflow::BundleHeaderProto header;
  if (Error err = parseBinaryProto(entries->front().second, indexPath,
                                   "checkpoint header", limits, header)) {
    return std::move(err);
  }
  if (header.endianness() != tensorflow::BundleHeaderProto::LITTLE) {
    return makeError(indexPath, "", "big-endian checkpoints are not supported");
  }
  if (header.num_shards() <= 0 || header.num_shards() > 100000) {
    return makeError(indexPath, "",
                     "checkpoint claims " + Twine(header.num_shards()) +
                         " shards");
  }

  std::vector<std::unique_ptr<MemoryBuffer>> shards(header.num_shards());
  TensorBundle bundle;
  for (auto it = entries->begin() + 1; it != entries->end(); ++it) {
    const std::string &name = it->first;
    tensorflow::BundleEntryProto entry;
    if (Error err = parseBinaryProto(it->second, indexPath, "checkpoint entry",
                                     limits, entry)) {
      return makeError(indexPath, name, toString(std::move(err)));
    }
    BundleTensor tensor;
    tensor.dtype = entry.dtype();
    for (const auto &dim : entry.shape().dim()) {
      tensor.shape.push_back(dim.size());
    }
    if (entry.slices_size() > 0) {
      tensor.sliced = true;
      bundle.tensors.emplace(name, std::move(tensor));
      continue;
    }
    if (entry.shard_id() < 0 || entry.shard_id() >= header.num_shards()) {
      return makeError(indexPath, name,
                       "entry names shard " + Twine(entry.shard_id()) + " of " +
                           Twine(header.num_shards()));
    }
    std::unique_ptr<MemoryBuffer> &shard = shards[entry.shard_id()];
    if (!shard) {
      char suffix[64];
      std::snprintf(suffix, sizeof(suffix), ".data-%05d-of-%05d",
                    int(entry.shard_id()), int(header.num_shards()));
      std::string shardPath = (prefix + suffix).str();
      auto file = readFileBounded(shardPath, limits.maxFileBytes);
      if (!file) {
        return file.takeError();
      }
      shard = std::move(*file);
    }
    uint64_t size = shard->getBufferSize();
    if (entry.offset() < 0 || entry.size() < 0 ||
        uint64_t(entry.offset()) > size ||
        uint64_t(entry.size()) > size - uint64_t(entry.offset())) {
      return makeError(indexPath, name,
                       "entry bytes [" + Twine(entry.offset()) + ", +" +
                           Twine(entry.size()) + ") lie outside its " +
                           Twine(size) + "-byte shard");
    }
    tensor.data = shard->getBuffer().substr(entry.offset(), entry.size()).str();
    bundle.tensors.emplace(name, std::move(tensor));
  }
  return std::move(bundle);
}

} // namespace graphc::import
