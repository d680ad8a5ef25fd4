/* preflight-layer-control: the positive control of a run under VK_LAYER_PREFLIGHT_validation. It
 * records one known hazard — vkCmdFillBuffer writes a buffer that vkCmdCopyBuffer then reads, no
 * barrier between them — and passes only if the layer reports PREFLIGHT-hazard-read-after-write.
 * It enables no layer itself: it runs under the environment of the run (VK_INSTANCE_LAYERS or
 * VK_LOADER_LAYERS_ENABLE, VK_PREFLIGHT_VALIDATION_*, vk_layer_settings.txt), so a layer that is
 * not loaded or settings that turned the check off make it fail (docs/farm.md).
 * Usage: preflight-layer-control [--device N]
 * Exit: 0 the hazard was reported, 1 it was not, 2 bad usage or a Vulkan error. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

#define LAYER_NAME "VK_LAYER_PREFLIGHT_validation"
#define CONTROL_FINDING "PREFLIGHT-hazard-read-after-write"
#define BUFFER_BYTES 4096

static int control_findings, other_findings;

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT type,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    (void)severity;
    (void)type;
    (void)user;
    const char *id = data->pMessageIdName ? data->pMessageIdName : "";
    if (strcmp(id, CONTROL_FINDING) == 0)
        ++control_findings;
    else if (strncmp(id, "PREFLIGHT-", 10) == 0 || strcmp(id, "preflight-settings") == 0)
        ++other_findings;
    else
        return VK_FALSE;
    printf("message: %s: %s\n", id, data->pMessage);
    return VK_FALSE;
}

/* The layer as the loader lists it: what a run would load, or that it cannot. */
static void print_layer(void)
{
    uint32_t count = 0;
    vkEnumerateInstanceLayerProperties(&count, NULL);
    VkLayerProperties *layers = calloc(count + 1, sizeof(*layers));
    if (layers != NULL && vkEnumerateInstanceLayerProperties(&count, layers) >= VK_SUCCESS)
        for (uint32_t i = 0; i < count; ++i)
            if (strcmp(layers[i].layerName, LAYER_NAME) == 0) {
                printf("layer: %s known to the loader: implementation %u (%s)\n", LAYER_NAME,
                       layers[i].implementationVersion, layers[i].description);
                free(layers);
                return;
            }
    printf("layer: %s is not known to the loader\n", LAYER_NAME);
    free(layers);
}

static bool failed(VkResult result, const char *call)
{
    if (result >= VK_SUCCESS)
        return false;
    fprintf(stderr, "preflight-layer-control: %s failed (VkResult %d)\n", call, (int)result);
    return true;
}

