#include "check_dispatch.h"

#include "array_grow.h"

#include <stdio.h>
#include <string.h>

#include "findings.h"
#include "state_command_buffers.h"
#include "state_device.h"
#include "state_pipelines.h"
#include "state_resources.h"

static void report(struct layer_device *ld, struct command_buffer_state *cb, enum check_id check, const char *call,
                   VkObjectType type, uint64_t handle, VkObjectType type2, uint64_t handle2, const char *message)
{
    struct finding f = {.check = check, .call = call, .command_buffer = cb, .object_count = 1};
    f.objects[0] = (struct finding_object){type, handle};
    if (handle2 != 0)
        f.objects[f.object_count++] = (struct finding_object){type2, handle2};
    snprintf(f.message, sizeof(f.message), "%s", message);
    finding_report(ld->instance, ld, &f);
}

/* Runs before the pipeline exists: the findings name the shader module (and the pipeline's handle
 * where the caller already has one). */
void check_dispatch_pipeline(struct layer_device *ld, const struct pipeline_state *p, VkShaderModule module,
                             const char *call)
{
    if (!p->reflected || !p->shader.has_local_size)
        return;
    const VkPhysicalDeviceLimits *limits = &ld->properties.limits;
    const struct fleet_compute_limits *t = &ld->instance->targets;
    const uint32_t *size = p->shader.local_size;
    uint64_t invocations = (uint64_t)size[0] * size[1] * size[2];
    char message[1024];
    static const char axis[3] = {'x', 'y', 'z'};
    for (int i = 0; i < 3; ++i) {
        if (size[i] > limits->maxComputeWorkGroupSize[i]) {
            snprintf(message, sizeof(message), "local_size_%c = %u exceeds maxComputeWorkGroupSize[%d] = %u on %s",
                     axis[i], size[i], i, limits->maxComputeWorkGroupSize[i], ld->properties.deviceName);
            report(ld, NULL, CHECK_DISPATCH_WORKGROUP_SIZE, call, VK_OBJECT_TYPE_SHADER_MODULE, HANDLE(module),
                   VK_OBJECT_TYPE_PIPELINE, HANDLE(p->handle), message);
        } else if (t->workgroup_size[i].present && size[i] > t->workgroup_size[i].value) {
            snprintf(message, sizeof(message),
                     "local_size_%c = %u exceeds maxComputeWorkGroupSize[%d] = %llu of target device %s (from %s)",
                     axis[i], size[i], i, (unsigned long long)t->workgroup_size[i].value, t->workgroup_size[i].device,
                     t->source);
            report(ld, NULL, CHECK_DISPATCH_TARGET_WORKGROUP_SIZE, call, VK_OBJECT_TYPE_SHADER_MODULE, HANDLE(module),
                   VK_OBJECT_TYPE_PIPELINE, HANDLE(p->handle), message);
        }
    }
    if (invocations > limits->maxComputeWorkGroupInvocations) {
        snprintf(message, sizeof(message),
                 "local size %ux%ux%u = %llu invocations exceeds maxComputeWorkGroupInvocations = %u on %s", size[0],
                 size[1], size[2], (unsigned long long)invocations, limits->maxComputeWorkGroupInvocations,
                 ld->properties.deviceName);
        report(ld, NULL, CHECK_DISPATCH_WORKGROUP_INVOCATIONS, call, VK_OBJECT_TYPE_SHADER_MODULE, HANDLE(module),
               VK_OBJECT_TYPE_PIPELINE, HANDLE(p->handle), message);
    } else if (t->invocations.present && invocations > t->invocations.value) {
        snprintf(message, sizeof(message),
                 "local size %ux%ux%u = %llu invocations exceeds maxComputeWorkGroupInvocations = %llu of target "
                 "device %s (from %s)",
                 size[0], size[1], size[2], (unsigned long long)invocations, (unsigned long long)t->invocations.value,
                 t->invocations.device, t->source);
        report(ld, NULL, CHECK_DISPATCH_TARGET_WORKGROUP_INVOCATIONS, call, VK_OBJECT_TYPE_SHADER_MODULE,
               HANDLE(module), VK_OBJECT_TYPE_PIPELINE, HANDLE(p->handle), message);
    }
    uint64_t shared = p->shader.workgroup_memory;
    if (shared > limits->maxComputeSharedMemorySize) {
        snprintf(message, sizeof(message),
                 "%llu bytes of workgroup (shared) memory exceed maxComputeSharedMemorySize "
                 "= %u on %s",
                 (unsigned long long)shared, limits->maxComputeSharedMemorySize, ld->properties.deviceName);
        report(ld, NULL, CHECK_DISPATCH_SHARED_MEMORY, call, VK_OBJECT_TYPE_SHADER_MODULE, HANDLE(module),
               VK_OBJECT_TYPE_PIPELINE, HANDLE(p->handle), message);
    } else if (t->shared_memory.present && shared > t->shared_memory.value) {
        snprintf(message, sizeof(message),
                 "%llu bytes of workgroup (shared) memory exceed maxComputeSharedMemorySize "
                 "= %llu of target device %s (from %s)",
                 (unsigned long long)shared, (unsigned long long)t->shared_memory.value, t->shared_memory.device,
                 t->source);
        report(ld, NULL, CHECK_DISPATCH_TARGET_SHARED_MEMORY, call, VK_OBJECT_TYPE_SHADER_MODULE, HANDLE(module),
               VK_OBJECT_TYPE_PIPELINE, HANDLE(p->handle), message);
    }
}

