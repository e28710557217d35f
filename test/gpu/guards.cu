// GPU validation corpus: guarded lanes: inactive lanes request nothing (rule 5).
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


// textbook: conflict-free (16 active lanes, 16 words in 16 banks)
__global__ void guardHalf(float *out)
{
  __shared__ float s[64];
  int tid = threadIdx.x;
  for (int i = tid; i < 64; i += blockDim.x)
    s[i] = i;
  __syncthreads();

  float acc = 0.0f;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    if (tid < 16)
      acc += s[tid];
    __syncthreads();
  }
  out[tid] = acc;
}

// textbook: conflict-free (16 active lanes at stride 2: words 0..30 in 16 distinct banks;
// the same read by all 32 lanes would be 2-way)
__global__ void guardHalfStride2(float *out)
{
  __shared__ float s[64];
  int tid = threadIdx.x;
  for (int i = tid; i < 64; i += blockDim.x)
    s[i] = i;
  __syncthreads();

  float acc = 0.0f;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    if (tid < 16)
      acc += s[2 * tid];
    __syncthreads();
  }
  out[tid] = acc;
}

// Block 64: warp 1 has no active lane. This probes how the hardware counts a warp whose lanes are all
// off (a predicated-off instruction may still count as a request, halving the measured ratio).
// textbook: 2-way (warp 0: 32 words at stride 2 in 16 banks)
__global__ void guardWholeWarp(float *out)
{
  __shared__ float s[64];
  int tid = threadIdx.x;
  for (int i = tid; i < 64; i += blockDim.x)
    s[i] = i;
  __syncthreads();

  float acc = 0.0f;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    if (tid < 32)
      acc += s[2 * tid];
    __syncthreads();
  }
  out[tid] = acc;
}

int main()
{
  float *out;
  CHECK(cudaMalloc(&out, 1024 * sizeof(float)));

  guardHalf<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  guardHalfStride2<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  guardWholeWarp<<<1, 64>>>(out);
  CHECK(cudaGetLastError());

  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(out));
  printf("guards: 3 kernels ran\n");
  return 0;
}
