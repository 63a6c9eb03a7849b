// Kubernetes.cpp: the manifests of --emit-k8s, built as protobuf Structs so the
// JSON is well-formed whatever the names hold.
#include "Kubernetes.h"

#include "Manifest.h"
#include "Security.h"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include <sys/stat.h>

#include <fstream>
#include <initializer_list>
#include <utility>

namespace graphrt {
namespace {

using google::protobuf::ListValue;
using google::protobuf::Struct;
using google::protobuf::Value;

Value str(const std::string &s) {
  Value v;
  v.set_string_value(s);
  return v;
}
Value num(double d) {
  Value v;
  v.set_number_value(d);
  return v;
}
Value boolean(bool b) {
  Value v;
  v.set_bool_value(b);
  return v;
}
Value obj(std::initializer_list<std::pair<const char *, Value>> fields) {
  Value v;
  for (const auto &[k, f] : fields) {
    (*v.mutable_struct_value()->mutable_fields())[k] = f;
  }
  return v;
}
Value list(std::initializer_list<Value> items) {
  Value v;
  for (const Value &i : items) {
    *v.mutable_list_value()->add_values() = i;
  }
  return v;
}
Value envVar(const std::string &name, const std::string &value) {
  return obj({{"name", str(name)}, {"value", str(value)}});
}

Status writeJson(const std::string &path, const Value &v) {
  google::protobuf::util::JsonPrintOptions o;
  o.add_whitespace = true;
  o.preserve_proto_field_names = true;
  std::string json;
  auto st =
      google::protobuf::util::MessageToJsonString(v.struct_value(), &json, o);
  if (!st.ok()) {
    return Status(GRAPHRT_STATUS_INTERNAL, std::string(st.message()));
  }
  std::ofstream out(path);
  out << json;
  out.close();
  if (!out) {
    return Status(GRAPHRT_STATUS_UNAVAILABLE, "cannot write '" + path + "'");
  }
  return Status::ok();
}

} // namespace

std::string k8sName(const std::string &jobName) {
  std::string s;
  for (char c : jobName) {
    if (c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c - 'A' + 'a');
    }
    bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (ok) {
      s += c;
    } else if (!s.empty() && s.back() != '-') {
      s += '-';
    }
  }
  // Pod hostnames are "<job>-<index>" and must fit 63 characters.
  if (s.size() > 50) {
    s.resize(50);
  }
  while (!s.empty() && s.back() == '-') {
    s.pop_back();
  }
  if (s.empty() || !(s[0] >= 'a' && s[0] <= 'z')) {
    s = "job-" + s;
  }
  while (s.back() == '-') {
    s.pop_back();
  }
  return s;
}

Status emitKubernetes(const K8sOptions &opt, std::string *outName) {
  Bundle bundle;
  GRAPHRT_RETURN_IF_ERROR(readBundle(opt.bundleDir, &bundle));
  const std::string name =
      k8sName(bundle.manifest.name().empty() ? std::string("job")
                                             : bundle.manifest.name());
  *outName = name;
  const int tasks = bundle.manifest.tasks_size();
  std::string dir = opt.bundleDir;
  while (dir.size() > 1 && dir.back() == '/') {
    dir.pop_back();
  }
  const std::string base = dir.substr(dir.rfind('/') + 1);
  const std::string mountedBundle = "/bundle/" + base;
  const std::string pvc =
      opt.bundlePvc.empty() ? name + "-bundle" : opt.bundlePvc;
  const std::string outputPvc =
      opt.outputPvc.empty() ? name + "-outputs" : opt.outputPvc;

  Value args = list({});
  bool hasOutputDir = false;
  for (const std::string &a : opt.runArgs) {
    *args.mutable_list_value()->add_values() = str(a);
    hasOutputDir =
        hasOutputDir || a == "--output-dir" || a.rfind("--output-dir=", 0) == 0;
  }
  // A pod's own filesystem goes with the pod: without a directory of the
  // user's, the outputs land on the outputs volume.
  if (!hasOutputDir) {
    *args.mutable_list_value()->add_values() = str("--output-dir");
    *args.mutable_list_value()->add_values() =
        str(std::string(kK8sOutputsMount) + "/" + name);
  }
  *args.mutable_list_value()->add_values() = str(mountedBundle);

  Value labels = obj({{"app.kubernetes.io/name", str("graph-run")},
                      {"graphc.dev/job", str(name)}});
  Value container = obj({
      {"name", str("graph-run")},
      {"image", str(opt.image)},
      {"command", list({str("graph-run")})},
      {"args", args},
      {"env",
       list({envVar("GRAPHRT_WORLD_SIZE", std::to_string(tasks)),
             envVar("MASTER_ADDR", name + "-0." + name),
             envVar("MASTER_PORT", std::to_string(kK8sCoordinatorPort)),
             envVar("GRAPHRT_LISTEN",
                    "0.0.0.0:" + std::to_string(kK8sWorkerPort)),
             envVar("GRAPHRT_SUBDOMAIN", name),
             obj({{"name", str(kTokenEnv)},
                  {"valueFrom",
                   obj({{"secretKeyRef", obj({{"name", str(name + "-token")},
                                              {"key", str("token")}})}})}})})},
      {"ports", list({obj({{"name", str("coordinator")},
                           {"containerPort", num(kK8sCoordinatorPort)}}),
                      obj({{"name", str("worker")},
                           {"containerPort", num(kK8sWorkerPort)}})})},
      {"volumeMounts", list({obj({{"name", str("bundle")},
                                  {"mountPath", str("/bundle")},
                                  {"readOnly", boolean(true)}}),
                             obj({{"name", str("outputs")},
                                  {"mountPath", str(kK8sOutputsMount)}})})},
  });
  Value job = obj({
      {"apiVersion", str("batch/v1")},
      {"kind", str("Job")},
      {"metadata", obj({{"name", str(name)}, {"labels", labels}})},
      {"spec",
       obj({{"completionMode", str("Indexed")},
            {"completions", num(tasks)},
            {"parallelism", num(tasks)},
            {"backoffLimit", num(0)},
            {"template",
             obj({{"metadata", obj({{"labels", labels}})},
                  {"spec",
                   obj({{"subdomain", str(name)},
                        {"restartPolicy", str("Never")},
                        {"containers", list({container})},
                        {"volumes",
                         list({obj({{"name", str("bundle")},
                                    {"persistentVolumeClaim",
                                     obj({{"claimName", str(pvc)},
                                          {"readOnly", boolean(true)}})}}),
                               obj({{"name", str("outputs")},
                                    {"persistentVolumeClaim",
                                     obj({{"claimName",
                                           str(outputPvc)}})}})})}})}})}})},
  });
  Value service = obj({
      {"apiVersion", str("v1")},
      {"kind", str("Service")},
      {"metadata", obj({{"name", str(name)}, {"labels", labels}})},
      {"spec", obj({{"clusterIP", str("None")},
                    {"publishNotReadyAddresses", boolean(true)},
                    {"selector", obj({{"graphc.dev/job", str(name)}})},
                    {"ports", list({obj({{"name", str("coordinator")},
                                         {"port", num(kK8sCoordinatorPort)}}),
                                    obj({{"name", str("worker")},
                                         {"port", num(kK8sWorkerPort)}})})}})},
  });
  ::mkdir(opt.outDir.c_str(), 0755);
  GRAPHRT_RETURN_IF_ERROR(writeJson(opt.outDir + "/job.json", job));
  GRAPHRT_RETURN_IF_ERROR(writeJson(opt.outDir + "/service.json", service));
  return Status::ok();
}

} // namespace graphrt