/* Group counts against a limit per dimension; base + count for vkCmdDispatchBase. */
__attribute__((noinline)) static void report_counts(struct layer_device *ld, struct command_buffer_state *cb,
                                                    const uint32_t base[3], const uint32_t count[3], const char *call,
                                                    const char *how, uint32_t command_index)
{
    const VkPhysicalDeviceLimits *limits = &ld->properties.limits;
    const struct fleet_compute_limits *t = &ld->instance->targets;
    uint64_t pipeline = cb && cb->compute.pipeline ? HANDLE(cb->compute.pipeline->handle) : 0;
    char message[1024];
    static const char axis[3] = {'X', 'Y', 'Z'};
    for (int i = 0; i < 3; ++i) {
        uint64_t end = (uint64_t)base[i] + count[i];
        bool over_device = end > limits->maxComputeWorkGroupCount[i];
        if (!over_device && !(t->group_count[i].present && end > t->group_count[i].value))
            continue; /* the common case: no formatting on the recording path */
        char what[96];
        if (base[i] != 0)
            snprintf(what, sizeof(what), "baseGroup%c + groupCount%c = %u + %u = %llu", axis[i], axis[i], base[i],
                     count[i], (unsigned long long)end);
        else
            snprintf(what, sizeof(what), "groupCount%c = %u", axis[i], count[i]);
        if (over_device) {
            snprintf(message, sizeof(message), "%s%s (command %u) exceeds maxComputeWorkGroupCount[%d] = %u on %s",
                     what, how, command_index, i, limits->maxComputeWorkGroupCount[i], ld->properties.deviceName);
            report(ld, cb, how[0] ? CHECK_DISPATCH_INDIRECT_GROUP_COUNT : CHECK_DISPATCH_GROUP_COUNT, call,
                   VK_OBJECT_TYPE_COMMAND_BUFFER, cb ? HANDLE((uintptr_t)cb->handle) : 0, VK_OBJECT_TYPE_PIPELINE,
                   pipeline, message);
        } else {
            snprintf(message, sizeof(message),
                     "%s%s (command %u) exceeds maxComputeWorkGroupCount[%d] = %llu of target device %s (from %s)",
                     what, how, command_index, i, (unsigned long long)t->group_count[i].value, t->group_count[i].device,
                     t->source);
            report(ld, cb, CHECK_DISPATCH_TARGET_GROUP_COUNT, call, VK_OBJECT_TYPE_COMMAND_BUFFER,
                   cb ? HANDLE((uintptr_t)cb->handle) : 0, VK_OBJECT_TYPE_PIPELINE, pipeline, message);
        }
    }
    /* A zero count read from an indirect buffer is how GPU-driven work skips a dispatch: no finding. */
    if (how[0] == '\0' && (count[0] == 0 || count[1] == 0 || count[2] == 0)) {
        snprintf(message, sizeof(message),
                 "group count (%u, %u, %u)%s (command %u) has a zero: the dispatch does no work", count[0], count[1],
                 count[2], how, command_index);
        report(ld, cb, CHECK_DISPATCH_ZERO_SIZE, call, VK_OBJECT_TYPE_COMMAND_BUFFER,
               cb ? HANDLE((uintptr_t)cb->handle) : 0, VK_OBJECT_TYPE_PIPELINE, pipeline, message);
    }
}

