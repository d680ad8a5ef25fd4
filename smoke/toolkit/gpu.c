#include "gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool gpu_check(struct gpu *gpu, VkResult result, const char *call)
{
    if (result == VK_SUCCESS)
        return true;
    if (gpu->error == VK_SUCCESS) {
        gpu->error = result;
        /* keep the function name only: "vkCreateBuffer(...)" -> "vkCreateBuffer" */
        size_t length = strcspn(call, "(");
        if (length >= sizeof(gpu->error_call))
            length = sizeof(gpu->error_call) - 1;
        memcpy(gpu->error_call, call, length);
        gpu->error_call[length] = '\0';
    }
    return false;
}

bool gpu_failed(const struct gpu *gpu)
{
    return gpu->error != VK_SUCCESS;
}

static bool has_extension(const VkExtensionProperties *list, uint32_t count, const char *name)
{
    for (uint32_t i = 0; i < count; ++i)
        if (strcmp(list[i].extensionName, name) == 0)
            return true;
    return false;
}

bool gpu_open(struct gpu *gpu, VkInstance instance, VkPhysicalDevice physical, uint32_t api_version,
              const struct gpu_options *options)
{
    gpu->instance = instance;
    gpu->physical = physical;
    gpu->api_version = api_version;
    vkGetPhysicalDeviceProperties(physical, &gpu->properties);
    vkGetPhysicalDeviceMemoryProperties(physical, &gpu->memory_properties);

    uint32_t family_count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &family_count, NULL);
    VkQueueFamilyProperties families[32];
    if (family_count > 32)
        family_count = 32;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &family_count, families);
    /* a family that draws too, where there is one: AmberScript files draw as well as dispatch */
    gpu->queue_family = UINT32_MAX;
    const VkQueueFlags both = VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT;
    for (uint32_t i = 0; i < family_count && gpu->queue_family == UINT32_MAX; ++i)
        if ((families[i].queueFlags & both) == both)
            gpu->queue_family = i;
    for (uint32_t i = 0; i < family_count && gpu->queue_family == UINT32_MAX; ++i)
        if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            gpu->queue_family = i;
    if (gpu->queue_family == UINT32_MAX)
        return gpu_check(gpu, VK_ERROR_FEATURE_NOT_PRESENT, "no queue family with VK_QUEUE_COMPUTE_BIT");
    gpu->timestamp_valid_bits = families[gpu->queue_family].timestampValidBits;

    uint32_t available_count = 0;
    vkEnumerateDeviceExtensionProperties(physical, NULL, &available_count, NULL);
    VkExtensionProperties *available = calloc(available_count ? available_count : 1, sizeof(*available));
    if (available == NULL)
        return gpu_check(gpu, VK_ERROR_OUT_OF_HOST_MEMORY, "calloc");
    vkEnumerateDeviceExtensionProperties(physical, NULL, &available_count, available);
    const char *enabled[GPU_MAX_EXTENSIONS];
    uint32_t enabled_count = 0;
    for (int i = 0; options != NULL && i < GPU_MAX_EXTENSIONS && options->extensions[i] != NULL; ++i)
        if (has_extension(available, available_count, options->extensions[i]))
            enabled[enabled_count++] = options->extensions[i];
    free(available);

    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = gpu->queue_family,
        .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    VkDeviceCreateInfo device_info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = options ? options->features_chain : NULL,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &queue_info,
        .enabledExtensionCount = enabled_count,
        .ppEnabledExtensionNames = enabled,
        .pEnabledFeatures = options ? &options->core : NULL,
    };
    if (!GPU_CHECK(gpu, vkCreateDevice(physical, &device_info, NULL, &gpu->device))) {
        gpu->device = VK_NULL_HANDLE;
        return false;
    }
    volkLoadDevice(gpu->device);
    vkGetDeviceQueue(gpu->device, gpu->queue_family, 0, &gpu->queue);

    VkCommandPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
        .queueFamilyIndex = gpu->queue_family,
    };
    if (!GPU_CHECK(gpu, vkCreateCommandPool(gpu->device, &pool_info, NULL, &gpu->command_pool)))
        return false;
    VkCommandBufferAllocateInfo cmd_info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = gpu->command_pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    if (!GPU_CHECK(gpu, vkAllocateCommandBuffers(gpu->device, &cmd_info, &gpu->cmd)))
        return false;
    VkFenceCreateInfo fence_info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    return GPU_CHECK(gpu, vkCreateFence(gpu->device, &fence_info, NULL, &gpu->fence));
}

