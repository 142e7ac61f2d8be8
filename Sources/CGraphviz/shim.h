// Graphviz's layout and rendering context (gvc) and graph library (cgraph),
// used in process by ReactorInspector to render dependency graphs.
#ifndef REACTOR_CGRAPHVIZ_SHIM_H
#define REACTOR_CGRAPHVIZ_SHIM_H
#include <graphviz/gvc.h>
#include <graphviz/cgraph.h>
#endif
