// Tiled matrix multiplication C = A * B through shared memory, in the style of the
// CUDA samples' matrixMul: each block computes one BLOCK_SIZE x BLOCK_SIZE tile of C.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define BLOCK_SIZE 32

// wA is A's width and wB is B's width (both multiples of BLOCK_SIZE).
__global__ void matrixMul(float *C, const float *A, const float *B, int wA, int wB)
{
  int bx = blockIdx.x;
  int by = blockIdx.y;
  int tx = threadIdx.x;
  int ty = threadIdx.y;

  int aBegin = wA * BLOCK_SIZE * by;  // first tile of A processed by the block
  int aEnd = aBegin + wA - 1;         // last tile of A
  int aStep = BLOCK_SIZE;
  int bBegin = BLOCK_SIZE * bx;       // first tile of B
  int bStep = BLOCK_SIZE * wB;

  float Csub = 0;

  for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];

    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];
    __syncthreads();

#pragma unroll
    for (int k = 0; k < BLOCK_SIZE; ++k)
      Csub += As[ty][k] * Bs[k][tx];

    __syncthreads();
  }

  int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
  C[c + wB * ty + tx] = Csub;
}

int main()
{
  const int hA = 8 * BLOCK_SIZE, wA = 10 * BLOCK_SIZE, wB = 6 * BLOCK_SIZE;
  const size_t sizeA = hA * wA, sizeB = wA * wB, sizeC = hA * wB;

  float *h_A = (float *)malloc(sizeA * sizeof(float));
  float *h_B = (float *)malloc(sizeB * sizeof(float));
  float *h_C = (float *)malloc(sizeC * sizeof(float));
  for (size_t i = 0; i < sizeA; i++) h_A[i] = 1.0f;
  for (size_t i = 0; i < sizeB; i++) h_B[i] = 0.01f;

  float *d_A, *d_B, *d_C;
  cudaMalloc(&d_A, sizeA * sizeof(float));
  cudaMalloc(&d_B, sizeB * sizeof(float));
  cudaMalloc(&d_C, sizeC * sizeof(float));
  cudaMemcpy(d_A, h_A, sizeA * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_B, h_B, sizeB * sizeof(float), cudaMemcpyHostToDevice);

  dim3 threads(BLOCK_SIZE, BLOCK_SIZE);
  dim3 grid(wB / threads.x, hA / threads.y);
  matrixMul<<<grid, threads>>>(d_C, d_A, d_B, wA, wB);

  cudaError_t err = cudaMemcpy(h_C, d_C, sizeC * sizeof(float), cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    fprintf(stderr, "matrixMul: %s\n", cudaGetErrorString(err));
    return 1;
  }
  int ok = 1;
  for (size_t i = 0; i < sizeC; i++) {
    float diff = h_C[i] - wA * 0.01f;
    if (diff > 1e-3f || diff < -1e-3f) { ok = 0; break; }
  }
  printf("matrixMul: %s\n", ok ? "ok" : "FAILED");

  cudaFree(d_A);
  cudaFree(d_B);
  cudaFree(d_C);
  free(h_A);
  free(h_B);
  free(h_C);
  return ok ? 0 : 1;
}