void gpu_release(struct gpu *gpu)
{
    if (gpu->device == VK_NULL_HANDLE)
        return;
    /* Even after a failure the device must be idle before anything is destroyed. */
    vkDeviceWaitIdle(gpu->device);
    /* Acceleration structures first: they live in buffers destroyed below. */
    for (uint32_t i = gpu->acceleration_structure_count; i-- > 0;)
        vkDestroyAccelerationStructureKHR(gpu->device, gpu->acceleration_structures[i], NULL);
    gpu->acceleration_structure_count = 0;
    for (uint32_t i = 0; i < gpu->pipeline_count; ++i) {
        struct gpu_pipeline *p = gpu->pipelines[i];
        vkDestroyPipeline(gpu->device, p->pipeline, NULL);
        vkDestroyDescriptorPool(gpu->device, p->pool, NULL);
        vkDestroyPipelineLayout(gpu->device, p->layout, NULL);
        vkDestroyDescriptorSetLayout(gpu->device, p->set_layout, NULL);
        for (uint32_t m = 0; m < p->module_count; ++m)
            vkDestroyShaderModule(gpu->device, p->modules[m], NULL);
        free(p);
    }
    for (uint32_t i = 0; i < gpu->image_count; ++i) {
        struct gpu_image *image = gpu->images[i];
        vkDestroyImageView(gpu->device, image->view, NULL);
        vkDestroyImage(gpu->device, image->image, NULL);
        vkFreeMemory(gpu->device, image->memory, NULL);
        free(image);
    }
    for (uint32_t i = 0; i < gpu->buffer_count; ++i) {
        struct gpu_buffer *b = gpu->buffers[i];
        vkDestroyBuffer(gpu->device, b->buffer, NULL);
        vkFreeMemory(gpu->device, b->memory, NULL); /* unmaps too */
        free(b);
    }
    for (uint32_t i = 0; i < gpu->query_pool_count; ++i)
        vkDestroyQueryPool(gpu->device, gpu->query_pools[i], NULL);
    gpu->pipeline_count = gpu->image_count = gpu->buffer_count = gpu->query_pool_count = 0;
    gpu->corrupt_readback = false;
    gpu->declared = NULL;
}

void gpu_close(struct gpu *gpu)
{
    if (gpu->device == VK_NULL_HANDLE)
        return;
    gpu_release(gpu);
    vkDestroyFence(gpu->device, gpu->fence, NULL);
    vkDestroyCommandPool(gpu->device, gpu->command_pool, NULL);
    vkDestroyDevice(gpu->device, NULL);
    gpu->device = VK_NULL_HANDLE;
}

static uint32_t find_memory_type(const struct gpu *gpu, uint32_t allowed, VkMemoryPropertyFlags wanted)
{
    for (uint32_t i = 0; i < gpu->memory_properties.memoryTypeCount; ++i)
        if ((allowed & (1u << i)) && (gpu->memory_properties.memoryTypes[i].propertyFlags & wanted) == wanted)
            return i;
    return UINT32_MAX;
}

