/* A small Vulkan application for the layer's integration tests: each scenario is a correct
 * program or one with a known limit bug. It prints every debug-utils message it receives, one
 * line each, so a test script can assert what the layer said (and that it said nothing else):
 *   FINDING <pMessageIdName> <messageIdNumber> <ERROR|WARNING> objects=<n> names=<a,b> labels=<outer>/<inner>: <message>
 * Usage: layer_app SCENARIO [--enable-in-app] [--chain-messenger] [--threads N] [--setting KEY=TEXT]
 *                  [--setting-uint KEY=N]  (VkLayerSettingsCreateInfoEXT for VK_LAYER_PREFLIGHT_validation)
 * Scenarios: clean, group-count, dispatch-base, zero, workgroup-size, invocations, shared-memory,
 * indirect, indirect-gpu-written, target, stress, the scenarios of layer_app_alias.c (alias and
 * binding), layer_app_hazard.c, layer_app_host.c and layer_app_lifetime.c (lifetime and dispatch
 * coverage). */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

#include "layer_app.h"
#include "layer_settings_ext.h"
#include "layer_test_spirv.h"

static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;
static int messages;

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT type,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    (void)type;
    (void)user;
    if (severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)
        return VK_FALSE;
    pthread_mutex_lock(&print_lock);
    ++messages;
    const char *id = data->pMessageIdName ? data->pMessageIdName : "(none)";
    printf("%s %s %d %s objects=%u names=", strncmp(id, "PREFLIGHT-", 10) == 0 ? "FINDING" : "OTHER", id,
           data->messageIdNumber, severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "ERROR" : "WARNING",
           data->objectCount);
    for (uint32_t i = 0; i < data->objectCount; ++i)
        printf("%s%s", i ? "," : "", data->pObjects[i].pObjectName ? data->pObjects[i].pObjectName : "-");
    printf(" labels=");
    for (uint32_t i = data->cmdBufLabelCount; i-- > 0;)
        printf("%s%s", data->pCmdBufLabels[i].pLabelName, i ? "/" : "");
    printf(": %s\n", data->pMessage);
    fflush(stdout);
    pthread_mutex_unlock(&print_lock);
    return VK_FALSE;
}

/* --setting KEY=TEXT and --setting-uint KEY=N: VK_EXT_layer_settings, as an engine configures the
 * layer from code (layer_settings_ext.h declares it: newer than Debian 12's headers). */
static VkLayerSettingEXT settings[8];
static char setting_names[8][64];
static const char *setting_texts[8];
static uint32_t setting_numbers[8];
static uint32_t setting_count;

static void add_setting(const char *arg, bool number)
{
    const char *equals = strchr(arg, '=');
    if (equals == NULL || setting_count == 8 || (size_t)(equals - arg) >= sizeof(setting_names[0]))
        return;
    uint32_t i = setting_count++;
    snprintf(setting_names[i], sizeof(setting_names[i]), "%.*s", (int)(equals - arg), arg);
    setting_texts[i] = equals + 1;
    setting_numbers[i] = (uint32_t)strtoul(equals + 1, NULL, 10);
    settings[i] = (VkLayerSettingEXT){"VK_LAYER_PREFLIGHT_validation", setting_names[i],
                                      number ? VK_LAYER_SETTING_TYPE_UINT32_EXT : VK_LAYER_SETTING_TYPE_STRING_EXT, 1,
                                      number ? (const void *)&setting_numbers[i] : (const void *)&setting_texts[i]};
}

