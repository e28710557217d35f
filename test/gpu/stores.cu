// GPU validation corpus: stores: the instruction of interest is a shared store (marked `// measure: store`); the one load after the loop is of the other kind.
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


// textbook: conflict-free (32 words in 32 banks)
// measure: store
__global__ void storeUnit(float *out)
{
  __shared__ float s[64];
  int t = threadIdx.x;

#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    s[t] = it + t;
    __syncthreads();
  }
  out[t] = s[t];
}

// textbook: 2-way (32 words in 16 banks)
// measure: store
__global__ void storeStride2(float *out)
{
  __shared__ float s[64];
  int t = threadIdx.x;

#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    s[2 * t] = it + t;
    __syncthreads();
  }
  out[t] = s[t];
}

// textbook: conflict-free (all lanes write word 0: one write lands, 1 wavefront)
// measure: store
__global__ void storeSameWord(float *out)
{
  __shared__ float s[64];
  int t = threadIdx.x;

#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    s[0] = it + t;
    __syncthreads();
  }
  out[t] = s[t];
}

// textbook: conflict-free (32 bytes: 8 words, four lanes per word)
// measure: store
__global__ void storeChar(float *out)
{
  __shared__ char c[64];
  int t = threadIdx.x;

#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    c[t] = (char)(it + t);
    __syncthreads();
  }
  out[t] = c[t];
}

// textbook: conflict-free, 2 wavefronts = ideal (two half-warp phases)
// measure: store
__global__ void storeDouble(float *out)
{
  __shared__ double d[64];
  int t = threadIdx.x;

#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    d[t] = it + t;
    __syncthreads();
  }
  out[t] = (float)d[t];
}

// textbook: 2-way in each half-warp: 4 wavefronts (ideal 2)
// measure: store
__global__ void storeDoubleStride2(float *out)
{
  __shared__ double d[64];
  int t = threadIdx.x;

#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    d[2 * t] = it + t;
    __syncthreads();
  }
  out[t] = (float)d[t];
}

// textbook: conflict-free, 4 wavefronts = ideal (four quarter-warp phases)
// measure: store
__global__ void storeFloat4(float *out)
{
  __shared__ float4 q[64];
  int t = threadIdx.x;

#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    q[t] = make_float4(it, t, it + t, 1.0f);
    __syncthreads();
  }
  out[t] = q[t].x + q[t].y + q[t].z + q[t].w;
}

// textbook: 32-way (a warp writes one column: 32 words, all in bank ty)
// measure: store
__global__ void storeCol32x8(float *out)
{
  __shared__ float tile[32][32];
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int tid = ty * blockDim.x + tx;

#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    tile[tx][ty] = it + tid;
    __syncthreads();
  }
  out[tid] = tile[ty][tx];
}

// textbook: conflict-free (padded row of 33 words)
// measure: store
__global__ void storePadded32x8(float *out)
{
  __shared__ float tile[32][33];
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int tid = ty * blockDim.x + tx;

#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    tile[tx][ty] = it + tid;
    __syncthreads();
  }
  out[tid] = tile[ty][tx];
}

int main()
{
  float *out;
  CHECK(cudaMalloc(&out, 1024 * sizeof(float)));

  storeUnit<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  storeStride2<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  storeSameWord<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  storeChar<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  storeDouble<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  storeDoubleStride2<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  storeFloat4<<<1, 32>>>(out);
  CHECK(cudaGetLastError());

  dim3 block(32, 8);
  storeCol32x8<<<1, block>>>(out);
  CHECK(cudaGetLastError());
  storePadded32x8<<<1, block>>>(out);
  CHECK(cudaGetLastError());

  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(out));
  printf("stores: 9 kernels ran\n");
  return 0;
}
