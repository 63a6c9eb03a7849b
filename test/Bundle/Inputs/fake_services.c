/* fake_services.c: runs one step of a task library against a fake services
 * table and prints its descriptor and what the step called.
 *
 * usage: fake_services LIB.so [FAIL_AT [v1]]
 * Prints the descriptor's name, signature counts, channels and groups, then
 * runs the step: every service succeeds (filling outputs with 1s), except
 * that the FAIL_AT-th service call (1-based) returns a status the step must
 * hand back unchanged, after which no further service may be called but
 * the waits on collectives started before it. "v1": the table as it was
 * before all_reduce_start and wait were appended (struct_size ends at
 * `gpu`). */
#include "graphrt/graphrt.h"

#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int calls, failAt;
static const graphrt_status_t kFailure = (graphrt_status_t)0x5eed;

static graphrt_status_t service(const char *what, const char *key, void *out,
                                size_t bytes) {
  ++calls;
  printf("call %d: %s %s\n", calls, what, key ? key : "");
  if (out) {
    memset(out, 0, bytes);
  }
  return calls == failAt ? kFailure : GRAPHRT_OK;
}
static graphrt_status_t send_(graphrt_context_t *c, const char *key,
                              const graphrt_tensor_t *t) {
  return service("send", key, NULL, 0);
}
static graphrt_status_t recv_(graphrt_context_t *c, const char *key,
                              graphrt_tensor_t *t) {
  return service("recv", key, t->data, t->size_bytes);
}
static graphrt_status_t allReduce(graphrt_context_t *c, const char *g,
                                  graphrt_reduce_op_t op, graphrt_dtype_t d,
                                  const void *in, void *out, size_t n) {
  return service("all_reduce", g, out, n * graphrt_dtype_size(d));
}
/* all_reduce_start fills the output at once (the runtime would by the
 * wait); wait fails like any call at FAIL_AT. Started requests are
 * counted, so that the step must wait on each before it returns. */
static int inFlight;
static graphrt_status_t allReduceStart(graphrt_context_t *c, const char *g,
                                       graphrt_reduce_op_t op,
                                       graphrt_dtype_t d, const void *in,
                                       void *out, size_t n, uint64_t *request) {
  graphrt_status_t st =
      service("all_reduce_start", g, out, n * graphrt_dtype_size(d));
  *request = st == GRAPHRT_OK ? 1000 + (uint64_t)calls : 0;
  inFlight += st == GRAPHRT_OK;
  return st;
}
static graphrt_status_t wait_(graphrt_context_t *c, uint64_t request) {
  char id[32];
  snprintf(id, sizeof(id), "%llu", (unsigned long long)request);
  --inFlight;
  return service("wait", id, NULL, 0);
}
static void statusRelease(graphrt_status_t st) {
  if (st) {
    printf("  released a status\n");
  }
}
static graphrt_status_t allGather(graphrt_context_t *c, const char *g,
                                  graphrt_dtype_t d, const void *in, void *out,
                                  size_t n) {
  return service("all_gather", g, out, 2 * n * graphrt_dtype_size(d));
}
static graphrt_status_t reduceScatter(graphrt_context_t *c, const char *g,
                                      graphrt_reduce_op_t op, graphrt_dtype_t d,
                                      const void *in, void *out, size_t n) {
  return service("reduce_scatter", g, out, n * graphrt_dtype_size(d));
}
static graphrt_status_t broadcast(graphrt_context_t *c, const char *g,
                                  int32_t root, graphrt_dtype_t d, void *buf,
                                  size_t n) {
  printf("  root %d\n", root);
  return service("broadcast", g, NULL, 0);
}
static graphrt_status_t allToAll(graphrt_context_t *c, const char *g,
                                 graphrt_dtype_t d, const void *in, void *out,
                                 size_t n) {
  return service("all_to_all", g, out, 2 * n * graphrt_dtype_size(d));
}

static void release(graphrt_tensor_t *t, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    free(t[i].data);
  }
  free(t);
}

static graphrt_tensor_t *tensors(const graphrt_tensor_signature_t *sigs,
                                 size_t n) {
  graphrt_tensor_t *t = calloc(n ? n : 1, sizeof(graphrt_tensor_t));
  for (size_t i = 0; i < n; ++i) {
    size_t bytes = graphrt_dtype_size(sigs[i].dtype);
    for (int32_t d = 0; d < sigs[i].rank; ++d) {
      bytes *= (size_t)sigs[i].shape[d];
    }
    t[i].dtype = sigs[i].dtype;
    t[i].rank = sigs[i].rank;
    t[i].shape = sigs[i].shape;
    t[i].data = calloc(1, bytes ? bytes : 1);
    t[i].size_bytes = bytes;
  }
  return t;
}

int main(int argc, char **argv) {
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "%s\n", dlerror());
    return 2;
  }
  failAt = argc > 2 ? atoi(argv[2]) : 0;
  const graphrt_task_descriptor_v1_t *desc =
      dlsym(lib, GRAPHRT_TASK_DESCRIPTOR_SYMBOL);
  printf("task %s: %zu inputs, %zu outputs, %zu variables\n", desc->name,
         desc->num_inputs, desc->num_outputs, desc->num_variables);
  for (size_t i = 0; i < desc->num_channels; ++i) {
    const graphrt_channel_t *ch = &desc->channels[i];
    printf("channel %s %s %s dtype %d rank %d\n", ch->key,
           ch->direction == GRAPHRT_CHANNEL_SEND ? "to" : "from", ch->peer,
           ch->payload.dtype, ch->payload.rank);
  }
  for (size_t i = 0; i < desc->num_groups; ++i) {
    printf("group %s\n", desc->groups[i].name);
  }

  graphrt_services_v1_t services;
  memset(&services, 0, sizeof(services));
  services.struct_size = sizeof(services);
  services.send = send_;
  services.recv = recv_;
  services.all_reduce = allReduce;
  services.all_gather = allGather;
  services.reduce_scatter = reduceScatter;
  services.broadcast = broadcast;
  services.all_to_all = allToAll;
  services.all_reduce_start = allReduceStart;
  services.wait = wait_;
  services.status_release = statusRelease;
  if (argc > 3 && strcmp(argv[3], "v1") == 0) {
    services.struct_size =
        offsetof(graphrt_services_v1_t, gpu) + sizeof(services.gpu);
  }
  graphrt_tensor_t *in = tensors(desc->inputs, desc->num_inputs);
  graphrt_tensor_t *out = tensors(desc->outputs, desc->num_outputs);
  graphrt_tensor_t *vars = tensors(desc->variables, desc->num_variables);
  graphrt_status_t st =
      desc->step(NULL, &services, 0, in, desc->num_inputs, out,
                 desc->num_outputs, vars, desc->num_variables);
  if (inFlight != 0) {
    printf("%d started collectives not waited on\n", inFlight);
  }
  printf("status %s after %d calls\n",
         st == GRAPHRT_OK ? "ok"
         : st == kFailure ? "failure"
                          : "other",
         calls);
  release(in, desc->num_inputs);
  release(out, desc->num_outputs);
  release(vars, desc->num_variables);
  dlclose(lib);
  return 0;
}