static void create_app(struct app *a, bool enable_in_app, bool chain_messenger)
{
    VkDebugUtilsMessengerCreateInfoEXT messenger_info = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity =
            VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = on_message,
    };
    const char *extensions[3] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
    uint32_t extension_count = 1;
    /* a surface without a window, where the driver has it, for the swapchain scenarios */
    uint32_t available = 0;
    vkEnumerateInstanceExtensionProperties(NULL, &available, NULL);
    VkExtensionProperties *props = calloc(available ? available : 1, sizeof(*props));
    vkEnumerateInstanceExtensionProperties(NULL, &available, props);
    bool headless = false, surface = false;
    for (uint32_t i = 0; i < available; ++i) {
        headless = headless || strcmp(props[i].extensionName, "VK_EXT_headless_surface") == 0;
        surface = surface || strcmp(props[i].extensionName, VK_KHR_SURFACE_EXTENSION_NAME) == 0;
    }
    free(props);
    if (headless && surface) {
        extensions[extension_count++] = VK_KHR_SURFACE_EXTENSION_NAME;
        extensions[extension_count++] = "VK_EXT_headless_surface";
    }
    const char *layers[] = {"VK_LAYER_PREFLIGHT_validation"};
    VkApplicationInfo app_info = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_3};
    VkLayerSettingsCreateInfoEXT settings_info = {
        .sType = VK_STRUCTURE_TYPE_LAYER_SETTINGS_CREATE_INFO_EXT,
        .pNext = chain_messenger ? &messenger_info : NULL,
        .settingCount = setting_count,
        .pSettings = settings,
    };
    VkInstanceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pNext = setting_count     ? (const void *)&settings_info
                 : chain_messenger ? (const void *)&messenger_info
                                   : NULL,
        .pApplicationInfo = &app_info,
        .enabledLayerCount = enable_in_app ? 1 : 0,
        .ppEnabledLayerNames = layers,
        .enabledExtensionCount = extension_count,
        .ppEnabledExtensionNames = extensions,
    };
    CHECK(vkCreateInstance(&info, NULL, &a->instance));
    a->headless = extension_count == 3;
    if (!chain_messenger) {
        PFN_vkCreateDebugUtilsMessengerEXT create =
            (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(a->instance, "vkCreateDebugUtilsMessengerEXT");
        CHECK(create(a->instance, &messenger_info, NULL, &a->messenger));
    }
    uint32_t count = 1;
    VkResult r = vkEnumeratePhysicalDevices(a->instance, &count, &a->physical);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || count == 0) {
        fprintf(stderr, "no device\n");
        exit(3);
    }
    vkGetPhysicalDeviceProperties(a->physical, &a->properties);
    uint32_t families = 8;
    VkQueueFamilyProperties fp[8];
    vkGetPhysicalDeviceQueueFamilyProperties(a->physical, &families, fp);
    for (a->family = 0; a->family < families && !(fp[a->family].queueFlags & VK_QUEUE_COMPUTE_BIT); ++a->family)
        ;
    float priorities[2] = {1, 1};
    /* two queues where the family has them, for the cross-queue scenarios */
    uint32_t queue_count = a->family < families && fp[a->family].queueCount >= 2 ? 2 : 1;
    VkDeviceQueueCreateInfo queue = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                     .queueFamilyIndex = a->family,
                                     .queueCount = queue_count,
                                     .pQueuePriorities = priorities};
    /* synchronization2 (core in 1.3, still a feature to enable) for the vkCmdPipelineBarrier2 scenario,
     * timeline semaphores (core in 1.2) for the submit scenarios */
    VkPhysicalDeviceVulkan12Features features12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan13Features features13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                                   .pNext = &features12};
    VkPhysicalDeviceFeatures2 features = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &features13};
    if (a->properties.apiVersion >= VK_API_VERSION_1_3)
        vkGetPhysicalDeviceFeatures2(a->physical, &features);
    VkPhysicalDeviceVulkan12Features enabled12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                                  .timelineSemaphore = features12.timelineSemaphore,
                                                  .descriptorBindingStorageBufferUpdateAfterBind =
                                                      features12.descriptorBindingStorageBufferUpdateAfterBind};
    a->update_after_bind = features12.descriptorBindingStorageBufferUpdateAfterBind;
    VkPhysicalDeviceVulkan13Features enabled13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                                  .synchronization2 = features13.synchronization2,
                                                  .dynamicRendering = features13.dynamicRendering,
                                                  .pNext = &enabled12};
    a->timeline = features12.timelineSemaphore;
    a->dynamic_rendering = features13.dynamicRendering;
    /* fragment-shader stores, for the subpass scenarios */
    VkPhysicalDeviceFeatures core_features;
    vkGetPhysicalDeviceFeatures(a->physical, &core_features);
    VkPhysicalDeviceFeatures enabled_core = {.fragmentStoresAndAtomics = core_features.fragmentStoresAndAtomics};
    a->fragment_stores = core_features.fragmentStoresAndAtomics;
    const char *device_extensions[2];
    uint32_t device_extension_count = 0;
    uint32_t device_available = 0;
    vkEnumerateDeviceExtensionProperties(a->physical, NULL, &device_available, NULL);
    VkExtensionProperties *dprops = calloc(device_available ? device_available : 1, sizeof(*dprops));
    vkEnumerateDeviceExtensionProperties(a->physical, NULL, &device_available, dprops);
    bool swapchain = false, copy2 = false;
    for (uint32_t i = 0; i < device_available; ++i) {
        swapchain = swapchain || strcmp(dprops[i].extensionName, VK_KHR_SWAPCHAIN_EXTENSION_NAME) == 0;
        copy2 = copy2 || strcmp(dprops[i].extensionName, "VK_KHR_copy_commands2") == 0;
    }
    free(dprops);
    a->headless = a->headless && swapchain;
    if (a->headless)
        device_extensions[device_extension_count++] = VK_KHR_SWAPCHAIN_EXTENSION_NAME;
    if (copy2) /* for hazard-copy2-khr: a KHR alias of a core command */
        device_extensions[device_extension_count++] = "VK_KHR_copy_commands2";
    VkDeviceCreateInfo device_info = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                                      .queueCreateInfoCount = 1,
                                      .enabledExtensionCount = device_extension_count,
                                      .ppEnabledExtensionNames = device_extensions,
                                      .pQueueCreateInfos = &queue,
                                      .pEnabledFeatures = &enabled_core,
                                      .pNext = a->properties.apiVersion >= VK_API_VERSION_1_3 ? &enabled13 : NULL};
    CHECK(vkCreateDevice(a->physical, &device_info, NULL, &a->device));
    vkGetDeviceQueue(a->device, a->family, 0, &a->queue);
    a->queue2 = VK_NULL_HANDLE;
    if (queue_count == 2)
        vkGetDeviceQueue(a->device, a->family, 1, &a->queue2);
    a->set_name = (PFN_vkSetDebugUtilsObjectNameEXT)vkGetDeviceProcAddr(a->device, "vkSetDebugUtilsObjectNameEXT");
    a->begin_label = (PFN_vkCmdBeginDebugUtilsLabelEXT)vkGetDeviceProcAddr(a->device, "vkCmdBeginDebugUtilsLabelEXT");
    a->end_label = (PFN_vkCmdEndDebugUtilsLabelEXT)vkGetDeviceProcAddr(a->device, "vkCmdEndDebugUtilsLabelEXT");
}

