#ifndef C_REACTOR_TRACE_CRC_H
#define C_REACTOR_TRACE_CRC_H

#include <stddef.h>
#include <stdint.h>

// Static inline in this header rather than in the .c file: Swift then compiles
// them itself, with its own debug info. valgrind 3.19 rejects a binary whose C
// objects carry this code's DWARF 5 (vector types), and callgrind is how the
// recorder's cost is measured (Benchmarks/README.md). The target attribute keeps
// the function out of line, so no caller needs to be built for PCLMULQDQ.

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

/// 1 when reactor_trace_crc32_fold() may be called: an x86-64 CPU with
/// PCLMULQDQ and SSE4.1 (cpuid), else 0.
static inline int reactor_trace_crc32_fold_available(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    return (ecx & bit_PCLMUL) && (ecx & bit_SSE4_1) ? 1 : 0;
}

/// Advances the running CRC-32 state (IEEE, reflected 0xEDB88320; the state
/// before the final XOR) over `length` bytes at `bytes`, with carry-less
/// multiplication (Gopal et al., "Fast CRC Computation for Generic Polynomials
/// Using PCLMULQDQ", Intel 2009; the constants of zlib's crc32_simd.c).
/// `length` must be at least 64 and a multiple of 16; the caller checksums
/// the rest with tables. About 16 bytes a cycle against 1 for slicing-by-8.
static inline __attribute__((target("pclmul,sse4.1")))
uint32_t reactor_trace_crc32_fold(uint32_t state, const uint8_t *bytes, size_t length) {
    // x^(4·128±32) and x^(128±32) mod P, x^64 mod P, then P and µ for Barrett, bit-reflected.
    const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
    const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
    const __m128i k5k0 = _mm_set_epi64x(0, 0x0163cd6124);
    const __m128i poly = _mm_set_epi64x(0x01f7011641, 0x01db710641);
    __m128i x1, x2, x3, x4, x5, x6, x7, x8;

    x1 = _mm_loadu_si128((const void *)(bytes + 0x00));
    x2 = _mm_loadu_si128((const void *)(bytes + 0x10));
    x3 = _mm_loadu_si128((const void *)(bytes + 0x20));
    x4 = _mm_loadu_si128((const void *)(bytes + 0x30));
    x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)state));
    bytes += 64;
    length -= 64;

    // Four 128-bit lanes folded 64 bytes at a time.
    while (length >= 64) {
        x5 = _mm_clmulepi64_si128(x1, k1k2, 0x00);
        x6 = _mm_clmulepi64_si128(x2, k1k2, 0x00);
        x7 = _mm_clmulepi64_si128(x3, k1k2, 0x00);
        x8 = _mm_clmulepi64_si128(x4, k1k2, 0x00);
        x1 = _mm_clmulepi64_si128(x1, k1k2, 0x11);
        x2 = _mm_clmulepi64_si128(x2, k1k2, 0x11);
        x3 = _mm_clmulepi64_si128(x3, k1k2, 0x11);
        x4 = _mm_clmulepi64_si128(x4, k1k2, 0x11);
        x1 = _mm_xor_si128(_mm_xor_si128(x1, x5), _mm_loadu_si128((const void *)(bytes + 0x00)));
        x2 = _mm_xor_si128(_mm_xor_si128(x2, x6), _mm_loadu_si128((const void *)(bytes + 0x10)));
        x3 = _mm_xor_si128(_mm_xor_si128(x3, x7), _mm_loadu_si128((const void *)(bytes + 0x20)));
        x4 = _mm_xor_si128(_mm_xor_si128(x4, x8), _mm_loadu_si128((const void *)(bytes + 0x30)));
        bytes += 64;
        length -= 64;
    }

    // The four lanes into one.
    x5 = _mm_clmulepi64_si128(x1, k3k4, 0x00);
    x1 = _mm_clmulepi64_si128(x1, k3k4, 0x11);
    x1 = _mm_xor_si128(_mm_xor_si128(x1, x2), x5);
    x5 = _mm_clmulepi64_si128(x1, k3k4, 0x00);
    x1 = _mm_clmulepi64_si128(x1, k3k4, 0x11);
    x1 = _mm_xor_si128(_mm_xor_si128(x1, x3), x5);
    x5 = _mm_clmulepi64_si128(x1, k3k4, 0x00);
    x1 = _mm_clmulepi64_si128(x1, k3k4, 0x11);
    x1 = _mm_xor_si128(_mm_xor_si128(x1, x4), x5);

    // The remaining 16-byte blocks.
    while (length >= 16) {
        x2 = _mm_loadu_si128((const void *)bytes);
        x5 = _mm_clmulepi64_si128(x1, k3k4, 0x00);
        x1 = _mm_clmulepi64_si128(x1, k3k4, 0x11);
        x1 = _mm_xor_si128(_mm_xor_si128(x1, x2), x5);
        bytes += 16;
        length -= 16;
    }

    // 128 bits to 64.
    x2 = _mm_clmulepi64_si128(x1, k3k4, 0x10);
    x3 = _mm_setr_epi32(~0, 0, ~0, 0);
    x1 = _mm_srli_si128(x1, 8);
    x1 = _mm_xor_si128(x1, x2);
    x2 = _mm_srli_si128(x1, 4);
    x1 = _mm_and_si128(x1, x3);
    x1 = _mm_clmulepi64_si128(x1, k5k0, 0x00);
    x1 = _mm_xor_si128(x1, x2);

    // Barrett reduction to 32 bits.
    x2 = _mm_and_si128(x1, x3);
    x2 = _mm_clmulepi64_si128(x2, poly, 0x10);
    x2 = _mm_and_si128(x2, x3);
    x2 = _mm_clmulepi64_si128(x2, poly, 0x00);
    x1 = _mm_xor_si128(x1, x2);
    return (uint32_t)_mm_extract_epi32(x1, 1);
}

#else

static inline int reactor_trace_crc32_fold_available(void) { return 0; }

static inline uint32_t reactor_trace_crc32_fold(uint32_t state, const uint8_t *bytes, size_t length) {
    (void)bytes;
    (void)length;
    return state;  // never called: reactor_trace_crc32_fold_available() is 0
}

#endif

#endif
