/* The layer's contract with the Vulkan loader: interface negotiation, vkGet*ProcAddr, the instance
 * and device chains, the enumerate calls, and the debug-utils calls the reports need (messengers
 * and object names). Everything else is in the hooks_*.c files, listed in layer_hooks.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vk_layer.h>

#include "findings.h"
#include "layer_hooks.h"
#include "state_command_buffers.h"
#include "state_device.h"
#include "state_objects.h"
#include "validate.h"

#define LAYER_EXPORT __attribute__((visibility("default")))

/* --- messengers ---------------------------------------------------------------------------------- */

static void add_messenger(struct layer_instance *instance, VkDebugUtilsMessengerEXT handle,
                          const VkDebugUtilsMessengerCreateInfoEXT *info)
{
    pthread_mutex_lock(&instance->messengers_lock);
    if (instance->messenger_count == instance->messenger_capacity) {
        size_t capacity = instance->messenger_capacity ? instance->messenger_capacity * 2 : 4;
        struct layer_messenger *m = realloc(instance->messengers, capacity * sizeof(*m));
        if (m != NULL) {
            instance->messengers = m;
            instance->messenger_capacity = capacity;
        }
    }
    if (instance->messenger_count < instance->messenger_capacity)
        instance->messengers[instance->messenger_count++] = (struct layer_messenger){
            handle, info->messageSeverity, info->messageType, info->pfnUserCallback, info->pUserData};
    pthread_mutex_unlock(&instance->messengers_lock);
}