static void destroy_app(struct app *a)
{
    vkDestroyDevice(a->device, NULL);
    if (a->messenger) {
        PFN_vkDestroyDebugUtilsMessengerEXT destroy =
            (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(a->instance, "vkDestroyDebugUtilsMessengerEXT");
        destroy(a->instance, a->messenger, NULL);
    }
    vkDestroyInstance(a->instance, NULL);
}

uint32_t memory_type(struct app *a, uint32_t bits, VkMemoryPropertyFlags wanted)
{
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(a->physical, &mp);
    for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
        if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & wanted) == wanted)
            return i;
    exit(3);
}

struct buffer make_buffer(struct app *a, VkDeviceSize size, VkBufferUsageFlags usage)
{
    struct buffer b;
    VkBufferCreateInfo info = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size, .usage = usage};
    CHECK(vkCreateBuffer(a->device, &info, NULL, &b.buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(a->device, b.buffer, &req);
    VkMemoryAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = memory_type(a, req.memoryTypeBits,
                                       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT),
    };
    CHECK(vkAllocateMemory(a->device, &alloc, NULL, &b.memory));
    CHECK(vkBindBufferMemory(a->device, b.buffer, b.memory, 0));
    CHECK(vkMapMemory(a->device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped));
    memset(b.mapped, 0, size);
    return b;
}

