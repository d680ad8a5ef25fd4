/* Buffers, images and samplers of a running file, and the copies that keep a buffer's host data
 * and its image in step (exec.h says how). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"

/* --- sizes and uses -------------------------------------------------------------------------- */

static void note_image_use(struct exec *e, uint32_t buffer, VkImageUsageFlags usage)
{
    e->buffers[buffer].image_usage |= usage;
}

static void plan_uses(struct exec *e)
{
    const struct amber_script *s = e->script;
    for (uint32_t p = 0; p < s->pipeline_count; ++p) {
        const struct amber_pipeline *pl = &s->pipelines[p];
        for (uint32_t i = 0; i < pl->color_count; ++i) {
            struct exec_buffer *b = &e->buffers[pl->colors[i].buffer];
            note_image_use(e, pl->colors[i].buffer, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
            b->is_attachment = true;
            /* the framebuffer is the attachment's mip level: level 0 is twice as large per level */
            b->width = pl->width << pl->colors[i].base_mip_level;
            b->height = pl->height << pl->colors[i].base_mip_level;
        }
        for (uint32_t i = 0; i < pl->resolve_count; ++i) {
            struct exec_buffer *b = &e->buffers[pl->resolves[i]];
            note_image_use(e, pl->resolves[i], VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
            b->is_attachment = true;
            b->width = pl->width;
            b->height = pl->height;
        }
        if (pl->depth_stencil >= 0) {
            struct exec_buffer *b = &e->buffers[pl->depth_stencil];
            note_image_use(e, (uint32_t)pl->depth_stencil, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT);
            b->is_attachment = b->is_depth_stencil = true;
            b->width = pl->width;
            b->height = pl->height;
        }
        for (uint32_t i = 0; i < pl->binding_count; ++i) {
            const struct amber_binding *bind = &pl->bindings[i];
            VkImageUsageFlags usage =
                bind->kind == AMBER_BIND_STORAGE_IMAGE ? VK_IMAGE_USAGE_STORAGE_BIT
                : bind->kind == AMBER_BIND_SAMPLED_IMAGE || bind->kind == AMBER_BIND_COMBINED_IMAGE_SAMPLER
                    ? VK_IMAGE_USAGE_SAMPLED_BIT
                    : 0;
            for (uint32_t k = 0; usage && k < bind->count; ++k)
                note_image_use(e, bind->objects[k], usage);
        }
    }
}

/* Element counts: declared, the framebuffer's for attachments, a COPY source's for its destination. */
static void plan_sizes(struct exec *e)
{
    const struct amber_script *s = e->script;
    for (uint32_t i = 0; i < s->buffer_count; ++i) {
        const struct amber_buffer *b = &s->buffers[i];
        struct exec_buffer *x = &e->buffers[i];
        if (b->sized_by_framebuffer) {
            x->elements = x->is_attachment ? (uint64_t)x->width * x->height : 0;
        } else {
            x->elements = b->element_count;
            if (b->dimension != AMBER_DIM_NONE) {
                x->width = b->width;
                x->height = b->height;
                x->depth = b->depth;
            }
        }
        if (x->depth == 0)
            x->depth = 1;
        x->image_type = b->dimension == AMBER_DIM_1D   ? VK_IMAGE_TYPE_1D
                        : b->dimension == AMBER_DIM_3D ? VK_IMAGE_TYPE_3D
                                                       : VK_IMAGE_TYPE_2D;
        x->samples = (VkSampleCountFlagBits)b->samples;
    }
    /* a COPY's destination takes its source's size, as Amber does; twice, for chains of copies */
    for (int pass = 0; pass < 2; ++pass)
        for (uint32_t c = 0; c < s->command_count; ++c)
            if (s->commands[c].kind == AMBER_CMD_COPY) {
                struct exec_buffer *from = &e->buffers[s->commands[c].copy.from];
                struct exec_buffer *to = &e->buffers[s->commands[c].copy.to];
                if (!to->is_attachment) {
                    to->elements = from->elements;
                    to->width = from->width;
                    to->height = from->height;
                    to->depth = from->depth;
                }
            }
    for (uint32_t i = 0; i < s->buffer_count; ++i) {
        struct exec_buffer *x = &e->buffers[i];
        if (x->image_usage && x->width == 0) { /* a plain buffer sampled as an image: one row */
            x->width = (uint32_t)(x->elements ? x->elements : 1);
            x->height = x->depth = 1;
        }
        x->bytes = x->elements * s->buffers[i].layout.stride;
    }
}

/* --- initial contents ------------------------------------------------------------------------ */

static void fill_initial(const struct amber_buffer *b, struct exec_buffer *x)
{
    uint8_t *data = x->data->mapped;
    const struct amber_layout *layout = &b->layout;
    struct amber_segment word;
    const struct amber_segment *inputs;
    uint32_t input_count = amber_layout_inputs(layout, &word, &inputs);
    char error[128];
    switch (b->init) {
    case AMBER_INIT_NONE:
        break;
    case AMBER_INIT_BYTES: {
        uint64_t given = b->element_count * layout->stride;
        memcpy(data, b->bytes, (size_t)(given < x->bytes ? given : x->bytes));
        break;
    }
    case AMBER_INIT_FILL:
        if (x->elements == 0)
            break;
        for (uint32_t k = 0; k < input_count; ++k)
            amber_encode(&inputs[k], &b->fill, data, error, sizeof(error));
        /* the first element, copied over the rest in doubling steps */
        for (uint64_t done = 1; done < x->elements;) {
            uint64_t n = done < x->elements - done ? done : x->elements - done;
            memcpy(data + done * layout->stride, data, (size_t)(n * layout->stride));
            done += n;
        }
        break;
    case AMBER_INIT_SERIES: {
        const struct amber_segment *s = &inputs[0];
        bool floating = amber_mode_is_float(s->mode);
        for (uint64_t i = 0; i < x->elements; ++i) {
            struct amber_number n = {0};
            if (floating) {
                n.is_float = true;
                n.value =
                    amber_number_as_double(&b->series_start) + (double)i * amber_number_as_double(&b->series_step);
            } else {
                /* integer arithmetic, wrapping at the type's width as the stored value does */
                uint64_t start = b->series_start.is_float   ? (uint64_t)(int64_t)b->series_start.value
                                 : b->series_start.negative ? 0 - b->series_start.magnitude
                                                            : b->series_start.magnitude;
                uint64_t step = b->series_step.is_float   ? (uint64_t)(int64_t)b->series_step.value
                                : b->series_step.negative ? 0 - b->series_step.magnitude
                                                          : b->series_step.magnitude;
                uint64_t value = start + i * step;
                uint64_t mask = s->bits >= 64 ? UINT64_MAX : (1ull << s->bits) - 1;
                n.magnitude = value & mask;
            }
            amber_encode(s, &n, data + i * layout->stride, error, sizeof(error));
        }
        break;
    }
    }
}

/* --- depth/stencil: the host layout of docs/amber.md against Vulkan's per-aspect copies ------- */

static bool combined_depth_stencil(VkFormat f)
{
    return f == VK_FORMAT_D16_UNORM_S8_UINT || f == VK_FORMAT_D24_UNORM_S8_UINT || f == VK_FORMAT_D32_SFLOAT_S8_UINT;
}

static uint32_t depth_copy_size(VkFormat f)
{
    return f == VK_FORMAT_D16_UNORM || f == VK_FORMAT_D16_UNORM_S8_UINT ? 2 : 4;
}

static VkImageAspectFlags aspects_of(VkFormat f)
{
    VkImageAspectFlags a = 0;
    if (amber_format_has_depth(f))
        a |= VK_IMAGE_ASPECT_DEPTH_BIT;
    if (amber_format_has_stencil(f))
        a |= VK_IMAGE_ASPECT_STENCIL_BIT;
    return a ? a : VK_IMAGE_ASPECT_COLOR_BIT;
}

/* The copy regions between the image's level 0 and `buffer` (the data, or the scratch of a
 * combined depth/stencil image: depths first, then stencil bytes). */
static uint32_t copy_regions(const struct exec_buffer *x, VkFormat format, VkBufferImageCopy *regions)
{
    VkExtent3D extent = {x->width, x->height, x->depth};
    VkImageAspectFlags aspects = aspects_of(format);
    if (!combined_depth_stencil(format)) {
        regions[0] = (VkBufferImageCopy){.imageSubresource = {aspects, 0, 0, 1}, .imageExtent = extent};
        return 1;
    }
    uint64_t texels = (uint64_t)x->width * x->height * x->depth;
    uint64_t stencil_offset = (texels * depth_copy_size(format) + 3) / 4 * 4;
    regions[0] = (VkBufferImageCopy){.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1}, .imageExtent = extent};
    regions[1] = (VkBufferImageCopy){.bufferOffset = stencil_offset,
                                     .imageSubresource = {VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0, 1},
                                     .imageExtent = extent};
    return 2;
}

static struct gpu_buffer *scratch_of(struct exec *e, uint32_t buffer)
{
    struct exec_buffer *x = &e->buffers[buffer];
    return combined_depth_stencil(e->script->buffers[buffer].layout.format) ? x->scratch : NULL;
}

/* data <-> scratch on the host, for combined depth/stencil formats */
static void interleave(struct exec *e, uint32_t buffer, bool to_data)
{
    const struct amber_buffer *b = &e->script->buffers[buffer];
    struct exec_buffer *x = &e->buffers[buffer];
    VkFormat f = b->layout.format;
    uint64_t texels = (uint64_t)x->width * x->height * x->depth;
    uint32_t dsize = depth_copy_size(f);
    uint8_t *data = x->data->mapped, *scratch = x->scratch->mapped;
    uint8_t *stencil = scratch + (texels * dsize + 3) / 4 * 4;
    uint32_t stencil_byte = f == VK_FORMAT_D32_SFLOAT_S8_UINT ? 4 : f == VK_FORMAT_D24_UNORM_S8_UINT ? 3 : 2;
    for (uint64_t i = 0; i < texels && i < x->elements; ++i) {
        uint8_t *texel = data + i * b->layout.stride;
        if (to_data) {
            memcpy(texel, scratch + i * dsize, dsize == 4 && f == VK_FORMAT_D24_UNORM_S8_UINT ? 3 : dsize);
            texel[stencil_byte] = stencil[i];
        } else {
            memset(scratch + i * dsize, 0, dsize);
            memcpy(scratch + i * dsize, texel, f == VK_FORMAT_D24_UNORM_S8_UINT ? 3 : dsize);
            stencil[i] = texel[stencil_byte];
        }
    }
}

/* --- creation -------------------------------------------------------------------------------- */

static bool format_supports(struct exec *e, VkFormat format, VkFormatFeatureFlags needed)
{
    VkFormatProperties p;
    vkGetPhysicalDeviceFormatProperties(e->gpu->physical, format, &p);
    return (p.optimalTilingFeatures & needed) == needed;
}

static bool create_image(struct exec *e, uint32_t buffer)
{
    const struct amber_buffer *b = &e->script->buffers[buffer];
    struct exec_buffer *x = &e->buffers[buffer];
    VkFormat format = b->layout.format;
    VkFormatFeatureFlags needed = VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
    if (x->image_usage & VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT)
        needed |= VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT;
    if (x->image_usage & VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT)
        needed |= VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT;
    if (x->image_usage & VK_IMAGE_USAGE_STORAGE_BIT)
        needed |= VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
    if (x->image_usage & VK_IMAGE_USAGE_SAMPLED_BIT)
        needed |= VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
    if (!format_supports(e, format, needed))
        return exec_stop(e, VERDICT_UNSUPPORTED, "%s: VK_FORMAT_%s cannot be used as this file uses it on this device",
                         b->name, amber_format_name(format));
    if (x->elements < (uint64_t)x->width * x->height * x->depth)
        return exec_stop(e, VERDICT_FAIL, "line %u: %s is used as a %ux%u image but holds %llu texels", b->where.line,
                         b->name, x->width, x->height, (unsigned long long)x->elements);
    VkImageCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = x->image_type,
        .format = format,
        .extent = {x->width, x->height, x->depth},
        .mipLevels = b->mip_levels,
        .arrayLayers = 1,
        .samples = x->samples,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = x->image_usage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    VkImageFormatProperties limits;
    if (vkGetPhysicalDeviceImageFormatProperties(e->gpu->physical, format, info.imageType, info.tiling, info.usage, 0,
                                                 &limits) != VK_SUCCESS ||
        (limits.sampleCounts & info.samples) == 0 || limits.maxMipLevels < info.mipLevels ||
        limits.maxExtent.width < info.extent.width || limits.maxExtent.height < info.extent.height ||
        limits.maxExtent.depth < info.extent.depth)
        return exec_stop(e, VERDICT_UNSUPPORTED,
                         "%s: a %ux%ux%u VK_FORMAT_%s image with %u samples and %u mip levels is beyond this device",
                         b->name, x->width, x->height, x->depth, amber_format_name(format), b->samples, b->mip_levels);
    x->image = gpu_image_create_from(e->gpu, &info, aspects_of(format));
    if (x->image == NULL)
        return exec_no_object(e, "images");
    if (combined_depth_stencil(format)) {
        uint64_t texels = (uint64_t)x->width * x->height * x->depth;
        x->scratch = gpu_buffer_create(e->gpu, (texels * 4 + 3) / 4 * 4 + texels + 16, 0);
        if (x->scratch == NULL)
            return exec_no_object(e, "buffers");
    }
    x->data_newer = x->samples == VK_SAMPLE_COUNT_1_BIT;
    return true;
}

bool exec_plan_buffers(struct exec *e)
{
    const struct amber_script *s = e->script;
    plan_uses(e);
    plan_sizes(e);
    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT |
                                     VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT |
                                     VK_BUFFER_USAGE_INDEX_BUFFER_BIT;
    uint64_t total = 0;
    for (uint32_t i = 0; i < s->buffer_count; ++i) {
        struct exec_buffer *x = &e->buffers[i];
        total += x->bytes;
        if (x->bytes > AMBER_MAX_BUFFER_BYTES || total > AMBER_MAX_TOTAL_BYTES)
            return exec_stop(e, VERDICT_SKIPPED, "line %u: %s would take %llu bytes: beyond preflight's limits",
                             s->buffers[i].where.line, s->buffers[i].name, (unsigned long long)x->bytes);
        x->data = gpu_buffer_create_with_usage(e->gpu, (x->bytes + 15) / 16 * 16 + 16, usage, 0);
        if (x->data == NULL)
            return exec_no_object(e, "buffers");
        fill_initial(&s->buffers[i], x);
        if (x->image_usage && !create_image(e, i))
            return false;
    }
    /* every image to GENERAL, with the host's data in it (multisampled ones are cleared) */
    if (!exec_record_begin(e))
        return false;
    for (uint32_t i = 0; i < s->buffer_count; ++i) {
        struct exec_buffer *x = &e->buffers[i];
        if (x->image == NULL)
            continue;
        VkImageMemoryBarrier barrier = {
            .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
            .dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT,
            .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
            .newLayout = VK_IMAGE_LAYOUT_GENERAL,
            .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .image = x->image->image,
            .subresourceRange = {x->image->aspect, 0, VK_REMAINING_MIP_LEVELS, 0, 1},
        };
        vkCmdPipelineBarrier(e->gpu->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0,
                             NULL, 0, NULL, 1, &barrier);
        VkImageSubresourceRange all = {x->image->aspect, 0, VK_REMAINING_MIP_LEVELS, 0, 1};
        if (x->samples != VK_SAMPLE_COUNT_1_BIT) {
            exec_barrier(e);
            if (x->is_depth_stencil || amber_format_is_depth_stencil(x->image->format)) {
                VkClearDepthStencilValue zero = {0};
                vkCmdClearDepthStencilImage(e->gpu->cmd, x->image->image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &all);
            } else {
                VkClearColorValue zero = {{0}};
                vkCmdClearColorImage(e->gpu->cmd, x->image->image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &all);
            }
            ++e->recorded;
        }
        exec_upload_image(e, i);
    }
    return exec_flush(e);
}

bool exec_create_samplers(struct exec *e)
{
    const struct amber_script *s = e->script;
    for (uint32_t i = 0; i < s->sampler_count; ++i) {
        const struct amber_sampler *a = &s->samplers[i];
        VkSamplerCreateInfo info = {
            .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
            .magFilter = a->mag_filter,
            .minFilter = a->min_filter,
            .mipmapMode =
                a->min_filter == VK_FILTER_LINEAR ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST,
            .addressModeU = a->address_u,
            .addressModeV = a->address_v,
            .addressModeW = a->address_w,
            .compareEnable = a->compare,
            .compareOp = a->compare_op,
            .minLod = a->min_lod,
            .maxLod = a->max_lod,
            .borderColor = a->border_color,
            .unnormalizedCoordinates = a->unnormalized,
        };
        if (!GPU_CHECK(e->gpu, vkCreateSampler(e->gpu->device, &info, NULL, &e->samplers[i])))
            return !exec_vulkan_failed(e);
    }
    return true;
}

/* --- recording and copies -------------------------------------------------------------------- */

bool exec_record_begin(struct exec *e)
{
    if (e->recording)
        return true;
    if (!gpu_begin(e->gpu))
        return !exec_vulkan_failed(e);
    e->recording = true;
    e->recorded = 0;
    if (e->timing_pool != VK_NULL_HANDLE)
        vkCmdResetQueryPool(e->gpu->cmd, e->timing_pool, 0, 2 * EXEC_MAX_TIMINGS);
    e->timing_queries = 0;
    return true;
}

void exec_barrier(struct exec *e)
{
    if (!e->recording || e->recorded == 0)
        return;
    VkMemoryBarrier barrier = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT,
    };
    vkCmdPipelineBarrier(e->gpu->cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1,
                         &barrier, 0, NULL, 0, NULL);
}