static bool allocate(struct gpu *gpu, VkMemoryRequirements req, VkMemoryPropertyFlags wanted, bool device_address,
                     VkDeviceMemory *memory)
{
    uint32_t type = find_memory_type(gpu, req.memoryTypeBits, wanted);
    if (type == UINT32_MAX)
        type = find_memory_type(gpu, req.memoryTypeBits, 0);
    if (type == UINT32_MAX)
        return gpu_check(gpu, VK_ERROR_OUT_OF_DEVICE_MEMORY, "no memory type for the allocation");
    VkMemoryAllocateFlagsInfo flags = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
        .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
    };
    VkMemoryAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .pNext = device_address ? &flags : NULL,
        .allocationSize = req.size,
        .memoryTypeIndex = type,
    };
    return GPU_CHECK(gpu, vkAllocateMemory(gpu->device, &info, NULL, memory));
}

struct gpu_buffer *gpu_buffer_create(struct gpu *gpu, VkDeviceSize size, uint8_t fill)
{
    return gpu_buffer_create_with_usage(gpu, size, 0, fill);
}

struct gpu_buffer *gpu_buffer_create_with_usage(struct gpu *gpu, VkDeviceSize size, VkBufferUsageFlags usage,
                                                uint8_t fill)
{
    if (gpu_failed(gpu) || gpu->buffer_count == GPU_MAX_OBJECTS)
        return NULL;
    struct gpu_buffer *b = calloc(1, sizeof(*b));
    if (b == NULL)
        return NULL;
    gpu->buffers[gpu->buffer_count++] = b;
    b->size = size;
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                 VK_BUFFER_USAGE_TRANSFER_DST_BIT | usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    if (!GPU_CHECK(gpu, vkCreateBuffer(gpu->device, &info, NULL, &b->buffer)))
        return NULL;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(gpu->device, b->buffer, &req);
    bool device_address = (usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) != 0;
    if (!allocate(gpu, req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, device_address,
                  &b->memory) ||
        !GPU_CHECK(gpu, vkBindBufferMemory(gpu->device, b->buffer, b->memory, 0)) ||
        !GPU_CHECK(gpu, vkMapMemory(gpu->device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->mapped)))
        return NULL;
    memset(b->mapped, fill, (size_t)size);
    return b;
}

VkDeviceAddress gpu_buffer_address(struct gpu *gpu, const struct gpu_buffer *b)
{
    if (gpu_failed(gpu) || b == NULL)
        return 0;
    VkBufferDeviceAddressInfo info = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = b->buffer};
    return vkGetBufferDeviceAddress ? vkGetBufferDeviceAddress(gpu->device, &info)
                                    : vkGetBufferDeviceAddressKHR(gpu->device, &info);
}

struct gpu_image *gpu_image_create(struct gpu *gpu, VkFormat format, uint32_t width, uint32_t height,
                                   VkImageUsageFlags usage)
{
    VkImageCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = format,
        .extent = {width, height, 1},
        .mipLevels = 1,
        .arrayLayers = 1,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    return gpu_image_create_from(gpu, &info, VK_IMAGE_ASPECT_COLOR_BIT);
}

struct gpu_image *gpu_image_create_from(struct gpu *gpu, const VkImageCreateInfo *info, VkImageAspectFlags aspect)
{
    if (gpu_failed(gpu) || gpu->image_count == GPU_MAX_OBJECTS)
        return NULL;
    struct gpu_image *image = calloc(1, sizeof(*image));
    if (image == NULL)
        return NULL;
    gpu->images[gpu->image_count++] = image;
    image->format = info->format;
    image->width = info->extent.width;
    image->height = info->extent.height;
    image->depth = info->extent.depth;
    image->mip_levels = info->mipLevels;
    image->aspect = aspect;
    if (!GPU_CHECK(gpu, vkCreateImage(gpu->device, info, NULL, &image->image)))
        return NULL;
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(gpu->device, image->image, &req);
    if (!allocate(gpu, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, false, &image->memory) ||
        !GPU_CHECK(gpu, vkBindImageMemory(gpu->device, image->image, image->memory, 0)))
        return NULL;
    static const VkImageViewType view_types[] = {VK_IMAGE_VIEW_TYPE_1D, VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_VIEW_TYPE_3D};
    VkImageViewCreateInfo view_info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = image->image,
        .viewType = view_types[info->imageType],
        .format = info->format,
        /* a view of depth and stencil together is of the depth alone (the spec's rule for sampling) */
        .subresourceRange = {(aspect & VK_IMAGE_ASPECT_DEPTH_BIT) ? VK_IMAGE_ASPECT_DEPTH_BIT : aspect, 0,
                             info->mipLevels, 0, 1},
    };
    if (!GPU_CHECK(gpu, vkCreateImageView(gpu->device, &view_info, NULL, &image->view)))
        return NULL;
    return image;
}