void free_buffer(struct app *a, struct buffer *b)
{
    vkDestroyBuffer(a->device, b->buffer, NULL);
    vkFreeMemory(a->device, b->memory, NULL);
}

struct pipeline {
    VkShaderModule module;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkDescriptorPool pool;
    VkDescriptorSet set;
    VkPipeline pipeline;
};

/* spec: local size x, y, z and the shared word count (limits.comp), or NULL (noop.comp). */
static struct pipeline make_pipeline(struct app *a, const uint32_t *spec, VkBuffer output)
{
    struct pipeline p = {0};
    VkShaderModuleCreateInfo module_info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = spec ? layer_test_spirv_limits_size : layer_test_spirv_noop_size,
        .pCode = spec ? layer_test_spirv_limits : layer_test_spirv_noop,
    };
    CHECK(vkCreateShaderModule(a->device, &module_info, NULL, &p.module));
    VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkDescriptorSetLayoutCreateInfo set_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = 1, .pBindings = &binding};
    CHECK(vkCreateDescriptorSetLayout(a->device, &set_info, NULL, &p.set_layout));
    VkPipelineLayoutCreateInfo layout_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1, .pSetLayouts = &p.set_layout};
    CHECK(vkCreatePipelineLayout(a->device, &layout_info, NULL, &p.layout));
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
    VkDescriptorPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &size};
    CHECK(vkCreateDescriptorPool(a->device, &pool_info, NULL, &p.pool));
    VkDescriptorSetAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                         .descriptorPool = p.pool,
                                         .descriptorSetCount = 1,
                                         .pSetLayouts = &p.set_layout};
    CHECK(vkAllocateDescriptorSets(a->device, &alloc, &p.set));
    VkDescriptorBufferInfo buffer_info = {output, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet write = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                  .dstSet = p.set,
                                  .descriptorCount = 1,
                                  .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                  .pBufferInfo = &buffer_info};
    vkUpdateDescriptorSets(a->device, 1, &write, 0, NULL);
    VkSpecializationMapEntry entries[4];
    for (uint32_t i = 0; i < 4; ++i)
        entries[i] = (VkSpecializationMapEntry){i, i * 4, 4};
    VkSpecializationInfo spec_info = {4, entries, 16, spec};
    VkComputePipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .flags = VK_PIPELINE_CREATE_DISPATCH_BASE_BIT, /* vkCmdDispatchBase with a non-zero base needs it */
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = p.module,
                  .pName = "main",
                  .pSpecializationInfo = spec ? &spec_info : NULL},
        .layout = p.layout,
    };
    /* A pipeline past the limits is invalid usage: the driver may refuse it, which is fine here. */
    if (vkCreateComputePipelines(a->device, VK_NULL_HANDLE, 1, &info, NULL, &p.pipeline) != VK_SUCCESS)
        p.pipeline = VK_NULL_HANDLE;
    return p;
}

static void free_pipeline(struct app *a, struct pipeline *p)
{
    vkDestroyPipeline(a->device, p->pipeline, NULL);
    vkDestroyDescriptorPool(a->device, p->pool, NULL);
    vkDestroyPipelineLayout(a->device, p->layout, NULL);
    vkDestroyDescriptorSetLayout(a->device, p->set_layout, NULL);
    vkDestroyShaderModule(a->device, p->module, NULL);
}

