/* batch_harness.c: calls a dynamic-batch task's step with an input batch and an
 * output batch given on the command line. */
/* Usage: batch_harness TASK.so IN_BATCH OUT_BATCH. Every input and output
 * of the task is batched (-1 in dimension 0) or static; the batched ones get
 * IN_BATCH (inputs) or OUT_BATCH (outputs) samples of zeros. Prints "ok" or
 * the message of the status the step returned, so a test can see the task
 * itself refuse an output the runtime did not size with the input's batch. */
#include "graphrt/graphrt.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char message[512];

static graphrt_status_t statusCreate(graphrt_status_code_t code,
                                     const char *m) {
  snprintf(message, sizeof(message), "status %d: %s", (int)code, m ? m : "");
  return (graphrt_status_t)message;
}

static void fill(const graphrt_tensor_signature_t *sigs, size_t n,
                 int64_t batch, graphrt_tensor_t *t, int64_t (*shapes)[8]) {
  for (size_t i = 0; i < n; ++i) {
    size_t bytes = graphrt_dtype_size(sigs[i].dtype);
    for (int32_t d = 0; d < sigs[i].rank && d < 8; ++d) {
      shapes[i][d] = sigs[i].shape[d] < 0 ? batch : sigs[i].shape[d];
      bytes *= (size_t)shapes[i][d];
    }
    t[i].dtype = sigs[i].dtype;
    t[i].rank = sigs[i].rank;
    t[i].shape = shapes[i];
    t[i].data = calloc(bytes ? bytes : 1, 1);
    t[i].size_bytes = bytes;
  }
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s TASK.so IN_BATCH OUT_BATCH\n", argv[0]);
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  const graphrt_task_descriptor_v1_t *desc =
      dlsym(lib, GRAPHRT_TASK_DESCRIPTOR_SYMBOL);
  if (!desc || desc->num_inputs > 8 || desc->num_outputs > 8 ||
      desc->num_variables > 8) {
    fprintf(stderr, "no descriptor, or more than 8 tensors\n");
    return 1;
  }
  graphrt_services_v1_t services;
  memset(&services, 0, sizeof(services));
  services.struct_size = sizeof(services);
  services.status_create = statusCreate;
  graphrt_tensor_t in[8], out[8], vars[8];
  int64_t inShapes[8][8], outShapes[8][8], varShapes[8][8];
  fill(desc->inputs, desc->num_inputs, atoll(argv[2]), in, inShapes);
  fill(desc->outputs, desc->num_outputs, atoll(argv[3]), out, outShapes);
  fill(desc->variables, desc->num_variables, 0, vars, varShapes);
  graphrt_status_t st =
      desc->step(NULL, &services, 0, in, desc->num_inputs, out,
                 desc->num_outputs, vars, desc->num_variables);
  printf("%s\n", st ? (const char *)st : "ok");
  return 0;
}
