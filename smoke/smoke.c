#include "smoke.h"

#include "vk_json.h"

#include <stdarg.h>
#include <stdio.h>

void smoke_set(struct smoke_outcome *out, enum verdict status, const char *format, ...)
{
    out->status = status;
    va_list args;
    va_start(args, format);
    vsnprintf(out->reason, sizeof(out->reason), format, args);
    va_end(args);
}

bool smoke_missing(char *reason, size_t size, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(reason, size, format, args);
    va_end(args);
    return false;
}

bool smoke_gpu_failed(const struct gpu *gpu, struct smoke_outcome *out)
{
    if (!gpu_failed(gpu))
        return false;
    const char *result = vkjson_name_VkResult(gpu->error);
    if (gpu->error == VK_ERROR_DEVICE_LOST)
        smoke_set(out, VERDICT_DEVICE_LOST, "%s returned VK_ERROR_DEVICE_LOST", gpu->error_call);
    else
        smoke_set(out, VERDICT_FAIL, "%s failed: %s", gpu->error_call, result ? result : "unknown VkResult");
    return true;
}
