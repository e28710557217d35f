// GPU validation corpus: arrays of structs: one float member read at the struct's stride.
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

struct Vec3 {
  float x, y, z;
};

struct Pair {
  float a, b;
};

// textbook: conflict-free (stride 3 words; 3 is odd)
__global__ void vec3X(float *out)
{
  __shared__ Vec3 v[32];
  int t = threadIdx.x;
  v[t].x = t;
  v[t].y = 2 * t;
  v[t].z = 3 * t;
  __syncthreads();

  float acc = 0.0f;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    acc += v[t].x;
    __syncthreads();
  }
  out[t] = acc;
}

// textbook: conflict-free (stride 3 words from word 2)
__global__ void vec3Z(float *out)
{
  __shared__ Vec3 v[32];
  int t = threadIdx.x;
  v[t].x = t;
  v[t].y = 2 * t;
  v[t].z = 3 * t;
  __syncthreads();

  float acc = 0.0f;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    acc += v[t].z;
    __syncthreads();
  }
  out[t] = acc;
}

// textbook: 2-way (stride 2 words: 32 words in 16 banks)
__global__ void pairA(float *out)
{
  __shared__ Pair p[32];
  int t = threadIdx.x;
  p[t].a = t;
  p[t].b = 2 * t;
  __syncthreads();

  float acc = 0.0f;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    acc += p[t].a;
    __syncthreads();
  }
  out[t] = acc;
}

// textbook: 2-way (stride 2 words from word 1)
__global__ void pairB(float *out)
{
  __shared__ Pair p[32];
  int t = threadIdx.x;
  p[t].a = t;
  p[t].b = 2 * t;
  __syncthreads();

  float acc = 0.0f;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    acc += p[t].b;
    __syncthreads();
  }
  out[t] = acc;
}

int main()
{
  float *out;
  CHECK(cudaMalloc(&out, 1024 * sizeof(float)));

  vec3X<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  vec3Z<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  pairA<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  pairB<<<1, 32>>>(out);
  CHECK(cudaGetLastError());

  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(out));
  printf("structs: 4 kernels ran\n");
  return 0;
}
