// GPU validation corpus: reduction with interleaved addressing (Harris's reduce1), one kernel per step s.
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


// The read sdata[index + s] of
//   for (unsigned int s = 1; s < blockDim.x; s *= 2) {
//     int index = 2 * s * tid;
//     if (index < blockDim.x) sdata[index] += sdata[index + s];
//   }
// taken one step at a time: S is the step's s. Block 256. For S >= 4 only warp 0 has active lanes; if the
// hardware counts the other warps' (predicated-off) instructions as requests, they lower the measured ratio.
// textbook: 2, 4, 8, 8, 8, 4, 2, 1-way for S = 1, 2, 4, 8, 16, 32, 64, 128
template <unsigned int S>
__global__ void reduceInterleavedStep(float *out)
{
  __shared__ float sdata[256];
  unsigned int tid = threadIdx.x;
  sdata[tid] = tid;
  __syncthreads();

  float acc = 0.0f;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    unsigned int index = 2 * S * tid;
    if (index < blockDim.x)
      acc += sdata[index + S];
    __syncthreads();
  }
  out[tid] = acc;
}

int main()
{
  float *out;
  CHECK(cudaMalloc(&out, 1024 * sizeof(float)));

  reduceInterleavedStep<1><<<1, 256>>>(out);
  reduceInterleavedStep<2><<<1, 256>>>(out);
  reduceInterleavedStep<4><<<1, 256>>>(out);
  reduceInterleavedStep<8><<<1, 256>>>(out);
  reduceInterleavedStep<16><<<1, 256>>>(out);
  reduceInterleavedStep<32><<<1, 256>>>(out);
  reduceInterleavedStep<64><<<1, 256>>>(out);
  reduceInterleavedStep<128><<<1, 256>>>(out);
  CHECK(cudaGetLastError());

  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(out));
  printf("reduction: 8 kernels ran\n");
  return 0;
}
