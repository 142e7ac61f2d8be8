// The CRC fold is header-only (static inline, compiled by Swift; see the
// header); SwiftPM needs one source file per C target.
#include "CReactorTraceCRC.h"