/* Records the hazard on `physical`'s first queue family with transfer, and submits it. */
static bool record_hazard(VkPhysicalDevice physical)
{
    uint32_t family_count = 0, family = UINT32_MAX;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &family_count, NULL);
    VkQueueFamilyProperties families[32];
    family_count = family_count > 32 ? 32 : family_count;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &family_count, families);
    for (uint32_t i = 0; i < family_count && family == UINT32_MAX; ++i)
        if (families[i].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT))
            family = i;
    if (family == UINT32_MAX) {
        fprintf(stderr, "preflight-layer-control: the device has no queue that can fill and copy\n");
        return false;
    }
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_info = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                          .queueFamilyIndex = family,
                                          .queueCount = 1,
                                          .pQueuePriorities = &priority};
    VkDeviceCreateInfo device_info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = 1, .pQueueCreateInfos = &queue_info};
    VkDevice device = VK_NULL_HANDLE;
    if (failed(vkCreateDevice(physical, &device_info, NULL, &device), "vkCreateDevice"))
        return false;
    bool ok = false;
    VkBuffer buffers[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkCommandPool pool = VK_NULL_HANDLE;
    VkBufferCreateInfo buffer_info = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                                      .size = BUFFER_BYTES,
                                      .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT};
    for (int i = 0; i < 2; ++i)
        if (failed(vkCreateBuffer(device, &buffer_info, NULL, &buffers[i]), "vkCreateBuffer"))
            goto done;
    VkMemoryRequirements needs;
    vkGetBufferMemoryRequirements(device, buffers[0], &needs);
    VkDeviceSize stride = (needs.size + needs.alignment - 1) / needs.alignment * needs.alignment;
    uint32_t type = 0;
    while (type < 32 && !(needs.memoryTypeBits & (1u << type)))
        ++type;
    VkMemoryAllocateInfo allocate = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = 2 * stride, .memoryTypeIndex = type};
    if (type == 32 || failed(vkAllocateMemory(device, &allocate, NULL, &memory), "vkAllocateMemory") ||
        failed(vkBindBufferMemory(device, buffers[0], memory, 0), "vkBindBufferMemory") ||
        failed(vkBindBufferMemory(device, buffers[1], memory, stride), "vkBindBufferMemory"))
        goto done;
    VkCommandPoolCreateInfo pool_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                         .queueFamilyIndex = family};
    if (failed(vkCreateCommandPool(device, &pool_info, NULL, &pool), "vkCreateCommandPool"))
        goto done;
    VkCommandBufferAllocateInfo cb_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                           .commandPool = pool,
                                           .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                           .commandBufferCount = 1};
    VkCommandBuffer cb;
    VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                      .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    if (failed(vkAllocateCommandBuffers(device, &cb_info, &cb), "vkAllocateCommandBuffers") ||
        failed(vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer"))
        goto done;
    /* the known hazard: the copy reads what the fill wrote, with no barrier between them */
    vkCmdFillBuffer(cb, buffers[0], 0, BUFFER_BYTES, 1);
    VkBufferCopy region = {.size = BUFFER_BYTES};
    vkCmdCopyBuffer(cb, buffers[0], buffers[1], 1, &region);
    if (failed(vkEndCommandBuffer(cb), "vkEndCommandBuffer"))
        goto done;
    VkQueue queue;
    vkGetDeviceQueue(device, family, 0, &queue);
    VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb};
    ok = !failed(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit") &&
         !failed(vkQueueWaitIdle(queue), "vkQueueWaitIdle");
done:
    if (pool != VK_NULL_HANDLE)
        vkDestroyCommandPool(device, pool, NULL);
    for (int i = 0; i < 2; ++i)
        if (buffers[i] != VK_NULL_HANDLE)
            vkDestroyBuffer(device, buffers[i], NULL);
    if (memory != VK_NULL_HANDLE)
        vkFreeMemory(device, memory, NULL);
    vkDestroyDevice(device, NULL);
    return ok;
}

int main(int argc, char **argv)
{
    unsigned long device_index = 0;
    for (int i = 1; i < argc; ++i) {
        char *end = NULL;
        if (strcmp(argv[i], "--device") == 0 && i + 1 < argc)
            device_index = strtoul(argv[++i], &end, 10);
        if (strcmp(argv[i], "--help") == 0 || end == NULL || *end != '\0' || argv[i][0] == '\0') {
            fputs("usage: preflight-layer-control [--device N]\n"
                  "Records a known hazard (a copy reads what a fill wrote, no barrier) under the layers and\n"
                  "settings of the environment; exit 0 if " LAYER_NAME " reported\n" CONTROL_FINDING
                  ", 1 if not (the layer is not loaded or its settings turned the check off), 2 on an error.\n",
                  strcmp(argv[i], "--help") == 0 ? stdout : stderr);
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }
    print_layer();
    VkDebugUtilsMessengerCreateInfoEXT messenger = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
                                                    .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                                                       VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                                                    .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                                                   VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
                                                    .pfnUserCallback = on_message};
    const char *extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             .pApplicationName = "preflight-layer-control",
                             .apiVersion = VK_API_VERSION_1_1};
    VkInstanceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                 .pNext = &messenger,
                                 .pApplicationInfo = &app,
                                 .enabledExtensionCount = 1,
                                 .ppEnabledExtensionNames = extensions};
    VkInstance instance;
    if (failed(vkCreateInstance(&info, NULL, &instance), "vkCreateInstance (with VK_EXT_debug_utils)"))
        return 2;
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance, &count, NULL);
    VkPhysicalDevice physical[16];
    count = count > 16 ? 16 : count;
    vkEnumeratePhysicalDevices(instance, &count, physical);
    bool ran = false;
    if (device_index >= count)
        fprintf(stderr, "preflight-layer-control: no device %lu (%u devices)\n", device_index, count);
    else
        ran = record_hazard(physical[device_index]);
    vkDestroyInstance(instance, NULL);
    if (!ran)
        return 2;
    if (control_findings == 0) {
        printf("control: FAILED: the known hazard was not reported (%s): the layer is not loaded, or its settings "
               "turned the check off\n",
               CONTROL_FINDING);
        return 1;
    }
    printf("control: passed: the layer reported the known hazard (%s)\n", CONTROL_FINDING);
    return 0;
}
