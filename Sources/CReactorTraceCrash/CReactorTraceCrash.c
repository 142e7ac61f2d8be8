#include "CReactorTraceCrash.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT };
#define FATAL_SIGNAL_COUNT (sizeof(fatal_signals) / sizeof(fatal_signals[0]))

/// The dispositions found at install time, by signal number (written once,
/// before the handlers can run).
static struct sigaction previous_actions[65];
static atomic_int installed = 0;
static atomic_int armed = 0;
static atomic_uintptr_t writer_thread = 0;
static atomic_int pending_signal = 0;
static atomic_int flushed = 0;
static atomic_int timeout_milliseconds = 1000;
static atomic_int termination_installed = 0;
static atomic_int snapshot_installed = 0;
static atomic_int snapshot_requests = 0;

static void hand_on(int signal_number, siginfo_t *info, void *context) {
    struct sigaction *previous = &previous_actions[signal_number];
    if (previous->sa_flags & SA_SIGINFO) {
        if (previous->sa_sigaction != NULL) {
            sigaction(signal_number, previous, NULL);
            previous->sa_sigaction(signal_number, info, context);
            return;
        }
    } else if (previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN) {
        sigaction(signal_number, previous, NULL);
        previous->sa_handler(signal_number);
        return;
    }
    // The default action (an ignored fatal fault would only fault again):
    // pending while this handler runs, delivered when it returns.
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(signal_number, &fallback, NULL);
    raise(signal_number);
}

/// Asks the writer to write the end block for `signal_number` and waits for it, a bounded time.
static void flush_for(int signal_number) {
    if (!atomic_load(&armed) || atomic_load(&writer_thread) == (uintptr_t)pthread_self()) return;
    int expected = 0;
    atomic_compare_exchange_strong(&pending_signal, &expected, signal_number);
    int limit = atomic_load(&timeout_milliseconds);
    struct timespec millisecond = { 0, 1000000 };
    for (int waited = 0; waited < limit && !atomic_load(&flushed); waited++) {
        nanosleep(&millisecond, NULL);
    }
}

/// The value of a signal from outside that the writer thread passed on to another thread.
#define PASSED_ON_BY_WRITER 0x52545243

/// True for a signal another process sent (`kill`), as opposed to a fault of
/// this process or one it raised itself (`abort`).
static int sent_from_outside(const siginfo_t *info) {
    if (info == NULL) return 0;
    if (info->si_code == SI_QUEUE && info->si_value.sival_int == PASSED_ON_BY_WRITER) return 1;
    return (info->si_code == SI_USER || info->si_code == SI_QUEUE) && info->si_pid != getpid();
}

