// GPU validation corpus: 32-bit reads at stride S words, S = 1..64, one template instance (and one launch) per stride.
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


// textbook: degree gcd(S, 32) (rule 4); every odd S is conflict-free, S = 32 and 64 are 32-way
template <int S>
__global__ void strideFloat(float *out)
{
  __shared__ float s[32 * 64];
  int t = threadIdx.x;
  for (int i = t; i < 32 * 64; i += 32)
    s[i] = i;
  __syncthreads();

  float acc = 0.0f;
#pragma unroll 1
  for (int it = 0; it < ITERS; ++it) {
    acc += s[S * t];
    __syncthreads();
  }
  out[t] = acc;
}

int main()
{
  float *out;
  CHECK(cudaMalloc(&out, 1024 * sizeof(float)));

  strideFloat<1><<<1, 32>>>(out);
  strideFloat<2><<<1, 32>>>(out);
  strideFloat<3><<<1, 32>>>(out);
  strideFloat<4><<<1, 32>>>(out);
  strideFloat<5><<<1, 32>>>(out);
  strideFloat<6><<<1, 32>>>(out);
  strideFloat<7><<<1, 32>>>(out);
  strideFloat<8><<<1, 32>>>(out);
  strideFloat<9><<<1, 32>>>(out);
  strideFloat<10><<<1, 32>>>(out);
  strideFloat<11><<<1, 32>>>(out);
  strideFloat<12><<<1, 32>>>(out);
  strideFloat<13><<<1, 32>>>(out);
  strideFloat<14><<<1, 32>>>(out);
  strideFloat<15><<<1, 32>>>(out);
  strideFloat<16><<<1, 32>>>(out);
  strideFloat<17><<<1, 32>>>(out);
  strideFloat<18><<<1, 32>>>(out);
  strideFloat<19><<<1, 32>>>(out);
  strideFloat<20><<<1, 32>>>(out);
  strideFloat<21><<<1, 32>>>(out);
  strideFloat<22><<<1, 32>>>(out);
  strideFloat<23><<<1, 32>>>(out);
  strideFloat<24><<<1, 32>>>(out);
  strideFloat<25><<<1, 32>>>(out);
  strideFloat<26><<<1, 32>>>(out);
  strideFloat<27><<<1, 32>>>(out);
  strideFloat<28><<<1, 32>>>(out);
  strideFloat<29><<<1, 32>>>(out);
  strideFloat<30><<<1, 32>>>(out);
  strideFloat<31><<<1, 32>>>(out);
  strideFloat<32><<<1, 32>>>(out);
  strideFloat<33><<<1, 32>>>(out);
  strideFloat<34><<<1, 32>>>(out);
  strideFloat<35><<<1, 32>>>(out);
  strideFloat<36><<<1, 32>>>(out);
  strideFloat<37><<<1, 32>>>(out);
  strideFloat<38><<<1, 32>>>(out);
  strideFloat<39><<<1, 32>>>(out);
  strideFloat<40><<<1, 32>>>(out);
  strideFloat<41><<<1, 32>>>(out);
  strideFloat<42><<<1, 32>>>(out);
  strideFloat<43><<<1, 32>>>(out);
  strideFloat<44><<<1, 32>>>(out);
  strideFloat<45><<<1, 32>>>(out);
  strideFloat<46><<<1, 32>>>(out);
  strideFloat<47><<<1, 32>>>(out);
  strideFloat<48><<<1, 32>>>(out);
  strideFloat<49><<<1, 32>>>(out);
  strideFloat<50><<<1, 32>>>(out);
  strideFloat<51><<<1, 32>>>(out);
  strideFloat<52><<<1, 32>>>(out);
  strideFloat<53><<<1, 32>>>(out);
  strideFloat<54><<<1, 32>>>(out);
  strideFloat<55><<<1, 32>>>(out);
  strideFloat<56><<<1, 32>>>(out);
  strideFloat<57><<<1, 32>>>(out);
  strideFloat<58><<<1, 32>>>(out);
  strideFloat<59><<<1, 32>>>(out);
  strideFloat<60><<<1, 32>>>(out);
  strideFloat<61><<<1, 32>>>(out);
  strideFloat<62><<<1, 32>>>(out);
  strideFloat<63><<<1, 32>>>(out);
  strideFloat<64><<<1, 32>>>(out);
  CHECK(cudaGetLastError());

  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(out));
  printf("stride_float: 64 kernels ran\n");
  return 0;
}