void check_dispatch_device_init(struct layer_device *ld)
{
    const struct fleet_compute_limits *t = &ld->instance->targets;
    for (int i = 0; i < 3; ++i) {
        ld->group_end_max[i] = ld->properties.limits.maxComputeWorkGroupCount[i];
        if (t->group_count[i].present && t->group_count[i].value < ld->group_end_max[i])
            ld->group_end_max[i] = t->group_count[i].value;
    }
}

/* The common case, nothing to report, decided without the formatting's stack frame. */
static inline void check_counts(struct layer_device *ld, struct command_buffer_state *cb, const uint32_t base[3],
                                const uint32_t count[3], const char *call, const char *how, uint32_t command_index)
{
    /* every dispatch comes here: the three dimensions compared without a loop or early exits */
    bool empty = how[0] == '\0' && (count[0] == 0) | (count[1] == 0) | (count[2] == 0);
    bool past = ((uint64_t)base[0] + count[0] > ld->group_end_max[0]) |
                ((uint64_t)base[1] + count[1] > ld->group_end_max[1]) |
                ((uint64_t)base[2] + count[2] > ld->group_end_max[2]);
    if (empty || past)
        report_counts(ld, cb, base, count, call, how, command_index);
}

void check_dispatch_groups(struct layer_device *ld, struct command_buffer_state *cb, const uint32_t base[3],
                           const uint32_t count[3], const char *call)
{
    check_counts(ld, cb, base, count, call, "", cb->command_index);
}

void dispatch_bounds_now(const struct command_buffer_state *cb, struct dispatch_bounds *out)
{
    out->present = 0;
    const struct pipeline_state *p = cb->compute.pipeline;
    if (p == NULL || !p->reflected || !p->shader.has_local_size || !p->shader.has_bounds)
        return;
    for (uint32_t d = 0; d < 3; ++d) {
        const struct reflect_bound *b = &p->shader.bounds[d];
        if (!b->present)
            continue;
        if (b->offset % 4 != 0 || b->offset + 4 > MAX_PUSH_CONSTANT_BYTES || !(cb->push_valid >> (b->offset / 4) & 1))
            continue; /* not pushed in this recording: no value to compare with */
        uint32_t raw;
        memcpy(&raw, cb->push_constants + b->offset, sizeof(raw));
        if (b->is_signed && (int32_t)raw <= 0)
            continue; /* the shader works on no invocation */
        out->present |= 1u << d;
        out->kind[d] = b->kind;
        out->offset[d] = b->offset;
        out->value[d] = (uint64_t)raw + (b->plus_one ? 1 : 0);
        out->local[d] = p->shader.local_size[d];
    }
}

__attribute__((noinline)) static void report_coverage(struct layer_device *ld, struct command_buffer_state *cb,
                                                      const struct dispatch_bounds *bounds, uint32_t d,
                                                      uint64_t covered, uint64_t end, const char *call, const char *how,
                                                      uint32_t command_index)
{
    static const char axis[3] = {'x', 'y', 'z'};
    bool groups = bounds->kind[d] == REFLECT_BOUND_WORKGROUP;
    uint64_t unit = groups ? 1 : bounds->local[d];
    uint64_t needed = (bounds->value[d] + unit - 1) / unit;
    char launched[96];
    if (groups)
        snprintf(launched, sizeof(launched), "%llu workgroups", (unsigned long long)covered);
    else
        snprintf(launched, sizeof(launched), "%llu invocations (%llu groups of local_size_%c = %u)",
                 (unsigned long long)covered, (unsigned long long)end, axis[d], bounds->local[d]);
    struct finding f = {.check = CHECK_DISPATCH_UNCOVERED_ELEMENTS, .call = call, .command_buffer = cb};
    f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_COMMAND_BUFFER, HANDLE((uintptr_t)cb->handle)};
    if (cb->compute.pipeline != NULL)
        f.objects[f.object_count++] =
            (struct finding_object){VK_OBJECT_TYPE_PIPELINE, HANDLE(cb->compute.pipeline->handle)};
    snprintf(f.message, sizeof(f.message),
             "%s (command %u) launches %s in %c%s, but the shader works on every %s.%c below %llu (the push "
             "constant at offset %u): %llu elements are left out; %llu groups in %c would cover them",
             call, command_index, launched, axis[d], how, groups ? "gl_WorkGroupID" : "gl_GlobalInvocationID", axis[d],
             (unsigned long long)bounds->value[d], bounds->offset[d], (unsigned long long)(bounds->value[d] - covered),
             (unsigned long long)needed, axis[d]);
    finding_report(ld->instance, ld, &f);
}