struct recording begin(struct app *a, const char *name)
{
    struct recording r;
    VkCommandPoolCreateInfo pool_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                         .queueFamilyIndex = a->family};
    CHECK(vkCreateCommandPool(a->device, &pool_info, NULL, &r.pool));
    VkCommandBufferAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                         .commandPool = r.pool,
                                         .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                         .commandBufferCount = 1};
    CHECK(vkAllocateCommandBuffers(a->device, &alloc, &r.cb));
    if (name && a->set_name) {
        VkDebugUtilsObjectNameInfoEXT n = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
                                           .objectType = VK_OBJECT_TYPE_COMMAND_BUFFER,
                                           .objectHandle = (uint64_t)(uintptr_t)r.cb,
                                           .pObjectName = name};
        a->set_name(a->device, &n);
    }
    VkCommandBufferBeginInfo info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                     .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    CHECK(vkBeginCommandBuffer(r.cb, &info));
    return r;
}

void label(struct app *a, VkCommandBuffer cb, const char *text)
{
    VkDebugUtilsLabelEXT l = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, .pLabelName = text};
    a->begin_label(cb, &l);
}

static void bind(VkCommandBuffer cb, struct pipeline *p)
{
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, 0, 1, &p->set, 0, NULL);
}

/* Orders one compute dispatch's shader writes before the next one's accesses. */
static void compute_barrier(VkCommandBuffer cb)
{
    VkMemoryBarrier barrier = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                               .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                               .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                                                VK_ACCESS_INDIRECT_COMMAND_READ_BIT};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT, 0, 1, &barrier, 0,
                         NULL, 0, NULL);
}

/* Ends, optionally submits and waits, then frees the recording. */
void finish(struct app *a, struct recording *r, bool submit)
{
    CHECK(vkEndCommandBuffer(r->cb));
    if (submit) {
        VkSubmitInfo info = {
            .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &r->cb};
        CHECK(vkQueueSubmit(a->queue, 1, &info, VK_NULL_HANDLE));
        CHECK(vkQueueWaitIdle(a->queue));
    }
    vkDestroyCommandPool(a->device, r->pool, NULL);
}

/* The largest workgroup the device allows, shaped within its per-dimension maxima. */
static void max_shape(const VkPhysicalDeviceLimits *l, uint32_t size[3])
{
    uint32_t n = l->maxComputeWorkGroupInvocations;
    size[0] = n < l->maxComputeWorkGroupSize[0] ? n : l->maxComputeWorkGroupSize[0];
    size[1] = n / size[0] < l->maxComputeWorkGroupSize[1] ? n / size[0] : l->maxComputeWorkGroupSize[1];
    size[2] = n / (size[0] * size[1]) < l->maxComputeWorkGroupSize[2] ? n / (size[0] * size[1])
                                                                      : l->maxComputeWorkGroupSize[2];
}