static VKAPI_ATTR VkResult VKAPI_CALL
hook_vkCreateDebugUtilsMessengerEXT(VkInstance instance, const VkDebugUtilsMessengerCreateInfoEXT *info,
                                    const VkAllocationCallbacks *allocator, VkDebugUtilsMessengerEXT *messenger)
{
    struct layer_instance *li = layer_instance_of(instance);
    if (li == NULL || li->dispatch.CreateDebugUtilsMessengerEXT == NULL)
        return VK_ERROR_EXTENSION_NOT_PRESENT;
    VkResult result = li->dispatch.CreateDebugUtilsMessengerEXT(instance, info, allocator, messenger);
    if (result == VK_SUCCESS && info->pfnUserCallback != NULL)
        add_messenger(li, *messenger, info);
    return result;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkDestroyDebugUtilsMessengerEXT(VkInstance instance,
                                                                       VkDebugUtilsMessengerEXT messenger,
                                                                       const VkAllocationCallbacks *allocator)
{
    struct layer_instance *li = layer_instance_of(instance);
    if (li == NULL)
        return;
    pthread_mutex_lock(&li->messengers_lock);
    for (size_t i = 0; i < li->messenger_count; ++i) {
        if (li->messengers[i].handle == messenger && messenger != VK_NULL_HANDLE) {
            li->messengers[i] = li->messengers[--li->messenger_count];
            break;
        }
    }
    pthread_mutex_unlock(&li->messengers_lock);
    if (li->dispatch.DestroyDebugUtilsMessengerEXT)
        li->dispatch.DestroyDebugUtilsMessengerEXT(instance, messenger, allocator);
}

/* --- instance ------------------------------------------------------------------------------------ */

static VkLayerInstanceCreateInfo *instance_link(const VkInstanceCreateInfo *info)
{
    for (VkBaseInStructure *s = (VkBaseInStructure *)info->pNext; s != NULL; s = (VkBaseInStructure *)s->pNext) {
        VkLayerInstanceCreateInfo *link = (VkLayerInstanceCreateInfo *)s;
        if (s->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO)
            return link;
    }
    return NULL;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkCreateInstance(const VkInstanceCreateInfo *info,
                                                            const VkAllocationCallbacks *allocator,
                                                            VkInstance *instance)
{
    VkLayerInstanceCreateInfo *link = instance_link(info);
    if (link == NULL || link->u.pLayerInfo == NULL)
        return VK_ERROR_INITIALIZATION_FAILED;
    PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    PFN_vkCreateInstance next_create = (PFN_vkCreateInstance)next_gipa(VK_NULL_HANDLE, "vkCreateInstance");
    if (next_create == NULL)
        return VK_ERROR_INITIALIZATION_FAILED;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext; /* the next layer finds its own link */
    VkResult result = next_create(info, allocator, instance);
    if (result != VK_SUCCESS)
        return result;

    struct layer_instance *li = calloc(1, sizeof(*li));
    if (li == NULL)
        return VK_SUCCESS; /* without memory the layer steps aside rather than fail the app */
    li->instance = *instance;
    li->api_version = info->pApplicationInfo && info->pApplicationInfo->apiVersion ? info->pApplicationInfo->apiVersion
                                                                                   : VK_API_VERSION_1_0;
    layer_instance_dispatch_load(&li->dispatch, *instance, next_gipa);
    pthread_mutex_init(&li->messengers_lock, NULL);
    pthread_mutex_init(&li->findings_lock, NULL);
    handle_map_init(&li->finding_counts);
    /* Messengers chained into VkInstanceCreateInfo receive findings for the whole instance, and
     * the settings' problems below. */
    for (const VkBaseInStructure *s = info->pNext; s != NULL; s = s->pNext)
        if (s->sType == VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT &&
            ((const VkDebugUtilsMessengerCreateInfoEXT *)s)->pfnUserCallback != NULL)
            add_messenger(li, VK_NULL_HANDLE, (const VkDebugUtilsMessengerCreateInfoEXT *)s);
    struct settings_problems problems;
    settings_load(&li->settings, info->pNext, &problems);
    for (unsigned i = 0; i < problems.count; ++i)
        layer_warning(li, "preflight-settings", problems.text[i]);
    char message[1200];
    if (li->settings.log_file[0] != '\0') {
        li->log_file = fopen(li->settings.log_file, "a");
        if (li->log_file == NULL) {
            snprintf(message, sizeof(message), "cannot open log_file %s: %s", li->settings.log_file, strerror(errno));
            layer_warning(li, "preflight-settings", message);
        }
    }
    if (li->settings.target_limits[0] != '\0') {
        char error[512];
        if (!fleet_compute_limits_read(li->settings.target_limits, &li->targets, error, sizeof(error))) {
            snprintf(message, sizeof(message), "%s; target-limit checks are off", error);
            layer_warning(li, "preflight-settings", message);
        }
    }
    layer_register_instance(*instance, li);
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkDestroyInstance(VkInstance instance, const VkAllocationCallbacks *allocator)
{
    struct layer_instance *li = layer_instance_of(instance);
    if (li == NULL)
        return;
    PFN_vkDestroyInstance next = li->dispatch.DestroyInstance;
    layer_unregister(instance);
    next(instance, allocator);
    if (li->log_file)
        fclose(li->log_file);
    handle_map_destroy(&li->finding_counts, NULL);
    pthread_mutex_destroy(&li->messengers_lock);
    pthread_mutex_destroy(&li->findings_lock);
    free(li->messengers);
    free(li);
}

/* --- device -------------------------------------------------------------------------------------- */

static VkLayerDeviceCreateInfo *device_link(const VkDeviceCreateInfo *info)
{
    for (VkBaseInStructure *s = (VkBaseInStructure *)info->pNext; s != NULL; s = (VkBaseInStructure *)s->pNext) {
        VkLayerDeviceCreateInfo *link = (VkLayerDeviceCreateInfo *)s;
        if (s->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO)
            return link;
    }
    return NULL;
}

static bool device_has_extension(const struct layer_instance *li, VkPhysicalDevice physical, const char *name)
{
    uint32_t count = 0;
    if (li->dispatch.EnumerateDeviceExtensionProperties == NULL ||
        li->dispatch.EnumerateDeviceExtensionProperties(physical, NULL, &count, NULL) != VK_SUCCESS || count == 0 ||
        count > 4096)
        return false;
    VkExtensionProperties *all = calloc(count, sizeof(*all));
    bool found = false;
    if (all != NULL && li->dispatch.EnumerateDeviceExtensionProperties(physical, NULL, &count, all) >= VK_SUCCESS)
        for (uint32_t i = 0; i < count && !found; ++i)
            found = strcmp(all[i].extensionName, name) == 0;
    free(all);
    return found;
}

/* The sizes the device's subgroups may have: wherever it has subgroup size control (Vulkan 1.3,
 * or the extension supported, enabled or not: an app that varies sizes without enabling it is
 * wrong, but its subgroups still vary) any of [min, max], else the one size it reports. Unknown
 * (0) on a Vulkan 1.0 instance or device, where the query is not there. */
static void note_subgroup_sizes(const struct layer_instance *li, struct layer_device *ld)
{
    if (li->api_version < VK_API_VERSION_1_1 || ld->properties.apiVersion < VK_API_VERSION_1_1 ||
        li->dispatch.GetPhysicalDeviceProperties2 == NULL)
        return;
    bool size_control = ld->properties.apiVersion >= VK_API_VERSION_1_3 ||
                        device_has_extension(li, ld->physical, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
    VkPhysicalDeviceSubgroupSizeControlProperties control = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
    VkPhysicalDeviceSubgroupProperties subgroup = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES,
                                                   .pNext = size_control ? &control : NULL};
    VkPhysicalDeviceProperties2 properties = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                              .pNext = &subgroup};
    li->dispatch.GetPhysicalDeviceProperties2(ld->physical, &properties);
    if (size_control && control.minSubgroupSize != 0 && control.minSubgroupSize <= control.maxSubgroupSize) {
        ld->subgroup_min = control.minSubgroupSize;
        ld->subgroup_max = control.maxSubgroupSize;
    } else if (!size_control && subgroup.subgroupSize != 0) {
        ld->subgroup_min = ld->subgroup_max = subgroup.subgroupSize;
    }
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkCreateDevice(VkPhysicalDevice physical, const VkDeviceCreateInfo *info,
                                                          const VkAllocationCallbacks *allocator, VkDevice *device)
{
    struct layer_instance *li = layer_instance_of(physical);
    VkLayerDeviceCreateInfo *link = device_link(info);
    if (li == NULL || link == NULL || link->u.pLayerInfo == NULL)
        return VK_ERROR_INITIALIZATION_FAILED;
    PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    PFN_vkGetDeviceProcAddr next_gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
    PFN_vkCreateDevice next_create = (PFN_vkCreateDevice)next_gipa(li->instance, "vkCreateDevice");
    if (next_create == NULL)
        return VK_ERROR_INITIALIZATION_FAILED;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;
    VkResult result = next_create(physical, info, allocator, device);
    if (result != VK_SUCCESS)
        return result;

    struct layer_device *ld = calloc(1, sizeof(*ld));
    if (ld == NULL)
        return VK_SUCCESS;
    ld->device = *device;
    ld->instance = li;
    ld->physical = physical;
    layer_device_dispatch_load(&ld->dispatch, *device, next_gdpa);
    li->dispatch.GetPhysicalDeviceProperties(physical, &ld->properties);
    note_subgroup_sizes(li, ld);
    validate_device_created(ld);
    handle_map_init(&ld->names);
    handle_map_init(&ld->label_paths);
    layer_objects_init(ld);
    pthread_mutex_init(&ld->label_lock, NULL);
    layer_register_device(*device, ld);
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkDestroyDevice(VkDevice device, const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    if (ld == NULL)
        return;
    PFN_vkDestroyDevice next = ld->dispatch.DestroyDevice;
    layer_unregister(device);
    next(device, allocator);
    /* Objects the app did not destroy go with the device. Command buffers first: they hold
     * references to pipelines and sets. */
    validate_device_destroyed(ld);
    command_buffers_forgotten();
    layer_objects_free(ld);
    handle_map_destroy(&ld->names, free);
    handle_map_destroy(&ld->label_paths, free);
    pthread_mutex_destroy(&ld->label_lock);
    free(ld);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkSetDebugUtilsObjectNameEXT(VkDevice device,
                                                                        const VkDebugUtilsObjectNameInfoEXT *info)
{
    struct layer_device *ld = layer_device_of(device);
    if (ld == NULL)
        return VK_ERROR_EXTENSION_NOT_PRESENT;
    if (info != NULL && info->objectHandle != 0) {
        char *name = info->pObjectName && info->pObjectName[0] ? strdup(info->pObjectName) : NULL;
        char *old = handle_map_take(&ld->names, info->objectHandle);
        free(old);
        if (name)
            handle_map_put(&ld->names, info->objectHandle, name);
    }
    return ld->dispatch.SetDebugUtilsObjectNameEXT ? ld->dispatch.SetDebugUtilsObjectNameEXT(device, info) : VK_SUCCESS;
}

/* --- enumeration --------------------------------------------------------------------------------- */

static const VkLayerProperties layer_properties = {
    LAYER_NAME,
    VK_MAKE_API_VERSION(0, 1, 3, VK_HEADER_VERSION),
    1,
    "preflight: dispatch limits, aliasing, missing barriers and host races",
};

static VkResult copy_layer_properties(uint32_t *count, VkLayerProperties *properties)
{
    if (properties == NULL) {
        *count = 1;
        return VK_SUCCESS;
    }
    if (*count < 1)
        return VK_INCOMPLETE;
    properties[0] = layer_properties;
    *count = 1;
    return VK_SUCCESS;
}

LAYER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkEnumerateInstanceLayerProperties(uint32_t *count,
                                                                               VkLayerProperties *properties)
{
    return copy_layer_properties(count, properties);
}

LAYER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkEnumerateInstanceExtensionProperties(const char *layer, uint32_t *count,
                                                                                   VkExtensionProperties *properties)
{
    (void)properties;
    if (layer == NULL || strcmp(layer, LAYER_NAME) != 0)
        return VK_ERROR_LAYER_NOT_PRESENT;
    *count = 0; /* the layer adds no instance extension */
    return VK_SUCCESS;
}

LAYER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkEnumerateDeviceLayerProperties(VkPhysicalDevice physical, uint32_t *count,
                                                                             VkLayerProperties *properties)
{
    (void)physical;
    return copy_layer_properties(count, properties);
}

LAYER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkEnumerateDeviceExtensionProperties(VkPhysicalDevice physical,
                                                                                 const char *layer, uint32_t *count,
                                                                                 VkExtensionProperties *properties)
{
    if (layer != NULL && strcmp(layer, LAYER_NAME) == 0) {
        *count = 0;
        return VK_SUCCESS;
    }
    struct layer_instance *li = layer_instance_of(physical);
    if (li == NULL || li->dispatch.EnumerateDeviceExtensionProperties == NULL)
        return VK_ERROR_INITIALIZATION_FAILED;
    return li->dispatch.EnumerateDeviceExtensionProperties(physical, layer, count, properties);
}

/* --- vkGet*ProcAddr: our hook where we wrap the call, the next layer's function otherwise ------ */

static const struct layer_hook instance_hooks[] = {
    LAYER_HOOK(vkCreateInstance),
    LAYER_HOOK(vkDestroyInstance),
    LAYER_HOOK(vkCreateDevice),
    LAYER_HOOK(vkCreateDebugUtilsMessengerEXT),
    LAYER_HOOK(vkDestroyDebugUtilsMessengerEXT),
    {"vkEnumerateInstanceLayerProperties", (PFN_vkVoidFunction)vkEnumerateInstanceLayerProperties},
    {"vkEnumerateInstanceExtensionProperties", (PFN_vkVoidFunction)vkEnumerateInstanceExtensionProperties},
    {"vkEnumerateDeviceLayerProperties", (PFN_vkVoidFunction)vkEnumerateDeviceLayerProperties},
    {"vkEnumerateDeviceExtensionProperties", (PFN_vkVoidFunction)vkEnumerateDeviceExtensionProperties},
};
static const struct layer_hook glue_device_hooks[] = {
    LAYER_HOOK(vkDestroyDevice),
    LAYER_HOOK(vkSetDebugUtilsObjectNameEXT),
};

static PFN_vkVoidFunction find_in(const struct layer_hook *hooks, size_t count, const char *name)
{
    for (size_t i = 0; i < count; ++i)
        if (strcmp(hooks[i].name, name) == 0)
            return hooks[i].function;
    return NULL;
}

static PFN_vkVoidFunction find_device_hook(const char *name)
{
    const struct {
        const struct layer_hook *hooks;
        size_t count;
    } tables[] = {
        {glue_device_hooks, sizeof(glue_device_hooks) / sizeof(glue_device_hooks[0])},
        {resource_hooks, resource_hook_count},
        {descriptor_hooks, descriptor_hook_count},
        {pipeline_hooks, pipeline_hook_count},
        {command_hooks, command_hook_count},
        {transfer_hooks, transfer_hook_count},
        {swapchain_hooks, swapchain_hook_count},
        {queue_hooks, queue_hook_count},
        {rendering_hooks, rendering_hook_count},
    };
    for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); ++t) {
        PFN_vkVoidFunction f = find_in(tables[t].hooks, tables[t].count, name);
        if (f != NULL)
            return f;
    }
    /* a KHR/EXT alias shares its core command's hook: the dispatch table fills either name from
     * the other (registry/codegen/gen_dispatch.py), so the hook's call down works for both */
    const char *core = layer_dispatch_alias_of(name);
    return core != NULL ? find_device_hook(core) : NULL;
}

LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device, const char *name);

LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance, const char *name)
{
    if (name == NULL)
        return NULL;
    if (strcmp(name, "vkGetInstanceProcAddr") == 0)
        return (PFN_vkVoidFunction)vkGetInstanceProcAddr;
    if (strcmp(name, "vkGetDeviceProcAddr") == 0)
        return (PFN_vkVoidFunction)vkGetDeviceProcAddr;
    PFN_vkVoidFunction hook = find_in(instance_hooks, sizeof(instance_hooks) / sizeof(instance_hooks[0]), name);
    struct layer_instance *li = layer_instance_of(instance);
    if (hook == NULL)
        hook = find_device_hook(name);
    if (hook != NULL) {
        /* Only where the chain below has the function: otherwise the app must see NULL. */
        if (instance == VK_NULL_HANDLE || li == NULL || strcmp(name, "vkCreateInstance") == 0 ||
            li->dispatch.GetInstanceProcAddr(instance, name) != NULL)
            return hook;
        return NULL;
    }
    return li ? li->dispatch.GetInstanceProcAddr(instance, name) : NULL;
}

LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device, const char *name)
{
    if (name == NULL)
        return NULL;
    if (strcmp(name, "vkGetDeviceProcAddr") == 0)
        return (PFN_vkVoidFunction)vkGetDeviceProcAddr;
    struct layer_device *ld = layer_device_of(device);
    if (ld == NULL)
        return NULL;
    PFN_vkVoidFunction next = ld->dispatch.GetDeviceProcAddr(device, name);
    PFN_vkVoidFunction hook = find_device_hook(name);
    return hook != NULL && next != NULL ? hook : next;
}

LAYER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *interface)
{
    if (interface == NULL || interface->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT)
        return VK_ERROR_INITIALIZATION_FAILED;
    if (interface->loaderLayerInterfaceVersion > 2)
        interface->loaderLayerInterfaceVersion = 2;
    interface->pfnGetInstanceProcAddr = vkGetInstanceProcAddr;
    interface->pfnGetDeviceProcAddr = vkGetDeviceProcAddr;
    interface->pfnGetPhysicalDeviceProcAddr = NULL;
    return VK_SUCCESS;
}
