// GPU validation corpus: element sizes 1, 2, 4, 8 and 16 bytes (char, short, float, double and float2, float4) at stride 1 and 2 elements.
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

// textbook: conflict-free (32 bytes: 8 words, lanes in one word share it)
__global__ void charStride1(float *out)
{
  __shared__ char c[64];
  int t = threadIdx.x;
  for (int i = t; i < 64; i += 32)
    c[i] = (char)i;
  __syncthreads();

  int acc = 0;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    char x = c[t];
    acc += x;
    __syncthreads();
  }
  out[t] = acc;
}

// textbook: conflict-free (64 bytes: 16 words in 16 banks)
__global__ void charStride2(float *out)
{
  __shared__ char c[64];
  int t = threadIdx.x;
  for (int i = t; i < 64; i += 32)
    c[i] = (char)i;
  __syncthreads();

  int acc = 0;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    char x = c[2 * t];
    acc += x;
    __syncthreads();
  }
  out[t] = acc;
}

// textbook: conflict-free (64 bytes: 16 words, two lanes per word)
__global__ void shortStride1(float *out)
{
  __shared__ short h[64];
  int t = threadIdx.x;
  for (int i = t; i < 64; i += 32)
    h[i] = (short)i;
  __syncthreads();

  int acc = 0;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    short x = h[t];
    acc += x;
    __syncthreads();
  }
  out[t] = acc;
}

// textbook: conflict-free (32 words in 32 banks)
__global__ void shortStride2(float *out)
{
  __shared__ short h[64];
  int t = threadIdx.x;
  for (int i = t; i < 64; i += 32)
    h[i] = (short)i;
  __syncthreads();

  int acc = 0;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    short x = h[2 * t];
    acc += x;
    __syncthreads();
  }
  out[t] = acc;
}

// textbook: conflict-free (32 words in 32 banks)
__global__ void floatStride1(float *out)
{
  __shared__ float f[64];
  int t = threadIdx.x;
  for (int i = t; i < 64; i += 32)
    f[i] = i;
  __syncthreads();

  float acc = 0.0f;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    float x = f[t];
    acc += x;
    __syncthreads();
  }
  out[t] = acc;
}

// textbook: 2-way (32 words in 16 banks)
__global__ void floatStride2(float *out)
{
  __shared__ float f[64];
  int t = threadIdx.x;
  for (int i = t; i < 64; i += 32)
    f[i] = i;
  __syncthreads();

  float acc = 0.0f;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    float x = f[2 * t];
    acc += x;
    __syncthreads();
  }
  out[t] = acc;
}

// textbook: conflict-free, 2 wavefronts = ideal (two half-warp phases of 32 words each)
__global__ void doubleStride1(float *out)
{
  __shared__ double d[64];
  int t = threadIdx.x;
  for (int i = t; i < 64; i += 32)
    d[i] = i;
  __syncthreads();

  double acc = 0.0;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    double x = d[t];
    acc += x;
    __syncthreads();
  }
  out[t] = acc;
}

// textbook: 2-way in each half-warp: 4 wavefronts (ideal 2)
__global__ void doubleStride2(float *out)
{
  __shared__ double d[64];
  int t = threadIdx.x;
  for (int i = t; i < 64; i += 32)
    d[i] = i;
  __syncthreads();

  double acc = 0.0;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    double x = d[2 * t];
    acc += x;
    __syncthreads();
  }
  out[t] = acc;
}

// textbook: conflict-free, 2 wavefronts = ideal (two half-warp phases)
__global__ void float2Stride1(float *out)
{
  __shared__ float2 v[64];
  int t = threadIdx.x;
  for (int i = t; i < 64; i += 32)
    v[i] = make_float2(i, -i);
  __syncthreads();

  float acc = 0.0f;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    float2 x = v[t];
    acc += x.x + x.y;
    __syncthreads();
  }
  out[t] = acc;
}

// textbook: 2-way in each half-warp: 4 wavefronts (ideal 2)
__global__ void float2Stride2(float *out)
{
  __shared__ float2 v[64];
  int t = threadIdx.x;
  for (int i = t; i < 64; i += 32)
    v[i] = make_float2(i, -i);
  __syncthreads();

  float acc = 0.0f;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    float2 x = v[2 * t];
    acc += x.x + x.y;
    __syncthreads();
  }
  out[t] = acc;
}

// textbook: conflict-free, 4 wavefronts = ideal (four quarter-warp phases)
__global__ void float4Stride1(float *out)
{
  __shared__ float4 q[64];
  int t = threadIdx.x;
  for (int i = t; i < 64; i += 32)
    q[i] = make_float4(i, -i, 2 * i, 1);
  __syncthreads();

  float acc = 0.0f;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    float4 x = q[t];
    acc += x.x + x.y + x.z + x.w;
    __syncthreads();
  }
  out[t] = acc;
}

// textbook: 2-way in each quarter-warp: 8 wavefronts (ideal 4)
__global__ void float4Stride2(float *out)
{
  __shared__ float4 q[64];
  int t = threadIdx.x;
  for (int i = t; i < 64; i += 32)
    q[i] = make_float4(i, -i, 2 * i, 1);
  __syncthreads();

  float acc = 0.0f;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    float4 x = q[2 * t];
    acc += x.x + x.y + x.z + x.w;
    __syncthreads();
  }
  out[t] = acc;
}

// textbook: conflict-free, 4 wavefronts = ideal (a float array read as float4, the usual vectorised load)
__global__ void float4Cast(float *out)
{
  __shared__ __align__(16) float smem[256];
  int t = threadIdx.x;
  for (int i = t; i < 256; i += 32)
    smem[i] = i;
  __syncthreads();

  float acc = 0.0f;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    float4 q = reinterpret_cast<const float4 *>(smem)[t];
    acc += q.x + q.y + q.z + q.w;
    __syncthreads();
  }
  out[t] = acc;
}

int main()
{
  float *out;
  CHECK(cudaMalloc(&out, 1024 * sizeof(float)));

  charStride1<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  charStride2<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  shortStride1<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  shortStride2<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  floatStride1<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  floatStride2<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  doubleStride1<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  doubleStride2<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  float2Stride1<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  float2Stride2<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  float4Stride1<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  float4Stride2<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  float4Cast<<<1, 32>>>(out);
  CHECK(cudaGetLastError());

  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(out));
  printf("elem_size: 13 kernels ran\n");
  return 0;
}
