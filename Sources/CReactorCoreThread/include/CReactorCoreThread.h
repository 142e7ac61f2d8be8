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

#endif
