// GPU validation corpus: CM-306, the bank model's reference example, one kernel per read.
//
// Corpus rules (scripts/validate-gpu.mjs relies on them): each kernel runs exactly ONE shared-memory
// instruction of interest per thread in a `#pragma unroll 1` loop of ITERS trips, with a
// __syncthreads() in the loop so the compiler can neither hoist nor merge it, and writes its result to
// global memory. The instruction of interest is a load unless the kernel is marked `// measure: store`;
// other shared instructions in the kernel are of the other kind, so the measured kind's
// wavefronts / requests is that one access's figure. One block per launch.
// `// textbook:` comments give the bank model's expectation, for people; nothing reads them as answers.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define ITERS 100

#define CHECK(call)                                                         \
  do {                                                                      \
    cudaError_t err_ = (call);                                              \
    if (err_ != cudaSuccess) {                                              \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                    \
              cudaGetErrorString(err_));                                    \
      exit(EXIT_FAILURE);                                                   \
    }                                                                       \
  } while (0)

// textbook: conflict-free (32 distinct words from 32 banks)
__global__ void cm306Unit(float *out)
{
  __shared__ float w[64];
  int t = threadIdx.x;
  w[t] = t;
  w[t + 32] = t + 32;
  __syncthreads();

  float acc = 0.0f;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    acc += w[t];
    __syncthreads();
  }
  out[t] = acc;
}

// textbook: 2-way (32 distinct words from 16 banks, two per bank)
__global__ void cm306Stride2(float *out)
{
  __shared__ float w[64];
  int t = threadIdx.x;
  w[t] = t;
  w[t + 32] = t + 32;
  __syncthreads();

  float acc = 0.0f;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    acc += w[2 * t];
    __syncthreads();
  }
  out[t] = acc;
}

// textbook: broadcast (1 word serves all 32 lanes)
__global__ void cm306Broadcast(float *out)
{
  __shared__ float w[64];
  int t = threadIdx.x;
  w[t] = t;
  w[t + 32] = t + 32;
  __syncthreads();

  float acc = 0.0f;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    acc += w[0];
    __syncthreads();
  }
  out[t] = acc;
}

int main()
{
  float *out;
  CHECK(cudaMalloc(&out, 1024 * sizeof(float)));

  cm306Unit<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  cm306Stride2<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  cm306Broadcast<<<1, 32>>>(out);
  CHECK(cudaGetLastError());

  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(out));
  printf("cm306: 3 kernels ran\n");
  return 0;
}