/// True when the signal, blocked while its handler runs, is pending with the
/// default action: the process ends as the handler returns.
static int ends_on_return(int signal_number) {
    sigset_t pending;
    struct sigaction current;
    if (sigpending(&pending) != 0 || sigaction(signal_number, NULL, &current) != 0) return 1;
    int is_default = !(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_DFL;
    return sigismember(&pending, signal_number) && is_default;
}

static void handle_fatal_signal(int signal_number, siginfo_t *info, void *context) {
    int saved_errno = errno;
    struct sigaction *previous = &previous_actions[signal_number];
    int previous_is_handler = (previous->sa_flags & SA_SIGINFO) ? previous->sa_sigaction != NULL
        : (previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN);
    if (sent_from_outside(info) && atomic_load(&armed) && atomic_load(&writer_thread) == (uintptr_t)pthread_self()) {
        // The writer cannot write the end block while it handles the signal: sent again to the
        // process, the signal (blocked here while this handler runs) goes to another thread.
        union sigval value;
        value.sival_int = PASSED_ON_BY_WRITER;
        sigqueue(getpid(), signal_number, value);
        errno = saved_errno;
        return;
    }
    if (sent_from_outside(info) && previous_is_handler) {
        // A signal from outside need not end the process: the app's handler (a backtracer
        // that reports and returns, say) decides. The end block is written only when the
        // process is sure to die: the handler left the signal pending with the default action.
        if (previous->sa_flags & SA_SIGINFO) previous->sa_sigaction(signal_number, info, context);
        else previous->sa_handler(signal_number);
        if (ends_on_return(signal_number)) flush_for(signal_number);
        errno = saved_errno;
        return;
    }
    flush_for(signal_number);
    errno = saved_errno;
    hand_on(signal_number, info, context);
}

void reactor_trace_crash_install(void) {
    int expected = 0;
    if (!atomic_compare_exchange_strong(&installed, &expected, 1)) return;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = handle_fatal_signal;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (unsigned i = 0; i < FATAL_SIGNAL_COUNT; i++) {
        sigaction(fatal_signals[i], &action, &previous_actions[fatal_signals[i]]);
    }
}

void reactor_trace_crash_install_termination(void) {
    int expected = 0;
    if (!atomic_compare_exchange_strong(&termination_installed, &expected, 1)) return;
    static const int termination_signals[] = { SIGINT, SIGTERM };
    for (unsigned i = 0; i < 2; i++) {
        int signal_number = termination_signals[i];
        struct sigaction current;
        if (sigaction(signal_number, NULL, &current) != 0) continue;
        // An app (or a shell: `nohup`, a background job) that ignores the signal keeps ignoring it.
        if (!(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_IGN) continue;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = handle_fatal_signal;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        sigaction(signal_number, &action, &previous_actions[signal_number]);
    }
}

static void handle_snapshot_signal(int signal_number, siginfo_t *info, void *context) {
    int saved_errno = errno;
    atomic_fetch_add(&snapshot_requests, 1);
    struct sigaction *previous = &previous_actions[signal_number];
    // The app's own handler, if it had one, runs too; the default (ending the process) does not.
    if (previous->sa_flags & SA_SIGINFO) {
        if (previous->sa_sigaction != NULL) previous->sa_sigaction(signal_number, info, context);
    } else if (previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN) {
        previous->sa_handler(signal_number);
    }
    errno = saved_errno;
}

void reactor_trace_snapshot_install(void) {
    int expected = 0;
    if (!atomic_compare_exchange_strong(&snapshot_installed, &expected, 1)) return;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = handle_snapshot_signal;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    sigaction(SIGUSR1, &action, &previous_actions[SIGUSR1]);
}

int reactor_trace_snapshot_take_requests(void) {
    return atomic_exchange(&snapshot_requests, 0);
}

/// The signals the writer thread starts with blocked: the fatal ones until it has said
/// it is the writer, the termination and snapshot ones for good.
static void writer_start_signals(sigset_t *set) {
    sigemptyset(set);
    for (unsigned i = 0; i < FATAL_SIGNAL_COUNT; i++) sigaddset(set, fatal_signals[i]);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGUSR1);
}

/// The calling thread's signal mask before ``reactor_trace_crash_block_for_writer_start``.
static __thread sigset_t mask_before_writer_start;

void reactor_trace_crash_block_for_writer_start(void) {
    sigset_t blocked;
    writer_start_signals(&blocked);
    pthread_sigmask(SIG_BLOCK, &blocked, &mask_before_writer_start);
}

void reactor_trace_crash_restore_after_writer_start(void) {
    pthread_sigmask(SIG_SETMASK, &mask_before_writer_start, NULL);
}

void reactor_trace_crash_arm(void) {
    atomic_store(&flushed, 0);
    atomic_store(&pending_signal, 0);
    atomic_store(&armed, 1);
}

int reactor_trace_crash_is_armed(void) {
    return atomic_load(&armed);
}

void reactor_trace_crash_set_writer_thread(void) {
    atomic_store(&writer_thread, (uintptr_t)pthread_self());
    // SIGINT, SIGTERM and SIGUSR1 stay blocked, so that they go to another thread (the writer
    // cannot wait for itself); the fatal signals, now that a handler can tell it is the writer, not.
    sigset_t blocked;
    writer_start_signals(&blocked);
    pthread_sigmask(SIG_BLOCK, &blocked, NULL);
    sigset_t fatal;
    sigemptyset(&fatal);
    for (unsigned i = 0; i < FATAL_SIGNAL_COUNT; i++) sigaddset(&fatal, fatal_signals[i]);
    pthread_sigmask(SIG_UNBLOCK, &fatal, NULL);
}

void reactor_trace_crash_disarm(void) {
    atomic_store(&armed, 0);
    atomic_store(&writer_thread, 0);
}

int reactor_trace_crash_pending(void) {
    return atomic_load_explicit(&pending_signal, memory_order_acquire);
}

void reactor_trace_crash_flushed(void) {
    atomic_store(&flushed, 1);
}

void reactor_trace_crash_set_timeout(int milliseconds) {
    atomic_store(&timeout_milliseconds, milliseconds < 0 ? 0 : milliseconds);
}

/// The alternate stack this file gave the calling thread, if any.
static __thread void *own_alternate_stack = NULL;

void reactor_trace_crash_prepare_thread(void) {
    if (own_alternate_stack != NULL) return;
    stack_t current;
    if (sigaltstack(NULL, &current) != 0) return;
    if (!(current.ss_flags & SS_DISABLE) && current.ss_sp != NULL) return;
    // Kept for the thread's lifetime: the process may die on it at any moment.
    size_t size = 64 * 1024;
    void *memory = malloc(size);
    if (memory == NULL) return;
    stack_t alternate;
    alternate.ss_sp = memory;
    alternate.ss_size = size;
    alternate.ss_flags = 0;
    if (sigaltstack(&alternate, NULL) != 0) { free(memory); return; }
    own_alternate_stack = memory;
}

void reactor_trace_crash_release_thread(void) {
    if (own_alternate_stack == NULL) return;
    stack_t disabled;
    memset(&disabled, 0, sizeof disabled);
    disabled.ss_flags = SS_DISABLE;
    if (sigaltstack(&disabled, NULL) == 0) {
        free(own_alternate_stack);
        own_alternate_stack = NULL;
    }
}
