#pragma once
// Hopper's bulk copies between global and shared memory (the copy engine
// each SM has, TMA, in its one-dimensional form) and the transaction
// barriers that say when one has landed. A kernel that streams an image
// through shared memory hands the moving of bytes to them, so that its
// threads spend their issue slots on the arithmetic alone while many
// copies stay in flight. sm_90 and later (the build's architecture).
//
// Every size and address here is a multiple of 16 bytes.
//
// A build may add older architectures (CMAKE_CUDA_ARCHITECTURES=86;90),
// whose code has none of these instructions: there each stops the kernel,
// which the host never launches on such a GPU (it asks first, as
// table.cu's table_path_runs does).
#include <cstdint>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define GPUIMG_BULK_ASM(...) __trap()
#else
#define GPUIMG_BULK_ASM(...) asm volatile(__VA_ARGS__)
#endif

namespace gpuimg::bulk {

__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// A barrier whose phase completes when `arrivals` threads have arrived
// and, for one that load() uses, the bytes it expects have landed.
__device__ __forceinline__ void init_barrier(std::uint64_t* bar, unsigned arrivals) {
  GPUIMG_BULK_ASM("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(bar)), "r"(arrivals) : "memory");
}

__device__ __forceinline__ void arrive(std::uint64_t* bar) {
  GPUIMG_BULK_ASM("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(shared_address(bar)) : "memory");
}

// Makes the barriers' initialisation visible to other threads and to the
// copy engine (the PTX ISA's example fences both); the block then
// synchronises before any thread waits on them.
__device__ __forceinline__ void fence_barrier_init() {
  GPUIMG_BULK_ASM("fence.mbarrier_init.release.cluster;" ::: "memory");
  GPUIMG_BULK_ASM("fence.proxy.async.shared::cta;" ::: "memory");
}

// Starts a copy of `bytes` from global `src` to shared `dst`: arrives on
// `bar` (initialised for one arrival), whose phase completes when it lands.
__device__ __forceinline__ void load(void* dst, const void* src, unsigned bytes, std::uint64_t* bar) {
  GPUIMG_BULK_ASM("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(bar)), "r"(bytes)
               : "memory");
  GPUIMG_BULK_ASM("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   shared_address(dst)),
               "l"(src), "r"(bytes), "r"(shared_address(bar))
               : "memory");
}

// Waits until the phase of `bar` with this parity has completed.
__device__ __forceinline__ void wait(std::uint64_t* bar, unsigned parity) {
  unsigned done = 0;
  do {
    GPUIMG_BULK_ASM(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(shared_address(bar)), "r"(parity)
        : "memory");
  } while (!done);
}

// Makes this thread's ordinary writes to shared memory visible to the copy
// engine: every writer runs it before it tells (a barrier) the thread that
// stores what they wrote.
__device__ __forceinline__ void fence_shared_writes() {
  GPUIMG_BULK_ASM("fence.proxy.async.shared::cta;" ::: "memory");
}

// Starts a copy of `bytes` from shared `src` to global `dst`, as a group of
// its own (store_read_wait counts them).
__device__ __forceinline__ void store(void* dst, const void* src, unsigned bytes) {
  GPUIMG_BULK_ASM("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst), "r"(shared_address(src)),
               "r"(bytes)
               : "memory");
  GPUIMG_BULK_ASM("cp.async.bulk.commit_group;" ::: "memory");
}

// Waits until all but the newest `Pending` stores have read their shared
// memory (which may then be written again).
template <int Pending> __device__ __forceinline__ void store_read_wait() {
  GPUIMG_BULK_ASM("cp.async.bulk.wait_group.read %0;" ::"n"(Pending) : "memory");
}

// Waits until every store has completed: before the block exits.
__device__ __forceinline__ void store_wait_all() { GPUIMG_BULK_ASM("cp.async.bulk.wait_group 0;" ::: "memory"); }

}  // namespace gpuimg::bulk
