// The one definition of the recorder's thread-local (the accessors are
// static inline in the header, so Swift inlines them). `nodebug`: valgrind
// 3.19 rejects the whole binary over the DWARF of a thread-local variable,
// and callgrind is how the recorder's cost is measured (Benchmarks/README.md).
#include "CReactorTraceThread.h"

__attribute__((nodebug)) __thread void *reactor_trace_thread_state REACTOR_TRACE_TLS_MODEL = 0;
