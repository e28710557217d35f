// CM-306, the reference example of the bank model: 64 floats of shared memory
// (256 bytes allocated), read three ways by one warp.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void cm306(float *out)
{
  __shared__ float w[64];
  int t = threadIdx.x;

  w[t] = (float)t;
  w[t + 32] = (float)(t + 32);
  __syncthreads();

  float a = w[t];
  float b = w[2 * t];
  float c = w[0];

  out[t] = a + b + c;
}

int main()
{
  float *d_out;
  float h_out[32];
  cudaMalloc(&d_out, 32 * sizeof(float));

  cm306<<<1, 32>>>(d_out);

  cudaError_t err = cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    fprintf(stderr, "cm306: %s\n", cudaGetErrorString(err));
    return 1;
  }
  int ok = 1;
  for (int t = 0; t < 32; t++)
    ok &= h_out[t] == (float)(t + 2 * t + 0);
  printf("cm306: %s\n", ok ? "ok" : "FAILED");
  cudaFree(d_out);
  return ok ? 0 : 1;
}
