#ifndef C_REACTOR_TRACE_THREAD_H
#define C_REACTOR_TRACE_THREAD_H

/// The calling thread's recorder state (an unretained ThreadRecorder), or NULL.
///
/// A C thread-local rather than pthread_getspecific: reading it is one load
/// relative to the thread pointer (%fs on x86-64) instead of a call into libc,
/// and the recorder reads it on every event. The initial-exec model keeps it a
/// plain load in shared libraries too (glibc reserves static TLS for the few
/// bytes). The pthread key stays: only its destructor can tell the recorder
/// that a thread exits.
#if defined(__linux__) && defined(__ELF__)
#define REACTOR_TRACE_TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define REACTOR_TRACE_TLS_MODEL
#endif

extern __thread void *reactor_trace_thread_state REACTOR_TRACE_TLS_MODEL;

/// The calling thread's recorder state, or NULL.
static inline __attribute__((always_inline)) void *reactor_trace_thread_get(void) {
    return reactor_trace_thread_state;
}

/// Sets the calling thread's recorder state.
static inline __attribute__((always_inline)) void reactor_trace_thread_set(void *state) {
    reactor_trace_thread_state = state;
}

#endif
