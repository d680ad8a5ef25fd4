/* The operating system and kernel the probe runs on, for each device's identity. */
#ifndef PREFLIGHT_PROBE_HOST_INFO_H
#define PREFLIGHT_PROBE_HOST_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

/* Adds "os" (PRETTY_NAME of /etc/os-release, or the system name) and "kernel" to `identity`. */
void host_info_add(cJSON *identity);
/* The machine's name for the report's "host": `label` when given, else gethostname(). */
void host_name(const char *label, char *out, size_t size);
/* A label is 1-255 bytes without control characters. */
bool host_label_valid(const char *label);

#endif
