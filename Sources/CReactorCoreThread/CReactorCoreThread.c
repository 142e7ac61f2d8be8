// The header's functions are static inline; this file gives the target a
// translation unit, as SwiftPM requires of a C target, and holds the one
// definition of the trace encoder's thread-local. `nodebug`: valgrind 3.19
// rejects the whole binary over the DWARF of a thread-local variable, and
// callgrind is how the recorder's cost is measured (Benchmarks/README.md).
#include "CReactorCoreThread.h"

__attribute__((nodebug)) __thread void *reactor_core_trace_encoder_state REACTOR_CORE_TLS_MODEL = 0;
