#include "power.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A batch long enough that the pause between two submissions is a small part of the load, short
 * enough that the source is read often relative to it (sampler.h). */
#define BATCH_NS 4e6
#define MAX_PASSES_PER_BATCH 1024u

void power_device_id_of(VkPhysicalDevice physical, struct power_device_id *id)
{
    memset(id, 0, sizeof(*id));
    if (vkGetPhysicalDeviceProperties2 == NULL)
        return;
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(physical, NULL, &count, NULL);
    VkExtensionProperties extensions[512];
    if (count > 512)
        count = 512;
    vkEnumerateDeviceExtensionProperties(physical, NULL, &count, extensions);
    for (uint32_t i = 0; i < count; ++i)
        id->has_pci |= strcmp(extensions[i].extensionName, VK_EXT_PCI_BUS_INFO_EXTENSION_NAME) == 0;
    VkPhysicalDevicePCIBusInfoPropertiesEXT pci = {.sType =
                                                       VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PCI_BUS_INFO_PROPERTIES_EXT};
    VkPhysicalDeviceIDProperties ids = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES,
                                        .pNext = id->has_pci ? &pci : NULL};
    VkPhysicalDeviceProperties2 chain = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &ids};
    vkGetPhysicalDeviceProperties2(physical, &chain);
    id->pci_domain = pci.pciDomain;
    id->pci_bus = pci.pciBus;
    id->pci_device = pci.pciDevice;
    id->pci_function = pci.pciFunction;
    static const uint8_t zero[VK_UUID_SIZE];
    id->has_uuid = memcmp(ids.deviceUUID, zero, VK_UUID_SIZE) != 0;
    memcpy(id->uuid, ids.deviceUUID, sizeof(id->uuid));
}

/* One phase's load: a batch of the test's passes in the gpu's command buffer, submitted again and again. */
struct gpu_load {
    struct gpu *gpu;
    const struct power_work *work;
    bool feature;
    uint32_t passes;
    char error[192];
};

static bool record_batch(void *context)
{
    struct gpu_load *l = context;
    if (!gpu_begin_repeatable(l->gpu))
        return false;
    for (uint32_t i = 0; i < l->passes && !gpu_failed(l->gpu); ++i) {
        if (i > 0)
            l->work->between(l->gpu, l->work->context);
        l->work->record(l->gpu, l->work->context, l->feature);
    }
    return gpu_end(l->gpu);
}

static bool submit_batch(void *context)
{
    struct gpu_load *l = context;
    return gpu_submit(l->gpu);
}

static int wait_batch(void *context, double timeout_ms)
{
    struct gpu_load *l = context;
    return gpu_wait_for(l->gpu, (uint64_t)(timeout_ms * 1e6));
}

static const char *load_error(void *context)
{
    struct gpu_load *l = context;
    snprintf(l->error, sizeof(l->error), "%s returned VkResult %d", l->gpu->error_call, (int)l->gpu->error);
    return l->error;
}

static uint32_t passes_per_batch(double pass_ns)
{
    double passes = pass_ns > 0 ? ceil(BATCH_NS / pass_ns) : MAX_PASSES_PER_BATCH;
    return passes < 1 ? 1 : passes > MAX_PASSES_PER_BATCH ? MAX_PASSES_PER_BATCH : (uint32_t)passes;
}

void power_measure(struct gpu *gpu, const struct power_work *work, cJSON *evidence, struct power_signal *signal)
{
    if (gpu_failed(gpu)) {
        power_not_sampled(signal, "not sampled: %s failed before the measured passes", gpu->error_call);
        return;
    }
    struct gpu_load loads[2];
    struct power_load power_loads[2];
    for (int f = 0; f < 2; ++f) {
        loads[f] =
            (struct gpu_load){.gpu = gpu, .work = work, .feature = f, .passes = passes_per_batch(work->pass_ns[f])};
        power_loads[f] = (struct power_load){.record = record_batch,
                                             .submit = submit_batch,
                                             .wait = wait_batch,
                                             .error = load_error,
                                             .passes_per_batch = loads[f].passes,
                                             .context = &loads[f]};
    }
    struct power_measurement what = {.what = work->what,
                                     .baseline_key = work->baseline_key,
                                     .baseline = &power_loads[0],
                                     .feature = &power_loads[1]};
    power_meter_measure(gpu->power, &what, evidence, signal);
}
