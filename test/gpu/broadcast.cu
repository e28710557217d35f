// GPU validation corpus: broadcast and multicast: lanes that share a word never conflict (rule 1).
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


// textbook: broadcast (all 32 lanes read word 0: 1 wavefront)
__global__ void broadcastWord0(float *out)
{
  __shared__ float w[64];
  int t = threadIdx.x;
  w[t] = t;
  w[t + 32] = t + 32;
  __syncthreads();

  float acc = 0;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    acc += w[0];
    __syncthreads();
  }
  out[t] = acc;
}

// textbook: broadcast (all 32 lanes read word 37, bank 5: 1 wavefront)
__global__ void broadcastWord37(float *out)
{
  __shared__ float w[64];
  int t = threadIdx.x;
  w[t] = t;
  w[t + 32] = t + 32;
  __syncthreads();

  float acc = 0;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    acc += w[37];
    __syncthreads();
  }
  out[t] = acc;
}

// textbook: conflict-free multicast (lanes 2k and 2k+1 share word k: 16 words in 16 banks)
__global__ void multicastPairs(float *out)
{
  __shared__ float w[64];
  int t = threadIdx.x;
  w[t] = t;
  w[t + 32] = t + 32;
  __syncthreads();

  float acc = 0;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    acc += w[t / 2];
    __syncthreads();
  }
  out[t] = acc;
}

// textbook: conflict-free multicast (8 lanes per word, 4 words in banks 0..3)
__global__ void multicastQuads(float *out)
{
  __shared__ float w[64];
  int t = threadIdx.x;
  w[t] = t;
  w[t + 32] = t + 32;
  __syncthreads();

  float acc = 0;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    acc += w[t & 3];
    __syncthreads();
  }
  out[t] = acc;
}

// textbook: 2-way (two distinct words 0 and 32, both in bank 0, 16 lanes each)
__global__ void multicastSameBank(float *out)
{
  __shared__ float w[64];
  int t = threadIdx.x;
  w[t] = t;
  w[t + 32] = t + 32;
  __syncthreads();

  float acc = 0;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    acc += w[(t & 1) * 32];
    __syncthreads();
  }
  out[t] = acc;
}

// textbook: broadcast of an 8-byte word pair: 2 wavefronts = ideal (one per half-warp phase)
__global__ void broadcastDouble(float *out)
{
  __shared__ double d[64];
  int t = threadIdx.x;
  d[t] = t;
  d[t + 32] = t + 32;
  __syncthreads();

  double acc = 0;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    acc += d[0];
    __syncthreads();
  }
  out[t] = acc;
}

int main()
{
  float *out;
  CHECK(cudaMalloc(&out, 1024 * sizeof(float)));

  broadcastWord0<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  broadcastWord37<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  multicastPairs<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  multicastQuads<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  multicastSameBank<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  broadcastDouble<<<1, 32>>>(out);
  CHECK(cudaGetLastError());

  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(out));
  printf("broadcast: 6 kernels ran\n");
  return 0;
}