struct gpu_pipeline *gpu_pipeline_new(struct gpu *gpu, const VkDescriptorType *bindings, uint32_t binding_count,
                                      VkShaderStageFlags stages, uint32_t push_size)
{
    if (gpu_failed(gpu) || gpu->pipeline_count == GPU_MAX_OBJECTS || binding_count > 8)
        return NULL;
    struct gpu_pipeline *p = calloc(1, sizeof(*p));
    if (p == NULL)
        return NULL;
    gpu->pipelines[gpu->pipeline_count++] = p;
    p->push_size = push_size;

    VkDescriptorSetLayoutBinding layout_bindings[8];
    VkDescriptorPoolSize pool_sizes[8];
    for (uint32_t i = 0; i < binding_count; ++i) {
        layout_bindings[i] = (VkDescriptorSetLayoutBinding){
            .binding = i,
            .descriptorType = bindings[i],
            .descriptorCount = 1,
            .stageFlags = stages,
        };
        pool_sizes[i] = (VkDescriptorPoolSize){bindings[i], 1};
    }
    VkDescriptorSetLayoutCreateInfo set_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = binding_count,
        .pBindings = layout_bindings,
    };
    if (!GPU_CHECK(gpu, vkCreateDescriptorSetLayout(gpu->device, &set_info, NULL, &p->set_layout)))
        return NULL;
    VkPushConstantRange push_range = {stages, 0, push_size};
    VkPipelineLayoutCreateInfo layout_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &p->set_layout,
        .pushConstantRangeCount = push_size ? 1 : 0,
        .pPushConstantRanges = &push_range,
    };
    if (!GPU_CHECK(gpu, vkCreatePipelineLayout(gpu->device, &layout_info, NULL, &p->layout)))
        return NULL;
    if (binding_count > 0) {
        VkDescriptorPoolCreateInfo pool_info = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
            .maxSets = 1,
            .poolSizeCount = binding_count,
            .pPoolSizes = pool_sizes,
        };
        if (!GPU_CHECK(gpu, vkCreateDescriptorPool(gpu->device, &pool_info, NULL, &p->pool)))
            return NULL;
        VkDescriptorSetAllocateInfo alloc_info = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
            .descriptorPool = p->pool,
            .descriptorSetCount = 1,
            .pSetLayouts = &p->set_layout,
        };
        if (!GPU_CHECK(gpu, vkAllocateDescriptorSets(gpu->device, &alloc_info, &p->set)))
            return NULL;
    }
    return p;
}

VkShaderModule gpu_pipeline_add_module(struct gpu *gpu, struct gpu_pipeline *p, const uint32_t *code, size_t size)
{
    if (gpu_failed(gpu) || p == NULL || p->module_count == 3)
        return VK_NULL_HANDLE;
    VkShaderModuleCreateInfo module_info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = size,
        .pCode = code,
    };
    VkShaderModule module = VK_NULL_HANDLE;
    if (!GPU_CHECK(gpu, vkCreateShaderModule(gpu->device, &module_info, NULL, &module)))
        return VK_NULL_HANDLE;
    p->modules[p->module_count++] = module;
    return module;
}

