/* volk is header-only in Debian: its implementation is compiled once, here. */
#define VOLK_IMPLEMENTATION
#include <volk.h>
