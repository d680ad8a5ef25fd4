/* VK_LAYER_PREFLIGHT_api_trace: records what a program passes to the Vulkan calls that decide a
 * hazard or alias finding, so that a finding on a real program can be checked by hand: shader code
 * (each module's SPIR-V as a file), pipelines with their specialization data, descriptor set and
 * pipeline layouts, descriptor writes with buffer ranges, buffers and images with their memory,
 * render passes (attachments, load/store operations, layouts, subpasses, dependencies),
 * framebuffers, and in command buffers: binds, push constant bytes, dispatches, draws, render pass
 * begin/end with render areas, barriers, copies and fills; then submits, fence waits and host
 * invalidations; semaphores (their type), timeline values, host signals, semaphore waits, counter
 * reads and fence polls. Unstable's Debian has neither LunarG's api_dump nor gfxreconstruct, hence this.
 *
 * Turned on with PREFLIGHT_API_TRACE_DIR=<folder>: it writes <folder>/trace.jsonl (one JSON object
 * per call, "call" first, handles as hex strings) and <folder>/shader-<n>.spv. Without the variable
 * it passes every call through untouched. Loaded first (nearest the application) it sees exactly
 * what the application passes. A tool for triage, not for the layer's checks. */
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vk_layer.h>

/* The device calls traced; each gets a hook trace_<name> and a next-layer pointer next.<name>. */
#define TRACED_DEVICE_CALLS(X)                                                                                         \
    X(CreateShaderModule)                                                                                              \
    X(CreateComputePipelines)                                                                                          \
    X(CreateGraphicsPipelines)                                                                                         \
    X(CreateDescriptorSetLayout)                                                                                       \
    X(CreatePipelineLayout)                                                                                            \
    X(AllocateDescriptorSets)                                                                                          \
    X(UpdateDescriptorSets)                                                                                            \
    X(AllocateMemory)                                                                                                  \
    X(MapMemory)                                                                                                       \
    X(InvalidateMappedMemoryRanges)                                                                                    \
    X(CreateBuffer)                                                                                                    \
    X(BindBufferMemory)                                                                                                \
    X(CreateImage)                                                                                                     \
    X(BindImageMemory)                                                                                                 \
    X(CreateImageView)                                                                                                 \
    X(CreateRenderPass)                                                                                                \
    X(CreateRenderPass2)                                                                                               \
    X(CreateFramebuffer)                                                                                               \
    X(BeginCommandBuffer)                                                                                              \
    X(EndCommandBuffer)                                                                                                \
    X(CmdBindPipeline)                                                                                                 \
    X(CmdBindDescriptorSets)                                                                                           \
    X(CmdPushConstants)                                                                                                \
    X(CmdDispatch)                                                                                                     \
    X(CmdDispatchIndirect)                                                                                             \
    X(CmdDraw)                                                                                                         \
    X(CmdDrawIndexed)                                                                                                  \
    X(CmdBeginRenderPass)                                                                                              \
    X(CmdBeginRenderPass2)                                                                                             \
    X(CmdNextSubpass)                                                                                                  \
    X(CmdEndRenderPass)                                                                                                \
    X(CmdEndRenderPass2)                                                                                               \
    X(CmdPipelineBarrier)                                                                                              \
    X(CmdPipelineBarrier2)                                                                                             \
    X(CmdFillBuffer)                                                                                                   \
    X(CmdUpdateBuffer)                                                                                                 \
    X(CmdCopyBuffer)                                                                                                   \
    X(CmdCopyBufferToImage)                                                                                            \
    X(CmdCopyImageToBuffer)                                                                                            \
    X(QueueSubmit)                                                                                                     \
    X(QueueSubmit2)                                                                                                    \
    X(WaitForFences)                                                                                                   \
    X(GetFenceStatus)                                                                                                  \
    X(CreateSemaphore)                                                                                                 \
    X(SignalSemaphore)                                                                                                 \
    X(WaitSemaphores)                                                                                                  \
    X(GetSemaphoreCounterValue)                                                                                        \
    X(QueueWaitIdle)                                                                                                   \
    X(DeviceWaitIdle)

struct device {
    void *key; /* the loader's dispatch key, shared by the device, its queues and command buffers */
    PFN_vkGetDeviceProcAddr next_get_device_proc_addr;
#define NEXT_POINTER(name) PFN_vk##name name;
    struct {
        TRACED_DEVICE_CALLS(NEXT_POINTER)
    } next;
};

struct instance {
    void *key;
    PFN_vkGetInstanceProcAddr next_get_instance_proc_addr;
};

enum { MAX_INSTANCES = 8, MAX_DEVICES = 16 };
static struct instance instances[MAX_INSTANCES];
static struct device devices[MAX_DEVICES];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *out;
static char folder[4096];
static unsigned shader_count;

static void *dispatch_key(const void *dispatchable)
{
    return *(void *const *)dispatchable;
}

static struct device *device_of(const void *dispatchable)
{
    void *key = dispatch_key(dispatchable);
    for (int i = 0; i < MAX_DEVICES; i++)
        if (devices[i].key == key)
            return &devices[i];
    return NULL;
}

static struct instance *instance_of(const void *dispatchable)
{
    void *key = dispatch_key(dispatchable);
    for (int i = 0; i < MAX_INSTANCES; i++)
        if (instances[i].key == key)
            return &instances[i];
    return NULL;
}

/* --- JSON lines: begin() takes the lock, end() writes the newline and releases it --- */

static bool begin(const char *call)
{
    if (out == NULL)
        return false;
    pthread_mutex_lock(&lock);
    fprintf(out, "{\"call\":\"%s\"", call);
    return true;
}

static void end(void)
{
    fputs("}\n", out);
    fflush(out);
    pthread_mutex_unlock(&lock);
}

static void put_handle(const char *key, uint64_t handle)
{
    fprintf(out, ",\"%s\":\"0x%" PRIx64 "\"", key, handle);
}

static void put_ptr(const char *key, const void *handle)
{
    put_handle(key, (uint64_t)(uintptr_t)handle);
}

static void put_uint(const char *key, uint64_t value)
{
    fprintf(out, ",\"%s\":%" PRIu64, key, value);
}

static void put_int(const char *key, int64_t value)
{
    fprintf(out, ",\"%s\":%" PRId64, key, value);
}

static void put_flags(const char *key, uint64_t value)
{
    fprintf(out, ",\"%s\":\"0x%" PRIx64 "\"", key, value);
}

static void put_string(const char *key, const char *value)
{
    fprintf(out, ",\"%s\":\"", key);
    for (const char *c = value ? value : ""; *c; c++)
        fprintf(out, (*c == '"' || *c == '\\') ? "\\%c" : ((unsigned char)*c < 0x20 ? "\\u%04x" : "%c"), *c);
    fputc('"', out);
}

/* bytes as hex, and the same bytes as little-endian 32-bit words (push constants, specialization) */
static void put_bytes(const char *key, const void *data, size_t size)
{
    const unsigned char *bytes = data;
    fprintf(out, ",\"%s\":\"", key);
    for (size_t i = 0; i < size; i++)
        fprintf(out, "%02x", bytes[i]);
    fprintf(out, "\",\"%s_u32\":[", key);
    for (size_t i = 0; i + 4 <= size; i += 4) {
        uint32_t word;
        memcpy(&word, bytes + i, 4);
        fprintf(out, "%s%" PRIu32, i ? "," : "", word);
    }
    fputc(']', out);
}

static void put_rect(const char *key, VkRect2D r)
{
    fprintf(out, ",\"%s\":{\"x\":%d,\"y\":%d,\"width\":%u,\"height\":%u}", key, r.offset.x, r.offset.y, r.extent.width,
            r.extent.height);
}

