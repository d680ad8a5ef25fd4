#include "vulkan_instance.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "vk_json.h"

static bool instance_extension_available(const VkExtensionProperties *available, uint32_t count, const char *name)
{
    for (uint32_t i = 0; i < count; ++i)
        if (strcmp(available[i].extensionName, name) == 0)
            return true;
    return false;
}

static void enable_if_available(struct vulkan_instance *vi, const VkExtensionProperties *available, uint32_t count,
                                const char *name)
{
    if (instance_extension_available(available, count, name) &&
        vi->enabled_extension_count < sizeof(vi->enabled_extensions) / sizeof(vi->enabled_extensions[0]))
        vi->enabled_extensions[vi->enabled_extension_count++] = name;
}

/* Loads the Vulkan loader named by PREFLIGHT_VULKAN_LOADER (a path or soname), or the system's
 * libvulkan.so.1. Device farms with several loader builds pick one without LD_LIBRARY_PATH. */
static bool load_loader(void)
{
    const char *name = getenv("PREFLIGHT_VULKAN_LOADER");
    if (name == NULL || *name == '\0')
        return volkInitialize() == VK_SUCCESS;
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL)
        return false;
    PFN_vkGetInstanceProcAddr get_instance_proc_addr =
        (PFN_vkGetInstanceProcAddr)(uintptr_t)dlsym(library, "vkGetInstanceProcAddr");
    if (get_instance_proc_addr == NULL) {
        dlclose(library);
        return false;
    }
    volkInitializeCustom(get_instance_proc_addr);
    return true;
}

enum vulkan_instance_status vulkan_instance_open(struct vulkan_instance *vi)
{
    memset(vi, 0, sizeof(*vi));
    if (!load_loader())
        return VULKAN_INSTANCE_NO_LOADER;

    vi->loader_version = VK_API_VERSION_1_0;
    if (vkEnumerateInstanceVersion != NULL)
        vkEnumerateInstanceVersion(&vi->loader_version);
    /* Ask for the newest version both the loader and our headers know, so that every
     * physical-device query up to the device's own version is allowed. */
    vi->api_version = vi->loader_version < VK_HEADER_VERSION_COMPLETE ? vi->loader_version : VK_HEADER_VERSION_COMPLETE;
    vi->api_version =
        VK_MAKE_API_VERSION(0, VK_API_VERSION_MAJOR(vi->api_version), VK_API_VERSION_MINOR(vi->api_version), 0);

    uint32_t available_count = 0;
    VkExtensionProperties *available = NULL;
    if (vkEnumerateInstanceExtensionProperties(NULL, &available_count, NULL) == VK_SUCCESS && available_count > 0) {
        available = calloc(available_count, sizeof(*available));
        if (available == NULL ||
            vkEnumerateInstanceExtensionProperties(NULL, &available_count, available) != VK_SUCCESS)
            available_count = 0;
    }
    enable_if_available(vi, available, available_count, VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME);
    enable_if_available(vi, available, available_count, VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
    vi->has_properties2_extension =
        vulkan_instance_extension_enabled(vi, VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME);
    bool portability = vulkan_instance_extension_enabled(vi, VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
    free(available);

    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "preflight-probe",
        .pEngineName = "preflight",
        .apiVersion = vi->api_version,
    };
    VkInstanceCreateInfo create = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .flags = portability ? VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR : 0,
        .pApplicationInfo = &app,
        .enabledExtensionCount = vi->enabled_extension_count,
        .ppEnabledExtensionNames = vi->enabled_extensions,
    };
    vi->last_result = vkCreateInstance(&create, NULL, &vi->instance);
    if (vi->last_result != VK_SUCCESS) {
        vi->instance = VK_NULL_HANDLE;
        /* The loader answers VK_ERROR_INCOMPATIBLE_DRIVER when it found no driver at all. */
        return vi->last_result == VK_ERROR_INCOMPATIBLE_DRIVER ? VULKAN_INSTANCE_NO_DRIVER
                                                               : VULKAN_INSTANCE_CREATE_FAILED;
    }
    volkLoadInstanceOnly(vi->instance);

    vi->last_result = vkEnumeratePhysicalDevices(vi->instance, &vi->device_count, NULL);
    if (vi->last_result != VK_SUCCESS)
        return VULKAN_INSTANCE_ENUMERATE_FAILED;
    if (vi->device_count > 0) {
        vi->devices = calloc(vi->device_count, sizeof(*vi->devices));
        if (vi->devices == NULL)
            return VULKAN_INSTANCE_ENUMERATE_FAILED;
        vi->last_result = vkEnumeratePhysicalDevices(vi->instance, &vi->device_count, vi->devices);
        if (vi->last_result != VK_SUCCESS && vi->last_result != VK_INCOMPLETE)
            return VULKAN_INSTANCE_ENUMERATE_FAILED;
    }
    return VULKAN_INSTANCE_OK;
}

void vulkan_instance_close(struct vulkan_instance *vi)
{
    free(vi->devices);
    vi->devices = NULL;
    if (vi->instance != VK_NULL_HANDLE)
        vkDestroyInstance(vi->instance, NULL);
    vi->instance = VK_NULL_HANDLE;
}

bool vulkan_instance_extension_enabled(const struct vulkan_instance *vi, const char *name)
{
    for (uint32_t i = 0; i < vi->enabled_extension_count; ++i)
        if (strcmp(vi->enabled_extensions[i], name) == 0)
            return true;
    return false;
}

uint32_t vulkan_effective_version(const struct vulkan_instance *vi, VkPhysicalDevice device)
{
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(device, &properties);
    uint32_t device_version = VK_MAKE_API_VERSION(0, VK_API_VERSION_MAJOR(properties.apiVersion),
                                                  VK_API_VERSION_MINOR(properties.apiVersion), 0);
    return device_version < vi->api_version ? device_version : vi->api_version;
}

const char *vulkan_result_name(VkResult result)
{
    const char *name = vkjson_name_VkResult(result);
    return name != NULL ? name : "unknown VkResult";
}
