/* The operating system and kernel the probe runs on, for each device's identity. */
#ifndef PREFLIGHT_PROBE_HOST_INFO_H
#define PREFLIGHT_PROBE_HOST_INFO_H

#include <cjson/cJSON.h>

/* Adds "os" (PRETTY_NAME of /etc/os-release, or the system name) and "kernel" to `identity`. */
void host_info_add(cJSON *identity);

#endif
