// GPU validation corpus: 2-D blocks reading a 32x32 float tile by column, and the two classic fixes (padding, XOR swizzle).
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


// textbook: 16-way (a warp is two rows ty = 0, 1 of 16 lanes; each row's 16 words share one bank)
__global__ void tileCol16x16(float *out)
{
  __shared__ float tile[32][32];
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int tid = ty * blockDim.x + tx;
  for (int i = tid; i < 32 * 32; i += blockDim.x * blockDim.y)
    tile[i / 32][i % 32] = i;
  __syncthreads();

  float acc = 0.0f;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    acc += tile[tx][ty];
    __syncthreads();
  }
  out[tid] = acc;
}

// textbook: 32-way (a warp is one row ty: 32 words, all in bank ty)
__global__ void tileCol32x8(float *out)
{
  __shared__ float tile[32][32];
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int tid = ty * blockDim.x + tx;
  for (int i = tid; i < 32 * 32; i += blockDim.x * blockDim.y)
    tile[i / 32][i % 32] = i;
  __syncthreads();

  float acc = 0.0f;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    acc += tile[tx][ty];
    __syncthreads();
  }
  out[tid] = acc;
}

// textbook: 8-way (a warp is four rows ty of 8 lanes; each row's 8 words share one bank)
__global__ void tileCol8x32(float *out)
{
  __shared__ float tile[32][32];
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int tid = ty * blockDim.x + tx;
  for (int i = tid; i < 32 * 32; i += blockDim.x * blockDim.y)
    tile[i / 32][i % 32] = i;
  __syncthreads();

  float acc = 0.0f;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    acc += tile[tx][ty];
    __syncthreads();
  }
  out[tid] = acc;
}

// textbook: conflict-free (row read: 32 consecutive words)
__global__ void tileRow32x8(float *out)
{
  __shared__ float tile[32][32];
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int tid = ty * blockDim.x + tx;
  for (int i = tid; i < 32 * 32; i += blockDim.x * blockDim.y)
    tile[i / 32][i % 32] = i;
  __syncthreads();

  float acc = 0.0f;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    acc += tile[ty][tx];
    __syncthreads();
  }
  out[tid] = acc;
}

// textbook: conflict-free (padded row of 33 words: a column walks all 32 banks)
__global__ void tilePadded32x8(float *out)
{
  __shared__ float tile[32][33];
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int tid = ty * blockDim.x + tx;
  for (int i = tid; i < 32 * 32; i += blockDim.x * blockDim.y)
    tile[i / 32][i % 32] = i;
  __syncthreads();

  float acc = 0.0f;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    acc += tile[tx][ty];
    __syncthreads();
  }
  out[tid] = acc;
}

// textbook: conflict-free (XOR swizzle: lane tx reads bank ty ^ tx, a permutation of 0..31)
__global__ void tileSwizzle32x8(float *out)
{
  __shared__ float tile[32][32];
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int tid = ty * blockDim.x + tx;
  for (int i = tid; i < 32 * 32; i += blockDim.x * blockDim.y)
    tile[i / 32][i % 32] = i;
  __syncthreads();

  float acc = 0.0f;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    acc += tile[tx][ty ^ tx];
    __syncthreads();
  }
  out[tid] = acc;
}

int main()
{
  float *out;
  CHECK(cudaMalloc(&out, 1024 * sizeof(float)));

  dim3 block16x16(16, 16);
  dim3 block32x8(32, 8);
  dim3 block8x32(8, 32);

  tileCol16x16<<<1, block16x16>>>(out);
  CHECK(cudaGetLastError());
  tileCol32x8<<<1, block32x8>>>(out);
  CHECK(cudaGetLastError());
  tileCol8x32<<<1, block8x32>>>(out);
  CHECK(cudaGetLastError());
  tileRow32x8<<<1, block32x8>>>(out);
  CHECK(cudaGetLastError());
  tilePadded32x8<<<1, block32x8>>>(out);
  CHECK(cudaGetLastError());
  tileSwizzle32x8<<<1, dim3(32, 8)>>>(out);
  CHECK(cudaGetLastError());

  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(out));
  printf("tile2d: 6 kernels ran\n");
  return 0;
}
