// The header's function is static inline; this file gives the target a
// translation unit, as SwiftPM requires of a C target.
#include "CReactorCoreThread.h"