static void put_range(const char *key, VkImageSubresourceRange r)
{
    fprintf(out, ",\"%s\":{\"aspect\":\"0x%x\",\"mip\":[%u,%u],\"layer\":[%u,%u]}", key, r.aspectMask, r.baseMipLevel,
            r.levelCount, r.baseArrayLayer, r.layerCount);
}

/* Objects in arrays: the first field is written without its leading comma */
static void open_object(bool first)
{
    fputs(first ? "{\"_\":0" : ",{\"_\":0", out);
}

/* The structure of type `type` in a pNext chain, or NULL */
static const void *find_in_chain(const void *chain, VkStructureType type)
{
    for (const VkBaseInStructure *next = chain; next; next = next->pNext)
        if (next->sType == type)
            return next;
    return NULL;
}

/* --- shaders and pipelines --- */

static VKAPI_ATTR VkResult VKAPI_CALL trace_CreateShaderModule(VkDevice device, const VkShaderModuleCreateInfo *info,
                                                               const VkAllocationCallbacks *allocator,
                                                               VkShaderModule *module)
{
    VkResult result = device_of(device)->next.CreateShaderModule(device, info, allocator, module);
    if (result == VK_SUCCESS && begin("vkCreateShaderModule")) {
        unsigned number = ++shader_count;
        char path[4200];
        snprintf(path, sizeof path, "%s/shader-%u.spv", folder, number);
        FILE *file = fopen(path, "wb");
        if (file) {
            fwrite(info->pCode, 1, info->codeSize, file);
            fclose(file);
        }
        put_handle("module", (uint64_t)*module);
        put_uint("size", info->codeSize);
        snprintf(path, sizeof path, "shader-%u.spv", number);
        put_string("file", path);
        end();
    }
    return result;
}