static void read_timings(struct exec *e)
{
    if (e->timing_queries == 0)
        return;
    uint64_t stamps[2 * EXEC_MAX_TIMINGS];
    if (vkGetQueryPoolResults(e->gpu->device, e->timing_pool, 0, e->timing_queries, sizeof(stamps), stamps,
                              sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) != VK_SUCCESS)
        return;
    uint64_t mask = e->gpu->timestamp_valid_bits >= 64 ? UINT64_MAX : (1ull << e->gpu->timestamp_valid_bits) - 1;
    for (uint32_t i = 0; i + 1 < e->timing_queries && cJSON_GetArraySize(e->timings) < EXEC_MAX_TIMINGS; i += 2) {
        cJSON *t = cJSON_CreateObject();
        cJSON_AddNumberToObject(t, "line", e->timing_lines[i / 2]);
        cJSON_AddNumberToObject(
            t, "gpu_ns", (double)((stamps[i + 1] - stamps[i]) & mask) * e->gpu->properties.limits.timestampPeriod);
        cJSON_AddItemToArray(e->timings, t);
    }
}

bool exec_flush(struct exec *e)
{
    if (!e->recording)
        return true;
    e->recording = false;
    if (!gpu_submit_and_wait(e->gpu))
        return !exec_vulkan_failed(e);
    read_timings(e);
    for (uint32_t i = 0; i < e->script->buffer_count; ++i) {
        struct exec_buffer *x = &e->buffers[i];
        x->written_in_batch = false;
        if (x->scratch_pending) {
            interleave(e, i, true);
            x->scratch_pending = false;
        }
    }
    return true;
}

