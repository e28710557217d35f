// Matrix transpose through a shared-memory tile, in the style of NVIDIA's
// "An Efficient Matrix Transpose in CUDA C/C++" (Mark Harris).
//
// Each block transposes one TILE_DIM x TILE_DIM tile with TILE_DIM x BLOCK_ROWS
// threads, so every thread handles TILE_DIM / BLOCK_ROWS elements.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8

#define CHECK(call)                                                         \
  do {                                                                      \
    cudaError_t err_ = (call);                                              \
    if (err_ != cudaSuccess) {                                              \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                    \
              cudaGetErrorString(err_));                                    \
      exit(EXIT_FAILURE);                                                   \
    }                                                                       \
  } while (0)

// Coalesced reads and writes of global memory, but the tile is read by column.
__global__ void transposeNaiveTile(float *odata, const float *idata)
{
  __shared__ float tile[TILE_DIM][TILE_DIM];

  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  int width = gridDim.x * TILE_DIM;

  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];

  __syncthreads();

  x = blockIdx.y * TILE_DIM + threadIdx.x;  // transpose block offset
  y = blockIdx.x * TILE_DIM + threadIdx.y;

  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Same as above with one column of padding, so a column of the tile spans all 32 banks.
__global__ void transposeCoalesced(float *odata, const float *idata)
{
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];

  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  int width = gridDim.x * TILE_DIM;

  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];

  __syncthreads();

  x = blockIdx.y * TILE_DIM + threadIdx.x;  // transpose block offset
  y = blockIdx.x * TILE_DIM + threadIdx.y;

  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

static int check(const float *gold, const float *res, int n)
{
  for (int i = 0; i < n; i++)
    if (gold[i] != res[i]) return 0;
  return 1;
}

int main()
{
  const int nx = 1024;
  const int ny = 1024;
  const size_t bytes = nx * ny * sizeof(float);

  dim3 dimGrid(nx / TILE_DIM, ny / TILE_DIM, 1);
  dim3 dimBlock(TILE_DIM, BLOCK_ROWS, 1);

  float *h_idata = (float *)malloc(bytes);
  float *h_odata = (float *)malloc(bytes);
  float *gold = (float *)malloc(bytes);
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) {
      h_idata[j * nx + i] = (float)(j * nx + i);
      gold[i * ny + j] = h_idata[j * nx + i];
    }

  float *d_idata, *d_odata;
  CHECK(cudaMalloc(&d_idata, bytes));
  CHECK(cudaMalloc(&d_odata, bytes));
  CHECK(cudaMemcpy(d_idata, h_idata, bytes, cudaMemcpyHostToDevice));

  CHECK(cudaMemset(d_odata, 0, bytes));
  transposeNaiveTile<<<dimGrid, dimBlock>>>(d_odata, d_idata);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_odata, d_odata, bytes, cudaMemcpyDeviceToHost));
  printf("transposeNaiveTile: %s\n", check(gold, h_odata, nx * ny) ? "ok" : "FAILED");

  CHECK(cudaMemset(d_odata, 0, bytes));
  transposeCoalesced<<<dimGrid, dimBlock>>>(d_odata, d_idata);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_odata, d_odata, bytes, cudaMemcpyDeviceToHost));
  printf("transposeCoalesced: %s\n", check(gold, h_odata, nx * ny) ? "ok" : "FAILED");

  CHECK(cudaFree(d_idata));
  CHECK(cudaFree(d_odata));
  free(h_idata);
  free(h_odata);
  free(gold);
  return 0;
}
