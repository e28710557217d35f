// Parallel reduction, after Mark Harris, "Optimizing Parallel Reduction in CUDA".
// Each kernel sums blockDim.x (or 2 * blockSize) ints per block into g_odata[blockIdx.x].
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                         \
  do {                                                                      \
    cudaError_t err_ = (call);                                              \
    if (err_ != cudaSuccess) {                                              \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                    \
              cudaGetErrorString(err_));                                    \
      exit(EXIT_FAILURE);                                                   \
    }                                                                       \
  } while (0)

// Reduction #1: interleaved addressing with divergent branching.
__global__ void reduce0(int *g_idata, int *g_odata)
{
  extern __shared__ int sdata[];

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = g_idata[i];
  __syncthreads();

  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }

  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// Reduction #2: interleaved addressing with a strided index and no divergence.
__global__ void reduce1(int *g_idata, int *g_odata)
{
  __shared__ int sdata[256];

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = g_idata[i];
  __syncthreads();

  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    int index = 2 * s * tid;
    if (index < blockDim.x) {
      sdata[index] += sdata[index + s];
    }
    __syncthreads();
  }

  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// Reduction #3: sequential addressing.
__global__ void reduce2(int *g_idata, int *g_odata)
{
  extern __shared__ int sdata[];

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = g_idata[i];
  __syncthreads();

  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }

  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// Warp-synchronous tail of reduce6 (the classic form; on Volta and newer,
// production code adds __syncwarp() between the steps).
__device__ void warpReduce(volatile int *sdata, unsigned int tid)
{
  sdata[tid] += sdata[tid + 32];
  sdata[tid] += sdata[tid + 16];
  sdata[tid] += sdata[tid + 8];
  sdata[tid] += sdata[tid + 4];
  sdata[tid] += sdata[tid + 2];
  sdata[tid] += sdata[tid + 1];
}

// Reduction #7: completely unrolled, several elements per thread.
template <unsigned int blockSize>
__global__ void reduce6(int *g_idata, int *g_odata, unsigned int n)
{
  extern __shared__ int sdata[];

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + tid;
  unsigned int gridSize = blockSize * 2 * gridDim.x;
  sdata[tid] = 0;

  while (i < n) {
    sdata[tid] += g_idata[i] + g_idata[i + blockSize];
    i += gridSize;
  }
  __syncthreads();

  if (blockSize >= 512) { if (tid < 256) { sdata[tid] += sdata[tid + 256]; } __syncthreads(); }
  if (blockSize >= 256) { if (tid < 128) { sdata[tid] += sdata[tid + 128]; } __syncthreads(); }
  if (blockSize >= 128) { if (tid < 64) { sdata[tid] += sdata[tid + 64]; } __syncthreads(); }

  if (tid < 32) warpReduce(sdata, tid);
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

static long long sumOf(const int *v, int n)
{
  long long s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  return s;
}

int main()
{
  const unsigned int n = 1 << 20;
  const int threads = 256;
  const int blocks = n / threads;
  const int blocks6 = 64;

  int *h_idata = (int *)malloc(n * sizeof(int));
  int *h_odata = (int *)malloc(blocks * sizeof(int));
  for (unsigned int i = 0; i < n; i++) h_idata[i] = (int)(i & 7);
  const long long expected = sumOf(h_idata, n);

  int *d_idata, *d_odata;
  CHECK(cudaMalloc(&d_idata, n * sizeof(int)));
  CHECK(cudaMalloc(&d_odata, blocks * sizeof(int)));
  CHECK(cudaMemcpy(d_idata, h_idata, n * sizeof(int), cudaMemcpyHostToDevice));

  reduce0<<<blocks, threads, threads * sizeof(int)>>>(d_idata, d_odata);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_odata, d_odata, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  printf("reduce0: %s\n", sumOf(h_odata, blocks) == expected ? "ok" : "FAILED");

  reduce1<<<blocks, threads>>>(d_idata, d_odata);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_odata, d_odata, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  printf("reduce1: %s\n", sumOf(h_odata, blocks) == expected ? "ok" : "FAILED");

  reduce2<<<blocks, threads, threads * sizeof(int)>>>(d_idata, d_odata);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_odata, d_odata, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  printf("reduce2: %s\n", sumOf(h_odata, blocks) == expected ? "ok" : "FAILED");

  dim3 grid(blocks6);
  reduce6<256><<<grid, 256, 256 * sizeof(int)>>>(d_idata, d_odata, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_odata, d_odata, blocks6 * sizeof(int), cudaMemcpyDeviceToHost));
  printf("reduce6<256>: %s\n", sumOf(h_odata, blocks6) == expected ? "ok" : "FAILED");

  CHECK(cudaFree(d_idata));
  CHECK(cudaFree(d_odata));
  free(h_idata);
  free(h_odata);
  return 0;
}