void exec_upload_image(struct exec *e, uint32_t buffer)
{
    struct exec_buffer *x = &e->buffers[buffer];
    if (x->image == NULL || !x->data_newer || !e->recording)
        return;
    x->data_newer = false;
    if (x->samples != VK_SAMPLE_COUNT_1_BIT)
        return; /* not copyable: multisampled images start cleared, as Amber's are not kept */
    VkFormat format = e->script->buffers[buffer].layout.format;
    struct gpu_buffer *source = scratch_of(e, buffer);
    if (source != NULL)
        interleave(e, buffer, false);
    else
        source = x->data;
    VkBufferImageCopy regions[2];
    uint32_t count = copy_regions(x, format, regions);
    exec_barrier(e);
    vkCmdCopyBufferToImage(e->gpu->cmd, source->buffer, x->image->image, VK_IMAGE_LAYOUT_GENERAL, count, regions);
    ++e->recorded;
    /* the other mip levels from level 0, where the format can be blitted */
    uint32_t levels = x->image->mip_levels;
    if (levels > 1 && format_supports(e, format, VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT)) {
        bool linear = format_supports(e, format, VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT) &&
                      !amber_format_is_depth_stencil(format);
        for (uint32_t level = 1; level < levels; ++level) {
            exec_barrier(e);
            int32_t w = (int32_t)x->width, h = (int32_t)x->height, d = (int32_t)x->depth;
            VkImageBlit blit = {
                .srcSubresource = {x->image->aspect, level - 1, 0, 1},
                .srcOffsets = {{0, 0, 0},
                               {w >> (level - 1) ? w >> (level - 1) : 1, h >> (level - 1) ? h >> (level - 1) : 1,
                                d >> (level - 1) ? d >> (level - 1) : 1}},
                .dstSubresource = {x->image->aspect, level, 0, 1},
                .dstOffsets = {{0, 0, 0},
                               {w >> level ? w >> level : 1, h >> level ? h >> level : 1, d >> level ? d >> level : 1}},
            };
            vkCmdBlitImage(e->gpu->cmd, x->image->image, VK_IMAGE_LAYOUT_GENERAL, x->image->image,
                           VK_IMAGE_LAYOUT_GENERAL, 1, &blit, linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST);
            ++e->recorded;
        }
    }
}