static void put_stage(const VkPipelineShaderStageCreateInfo *stage)
{
    put_flags("stage", stage->stage);
    put_handle("module", (uint64_t)stage->module);
    put_string("entry", stage->pName);
    const VkSpecializationInfo *spec = stage->pSpecializationInfo;
    if (spec) {
        fputs(",\"specialization\":[", out);
        for (uint32_t i = 0; i < spec->mapEntryCount; i++)
            fprintf(out, "%s{\"id\":%u,\"offset\":%u,\"size\":%zu}", i ? "," : "", spec->pMapEntries[i].constantID,
                    spec->pMapEntries[i].offset, spec->pMapEntries[i].size);
        fputc(']', out);
        put_bytes("specialization_data", spec->pData, spec->dataSize);
    }
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_CreateComputePipelines(VkDevice device, VkPipelineCache cache,
                                                                   uint32_t count,
                                                                   const VkComputePipelineCreateInfo *infos,
                                                                   const VkAllocationCallbacks *allocator,
                                                                   VkPipeline *pipelines)
{
    VkResult result = device_of(device)->next.CreateComputePipelines(device, cache, count, infos, allocator, pipelines);
    for (uint32_t i = 0; result == VK_SUCCESS && i < count && begin("vkCreateComputePipelines"); i++) {
        put_handle("pipeline", (uint64_t)pipelines[i]);
        put_handle("layout", (uint64_t)infos[i].layout);
        put_stage(&infos[i].stage);
        end();
    }
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_CreateGraphicsPipelines(VkDevice device, VkPipelineCache cache,
                                                                    uint32_t count,
                                                                    const VkGraphicsPipelineCreateInfo *infos,
                                                                    const VkAllocationCallbacks *allocator,
                                                                    VkPipeline *pipelines)
{
    VkResult result =
        device_of(device)->next.CreateGraphicsPipelines(device, cache, count, infos, allocator, pipelines);
    for (uint32_t i = 0; result == VK_SUCCESS && i < count && begin("vkCreateGraphicsPipelines"); i++) {
        put_handle("pipeline", (uint64_t)pipelines[i]);
        put_handle("layout", (uint64_t)infos[i].layout);
        put_handle("render_pass", (uint64_t)infos[i].renderPass);
        put_uint("subpass", infos[i].subpass);
        const VkPipelineDepthStencilStateCreateInfo *ds = infos[i].pDepthStencilState;
        if (ds)
            fprintf(out, ",\"depth\":{\"test\":%u,\"write\":%u,\"compare\":%d}", ds->depthTestEnable,
                    ds->depthWriteEnable, ds->depthCompareOp);
        fputs(",\"stages\":[", out);
        for (uint32_t s = 0; s < infos[i].stageCount; s++) {
            open_object(s == 0);
            put_stage(&infos[i].pStages[s]);
            fputc('}', out);
        }
        fputc(']', out);
        end();
    }
    return result;
}

/* --- descriptors --- */

static VKAPI_ATTR VkResult VKAPI_CALL trace_CreateDescriptorSetLayout(VkDevice device,
                                                                      const VkDescriptorSetLayoutCreateInfo *info,
                                                                      const VkAllocationCallbacks *allocator,
                                                                      VkDescriptorSetLayout *layout)
{
    VkResult result = device_of(device)->next.CreateDescriptorSetLayout(device, info, allocator, layout);
    if (result == VK_SUCCESS && begin("vkCreateDescriptorSetLayout")) {
        put_handle("layout", (uint64_t)*layout);
        put_flags("flags", info->flags);
        fputs(",\"bindings\":[", out);
        for (uint32_t i = 0; i < info->bindingCount; i++) {
            const VkDescriptorSetLayoutBinding *b = &info->pBindings[i];
            fprintf(out, "%s{\"binding\":%u,\"type\":%d,\"count\":%u,\"stages\":\"0x%x\"}", i ? "," : "", b->binding,
                    b->descriptorType, b->descriptorCount, b->stageFlags);
        }
        fputc(']', out);
        end();
    }
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_CreatePipelineLayout(VkDevice device,
                                                                 const VkPipelineLayoutCreateInfo *info,
                                                                 const VkAllocationCallbacks *allocator,
                                                                 VkPipelineLayout *layout)
{
    VkResult result = device_of(device)->next.CreatePipelineLayout(device, info, allocator, layout);
    if (result == VK_SUCCESS && begin("vkCreatePipelineLayout")) {
        put_handle("layout", (uint64_t)*layout);
        fputs(",\"set_layouts\":[", out);
        for (uint32_t i = 0; i < info->setLayoutCount; i++)
            fprintf(out, "%s\"0x%" PRIx64 "\"", i ? "," : "", (uint64_t)info->pSetLayouts[i]);
        fputs("],\"push_constant_ranges\":[", out);
        for (uint32_t i = 0; i < info->pushConstantRangeCount; i++)
            fprintf(out, "%s{\"stages\":\"0x%x\",\"offset\":%u,\"size\":%u}", i ? "," : "",
                    info->pPushConstantRanges[i].stageFlags, info->pPushConstantRanges[i].offset,
                    info->pPushConstantRanges[i].size);
        fputc(']', out);
        end();
    }
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_AllocateDescriptorSets(VkDevice device,
                                                                   const VkDescriptorSetAllocateInfo *info,
                                                                   VkDescriptorSet *sets)
{
    VkResult result = device_of(device)->next.AllocateDescriptorSets(device, info, sets);
    for (uint32_t i = 0; result == VK_SUCCESS && i < info->descriptorSetCount && begin("vkAllocateDescriptorSets");
         i++) {
        put_handle("set", (uint64_t)sets[i]);
        put_handle("layout", (uint64_t)info->pSetLayouts[i]);
        end();
    }
    return result;
}

static bool is_buffer_descriptor(VkDescriptorType type)
{
    return type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ||
           type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

static bool is_image_descriptor(VkDescriptorType type)
{
    return type == VK_DESCRIPTOR_TYPE_SAMPLER || type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ||
           type == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE || type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE ||
           type == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
}

static VKAPI_ATTR void VKAPI_CALL trace_UpdateDescriptorSets(VkDevice device, uint32_t write_count,
                                                             const VkWriteDescriptorSet *writes, uint32_t copy_count,
                                                             const VkCopyDescriptorSet *copies)
{
    device_of(device)->next.UpdateDescriptorSets(device, write_count, writes, copy_count, copies);
    for (uint32_t i = 0; i < write_count && begin("vkUpdateDescriptorSets.write"); i++) {
        const VkWriteDescriptorSet *w = &writes[i];
        put_handle("set", (uint64_t)w->dstSet);
        put_uint("binding", w->dstBinding);
        put_uint("array_element", w->dstArrayElement);
        put_int("type", w->descriptorType);
        fputs(",\"descriptors\":[", out);
        for (uint32_t d = 0; d < w->descriptorCount; d++) {
            open_object(d == 0);
            if (is_buffer_descriptor(w->descriptorType)) {
                put_handle("buffer", (uint64_t)w->pBufferInfo[d].buffer);
                put_uint("offset", w->pBufferInfo[d].offset);
                put_uint("range", w->pBufferInfo[d].range);
            } else if (is_image_descriptor(w->descriptorType)) {
                put_handle("view", (uint64_t)w->pImageInfo[d].imageView);
                put_handle("sampler", (uint64_t)w->pImageInfo[d].sampler);
                put_int("layout", w->pImageInfo[d].imageLayout);
            } else if (w->pTexelBufferView) {
                put_handle("texel_buffer_view", (uint64_t)w->pTexelBufferView[d]);
            }
            fputc('}', out);
        }
        fputc(']', out);
        end();
    }
    for (uint32_t i = 0; i < copy_count && begin("vkUpdateDescriptorSets.copy"); i++) {
        put_handle("from_set", (uint64_t)copies[i].srcSet);
        put_uint("from_binding", copies[i].srcBinding);
        put_uint("from_element", copies[i].srcArrayElement);
        put_handle("set", (uint64_t)copies[i].dstSet);
        put_uint("binding", copies[i].dstBinding);
        put_uint("array_element", copies[i].dstArrayElement);
        put_uint("count", copies[i].descriptorCount);
        end();
    }
}

/* --- memory, buffers, images --- */

static VKAPI_ATTR VkResult VKAPI_CALL trace_AllocateMemory(VkDevice device, const VkMemoryAllocateInfo *info,
                                                           const VkAllocationCallbacks *allocator,
                                                           VkDeviceMemory *memory)
{
    VkResult result = device_of(device)->next.AllocateMemory(device, info, allocator, memory);
    if (result == VK_SUCCESS && begin("vkAllocateMemory")) {
        put_handle("memory", (uint64_t)*memory);
        put_uint("size", info->allocationSize);
        put_uint("type_index", info->memoryTypeIndex);
        end();
    }
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_MapMemory(VkDevice device, VkDeviceMemory memory, VkDeviceSize offset,
                                                      VkDeviceSize size, VkMemoryMapFlags flags, void **data)
{
    VkResult result = device_of(device)->next.MapMemory(device, memory, offset, size, flags, data);
    if (begin("vkMapMemory")) {
        put_handle("memory", (uint64_t)memory);
        put_uint("offset", offset);
        put_uint("size", size);
        end();
    }
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_InvalidateMappedMemoryRanges(VkDevice device, uint32_t count,
                                                                         const VkMappedMemoryRange *ranges)
{
    for (uint32_t i = 0; i < count && begin("vkInvalidateMappedMemoryRanges"); i++) {
        put_handle("memory", (uint64_t)ranges[i].memory);
        put_uint("offset", ranges[i].offset);
        put_uint("size", ranges[i].size);
        end();
    }
    return device_of(device)->next.InvalidateMappedMemoryRanges(device, count, ranges);
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_CreateBuffer(VkDevice device, const VkBufferCreateInfo *info,
                                                         const VkAllocationCallbacks *allocator, VkBuffer *buffer)
{
    VkResult result = device_of(device)->next.CreateBuffer(device, info, allocator, buffer);
    if (result == VK_SUCCESS && begin("vkCreateBuffer")) {
        put_handle("buffer", (uint64_t)*buffer);
        put_uint("size", info->size);
        put_flags("usage", info->usage);
        end();
    }
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_BindBufferMemory(VkDevice device, VkBuffer buffer, VkDeviceMemory memory,
                                                             VkDeviceSize offset)
{
    if (begin("vkBindBufferMemory")) {
        put_handle("buffer", (uint64_t)buffer);
        put_handle("memory", (uint64_t)memory);
        put_uint("offset", offset);
        end();
    }
    return device_of(device)->next.BindBufferMemory(device, buffer, memory, offset);
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_CreateImage(VkDevice device, const VkImageCreateInfo *info,
                                                        const VkAllocationCallbacks *allocator, VkImage *image)
{
    VkResult result = device_of(device)->next.CreateImage(device, info, allocator, image);
    if (result == VK_SUCCESS && begin("vkCreateImage")) {
        put_handle("image", (uint64_t)*image);
        put_int("type", info->imageType);
        put_int("format", info->format);
        fprintf(out, ",\"extent\":[%u,%u,%u]", info->extent.width, info->extent.height, info->extent.depth);
        put_uint("mips", info->mipLevels);
        put_uint("layers", info->arrayLayers);
        put_uint("samples", info->samples);
        put_flags("usage", info->usage);
        put_flags("flags", info->flags);
        end();
    }
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_BindImageMemory(VkDevice device, VkImage image, VkDeviceMemory memory,
                                                            VkDeviceSize offset)
{
    if (begin("vkBindImageMemory")) {
        put_handle("image", (uint64_t)image);
        put_handle("memory", (uint64_t)memory);
        put_uint("offset", offset);
        end();
    }
    return device_of(device)->next.BindImageMemory(device, image, memory, offset);
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_CreateImageView(VkDevice device, const VkImageViewCreateInfo *info,
                                                            const VkAllocationCallbacks *allocator, VkImageView *view)
{
    VkResult result = device_of(device)->next.CreateImageView(device, info, allocator, view);
    if (result == VK_SUCCESS && begin("vkCreateImageView")) {
        put_handle("view", (uint64_t)*view);
        put_handle("image", (uint64_t)info->image);
        put_int("view_type", info->viewType);
        put_int("format", info->format);
        put_range("range", info->subresourceRange);
        end();
    }
    return result;
}

/* --- render passes --- */

static void put_reference(const VkAttachmentReference2 *r)
{
    fprintf(out, "{\"attachment\":%d,\"layout\":%d}", (int)r->attachment, r->layout);
}

static void put_references(const char *key, uint32_t count, const VkAttachmentReference2 *refs)
{
    fprintf(out, ",\"%s\":[", key);
    for (uint32_t i = 0; refs && i < count; i++) {
        fputs(i ? "," : "", out);
        put_reference(&refs[i]);
    }
    fputc(']', out);
}

/* One writer for both create calls: the first form is converted to the second's structures. */
static void put_render_pass(VkRenderPass pass, const VkRenderPassCreateInfo2 *info)
{
    put_handle("render_pass", (uint64_t)pass);
    fputs(",\"attachments\":[", out);
    for (uint32_t i = 0; i < info->attachmentCount; i++) {
        const VkAttachmentDescription2 *a = &info->pAttachments[i];
        fprintf(out,
                "%s{\"format\":%d,\"samples\":%u,\"load\":%d,\"store\":%d,\"stencil_load\":%d,\"stencil_store\":%d,"
                "\"initial_layout\":%d,\"final_layout\":%d}",
                i ? "," : "", a->format, a->samples, a->loadOp, a->storeOp, a->stencilLoadOp, a->stencilStoreOp,
                a->initialLayout, a->finalLayout);
    }
    fputs("],\"subpasses\":[", out);
    for (uint32_t i = 0; i < info->subpassCount; i++) {
        const VkSubpassDescription2 *s = &info->pSubpasses[i];
        open_object(i == 0);
        put_references("inputs", s->inputAttachmentCount, s->pInputAttachments);
        put_references("colors", s->colorAttachmentCount, s->pColorAttachments);
        put_references("resolves", s->pResolveAttachments ? s->colorAttachmentCount : 0, s->pResolveAttachments);
        put_references("depth_stencil", s->pDepthStencilAttachment ? 1 : 0, s->pDepthStencilAttachment);
        fputc('}', out);
    }
    fputs("],\"dependencies\":[", out);
    for (uint32_t i = 0; i < info->dependencyCount; i++) {
        const VkSubpassDependency2 *d = &info->pDependencies[i];
        fprintf(out,
                "%s{\"src_subpass\":%d,\"dst_subpass\":%d,\"src_stages\":\"0x%x\",\"dst_stages\":\"0x%x\","
                "\"src_access\":\"0x%x\",\"dst_access\":\"0x%x\",\"flags\":\"0x%x\"",
                i ? "," : "", (int)d->srcSubpass, (int)d->dstSubpass, d->srcStageMask, d->dstStageMask,
                d->srcAccessMask, d->dstAccessMask, d->dependencyFlags);
        for (const VkBaseInStructure *next = d->pNext; next; next = next->pNext)
            if (next->sType == VK_STRUCTURE_TYPE_MEMORY_BARRIER_2) {
                const VkMemoryBarrier2 *b = (const VkMemoryBarrier2 *)next;
                fprintf(out,
                        ",\"barrier2\":{\"src_stages\":\"0x%" PRIx64 "\",\"src_access\":\"0x%" PRIx64
                        "\",\"dst_stages\":\"0x%" PRIx64 "\",\"dst_access\":\"0x%" PRIx64 "\"}",
                        b->srcStageMask, b->srcAccessMask, b->dstStageMask, b->dstAccessMask);
            }
        fputc('}', out);
    }
    fputc(']', out);
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_CreateRenderPass2(VkDevice device, const VkRenderPassCreateInfo2 *info,
                                                              const VkAllocationCallbacks *allocator,
                                                              VkRenderPass *pass)
{
    VkResult result = device_of(device)->next.CreateRenderPass2(device, info, allocator, pass);
    if (result == VK_SUCCESS && begin("vkCreateRenderPass2")) {
        put_render_pass(*pass, info);
        end();
    }
    return result;
}

static VkAttachmentReference2 *convert_references(uint32_t count, const VkAttachmentReference *refs)
{
    if (refs == NULL || count == 0)
        return NULL;
    VkAttachmentReference2 *converted = calloc(count, sizeof *converted);
    for (uint32_t i = 0; converted && i < count; i++)
        converted[i] = (VkAttachmentReference2){.sType = VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2,
                                                .attachment = refs[i].attachment,
                                                .layout = refs[i].layout};
    return converted;
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_CreateRenderPass(VkDevice device, const VkRenderPassCreateInfo *info,
                                                             const VkAllocationCallbacks *allocator, VkRenderPass *pass)
{
    VkResult result = device_of(device)->next.CreateRenderPass(device, info, allocator, pass);
    if (result != VK_SUCCESS || out == NULL)
        return result;
    VkAttachmentDescription2 *attachments = calloc(info->attachmentCount + 1, sizeof *attachments);
    VkSubpassDescription2 *subpasses = calloc(info->subpassCount + 1, sizeof *subpasses);
    VkSubpassDependency2 *dependencies = calloc(info->dependencyCount + 1, sizeof *dependencies);
    if (attachments && subpasses && dependencies) {
        for (uint32_t i = 0; i < info->attachmentCount; i++) {
            const VkAttachmentDescription *a = &info->pAttachments[i];
            attachments[i] = (VkAttachmentDescription2){.format = a->format,
                                                        .samples = a->samples,
                                                        .loadOp = a->loadOp,
                                                        .storeOp = a->storeOp,
                                                        .stencilLoadOp = a->stencilLoadOp,
                                                        .stencilStoreOp = a->stencilStoreOp,
                                                        .initialLayout = a->initialLayout,
                                                        .finalLayout = a->finalLayout};
        }
        for (uint32_t i = 0; i < info->subpassCount; i++) {
            const VkSubpassDescription *s = &info->pSubpasses[i];
            subpasses[i] = (VkSubpassDescription2){
                .inputAttachmentCount = s->inputAttachmentCount,
                .pInputAttachments = convert_references(s->inputAttachmentCount, s->pInputAttachments),
                .colorAttachmentCount = s->colorAttachmentCount,
                .pColorAttachments = convert_references(s->colorAttachmentCount, s->pColorAttachments),
                .pResolveAttachments = convert_references(s->colorAttachmentCount, s->pResolveAttachments),
                .pDepthStencilAttachment = convert_references(1, s->pDepthStencilAttachment)};
        }
        for (uint32_t i = 0; i < info->dependencyCount; i++) {
            const VkSubpassDependency *d = &info->pDependencies[i];
            dependencies[i] = (VkSubpassDependency2){.srcSubpass = d->srcSubpass,
                                                     .dstSubpass = d->dstSubpass,
                                                     .srcStageMask = d->srcStageMask,
                                                     .dstStageMask = d->dstStageMask,
                                                     .srcAccessMask = d->srcAccessMask,
                                                     .dstAccessMask = d->dstAccessMask,
                                                     .dependencyFlags = d->dependencyFlags};
        }
        VkRenderPassCreateInfo2 converted = {.attachmentCount = info->attachmentCount,
                                             .pAttachments = attachments,
                                             .subpassCount = info->subpassCount,
                                             .pSubpasses = subpasses,
                                             .dependencyCount = info->dependencyCount,
                                             .pDependencies = dependencies};
        if (begin("vkCreateRenderPass")) {
            put_render_pass(*pass, &converted);
            end();
        }
        for (uint32_t i = 0; i < info->subpassCount; i++) {
            free((void *)subpasses[i].pInputAttachments);
            free((void *)subpasses[i].pColorAttachments);
            free((void *)subpasses[i].pResolveAttachments);
            free((void *)subpasses[i].pDepthStencilAttachment);
        }
    }
    free(attachments);
    free(subpasses);
    free(dependencies);
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_CreateFramebuffer(VkDevice device, const VkFramebufferCreateInfo *info,
                                                              const VkAllocationCallbacks *allocator,
                                                              VkFramebuffer *framebuffer)
{
    VkResult result = device_of(device)->next.CreateFramebuffer(device, info, allocator, framebuffer);
    if (result == VK_SUCCESS && begin("vkCreateFramebuffer")) {
        put_handle("framebuffer", (uint64_t)*framebuffer);
        put_handle("render_pass", (uint64_t)info->renderPass);
        fputs(",\"views\":[", out);
        for (uint32_t i = 0; info->pAttachments && i < info->attachmentCount; i++)
            fprintf(out, "%s\"0x%" PRIx64 "\"", i ? "," : "", (uint64_t)info->pAttachments[i]);
        fprintf(out, "],\"size\":[%u,%u,%u]", info->width, info->height, info->layers);
        end();
    }
    return result;
}

static void put_begin_render_pass(const VkRenderPassBeginInfo *info)
{
    put_handle("render_pass", (uint64_t)info->renderPass);
    put_handle("framebuffer", (uint64_t)info->framebuffer);
    put_rect("render_area", info->renderArea);
    put_uint("clear_values", info->clearValueCount);
}

static VKAPI_ATTR void VKAPI_CALL trace_CmdBeginRenderPass(VkCommandBuffer cb, const VkRenderPassBeginInfo *info,
                                                           VkSubpassContents contents)
{
    if (begin("vkCmdBeginRenderPass")) {
        put_ptr("cb", cb);
        put_begin_render_pass(info);
        end();
    }
    device_of(cb)->next.CmdBeginRenderPass(cb, info, contents);
}

static VKAPI_ATTR void VKAPI_CALL trace_CmdBeginRenderPass2(VkCommandBuffer cb, const VkRenderPassBeginInfo *info,
                                                            const VkSubpassBeginInfo *subpass)
{
    if (begin("vkCmdBeginRenderPass2")) {
        put_ptr("cb", cb);
        put_begin_render_pass(info);
        end();
    }
    device_of(cb)->next.CmdBeginRenderPass2(cb, info, subpass);
}

static VKAPI_ATTR void VKAPI_CALL trace_CmdNextSubpass(VkCommandBuffer cb, VkSubpassContents contents)
{
    if (begin("vkCmdNextSubpass")) {
        put_ptr("cb", cb);
        end();
    }
    device_of(cb)->next.CmdNextSubpass(cb, contents);
}

static VKAPI_ATTR void VKAPI_CALL trace_CmdEndRenderPass(VkCommandBuffer cb)
{
    if (begin("vkCmdEndRenderPass")) {
        put_ptr("cb", cb);
        end();
    }
    device_of(cb)->next.CmdEndRenderPass(cb);
}

static VKAPI_ATTR void VKAPI_CALL trace_CmdEndRenderPass2(VkCommandBuffer cb, const VkSubpassEndInfo *info)
{
    if (begin("vkCmdEndRenderPass2")) {
        put_ptr("cb", cb);
        end();
    }
    device_of(cb)->next.CmdEndRenderPass2(cb, info);
}

/* --- command buffers: state, work, barriers, transfers --- */

static VKAPI_ATTR VkResult VKAPI_CALL trace_BeginCommandBuffer(VkCommandBuffer cb, const VkCommandBufferBeginInfo *info)
{
    if (begin("vkBeginCommandBuffer")) {
        put_ptr("cb", cb);
        put_flags("flags", info->flags);
        end();
    }
    return device_of(cb)->next.BeginCommandBuffer(cb, info);
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_EndCommandBuffer(VkCommandBuffer cb)
{
    if (begin("vkEndCommandBuffer")) {
        put_ptr("cb", cb);
        end();
    }
    return device_of(cb)->next.EndCommandBuffer(cb);
}

static VKAPI_ATTR void VKAPI_CALL trace_CmdBindPipeline(VkCommandBuffer cb, VkPipelineBindPoint point,
                                                        VkPipeline pipeline)
{
    if (begin("vkCmdBindPipeline")) {
        put_ptr("cb", cb);
        put_int("bind_point", point);
        put_handle("pipeline", (uint64_t)pipeline);
        end();
    }
    device_of(cb)->next.CmdBindPipeline(cb, point, pipeline);
}

static VKAPI_ATTR void VKAPI_CALL trace_CmdBindDescriptorSets(VkCommandBuffer cb, VkPipelineBindPoint point,
                                                              VkPipelineLayout layout, uint32_t first, uint32_t count,
                                                              const VkDescriptorSet *sets, uint32_t dynamic_count,
                                                              const uint32_t *dynamic_offsets)
{
    if (begin("vkCmdBindDescriptorSets")) {
        put_ptr("cb", cb);
        put_int("bind_point", point);
        put_handle("layout", (uint64_t)layout);
        put_uint("first_set", first);
        fputs(",\"sets\":[", out);
        for (uint32_t i = 0; i < count; i++)
            fprintf(out, "%s\"0x%" PRIx64 "\"", i ? "," : "", (uint64_t)sets[i]);
        fputs("],\"dynamic_offsets\":[", out);
        for (uint32_t i = 0; i < dynamic_count; i++)
            fprintf(out, "%s%u", i ? "," : "", dynamic_offsets[i]);
        fputc(']', out);
        end();
    }
    device_of(cb)->next.CmdBindDescriptorSets(cb, point, layout, first, count, sets, dynamic_count, dynamic_offsets);
}

static VKAPI_ATTR void VKAPI_CALL trace_CmdPushConstants(VkCommandBuffer cb, VkPipelineLayout layout,
                                                         VkShaderStageFlags stages, uint32_t offset, uint32_t size,
                                                         const void *values)
{
    if (begin("vkCmdPushConstants")) {
        put_ptr("cb", cb);
        put_handle("layout", (uint64_t)layout);
        put_flags("stages", stages);
        put_uint("offset", offset);
        put_bytes("values", values, size);
        end();
    }
    device_of(cb)->next.CmdPushConstants(cb, layout, stages, offset, size, values);
}

static VKAPI_ATTR void VKAPI_CALL trace_CmdDispatch(VkCommandBuffer cb, uint32_t x, uint32_t y, uint32_t z)
{
    if (begin("vkCmdDispatch")) {
        put_ptr("cb", cb);
        fprintf(out, ",\"groups\":[%u,%u,%u]", x, y, z);
        end();
    }
    device_of(cb)->next.CmdDispatch(cb, x, y, z);
}

static VKAPI_ATTR void VKAPI_CALL trace_CmdDispatchIndirect(VkCommandBuffer cb, VkBuffer buffer, VkDeviceSize offset)
{
    if (begin("vkCmdDispatchIndirect")) {
        put_ptr("cb", cb);
        put_handle("buffer", (uint64_t)buffer);
        put_uint("offset", offset);
        end();
    }
    device_of(cb)->next.CmdDispatchIndirect(cb, buffer, offset);
}

static VKAPI_ATTR void VKAPI_CALL trace_CmdDraw(VkCommandBuffer cb, uint32_t vertices, uint32_t instances_,
                                                uint32_t first_vertex, uint32_t first_instance)
{
    if (begin("vkCmdDraw")) {
        put_ptr("cb", cb);
        fprintf(out, ",\"vertices\":%u,\"instances\":%u", vertices, instances_);
        end();
    }
    device_of(cb)->next.CmdDraw(cb, vertices, instances_, first_vertex, first_instance);
}

static VKAPI_ATTR void VKAPI_CALL trace_CmdDrawIndexed(VkCommandBuffer cb, uint32_t indices, uint32_t instances_,
                                                       uint32_t first_index, int32_t vertex_offset,
                                                       uint32_t first_instance)
{
    if (begin("vkCmdDrawIndexed")) {
        put_ptr("cb", cb);
        fprintf(out, ",\"indices\":%u,\"instances\":%u", indices, instances_);
        end();
    }
    device_of(cb)->next.CmdDrawIndexed(cb, indices, instances_, first_index, vertex_offset, first_instance);
}

/* The stages are the barrier's own (synchronization2) or its command's (vkCmdPipelineBarrier) */
static void put_image_barrier(bool first, VkImage image, VkImageLayout from, VkImageLayout to, uint64_t src_stages,
                              uint64_t src_access, uint64_t dst_stages, uint64_t dst_access,
                              VkImageSubresourceRange range)
{
    open_object(first);
    put_handle("image", (uint64_t)image);
    put_int("old_layout", from);
    put_int("new_layout", to);
    put_flags("src_stages", src_stages);
    put_flags("src_access", src_access);
    put_flags("dst_stages", dst_stages);
    put_flags("dst_access", dst_access);
    put_range("range", range);
    fputc('}', out);
}

static VKAPI_ATTR void VKAPI_CALL trace_CmdPipelineBarrier(VkCommandBuffer cb, VkPipelineStageFlags src,
                                                           VkPipelineStageFlags dst, VkDependencyFlags flags,
                                                           uint32_t memory_count, const VkMemoryBarrier *memory,
                                                           uint32_t buffer_count, const VkBufferMemoryBarrier *buffers,
                                                           uint32_t image_count, const VkImageMemoryBarrier *images)
{
    if (begin("vkCmdPipelineBarrier")) {
        put_ptr("cb", cb);
        put_flags("src_stages", src);
        put_flags("dst_stages", dst);
        put_flags("flags", flags);
        fputs(",\"memory\":[", out);
        for (uint32_t i = 0; i < memory_count; i++)
            fprintf(out, "%s{\"src_access\":\"0x%x\",\"dst_access\":\"0x%x\"}", i ? "," : "", memory[i].srcAccessMask,
                    memory[i].dstAccessMask);
        fputs("],\"buffers\":[", out);
        for (uint32_t i = 0; i < buffer_count; i++) {
            open_object(i == 0);
            put_handle("buffer", (uint64_t)buffers[i].buffer);
            put_uint("offset", buffers[i].offset);
            put_uint("size", buffers[i].size);
            put_flags("src_access", buffers[i].srcAccessMask);
            put_flags("dst_access", buffers[i].dstAccessMask);
            fputc('}', out);
        }
        fputs("],\"images\":[", out);
        for (uint32_t i = 0; i < image_count; i++)
            put_image_barrier(i == 0, images[i].image, images[i].oldLayout, images[i].newLayout, src,
                              images[i].srcAccessMask, dst, images[i].dstAccessMask, images[i].subresourceRange);
        fputc(']', out);
        end();
    }
    device_of(cb)->next.CmdPipelineBarrier(cb, src, dst, flags, memory_count, memory, buffer_count, buffers,
                                           image_count, images);
}

static VKAPI_ATTR void VKAPI_CALL trace_CmdPipelineBarrier2(VkCommandBuffer cb, const VkDependencyInfo *info)
{
    if (begin("vkCmdPipelineBarrier2")) {
        put_ptr("cb", cb);
        put_flags("flags", info->dependencyFlags);
        fputs(",\"memory\":[", out);
        for (uint32_t i = 0; i < info->memoryBarrierCount; i++) {
            const VkMemoryBarrier2 *b = &info->pMemoryBarriers[i];
            open_object(i == 0);
            put_flags("src_stages", b->srcStageMask);
            put_flags("src_access", b->srcAccessMask);
            put_flags("dst_stages", b->dstStageMask);
            put_flags("dst_access", b->dstAccessMask);
            fputc('}', out);
        }
        fputs("],\"buffers\":[", out);
        for (uint32_t i = 0; i < info->bufferMemoryBarrierCount; i++) {
            const VkBufferMemoryBarrier2 *b = &info->pBufferMemoryBarriers[i];
            open_object(i == 0);
            put_handle("buffer", (uint64_t)b->buffer);
            put_uint("offset", b->offset);
            put_uint("size", b->size);
            put_flags("src_stages", b->srcStageMask);
            put_flags("src_access", b->srcAccessMask);
            put_flags("dst_stages", b->dstStageMask);
            put_flags("dst_access", b->dstAccessMask);
            fputc('}', out);
        }
        fputs("],\"images\":[", out);
        for (uint32_t i = 0; i < info->imageMemoryBarrierCount; i++) {
            const VkImageMemoryBarrier2 *b = &info->pImageMemoryBarriers[i];
            put_image_barrier(i == 0, b->image, b->oldLayout, b->newLayout, b->srcStageMask, b->srcAccessMask,
                              b->dstStageMask, b->dstAccessMask, b->subresourceRange);
        }
        fputc(']', out);
        end();
    }
    device_of(cb)->next.CmdPipelineBarrier2(cb, info);
}

static VKAPI_ATTR void VKAPI_CALL trace_CmdFillBuffer(VkCommandBuffer cb, VkBuffer buffer, VkDeviceSize offset,
                                                      VkDeviceSize size, uint32_t data)
{
    if (begin("vkCmdFillBuffer")) {
        put_ptr("cb", cb);
        put_handle("buffer", (uint64_t)buffer);
        put_uint("offset", offset);
        put_uint("size", size);
        put_uint("data", data);
        end();
    }
    device_of(cb)->next.CmdFillBuffer(cb, buffer, offset, size, data);
}

static VKAPI_ATTR void VKAPI_CALL trace_CmdUpdateBuffer(VkCommandBuffer cb, VkBuffer buffer, VkDeviceSize offset,
                                                        VkDeviceSize size, const void *data)
{
    if (begin("vkCmdUpdateBuffer")) {
        put_ptr("cb", cb);
        put_handle("buffer", (uint64_t)buffer);
        put_uint("offset", offset);
        put_uint("size", size);
        end();
    }
    device_of(cb)->next.CmdUpdateBuffer(cb, buffer, offset, size, data);
}

static VKAPI_ATTR void VKAPI_CALL trace_CmdCopyBuffer(VkCommandBuffer cb, VkBuffer from, VkBuffer to, uint32_t count,
                                                      const VkBufferCopy *regions)
{
    if (begin("vkCmdCopyBuffer")) {
        put_ptr("cb", cb);
        put_handle("from", (uint64_t)from);
        put_handle("to", (uint64_t)to);
        fputs(",\"regions\":[", out);
        for (uint32_t i = 0; i < count; i++)
            fprintf(out, "%s{\"from\":%" PRIu64 ",\"to\":%" PRIu64 ",\"size\":%" PRIu64 "}", i ? "," : "",
                    regions[i].srcOffset, regions[i].dstOffset, regions[i].size);
        fputc(']', out);
        end();
    }
    device_of(cb)->next.CmdCopyBuffer(cb, from, to, count, regions);
}

static void put_image_copies(uint32_t count, const VkBufferImageCopy *regions)
{
    fputs(",\"regions\":[", out);
    for (uint32_t i = 0; i < count; i++) {
        const VkBufferImageCopy *r = &regions[i];
        fprintf(out,
                "%s{\"buffer_offset\":%" PRIu64 ",\"row_length\":%u,\"image_height\":%u,\"aspect\":\"0x%x\",\"mip\":%u,"
                "\"layers\":[%u,%u],\"offset\":[%d,%d,%d],\"extent\":[%u,%u,%u]}",
                i ? "," : "", r->bufferOffset, r->bufferRowLength, r->bufferImageHeight, r->imageSubresource.aspectMask,
                r->imageSubresource.mipLevel, r->imageSubresource.baseArrayLayer, r->imageSubresource.layerCount,
                r->imageOffset.x, r->imageOffset.y, r->imageOffset.z, r->imageExtent.width, r->imageExtent.height,
                r->imageExtent.depth);
    }
    fputc(']', out);
}

static VKAPI_ATTR void VKAPI_CALL trace_CmdCopyBufferToImage(VkCommandBuffer cb, VkBuffer buffer, VkImage image,
                                                             VkImageLayout layout, uint32_t count,
                                                             const VkBufferImageCopy *regions)
{
    if (begin("vkCmdCopyBufferToImage")) {
        put_ptr("cb", cb);
        put_handle("buffer", (uint64_t)buffer);
        put_handle("image", (uint64_t)image);
        put_int("layout", layout);
        put_image_copies(count, regions);
        end();
    }
    device_of(cb)->next.CmdCopyBufferToImage(cb, buffer, image, layout, count, regions);
}

static VKAPI_ATTR void VKAPI_CALL trace_CmdCopyImageToBuffer(VkCommandBuffer cb, VkImage image, VkImageLayout layout,
                                                             VkBuffer buffer, uint32_t count,
                                                             const VkBufferImageCopy *regions)
{
    if (begin("vkCmdCopyImageToBuffer")) {
        put_ptr("cb", cb);
        put_handle("image", (uint64_t)image);
        put_int("layout", layout);
        put_handle("buffer", (uint64_t)buffer);
        put_image_copies(count, regions);
        end();
    }
    device_of(cb)->next.CmdCopyImageToBuffer(cb, image, layout, buffer, count, regions);
}

/* --- queues and host waits --- */

static VKAPI_ATTR VkResult VKAPI_CALL trace_QueueSubmit(VkQueue queue, uint32_t count, const VkSubmitInfo *submits,
                                                        VkFence fence)
{
    for (uint32_t i = 0; i < count && begin("vkQueueSubmit"); i++) {
        put_ptr("queue", queue);
        put_handle("fence", i + 1 == count ? (uint64_t)fence : 0);
        fputs(",\"command_buffers\":[", out);
        for (uint32_t c = 0; c < submits[i].commandBufferCount; c++)
            fprintf(out, "%s\"%p\"", c ? "," : "", (void *)submits[i].pCommandBuffers[c]);
        fputs("],\"waits\":[", out);
        for (uint32_t w = 0; w < submits[i].waitSemaphoreCount; w++)
            fprintf(out, "%s{\"semaphore\":\"0x%" PRIx64 "\",\"stages\":\"0x%x\"}", w ? "," : "",
                    (uint64_t)submits[i].pWaitSemaphores[w], submits[i].pWaitDstStageMask[w]);
        fputs("],\"signals\":[", out);
        for (uint32_t s = 0; s < submits[i].signalSemaphoreCount; s++)
            fprintf(out, "%s\"0x%" PRIx64 "\"", s ? "," : "", (uint64_t)submits[i].pSignalSemaphores[s]);
        fputc(']', out);
        const VkTimelineSemaphoreSubmitInfo *values =
            find_in_chain(submits[i].pNext, VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
        if (values != NULL) { /* the timeline values, by position (ignored for binary semaphores) */
            fputs(",\"wait_values\":[", out);
            for (uint32_t w = 0; w < values->waitSemaphoreValueCount; w++)
                fprintf(out, "%s%" PRIu64, w ? "," : "", values->pWaitSemaphoreValues[w]);
            fputs("],\"signal_values\":[", out);
            for (uint32_t s = 0; s < values->signalSemaphoreValueCount; s++)
                fprintf(out, "%s%" PRIu64, s ? "," : "", values->pSignalSemaphoreValues[s]);
            fputc(']', out);
        }
        end();
    }
    return device_of(queue)->next.QueueSubmit(queue, count, submits, fence);
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_QueueSubmit2(VkQueue queue, uint32_t count, const VkSubmitInfo2 *submits,
                                                         VkFence fence)
{
    for (uint32_t i = 0; i < count && begin("vkQueueSubmit2"); i++) {
        put_ptr("queue", queue);
        put_handle("fence", i + 1 == count ? (uint64_t)fence : 0);
        fputs(",\"command_buffers\":[", out);
        for (uint32_t c = 0; c < submits[i].commandBufferInfoCount; c++)
            fprintf(out, "%s\"%p\"", c ? "," : "", (void *)submits[i].pCommandBufferInfos[c].commandBuffer);
        fputs("],\"waits\":[", out);
        for (uint32_t w = 0; w < submits[i].waitSemaphoreInfoCount; w++)
            fprintf(out, "%s{\"semaphore\":\"0x%" PRIx64 "\",\"value\":%" PRIu64 ",\"stages\":\"0x%" PRIx64 "\"}",
                    w ? "," : "", (uint64_t)submits[i].pWaitSemaphoreInfos[w].semaphore,
                    submits[i].pWaitSemaphoreInfos[w].value, submits[i].pWaitSemaphoreInfos[w].stageMask);
        fputs("],\"signals\":[", out);
        for (uint32_t s = 0; s < submits[i].signalSemaphoreInfoCount; s++)
            fprintf(out, "%s{\"semaphore\":\"0x%" PRIx64 "\",\"value\":%" PRIu64 ",\"stages\":\"0x%" PRIx64 "\"}",
                    s ? "," : "", (uint64_t)submits[i].pSignalSemaphoreInfos[s].semaphore,
                    submits[i].pSignalSemaphoreInfos[s].value, submits[i].pSignalSemaphoreInfos[s].stageMask);
        fputc(']', out);
        end();
    }
    return device_of(queue)->next.QueueSubmit2(queue, count, submits, fence);
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_WaitForFences(VkDevice device, uint32_t count, const VkFence *fences,
                                                          VkBool32 wait_all, uint64_t timeout)
{
    VkResult result = device_of(device)->next.WaitForFences(device, count, fences, wait_all, timeout);
    if (begin("vkWaitForFences")) {
        fputs(",\"fences\":[", out);
        for (uint32_t i = 0; i < count; i++)
            fprintf(out, "%s\"0x%" PRIx64 "\"", i ? "," : "", (uint64_t)fences[i]);
        fputc(']', out);
        put_int("result", result);
        end();
    }
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_GetFenceStatus(VkDevice device, VkFence fence)
{
    VkResult result = device_of(device)->next.GetFenceStatus(device, fence);
    if (begin("vkGetFenceStatus")) {
        put_handle("fence", (uint64_t)fence);
        put_int("result", result);
        end();
    }
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_CreateSemaphore(VkDevice device, const VkSemaphoreCreateInfo *info,
                                                            const VkAllocationCallbacks *allocator,
                                                            VkSemaphore *semaphore)
{
    VkResult result = device_of(device)->next.CreateSemaphore(device, info, allocator, semaphore);
    if (result == VK_SUCCESS && begin("vkCreateSemaphore")) {
        const VkSemaphoreTypeCreateInfo *type =
            find_in_chain(info->pNext, VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
        put_handle("semaphore", (uint64_t)*semaphore);
        put_string("type", type != NULL && type->semaphoreType == VK_SEMAPHORE_TYPE_TIMELINE ? "timeline" : "binary");
        put_uint("initial_value", type != NULL ? type->initialValue : 0);
        end();
    }
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_SignalSemaphore(VkDevice device, const VkSemaphoreSignalInfo *info)
{
    VkResult result = device_of(device)->next.SignalSemaphore(device, info);
    if (begin("vkSignalSemaphore")) {
        put_handle("semaphore", (uint64_t)info->semaphore);
        put_uint("value", info->value);
        put_int("result", result);
        end();
    }
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_WaitSemaphores(VkDevice device, const VkSemaphoreWaitInfo *info,
                                                           uint64_t timeout)
{
    VkResult result = device_of(device)->next.WaitSemaphores(device, info, timeout);
    if (begin("vkWaitSemaphores")) {
        put_flags("flags", info->flags);
        fputs(",\"semaphores\":[", out);
        for (uint32_t i = 0; i < info->semaphoreCount; i++)
            fprintf(out, "%s{\"semaphore\":\"0x%" PRIx64 "\",\"value\":%" PRIu64 "}", i ? "," : "",
                    (uint64_t)info->pSemaphores[i], info->pValues[i]);
        fputc(']', out);
        put_uint("timeout", timeout);
        put_int("result", result);
        end();
    }
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_GetSemaphoreCounterValue(VkDevice device, VkSemaphore semaphore,
                                                                     uint64_t *value)
{
    VkResult result = device_of(device)->next.GetSemaphoreCounterValue(device, semaphore, value);
    if (begin("vkGetSemaphoreCounterValue")) {
        put_handle("semaphore", (uint64_t)semaphore);
        put_uint("value", result == VK_SUCCESS ? *value : 0);
        put_int("result", result);
        end();
    }
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_QueueWaitIdle(VkQueue queue)
{
    VkResult result = device_of(queue)->next.QueueWaitIdle(queue);
    if (begin("vkQueueWaitIdle")) {
        put_ptr("queue", queue);
        end();
    }
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_DeviceWaitIdle(VkDevice device)
{
    VkResult result = device_of(device)->next.DeviceWaitIdle(device);
    if (begin("vkDeviceWaitIdle"))
        end();
    return result;
}

/* --- loader glue --- */

static PFN_vkVoidFunction device_hook(const char *name)
{
    /* Both the core names and the extension aliases (vkCreateRenderPass2KHR, vkQueueSubmit2KHR...) */
#define HOOK(call)                                                                                                     \
    if (strcmp(name, "vk" #call) == 0 || strcmp(name, "vk" #call "KHR") == 0)                                          \
        return (PFN_vkVoidFunction)trace_##call;
    TRACED_DEVICE_CALLS(HOOK)
#undef HOOK
    return NULL;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL trace_GetDeviceProcAddr(VkDevice device, const char *name);

static VKAPI_ATTR VkResult VKAPI_CALL trace_CreateDevice(VkPhysicalDevice physical, const VkDeviceCreateInfo *info,
                                                         const VkAllocationCallbacks *allocator, VkDevice *device)
{
    VkLayerDeviceCreateInfo *chain = (VkLayerDeviceCreateInfo *)info->pNext;
    while (chain &&
           !(chain->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO && chain->function == VK_LAYER_LINK_INFO))
        chain = (VkLayerDeviceCreateInfo *)chain->pNext;
    if (chain == NULL)
        return VK_ERROR_INITIALIZATION_FAILED;
    PFN_vkGetInstanceProcAddr next_gipa = chain->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    PFN_vkGetDeviceProcAddr next_gdpa = chain->u.pLayerInfo->pfnNextGetDeviceProcAddr;
    chain->u.pLayerInfo = chain->u.pLayerInfo->pNext;
    PFN_vkCreateDevice create = (PFN_vkCreateDevice)next_gipa(NULL, "vkCreateDevice");
    VkResult result = create(physical, info, allocator, device);
    if (result != VK_SUCCESS)
        return result;
    pthread_mutex_lock(&lock);
    struct device *d = NULL;
    for (int i = 0; i < MAX_DEVICES && d == NULL; i++)
        if (devices[i].key == NULL)
            d = &devices[i];
    if (d) {
        d->key = dispatch_key(*device);
        d->next_get_device_proc_addr = next_gdpa;
#define FETCH(call)                                                                                                    \
    d->next.call = (PFN_vk##call)next_gdpa(*device, "vk" #call);                                                       \
    if (d->next.call == NULL)                                                                                          \
        d->next.call = (PFN_vk##call)next_gdpa(*device, "vk" #call "KHR");
        TRACED_DEVICE_CALLS(FETCH)
#undef FETCH
    }
    pthread_mutex_unlock(&lock);
    if (d == NULL)
        fprintf(stderr, "VK_LAYER_PREFLIGHT_api_trace: more than %d devices; not traced\n", MAX_DEVICES);
    return result;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL trace_GetDeviceProcAddr(VkDevice device, const char *name)
{
    struct device *d = device_of(device);
    if (strcmp(name, "vkGetDeviceProcAddr") == 0)
        return (PFN_vkVoidFunction)trace_GetDeviceProcAddr;
    if (d == NULL)
        return NULL;
    PFN_vkVoidFunction next = d->next_get_device_proc_addr(device, name);
    /* hook only what the device really has (a call of an extension not enabled stays NULL) */
    PFN_vkVoidFunction hook = device_hook(name);
    return hook && next ? hook : next;
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_CreateInstance(const VkInstanceCreateInfo *info,
                                                           const VkAllocationCallbacks *allocator, VkInstance *instance)
{
    VkLayerInstanceCreateInfo *chain = (VkLayerInstanceCreateInfo *)info->pNext;
    while (chain &&
           !(chain->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO && chain->function == VK_LAYER_LINK_INFO))
        chain = (VkLayerInstanceCreateInfo *)chain->pNext;
    if (chain == NULL)
        return VK_ERROR_INITIALIZATION_FAILED;
    PFN_vkGetInstanceProcAddr next_gipa = chain->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    chain->u.pLayerInfo = chain->u.pLayerInfo->pNext;
    PFN_vkCreateInstance create = (PFN_vkCreateInstance)next_gipa(NULL, "vkCreateInstance");
    VkResult result = create(info, allocator, instance);
    if (result != VK_SUCCESS)
        return result;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < MAX_INSTANCES; i++)
        if (instances[i].key == NULL) {
            instances[i] = (struct instance){dispatch_key(*instance), next_gipa};
            break;
        }
    const char *dir = getenv("PREFLIGHT_API_TRACE_DIR");
    if (out == NULL && dir && *dir) {
        snprintf(folder, sizeof folder, "%s", dir);
        char path[4200];
        snprintf(path, sizeof path, "%s/trace.jsonl", folder);
        out = fopen(path, "a");
        if (out == NULL)
            fprintf(stderr, "VK_LAYER_PREFLIGHT_api_trace: cannot write %s\n", path);
    }
    pthread_mutex_unlock(&lock);
    if (begin("vkCreateInstance")) {
        put_string("application", info->pApplicationInfo ? info->pApplicationInfo->pApplicationName : "");
        end();
    }
    return result;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL trace_GetInstanceProcAddr(VkInstance instance, const char *name)
{
    if (strcmp(name, "vkGetInstanceProcAddr") == 0)
        return (PFN_vkVoidFunction)trace_GetInstanceProcAddr;
    if (strcmp(name, "vkCreateInstance") == 0)
        return (PFN_vkVoidFunction)trace_CreateInstance;
    if (strcmp(name, "vkCreateDevice") == 0)
        return (PFN_vkVoidFunction)trace_CreateDevice;
    if (strcmp(name, "vkGetDeviceProcAddr") == 0)
        return (PFN_vkVoidFunction)trace_GetDeviceProcAddr;
    PFN_vkVoidFunction hook = device_hook(name);
    if (hook)
        return hook;
    struct instance *i = instance ? instance_of(instance) : NULL;
    return i ? i->next_get_instance_proc_addr(instance, name) : NULL;
}

__attribute__((visibility("default"))) VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *version)
{
    if (version->loaderLayerInterfaceVersion < 2)
        return VK_ERROR_INITIALIZATION_FAILED;
    version->loaderLayerInterfaceVersion = 2;
    version->pfnGetInstanceProcAddr = trace_GetInstanceProcAddr;
    version->pfnGetDeviceProcAddr = trace_GetDeviceProcAddr;
    version->pfnGetPhysicalDeviceProcAddr = NULL;
    return VK_SUCCESS;
}
