#ifndef C_REACTOR_TRACE_CRASH_H
#define C_REACTOR_TRACE_CRASH_H

// Fatal-signal handling for the trace recorder.
//
// The handler runs on the crashing thread and does only async-signal-safe
// things: atomic loads and stores, nanosleep, sigaction, raise. It asks the
// recorder's writer thread (a healthy thread, free to take locks and allocate)
// to ship what every recording thread has published and write the end block,
// waits for it a bounded time, then hands the signal to the handler that was
// installed before (or the default action, which ends the process). A signal
// another process sent (`kill`) goes to the handler installed before first,
// when there is one: the end block is written only if that handler leaves the
// process to die (the signal pending with the default action), so an app that
// survives it (a backtracer that reports and returns) goes on recording.

/// Installs the handlers for SIGSEGV, SIGBUS, SIGILL, SIGTRAP and SIGABRT,
/// once per process; later calls do nothing.
void reactor_trace_crash_install(void);

/// Installs handlers for SIGINT and SIGTERM, once per process, unless the
/// signal is ignored: like a fatal signal, they have the writer write the end
/// block (termination signal N), then hand the signal to the handler installed
/// before them, or restore the default action and re-raise it.
void reactor_trace_crash_install_termination(void);

/// Installs a SIGUSR1 handler, once per process, that counts a snapshot request
/// (and calls the app's own handler, if it had one); the writer polls the count.
void reactor_trace_snapshot_install(void);

/// The snapshot requests since the last call (SIGUSR1 received), reset to 0.
int reactor_trace_snapshot_take_requests(void);

/// Blocks, on the calling thread, the fatal signals, SIGINT, SIGTERM and SIGUSR1, so that a
/// writer thread started now inherits them blocked: no signal reaches it before it has called
/// ``reactor_trace_crash_set_writer_thread`` (a handler on it would wait for itself).
void reactor_trace_crash_block_for_writer_start(void);

/// Restores the calling thread's signal mask from before
/// ``reactor_trace_crash_block_for_writer_start``.
void reactor_trace_crash_restore_after_writer_start(void);

/// A recording is running (called once its writer thread exists, before that thread
/// writes the file's header): a fatal signal on any thread but the writer waits for the
/// writer to write the end block. Before this, the handlers hand every signal straight on.
void reactor_trace_crash_arm(void);

/// Whether a recording is armed (``reactor_trace_crash_arm``, not yet disarmed).
int reactor_trace_crash_is_armed(void);

/// The calling thread is the writer thread (a fatal signal on it cannot wait for
/// itself); SIGINT, SIGTERM and SIGUSR1 stay blocked on it, so that they go to another
/// thread, and the fatal signals are unblocked.
void reactor_trace_crash_set_writer_thread(void);

/// The recording has ended: a fatal signal no longer waits for a flush.
void reactor_trace_crash_disarm(void);

/// The writer's poll: the number of a fatal signal waiting for the final
/// flush, or 0.
int reactor_trace_crash_pending(void);

/// The writer has written the final flush asked for by a fatal signal.
void reactor_trace_crash_flushed(void);

/// Gives the calling thread an alternate signal stack if it has none, so
/// that a stack overflow (SIGSEGV on a guard page) can still be handled.
void reactor_trace_crash_prepare_thread(void);

/// The calling thread is exiting: frees the alternate stack
/// ``reactor_trace_crash_prepare_thread`` gave it.
void reactor_trace_crash_release_thread(void);

/// How long a fatal signal waits for the writer, in milliseconds (1000 by default).
void reactor_trace_crash_set_timeout(int milliseconds);

#endif
