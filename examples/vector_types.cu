// Element sizes other than 4 bytes, and arrays of structs, read by one warp.
#include <cstdio>
#include <cuda_runtime.h>

struct Vec3 {
  float x, y, z;
};

struct Pair {
  float a, b;
};

__global__ void vectorTypes(float *out)
{
  __shared__ double d[64];
  __shared__ Vec3 v[32];
  __shared__ Pair p[32];
  __shared__ __align__(16) float smem[128];
  __shared__ char c[32];

  int t = threadIdx.x;

  d[t] = t;
  d[t + 32] = t + 32;
  v[t].x = t;
  v[t].y = 0.0f;
  v[t].z = 0.0f;
  p[t].a = t;
  p[t].b = 0.0f;
  for (int i = t; i < 128; i += blockDim.x)
    smem[i] = i;
  c[t] = (char)t;
  __syncthreads();

  double dd = d[2 * t];
  float vx = v[t].x;
  float pa = p[t].a;
  float4 q = reinterpret_cast<float4 *>(smem)[t];
  char ch = c[t];

  out[t] = (float)dd + vx + pa + (q.x + q.y + q.z + q.w) + ch;
}

int main()
{
  float *d_out;
  float h_out[32];
  cudaMalloc(&d_out, sizeof(h_out));

  vectorTypes<<<1, 32>>>(d_out);

  cudaError_t err = cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    fprintf(stderr, "vectorTypes: %s\n", cudaGetErrorString(err));
    return 1;
  }
  int ok = 1;
  for (int t = 0; t < 32; t++) {
    float expect = 2 * t + t + t + (4 * t + 4 * t + 1 + 4 * t + 2 + 4 * t + 3) + t;
    ok &= h_out[t] == expect;
  }
  printf("vectorTypes: %s\n", ok ? "ok" : "FAILED");
  cudaFree(d_out);
  return ok ? 0 : 1;
}