struct gpu_pipeline *gpu_pipeline_create(struct gpu *gpu, const uint32_t *code, size_t code_size,
                                         const VkDescriptorType *bindings, uint32_t binding_count, uint32_t push_size,
                                         const uint32_t *spec_values, uint32_t spec_count,
                                         uint32_t required_subgroup_size)
{
    if (spec_count > 8)
        return NULL;
    struct gpu_pipeline *p = gpu_pipeline_new(gpu, bindings, binding_count, VK_SHADER_STAGE_COMPUTE_BIT, push_size);
    VkShaderModule module = gpu_pipeline_add_module(gpu, p, code, code_size);
    if (module == VK_NULL_HANDLE)
        return NULL;

    VkSpecializationMapEntry entries[8];
    for (uint32_t i = 0; i < spec_count; ++i)
        entries[i] = (VkSpecializationMapEntry){i, i * (uint32_t)sizeof(uint32_t), sizeof(uint32_t)};
    VkSpecializationInfo spec = {
        .mapEntryCount = spec_count,
        .pMapEntries = entries,
        .dataSize = spec_count * sizeof(uint32_t),
        .pData = spec_values,
    };
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfoEXT subgroup = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO_EXT,
        .requiredSubgroupSize = required_subgroup_size,
    };
    VkComputePipelineCreateInfo pipeline_info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage =
            {
                .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .pNext = required_subgroup_size ? &subgroup : NULL,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .module = module,
                .pName = "main",
                .pSpecializationInfo = spec_count ? &spec : NULL,
            },
        .layout = p->layout,
    };
    if (!GPU_CHECK(gpu, vkCreateComputePipelines(gpu->device, VK_NULL_HANDLE, 1, &pipeline_info, NULL, &p->pipeline)))
        return NULL;
    return p;
}

void gpu_bind_buffer(struct gpu *gpu, struct gpu_pipeline *p, uint32_t binding, const struct gpu_buffer *b)
{
    if (gpu_failed(gpu) || p == NULL || b == NULL)
        return;
    VkDescriptorBufferInfo info = {b->buffer, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet write = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = p->set,
        .dstBinding = binding,
        .descriptorCount = 1,
        .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
        .pBufferInfo = &info,
    };
    vkUpdateDescriptorSets(gpu->device, 1, &write, 0, NULL);
}

void gpu_bind_image(struct gpu *gpu, struct gpu_pipeline *p, uint32_t binding, const struct gpu_image *image)
{
    if (gpu_failed(gpu) || p == NULL || image == NULL)
        return;
    VkDescriptorImageInfo info = {VK_NULL_HANDLE, image->view, VK_IMAGE_LAYOUT_GENERAL};
    VkWriteDescriptorSet write = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = p->set,
        .dstBinding = binding,
        .descriptorCount = 1,
        .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
        .pImageInfo = &info,
    };
    vkUpdateDescriptorSets(gpu->device, 1, &write, 0, NULL);
}

void gpu_bind_acceleration_structure(struct gpu *gpu, struct gpu_pipeline *p, uint32_t binding,
                                     VkAccelerationStructureKHR structure)
{
    if (gpu_failed(gpu) || p == NULL)
        return;
    VkWriteDescriptorSetAccelerationStructureKHR as_info = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_ACCELERATION_STRUCTURE_KHR,
        .accelerationStructureCount = 1,
        .pAccelerationStructures = &structure,
    };
    VkWriteDescriptorSet write = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .pNext = &as_info,
        .dstSet = p->set,
        .dstBinding = binding,
        .descriptorCount = 1,
        .descriptorType = VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR,
    };
    vkUpdateDescriptorSets(gpu->device, 1, &write, 0, NULL);
}

static bool begin(struct gpu *gpu, VkCommandBufferUsageFlags flags)
{
    if (gpu_failed(gpu))
        return false;
    VkCommandBufferBeginInfo info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, .flags = flags};
    return GPU_CHECK(gpu, vkResetCommandBuffer(gpu->cmd, 0)) && GPU_CHECK(gpu, vkBeginCommandBuffer(gpu->cmd, &info));
}

