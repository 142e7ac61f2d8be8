// The clock shim is header-only (static inline, so Swift inlines it);
// SwiftPM needs one source file per C target.
#include "CReactorTraceClock.h"