void check_dispatch_coverage(struct layer_device *ld, struct command_buffer_state *cb,
                             const struct dispatch_bounds *bounds, const uint32_t base[3], const uint32_t count[3],
                             const char *call, const char *how, uint32_t command_index)
{
    if (count[0] == 0 || count[1] == 0 || count[2] == 0)
        return; /* no work at all: the zero-size check's business */
    for (uint32_t d = 0; d < 3; ++d) {
        if (!(bounds->present >> d & 1))
            continue;
        uint64_t end = (uint64_t)base[d] + count[d];
        uint64_t covered = bounds->kind[d] == REFLECT_BOUND_WORKGROUP ? end : end * bounds->local[d];
        if (covered < bounds->value[d])
            report_coverage(ld, cb, bounds, d, covered, end, call, how, command_index);
    }
}

/* Appends a pending indirect dispatch at the current command; NULL when out of memory. */
static struct pending_indirect *add_pending(struct command_buffer_state *cb, VkBuffer buffer, VkDeviceSize offset)
{
    struct pending_indirect *grown =
        array_grow(cb->indirect, &cb->indirect_capacity, cb->indirect_count + 1, sizeof(*grown), 8);
    if (grown == NULL)
        return NULL;
    cb->indirect = grown;
    struct pending_indirect *p = &cb->indirect[cb->indirect_count++];
    p->buffer = buffer;
    p->offset = offset;
    p->command_index = cb->command_index;
    return p;
}

void check_dispatch_indirect_recorded(struct command_buffer_state *cb, VkBuffer buffer, VkDeviceSize offset)
{
    struct pending_indirect *p = add_pending(cb, buffer, offset);
    if (p != NULL)
        dispatch_bounds_now(cb, &p->bounds);
}

void check_dispatch_indirect_executed(struct command_buffer_state *primary,
                                      const struct command_buffer_state *secondary)
{
    for (uint32_t k = 0; k < secondary->indirect_count; ++k) {
        struct pending_indirect *p = add_pending(primary, secondary->indirect[k].buffer, secondary->indirect[k].offset);
        if (p == NULL)
            return;
        p->bounds = secondary->indirect[k].bounds; /* as pushed in the secondary */
    }
}

void check_dispatch_indirect_at_submit(struct layer_device *ld, struct command_buffer_state *cb, VkQueue queue)
{
    (void)queue;
    for (uint32_t i = 0; i < cb->indirect_count; ++i) {
        const struct pending_indirect *p = &cb->indirect[i];
        struct buffer_state *b = buffer_state_in(ld, HANDLE(p->buffer));
        struct memory_state *m = b ? memory_state_in(ld, HANDLE(b->memory)) : NULL;
        /* Only what the host can see now is what the GPU will read: mapped memory that no recorded
         * command of this command buffer writes before the dispatch. */
        if (m == NULL || m->mapped == NULL || command_buffer_may_write(cb, HANDLE(p->buffer)))
            continue;
        VkDeviceSize at = b->memory_offset + p->offset;
        if (at < m->mapped_offset || at + 3 * sizeof(uint32_t) > m->mapped_offset + m->mapped_size)
            continue;
        if (!(m->properties & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT))
            continue; /* non-coherent: the host's view may be older than what a flush made visible */
        uint32_t count[3];
        memcpy(count, (const char *)m->mapped + (at - m->mapped_offset), sizeof(count));
        const uint32_t base[3] = {0, 0, 0};
        check_counts(ld, cb, base, count, "vkCmdDispatchIndirect", " read from the indirect buffer at submit",
                     p->command_index);
        if (p->bounds.present)
            check_dispatch_coverage(ld, cb, &p->bounds, base, count, "vkCmdDispatchIndirect",
                                    " (group count read from the indirect buffer at submit)", p->command_index);
    }
}