bool gpu_begin(struct gpu *gpu)
{
    return begin(gpu, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
}

bool gpu_begin_repeatable(struct gpu *gpu)
{
    return begin(gpu, 0);
}

void gpu_dispatch(struct gpu *gpu, const struct gpu_pipeline *p, uint32_t x, uint32_t y, uint32_t z, const void *push)
{
    if (gpu_failed(gpu) || p == NULL)
        return;
    vkCmdBindPipeline(gpu->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
    if (p->set != VK_NULL_HANDLE)
        vkCmdBindDescriptorSets(gpu->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, 0, 1, &p->set, 0, NULL);
    if (p->push_size > 0 && push != NULL)
        vkCmdPushConstants(gpu->cmd, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, p->push_size, push);
    vkCmdDispatch(gpu->cmd, x, y, z);
}

void gpu_memory_barrier(struct gpu *gpu, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                        VkPipelineStageFlags dst_stage, VkAccessFlags dst_access)
{
    if (gpu_failed(gpu))
        return;
    VkMemoryBarrier barrier = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = src_access,
        .dstAccessMask = dst_access,
    };
    vkCmdPipelineBarrier(gpu->cmd, src_stage, dst_stage, 0, 1, &barrier, 0, NULL, 0, NULL);
}

void gpu_compute_barrier(struct gpu *gpu)
{
    if (gpu_failed(gpu))
        return;
    gpu_memory_barrier(gpu, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

void gpu_image_layout(struct gpu *gpu, const struct gpu_image *image, VkImageLayout from, VkImageLayout to,
                      VkPipelineStageFlags src_stage, VkAccessFlags src_access, VkPipelineStageFlags dst_stage,
                      VkAccessFlags dst_access)
{
    if (gpu_failed(gpu) || image == NULL)
        return;
    VkImageMemoryBarrier barrier = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
        .srcAccessMask = src_access,
        .dstAccessMask = dst_access,
        .oldLayout = from,
        .newLayout = to,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = image->image,
        .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
    };
    vkCmdPipelineBarrier(gpu->cmd, src_stage, dst_stage, 0, 0, NULL, 0, NULL, 1, &barrier);
}

bool gpu_end(struct gpu *gpu)
{
    if (gpu_failed(gpu))
        return false;
    /* The host reads results after the fence: the spec asks for this HOST barrier as well. */
    gpu_memory_barrier(gpu, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                       VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                       VK_ACCESS_HOST_READ_BIT);
    return GPU_CHECK(gpu, vkEndCommandBuffer(gpu->cmd));
}

bool gpu_submit(struct gpu *gpu)
{
    if (gpu_failed(gpu))
        return false;
    VkSubmitInfo submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .commandBufferCount = 1,
        .pCommandBuffers = &gpu->cmd,
    };
    return GPU_CHECK(gpu, vkResetFences(gpu->device, 1, &gpu->fence)) &&
           GPU_CHECK(gpu, vkQueueSubmit(gpu->queue, 1, &submit, gpu->fence));
}

int gpu_wait_for(struct gpu *gpu, uint64_t timeout_ns)
{
    if (gpu_failed(gpu))
        return -1;
    VkResult result = vkWaitForFences(gpu->device, 1, &gpu->fence, VK_TRUE, timeout_ns);
    if (result == VK_TIMEOUT)
        return 0;
    return gpu_check(gpu, result, "vkWaitForFences") ? 1 : -1;
}

bool gpu_submit_and_wait(struct gpu *gpu)
{
    /* No timeout here: the runner's watchdog owns hangs and reports them as `timeout`. */
    return gpu_end(gpu) && gpu_submit(gpu) && gpu_wait_for(gpu, UINT64_MAX) == 1;
}

const void *gpu_readback(struct gpu *gpu, const struct gpu_buffer *b)
{
    if (b == NULL)
        return NULL;
    if (gpu->corrupt_readback) {
        /* Test builds only: a wrong result, as a driver that silently miscomputes would give. */
        ((uint32_t *)b->mapped)[0] ^= 0x5A5A5A5Au;
        gpu->corrupt_readback = false;
    }
    return b->mapped;
}
