#include "host_info.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

static void os_pretty_name(char *out, size_t size, const char *fallback)
{
    snprintf(out, size, "%s", fallback);
    FILE *f = fopen("/etc/os-release", "r");
    if (f == NULL)
        return;
    char line[512];
    while (fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, "PRETTY_NAME=", 12) != 0)
            continue;
        char *value = line + 12;
        value[strcspn(value, "\r\n")] = '\0';
        size_t length = strlen(value);
        if (length >= 2 && value[0] == '"' && value[length - 1] == '"') {
            value[length - 1] = '\0';
            ++value;
        }
        snprintf(out, size, "%s", value);
        break;
    }
    fclose(f);
}

void host_info_add(cJSON *identity)
{
    struct utsname uts;
    char os[512];
    char kernel[512];
    if (uname(&uts) != 0) {
        cJSON_AddStringToObject(identity, "os", "unknown");
        cJSON_AddStringToObject(identity, "kernel", "unknown");
        return;
    }
    os_pretty_name(os, sizeof(os), uts.sysname);
    snprintf(kernel, sizeof(kernel), "%s %s %s", uts.sysname, uts.release, uts.machine);
    cJSON_AddStringToObject(identity, "os", os);
    cJSON_AddStringToObject(identity, "kernel", kernel);
}
