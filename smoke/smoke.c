#include "smoke.h"

#include "artifacts.h"
#include "vk_json.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

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

void smoke_run(const struct smoke_test *test, const cJSON *declared, VkInstance instance, VkPhysicalDevice physical,
               uint32_t api_version, enum smoke_fault fault, struct smoke_outcome *out)
{
    out->evidence = cJSON_CreateObject();
    artifacts_begin_test(test->id);
    struct gpu gpu = {.declared = declared};
    struct gpu_options options = {0};
    struct smoke_device_features features = {0};
    if (test->device_options != NULL)
        test->device_options(declared, test->param, &options, &features);
    if (!gpu_open(&gpu, instance, physical, api_version, &options)) {
        smoke_gpu_failed(&gpu, out);
        gpu_close(&gpu);
        return;
    }
    switch (fault) {
    case SMOKE_FAULT_CRASH:
        raise(SIGSEGV);
        break;
    case SMOKE_FAULT_HANG:
        for (;;)
            pause();
    case SMOKE_FAULT_WRONG_RESULT:
        gpu.corrupt_readback = true;
        break;
    case SMOKE_FAULT_DEVICE_LOST:
        /* as a driver reports it: the device's next call fails with VK_ERROR_DEVICE_LOST */
        gpu_check(&gpu, VK_ERROR_DEVICE_LOST, "vkQueueSubmit (injected)");
        smoke_gpu_failed(&gpu, out);
        gpu_close(&gpu);
        return;
    case SMOKE_FAULT_NONE:
        break;
    }
    out->status = VERDICT_PASS;
    test->run(&gpu, test->param, out);
    gpu_close(&gpu);
}