bool exec_sync_to_host(struct exec *e, uint32_t buffer)
{
    struct exec_buffer *x = &e->buffers[buffer];
    if (x->image != NULL && x->image_newer) {
        if (x->samples != VK_SAMPLE_COUNT_1_BIT) {
            x->image_newer = false; /* a multisampled image is read through its resolve target */
        } else {
            if (!exec_record_begin(e))
                return false;
            VkBufferImageCopy regions[2];
            VkFormat format = e->script->buffers[buffer].layout.format;
            uint32_t count = copy_regions(x, format, regions);
            struct gpu_buffer *target = scratch_of(e, buffer);
            x->scratch_pending = target != NULL;
            exec_barrier(e);
            vkCmdCopyImageToBuffer(e->gpu->cmd, x->image->image, VK_IMAGE_LAYOUT_GENERAL,
                                   (target ? target : x->data)->buffer, count, regions);
            ++e->recorded;
            x->image_newer = false;
        }
    }
    return exec_flush(e);
}

/* --- views ----------------------------------------------------------------------------------- */

static bool remember(struct exec *e, void **array, uint32_t *count, uint32_t *capacity, size_t size)
{
    if (*count < *capacity)
        return true;
    uint32_t grown = *capacity ? *capacity * 2 : 16;
    void *bigger = realloc(*array, grown * size);
    if (bigger == NULL)
        return exec_stop(e, VERDICT_FAIL, "out of memory");
    *array = bigger;
    *capacity = grown;
    return true;
}

