#include "host_info.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

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

bool host_label_valid(const char *label)
{
    size_t n = strlen(label);
    if (n == 0 || n > 255)
        return false;
    for (size_t i = 0; i < n; ++i)
        if ((unsigned char)label[i] < 0x20 || label[i] == 0x7f)
            return false;
    return true;
}

void host_name(const char *label, char *out, size_t size)
{
    if (label != NULL) {
        snprintf(out, size, "%s", label);
        return;
    }
    char name[256] = "";
    if (gethostname(name, sizeof(name) - 1) != 0 || name[0] == '\0')
        snprintf(name, sizeof(name), "unknown");
    name[sizeof(name) - 1] = '\0';
    snprintf(out, size, "%s", name);
}
