#ifndef C_REACTOR_TRACE_CLOCK_H
#define C_REACTOR_TRACE_CLOCK_H

#include <stdint.h>

/// The CPU's cycle counter where one is cheap and steady (x86-64: RDTSC, about
/// 10 ns against 25 ns for clock_gettime in a VM), else 0. The recorder scales it to
/// nanoseconds, and only uses it when the kernel itself keeps time with the TSC.
static inline uint64_t reactor_trace_ticks(void) {
#if defined(__x86_64__)
    return __builtin_ia32_rdtsc();
#else
    return 0;
#endif
}

/// 1 when reactor_trace_ticks() reads a counter on this architecture.
static inline int reactor_trace_has_ticks(void) {
#if defined(__x86_64__)
    return 1;
#else
    return 0;
#endif
}

#endif
