#ifndef C_REACTOR_CORE_THREAD_H
#define C_REACTOR_CORE_THREAD_H

#include <stdint.h>
#include <pthread.h>

/// A word that identifies the calling thread among the live threads: what
/// the graph lock stores as its owner and compares on every re-entrant use.
///
/// Where the compiler can read the thread pointer (%fs base on x86-64,
/// TPIDR_EL0 on arm64), it is one instruction inlined into the caller
/// instead of a call to pthread_self(): each thread has its own, fixed for
/// its lifetime, and the lock only compares them for equality.
static inline __attribute__((always_inline)) uintptr_t reactor_core_current_thread(void) {
#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
    return (uintptr_t)__builtin_thread_pointer();
#else
    return (uintptr_t)pthread_self();
#endif
}

/// The calling thread's trace encoder (an unretained TraceThreadEncoder that
/// a recorder's thread state holds), or NULL.
///
/// A C thread-local: reading it is one load relative to the thread pointer.
/// The initial-exec model keeps it a plain load in shared libraries too.
#if defined(__linux__) && defined(__ELF__)
#define REACTOR_CORE_TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define REACTOR_CORE_TLS_MODEL
#endif

extern __thread void *reactor_core_trace_encoder_state REACTOR_CORE_TLS_MODEL;

/// The calling thread's trace encoder, or NULL.
static inline __attribute__((always_inline)) void *reactor_core_trace_encoder_get(void) {
    return reactor_core_trace_encoder_state;
}

/// Sets the calling thread's trace encoder.
static inline __attribute__((always_inline)) void reactor_core_trace_encoder_set(void *encoder) {
    reactor_core_trace_encoder_state = encoder;
}

/// The cycle counter (0 where there is none), the trace encoder's timed events'
/// clock when the recording calibrated it.
static inline __attribute__((always_inline)) uint64_t reactor_core_ticks(void) {
#if defined(__x86_64__)
    return __builtin_ia32_rdtsc();
#else
    return 0;
#endif
}

#endif
