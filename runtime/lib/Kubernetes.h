// Kubernetes.h: graph-run --emit-k8s, the manifests that run a job bundle on a
// Kubernetes cluster (an Indexed Job and a headless Service).
#ifndef GRAPHRT_LIB_KUBERNETES_H
#define GRAPHRT_LIB_KUBERNETES_H

#include "Status.h"

#include <string>
#include <vector>

namespace graphrt {

struct K8sOptions {
  std::string bundleDir; // the bundle on this machine (read and validated)
  std::string outDir;    // where job.json and service.json go
  std::string image;     // container image with graph-run and graph-worker
  std::string bundlePvc; // PersistentVolumeClaim holding the bundle ("" =
                         // "<name>-bundle")
  std::string outputPvc; // PersistentVolumeClaim the job writes to, mounted
                         // at /outputs ("" = "<name>-outputs")
  std::vector<std::string> runArgs; // graph-run flags for every pod
};

/// The image --emit-k8s names unless --image says otherwise: what
/// deploy/k8s/Dockerfile builds (deploy/k8s/stage.sh prints the command).
constexpr const char *kK8sDefaultImage = "graphc/graph-run:latest";
/// Where every pod mounts the outputs volume; rank 0 writes the outputs to
/// /outputs/<job> unless the run flags name an --output-dir.
constexpr const char *kK8sOutputsMount = "/outputs";

/// Ports inside each pod: rank 0's Launcher and every rank's worker.
constexpr int kK8sCoordinatorPort = 29400;
constexpr int kK8sWorkerPort = 29500;

/// "My_Job.v2" -> "my-job-v2": a DNS-1123 label short enough for pod names.
std::string k8sName(const std::string &jobName);

/// Writes outDir/job.json and outDir/service.json (JSON manifests kubectl
/// applies as is); *outName receives the Kubernetes name used.
Status emitKubernetes(const K8sOptions &opt, std::string *outName);

} // namespace graphrt

#endif // GRAPHRT_LIB_KUBERNETES_H