static void scenario_clean(struct app *a)
{
    const VkPhysicalDeviceLimits *l = &a->properties.limits;
    struct buffer out = make_buffer(a, 1 << 20, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    struct buffer args = make_buffer(a, 64, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
    uint32_t spec[4];
    max_shape(l, spec);
    spec[3] = l->maxComputeSharedMemorySize / 4; /* exactly the maximum */
    struct pipeline at_limits = make_pipeline(a, spec, out.buffer);
    struct pipeline noop = make_pipeline(a, NULL, out.buffer);
    ((uint32_t *)args.mapped)[0] = 7;
    ((uint32_t *)args.mapped)[1] = ((uint32_t *)args.mapped)[2] = 1;
    struct recording r = begin(a, "clean-cb");
    label(a, r.cb, "frame");
    bind(r.cb, &at_limits);
    vkCmdDispatch(r.cb, 2, 1, 1);
    compute_barrier(r.cb); /* every dispatch writes `out` */
    bind(r.cb, &noop);
    vkCmdDispatch(r.cb, l->maxComputeWorkGroupCount[0], 1, 1); /* exactly at the limit */
    compute_barrier(r.cb);
    vkCmdDispatchBase(r.cb, l->maxComputeWorkGroupCount[0] - 2, 0, 0, 2, 1, 1);
    compute_barrier(r.cb);
    vkCmdDispatchIndirect(r.cb, args.buffer, 0);
    a->end_label(r.cb);
    finish(a, &r, true);
    free_pipeline(a, &at_limits);
    free_pipeline(a, &noop);
    free_buffer(a, &out);
    free_buffer(a, &args);
}

static void scenario_groups(struct app *a, const char *which)
{
    const VkPhysicalDeviceLimits *l = &a->properties.limits;
    struct buffer out = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    struct pipeline noop = make_pipeline(a, NULL, out.buffer);
    struct recording r = begin(a, "main-cb");
    label(a, r.cb, "frame");
    label(a, r.cb, "bloom");
    bind(r.cb, &noop);
    if (strcmp(which, "group-count") == 0)
        vkCmdDispatch(r.cb, l->maxComputeWorkGroupCount[0] + 1, 1, 1);
    else if (strcmp(which, "dispatch-base") == 0)
        vkCmdDispatchBase(r.cb, l->maxComputeWorkGroupCount[0] - 1, 0, 0, 2, 1, 1);
    else
        vkCmdDispatch(r.cb, 0, 1, 1);
    a->end_label(r.cb);
    a->end_label(r.cb);
    finish(a, &r, false); /* recorded, never run: the device is not asked to do the impossible */
    free_pipeline(a, &noop);
    free_buffer(a, &out);
}

static void scenario_pipeline(struct app *a, const char *which)
{
    const VkPhysicalDeviceLimits *l = &a->properties.limits;
    struct buffer out = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    uint32_t spec[4] = {1, 1, 1, 1};
    if (strcmp(which, "workgroup-size") == 0)
        spec[2] = l->maxComputeWorkGroupSize[2] + 1; /* z over its own maximum; product stays small */
    else if (strcmp(which, "invocations") == 0) {
        spec[0] = l->maxComputeWorkGroupSize[0];
        spec[1] = l->maxComputeWorkGroupInvocations / spec[0] + 1; /* each within, the product not */
    } else if (strcmp(which, "shared-memory") == 0)
        spec[3] = l->maxComputeSharedMemorySize / 4 + 1;
    else if (strcmp(which, "target") == 0)
        spec[2] = 128; /* fine on lavapipe (z up to 1024), not on a device with maxComputeWorkGroupSize[2] = 64 */
    struct pipeline p = make_pipeline(a, spec, out.buffer);
    free_pipeline(a, &p);
    free_buffer(a, &out);
}

static void scenario_indirect(struct app *a, bool gpu_written)
{
    const VkPhysicalDeviceLimits *l = &a->properties.limits;
    struct buffer out = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    struct buffer args = make_buffer(a, 64, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    struct pipeline noop = make_pipeline(a, NULL, out.buffer);
    uint32_t *counts = args.mapped;
    counts[0] = l->maxComputeWorkGroupCount[0] + 1; /* what the host wrote; */
    counts[1] = counts[2] = 1;
    struct recording r = begin(a, "indirect-cb");
    if (gpu_written) {
        /* ... but here the GPU rewrites the arguments first: the host's view says nothing */
        vkCmdFillBuffer(r.cb, args.buffer, 0, 12, 1);
        VkMemoryBarrier barrier = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                   .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                   .dstAccessMask = VK_ACCESS_INDIRECT_COMMAND_READ_BIT};
        vkCmdPipelineBarrier(r.cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT, 0, 1, &barrier,
                             0, NULL, 0, NULL);
    }
    bind(r.cb, &noop);
    vkCmdDispatchIndirect(r.cb, args.buffer, 0);
    CHECK(vkEndCommandBuffer(r.cb));
    /* The layer reads the arguments at submit. lavapipe then runs the 65,536 one-invocation groups
     * (one past its limit) without harm, which keeps this test runnable in CI. */
    VkSubmitInfo info = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &r.cb};
    CHECK(vkQueueSubmit(a->queue, 1, &info, VK_NULL_HANDLE));
    CHECK(vkQueueWaitIdle(a->queue));
    vkDestroyCommandPool(a->device, r.pool, NULL);
    free_pipeline(a, &noop);
    free_buffer(a, &out);
    free_buffer(a, &args);
}

struct stress_job {
    struct app *a;
    struct pipeline *p;
    int buffers;
};

static void *stress_thread(void *user)
{
    struct stress_job *job = user;
    struct app *a = job->a;
    VkCommandPool pool;
    VkCommandPoolCreateInfo pool_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                         .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                         .queueFamilyIndex = a->family};
    CHECK(vkCreateCommandPool(a->device, &pool_info, NULL, &pool));
    for (int i = 0; i < job->buffers; ++i) {
        VkCommandBuffer cb;
        VkCommandBufferAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                             .commandPool = pool,
                                             .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                             .commandBufferCount = 1};
        CHECK(vkAllocateCommandBuffers(a->device, &alloc, &cb));
        VkCommandBufferBeginInfo begin_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        CHECK(vkBeginCommandBuffer(cb, &begin_info));
        label(a, cb, "stress");
        for (int d = 0; d < 8; ++d) {
            bind(cb, job->p);
            vkCmdDispatch(cb, 1 + (uint32_t)d, 1, 1);
            compute_barrier(cb);
        }
        a->end_label(cb);
        CHECK(vkEndCommandBuffer(cb));
        vkFreeCommandBuffers(a->device, pool, 1, &cb);
    }
    vkDestroyCommandPool(a->device, pool, NULL);
    return NULL;
}

