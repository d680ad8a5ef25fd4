/* The probe's connection to Vulkan: the loader found at run time through volk, one instance,
 * and the physical devices it enumerates. */
#ifndef PREFLIGHT_PROBE_VULKAN_INSTANCE_H
#define PREFLIGHT_PROBE_VULKAN_INSTANCE_H

#include <stdbool.h>
#include <stdint.h>
#include <volk.h>

enum vulkan_instance_status {
    VULKAN_INSTANCE_OK = 0,
    VULKAN_INSTANCE_NO_LOADER,        /* libvulkan.so.1 could not be loaded */
    VULKAN_INSTANCE_NO_DRIVER,        /* the loader found no Vulkan driver */
    VULKAN_INSTANCE_CREATE_FAILED,    /* vkCreateInstance returned another error */
    VULKAN_INSTANCE_ENUMERATE_FAILED, /* vkEnumeratePhysicalDevices returned an error */
};

struct vulkan_instance {
    VkInstance instance;
    uint32_t api_version;           /* the version we created the instance with */
    uint32_t loader_version;        /* what vkEnumerateInstanceVersion answered */
    bool has_properties2_extension; /* VK_KHR_get_physical_device_properties2 enabled */
    const char *enabled_extensions[8];
    uint32_t enabled_extension_count;
    VkPhysicalDevice *devices;
    uint32_t device_count;
    VkResult last_result; /* the failing call's result, for messages */
};

enum vulkan_instance_status vulkan_instance_open(struct vulkan_instance *vi);
void vulkan_instance_close(struct vulkan_instance *vi);
bool vulkan_instance_extension_enabled(const struct vulkan_instance *vi, const char *name);
/* The version a physical-device query may use: the lower of the instance's and the device's. */
uint32_t vulkan_effective_version(const struct vulkan_instance *vi, VkPhysicalDevice device);
const char *vulkan_result_name(VkResult result);

#endif