VkImageView exec_image_view(struct exec *e, uint32_t buffer, uint32_t base_mip, uint32_t levels, bool attachment)
{
    struct exec_buffer *x = &e->buffers[buffer];
    if (x->image == NULL || !remember(e, (void **)&e->views, &e->view_count, &e->view_capacity, sizeof(VkImageView)))
        return VK_NULL_HANDLE;
    static const VkImageViewType types[] = {VK_IMAGE_VIEW_TYPE_1D, VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_VIEW_TYPE_3D};
    VkImageAspectFlags aspect = x->image->aspect;
    if (!attachment && (aspect & VK_IMAGE_ASPECT_DEPTH_BIT))
        aspect = VK_IMAGE_ASPECT_DEPTH_BIT; /* sampled: one aspect */
    VkImageViewCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = x->image->image,
        .viewType = types[x->image_type],
        .format = x->image->format,
        .subresourceRange = {aspect, base_mip, levels, 0, 1},
    };
    VkImageView view = VK_NULL_HANDLE;
    if (!GPU_CHECK(e->gpu, vkCreateImageView(e->gpu->device, &info, NULL, &view)))
        return VK_NULL_HANDLE;
    e->views[e->view_count++] = view;
    return view;
}

VkBufferView exec_buffer_view(struct exec *e, uint32_t buffer)
{
    const struct amber_buffer *b = &e->script->buffers[buffer];
    struct exec_buffer *x = &e->buffers[buffer];
    if (!remember(e, (void **)&e->buffer_views, &e->buffer_view_count, &e->buffer_view_capacity, sizeof(VkBufferView)))
        return VK_NULL_HANDLE;
    VkBufferViewCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
        .buffer = x->data->buffer,
        .format = b->layout.format,
        .range = x->bytes ? x->bytes / b->layout.stride * b->layout.stride : VK_WHOLE_SIZE,
    };
    VkBufferView view = VK_NULL_HANDLE;
    if (!GPU_CHECK(e->gpu, vkCreateBufferView(e->gpu->device, &info, NULL, &view)))
        return VK_NULL_HANDLE;
    e->buffer_views[e->buffer_view_count++] = view;
    return view;
}

void exec_destroy_resources(struct exec *e)
{
    VkDevice device = e->gpu->device;
    for (uint32_t i = 0; i < e->view_count; ++i)
        vkDestroyImageView(device, e->views[i], NULL);
    for (uint32_t i = 0; i < e->buffer_view_count; ++i)
        vkDestroyBufferView(device, e->buffer_views[i], NULL);
    for (uint32_t i = 0; e->samplers && i < e->script->sampler_count; ++i)
        vkDestroySampler(device, e->samplers[i], NULL);
    if (e->timing_pool != VK_NULL_HANDLE)
        vkDestroyQueryPool(device, e->timing_pool, NULL);
    free(e->views);
    free(e->buffer_views);
}