static void scenario_stress(struct app *a, int threads)
{
    struct buffer out = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    struct pipeline p = make_pipeline(a, NULL, out.buffer);
    pthread_t ids[16];
    struct stress_job job = {a, &p, 1000};
    if (threads > 16)
        threads = 16;
    for (int t = 0; t < threads; ++t)
        pthread_create(&ids[t], NULL, stress_thread, &job);
    for (int t = 0; t < threads; ++t)
        pthread_join(ids[t], NULL);
    printf("recorded %d command buffers on %d threads\n", threads * job.buffers, threads);
    free_pipeline(a, &p);
    free_buffer(a, &out);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: layer_app SCENARIO [--enable-in-app] [--chain-messenger] [--threads N]\n");
        return 2;
    }
    bool enable_in_app = false, chain = false;
    int threads = 4;
    for (int i = 2; i < argc; ++i) {
        if (strcmp(argv[i], "--enable-in-app") == 0)
            enable_in_app = true;
        else if (strcmp(argv[i], "--chain-messenger") == 0)
            chain = true;
        else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (strcmp(argv[i], "--setting") == 0 && i + 1 < argc)
            add_setting(argv[++i], false);
        else if (strcmp(argv[i], "--setting-uint") == 0 && i + 1 < argc)
            add_setting(argv[++i], true);
    }
    struct app a = {0};
    create_app(&a, enable_in_app, chain);
    const char *s = argv[1];
    if (strcmp(s, "clean") == 0)
        scenario_clean(&a);
    else if (strcmp(s, "group-count") == 0 || strcmp(s, "dispatch-base") == 0 || strcmp(s, "zero") == 0)
        scenario_groups(&a, s);
    else if (strcmp(s, "workgroup-size") == 0 || strcmp(s, "invocations") == 0 || strcmp(s, "shared-memory") == 0 ||
             strcmp(s, "target") == 0)
        scenario_pipeline(&a, s);
    else if (strcmp(s, "indirect") == 0 || strcmp(s, "indirect-gpu-written") == 0)
        scenario_indirect(&a, strcmp(s, "indirect-gpu-written") == 0);
    else if (strcmp(s, "stress") == 0)
        scenario_stress(&a, threads);
    else if (!scenarios_alias(&a, s) && !scenarios_hazard(&a, s) && !scenarios_host(&a, s) &&
             !scenario_lifetime(&a, s) && !scenarios_hostile(&a, s) && !scenarios_exact(&a, s)) {
        fprintf(stderr, "unknown scenario %s\n", s);
        return 2;
    }
    destroy_app(&a);
    printf("done: %d messages\n", messages);
    return 0;
}
