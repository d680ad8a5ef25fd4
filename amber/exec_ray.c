/* Ray tracing on the device: every ACCELERATION_STRUCTURE built once before the commands run
 * (bottom levels, a barrier, top levels), a ray_tracing PIPELINE made with its libraries (each
 * library made again for every pipeline that links it, with that pipeline's layout), and its
 * SHADER_BINDING_TABLEs written into one buffer of group handles. */
#include <stdlib.h>
#include <string.h>

#include "exec.h"

static VkDeviceSize align_up(VkDeviceSize value, VkDeviceSize alignment)
{
    return alignment > 1 ? (value + alignment - 1) / alignment * alignment : value;
}

static const VkBufferUsageFlags input_usage =
    VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;

/* --- acceleration structures ----------------------------------------------------------------- */

static uint32_t scratch_alignment(struct exec *e)
{
    VkPhysicalDeviceAccelerationStructurePropertiesKHR as = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_PROPERTIES_KHR};
    VkPhysicalDeviceProperties2 properties = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &as};
    vkGetPhysicalDeviceProperties2(e->gpu->physical, &properties);
    return as.minAccelerationStructureScratchOffsetAlignment;
}

/* Storage, the structure, scratch, and the build recorded. */
static bool build(struct exec *e, VkAccelerationStructureBuildGeometryInfoKHR *info,
                  const VkAccelerationStructureBuildRangeInfoKHR *ranges, const uint32_t *counts,
                  VkAccelerationStructureKHR *out, const char *name)
{
    VkAccelerationStructureBuildSizesInfoKHR sizes = {
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_SIZES_INFO_KHR};
    vkGetAccelerationStructureBuildSizesKHR(e->gpu->device, VK_ACCELERATION_STRUCTURE_BUILD_TYPE_DEVICE_KHR, info,
                                            counts, &sizes);
    uint32_t alignment = scratch_alignment(e);
    struct gpu_buffer *storage = gpu_buffer_create_with_usage(
        e->gpu, sizes.accelerationStructureSize ? sizes.accelerationStructureSize : 256,
        VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_STORAGE_BIT_KHR | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT, 0);
    struct gpu_buffer *scratch = storage == NULL
                                     ? NULL
                                     : gpu_buffer_create_with_usage(e->gpu, sizes.buildScratchSize + alignment,
                                                                    VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT, 0);
    if (scratch == NULL)
        return exec_no_object(e, "buffers");
    VkAccelerationStructureCreateInfoKHR create = {
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_CREATE_INFO_KHR,
        .buffer = storage->buffer,
        .size = sizes.accelerationStructureSize,
        .type = info->type,
    };
    if (!GPU_CHECK(e->gpu, vkCreateAccelerationStructureKHR(e->gpu->device, &create, NULL, out)))
        return !exec_vulkan_failed(e) &&
               exec_stop(e, VERDICT_FAIL, "ACCELERATION_STRUCTURE %s could not be made", name);
    info->dstAccelerationStructure = *out;
    info->scratchData.deviceAddress = align_up(gpu_buffer_address(e->gpu, scratch), alignment);
    vkCmdBuildAccelerationStructuresKHR(e->gpu->cmd, 1, info, &ranges);
    ++e->recorded;
    return !exec_vulkan_failed(e);
}

static bool build_blas(struct exec *e, uint32_t index)
{
    const struct amber_blas *b = &e->script->blases[index];
    uint32_t per = b->aabbs ? 6 : 9;
    uint64_t floats = 0;
    for (uint32_t g = 0; g < b->geometry_count; ++g)
        floats += (uint64_t)b->geometries[g].primitive_count * per;
    struct gpu_buffer *input = gpu_buffer_create_with_usage(e->gpu, floats * sizeof(float), input_usage, 0);
    VkAccelerationStructureGeometryKHR *geometries = calloc(b->geometry_count, sizeof(*geometries));
    VkAccelerationStructureBuildRangeInfoKHR *ranges = calloc(b->geometry_count, sizeof(*ranges));
    uint32_t *counts = calloc(b->geometry_count, sizeof(*counts));
    bool ok = input != NULL && geometries != NULL && ranges != NULL && counts != NULL;
    if (!ok) {
        if (input == NULL)
            exec_no_object(e, "buffers");
        else
            exec_stop(e, VERDICT_FAIL, "out of memory");
    }
    VkDeviceAddress base = ok ? gpu_buffer_address(e->gpu, input) : 0;
    uint64_t at = 0;
    for (uint32_t g = 0; ok && g < b->geometry_count; ++g) {
        const struct amber_geometry *geometry = &b->geometries[g];
        uint64_t count = (uint64_t)geometry->primitive_count * per;
        memcpy((float *)input->mapped + at, geometry->data, count * sizeof(float));
        VkDeviceAddress address = base + at * sizeof(float);
        geometries[g] = (VkAccelerationStructureGeometryKHR){
            .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
            .geometryType = b->aabbs ? VK_GEOMETRY_TYPE_AABBS_KHR : VK_GEOMETRY_TYPE_TRIANGLES_KHR,
            .flags = geometry->flags,
        };
        if (b->aabbs)
            geometries[g].geometry.aabbs = (VkAccelerationStructureGeometryAabbsDataKHR){
                .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_AABBS_DATA_KHR,
                .data.deviceAddress = address,
                .stride = sizeof(VkAabbPositionsKHR),
            };
        else
            geometries[g].geometry.triangles = (VkAccelerationStructureGeometryTrianglesDataKHR){
                .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_TRIANGLES_DATA_KHR,
                .vertexFormat = VK_FORMAT_R32G32B32_SFLOAT,
                .vertexData.deviceAddress = address,
                .vertexStride = 3 * sizeof(float),
                .maxVertex = geometry->primitive_count * 3 - 1,
                .indexType = VK_INDEX_TYPE_NONE_KHR,
            };
        ranges[g] = (VkAccelerationStructureBuildRangeInfoKHR){.primitiveCount = geometry->primitive_count};
        counts[g] = geometry->primitive_count;
        at += count;
    }
    if (ok) {
        VkAccelerationStructureBuildGeometryInfoKHR info = {
            .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_GEOMETRY_INFO_KHR,
            .type = VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR,
            .flags = VK_BUILD_ACCELERATION_STRUCTURE_PREFER_FAST_TRACE_BIT_KHR,
            .mode = VK_BUILD_ACCELERATION_STRUCTURE_MODE_BUILD_KHR,
            .geometryCount = b->geometry_count,
            .pGeometries = geometries,
        };
        ok = build(e, &info, ranges, counts, &e->blases[index], b->name);
    }
    free(geometries);
    free(ranges);
    free(counts);
    return ok;
}

static bool build_tlas(struct exec *e, uint32_t index)
{
    const struct amber_tlas *t = &e->script->tlases[index];
    struct gpu_buffer *input = gpu_buffer_create_with_usage(
        e->gpu, (VkDeviceSize)t->instance_count * sizeof(VkAccelerationStructureInstanceKHR), input_usage, 0);
    if (input == NULL)
        return exec_no_object(e, "buffers");
    VkAccelerationStructureInstanceKHR *instances = input->mapped;
    for (uint32_t i = 0; i < t->instance_count; ++i) {
        const struct amber_instance *in = &t->instances[i];
        VkAccelerationStructureDeviceAddressInfoKHR address = {
            .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_DEVICE_ADDRESS_INFO_KHR,
            .accelerationStructure = e->blases[in->blas],
        };
        VkAccelerationStructureInstanceKHR instance = {
            .instanceCustomIndex = in->custom_index,
            .mask = in->mask,
            .instanceShaderBindingTableRecordOffset = in->sbt_offset,
            .flags = in->flags & 0xFF,
            .accelerationStructureReference = vkGetAccelerationStructureDeviceAddressKHR(e->gpu->device, &address),
        };
        memcpy(instance.transform.matrix, in->transform, sizeof(in->transform));
        instances[i] = instance;
    }
    VkAccelerationStructureGeometryKHR geometry = {
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
        .geometryType = VK_GEOMETRY_TYPE_INSTANCES_KHR,
        .geometry.instances =
            {
                .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_INSTANCES_DATA_KHR,
                .data.deviceAddress = gpu_buffer_address(e->gpu, input),
            },
    };
    VkAccelerationStructureBuildGeometryInfoKHR info = {
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_GEOMETRY_INFO_KHR,
        .type = VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR,
        .flags = VK_BUILD_ACCELERATION_STRUCTURE_PREFER_FAST_TRACE_BIT_KHR,
        .mode = VK_BUILD_ACCELERATION_STRUCTURE_MODE_BUILD_KHR,
        .geometryCount = 1,
        .pGeometries = &geometry,
    };
    VkAccelerationStructureBuildRangeInfoKHR range = {.primitiveCount = t->instance_count};
    return build(e, &info, &range, &t->instance_count, &e->tlases[index], t->name);
}

bool exec_build_acceleration_structures(struct exec *e)
{
    const struct amber_script *s = e->script;
    if (s->blas_count == 0 && s->tlas_count == 0)
        return true;
    e->blases = calloc(s->blas_count + 1, sizeof(*e->blases));
    e->tlases = calloc(s->tlas_count + 1, sizeof(*e->tlases));
    if (e->blases == NULL || e->tlases == NULL)
        return exec_stop(e, VERDICT_FAIL, "out of memory");
    if (!exec_record_begin(e))
        return false;
    for (uint32_t i = 0; i < s->blas_count; ++i)
        if (!build_blas(e, i))
            return false;
    /* the top levels read the bottom levels' builds */
    exec_barrier(e);
    for (uint32_t i = 0; i < s->tlas_count; ++i)
        if (!build_tlas(e, i))
            return false;
    exec_barrier(e);
    return true;
}

void exec_destroy_acceleration_structures(struct exec *e)
{
    const struct amber_script *s = e->script;
    for (uint32_t i = 0; e->blases != NULL && i < s->blas_count; ++i)
        vkDestroyAccelerationStructureKHR(e->gpu->device, e->blases[i], NULL);
    for (uint32_t i = 0; e->tlases != NULL && i < s->tlas_count; ++i)
        vkDestroyAccelerationStructureKHR(e->gpu->device, e->tlases[i], NULL);
    free(e->blases);
    free(e->tlases);
    e->blases = e->tlases = NULL;
}

/* --- pipelines ------------------------------------------------------------------------------- */

/* Groups as the linked pipeline numbers them: its own, then each library's (its own, then its
 * libraries'), in USE_LIBRARY order. */
static uint32_t group_total(const struct amber_script *s, uint32_t pipeline, int depth)
{
    const struct amber_pipeline *pl = &s->pipelines[pipeline];
    uint32_t total = pl->group_count;
    for (uint32_t i = 0; depth < 8 && i < pl->library_count; ++i)
        total += group_total(s, pl->libraries[i], depth + 1);
    return total;
}

static bool group_index(const struct amber_script *s, uint32_t pipeline, const struct amber_sbt_record *r,
                        uint32_t *index, int depth)
{
    const struct amber_pipeline *pl = &s->pipelines[pipeline];
    if (r->pipeline == pipeline) {
        *index = r->group;
        return true;
    }
    uint32_t offset = pl->group_count;
    for (uint32_t i = 0; depth < 8 && i < pl->library_count; ++i) {
        uint32_t inner;
        if (group_index(s, pl->libraries[i], r, &inner, depth + 1)) {
            *index = offset + inner;
            return true;
        }
        offset += group_total(s, pl->libraries[i], depth + 1);
    }
    return false;
}

static VkShaderModule module_of(struct exec *e, uint32_t shader)
{
    if (e->shader_modules[shader] != VK_NULL_HANDLE)
        return e->shader_modules[shader];
    if (!exec_compile(e, shader))
        return VK_NULL_HANDLE;
    VkShaderModuleCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = e->spirv[shader].count * 4,
        .pCode = e->spirv[shader].words,
    };
    if (!GPU_CHECK(e->gpu, vkCreateShaderModule(e->gpu->device, &info, NULL, &e->shader_modules[shader]))) {
        exec_vulkan_failed(e);
        return VK_NULL_HANDLE;
    }
    return e->shader_modules[shader];
}

/* The stage of `shader` in `stages` (added when new); UINT32_MAX after a stop. */
static uint32_t stage_of(struct exec *e, uint32_t shader, VkPipelineShaderStageCreateInfo *stages, uint32_t *shaders,
                         uint32_t *count)
{
    if (shader == AMBER_NO_SHADER)
        return VK_SHADER_UNUSED_KHR;
    for (uint32_t i = 0; i < *count; ++i)
        if (shaders[i] == shader)
            return i;
    VkShaderModule module = module_of(e, shader);
    if (module == VK_NULL_HANDLE)
        return UINT32_MAX;
    stages[*count] = (VkPipelineShaderStageCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
        .stage = exec_stage_bit(e->script->shaders[shader].stage),
        .module = module,
        .pName = "main",
    };
    shaders[*count] = shader;
    return (*count)++;
}

static bool remember_library(struct exec *e, struct exec_pipeline *x, VkPipeline library)
{
    if (x->library_pipeline_count == x->library_pipeline_capacity) {
        uint32_t grown = x->library_pipeline_capacity ? x->library_pipeline_capacity * 2 : 4;
        VkPipeline *bigger = realloc(x->library_pipelines, grown * sizeof(*bigger));
        if (bigger == NULL) {
            vkDestroyPipeline(e->gpu->device, library, NULL);
            return exec_stop(e, VERDICT_FAIL, "out of memory");
        }
        x->library_pipelines = bigger;
        x->library_pipeline_capacity = grown;
    }
    x->library_pipelines[x->library_pipeline_count++] = library;
    return true;
}

/* `pipeline` made with `owner`'s layout: a library (kept in `owner`'s list) or the one that runs. */
static VkPipeline make(struct exec *e, uint32_t pipeline, uint32_t owner, bool library, int depth)
{
    const struct amber_pipeline *pl = &e->script->pipelines[pipeline];
    struct exec_pipeline *x = &e->pipelines[owner];
    VkPipeline libraries[AMBER_MAX_LIBRARIES];
    for (uint32_t i = 0; i < pl->library_count; ++i) {
        libraries[i] = depth < 8 ? make(e, pl->libraries[i], owner, true, depth + 1) : VK_NULL_HANDLE;
        if (libraries[i] == VK_NULL_HANDLE) {
            if (!e->stopped)
                exec_stop(e, VERDICT_FAIL, "PIPELINE %s: its libraries nest too deep", pl->name);
            return VK_NULL_HANDLE;
        }
    }
    uint32_t n = pl->group_count;
    VkPipelineShaderStageCreateInfo *stages = calloc(4 * n + 1, sizeof(*stages));
    uint32_t *shaders = calloc(4 * n + 1, sizeof(*shaders));
    VkRayTracingShaderGroupCreateInfoKHR *groups = calloc(n + 1, sizeof(*groups));
    VkPipeline made = VK_NULL_HANDLE;
    if (stages == NULL || shaders == NULL || groups == NULL) {
        exec_stop(e, VERDICT_FAIL, "out of memory");
        goto done;
    }
    uint32_t count = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const struct amber_shader_group *g = &pl->groups[i];
        uint32_t general = stage_of(e, g->general, stages, shaders, &count);
        uint32_t closest = stage_of(e, g->closest_hit, stages, shaders, &count);
        uint32_t any = stage_of(e, g->any_hit, stages, shaders, &count);
        uint32_t intersection = stage_of(e, g->intersection, stages, shaders, &count);
        if (e->stopped)
            goto done;
        groups[i] = (VkRayTracingShaderGroupCreateInfoKHR){
            .sType = VK_STRUCTURE_TYPE_RAY_TRACING_SHADER_GROUP_CREATE_INFO_KHR,
            .type = g->general != AMBER_NO_SHADER        ? VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR
                    : g->intersection != AMBER_NO_SHADER ? VK_RAY_TRACING_SHADER_GROUP_TYPE_PROCEDURAL_HIT_GROUP_KHR
                                                         : VK_RAY_TRACING_SHADER_GROUP_TYPE_TRIANGLES_HIT_GROUP_KHR,
            .generalShader = general,
            .closestHitShader = closest,
            .anyHitShader = any,
            .intersectionShader = intersection,
        };
    }
    if (pl->max_ray_recursion_depth > e->ray_tracing.maxRayRecursionDepth) {
        exec_stop(e, VERDICT_UNSUPPORTED,
                  "PIPELINE %s: MAX_RAY_RECURSION_DEPTH %u; the device's maxRayRecursionDepth is %u", pl->name,
                  pl->max_ray_recursion_depth, e->ray_tracing.maxRayRecursionDepth);
        goto done;
    }
    VkPipelineLibraryCreateInfoKHR library_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR,
        .libraryCount = pl->library_count,
        .pLibraries = libraries,
    };
    VkRayTracingPipelineInterfaceCreateInfoKHR interface = {
        .sType = VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_INTERFACE_CREATE_INFO_KHR,
        .maxPipelineRayPayloadSize = pl->max_ray_payload_size,
        .maxPipelineRayHitAttributeSize = pl->max_ray_hit_attribute_size,
    };
    bool linked = library || pl->library_count > 0;
    VkRayTracingPipelineCreateInfoKHR info = {
        .sType = VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_CREATE_INFO_KHR,
        .flags = library ? VK_PIPELINE_CREATE_LIBRARY_BIT_KHR : 0,
        .stageCount = count,
        .pStages = stages,
        .groupCount = n,
        .pGroups = groups,
        .maxPipelineRayRecursionDepth = pl->max_ray_recursion_depth,
        .pLibraryInfo = pl->library_count ? &library_info : NULL,
        .pLibraryInterface = linked ? &interface : NULL,
        .layout = x->layout,
    };
    if (!GPU_CHECK(e->gpu, vkCreateRayTracingPipelinesKHR(e->gpu->device, VK_NULL_HANDLE, VK_NULL_HANDLE, 1, &info,
                                                          NULL, &made))) {
        made = VK_NULL_HANDLE;
        if (!exec_vulkan_failed(e))
            exec_stop(e, VERDICT_FAIL, "PIPELINE %s: vkCreateRayTracingPipelinesKHR failed", pl->name);
    } else if (library && !remember_library(e, x, made)) {
        made = VK_NULL_HANDLE;
    }
done:
    free(stages);
    free(shaders);
    free(groups);
    return made;
}

/* Every table's records, one group handle each, in one buffer: a table starts at
 * shaderGroupBaseAlignment, a record is a handle padded to shaderGroupHandleAlignment. */
static bool write_tables(struct exec *e, uint32_t index)
{
    const struct amber_pipeline *pl = &e->script->pipelines[index];
    struct exec_pipeline *x = &e->pipelines[index];
    const VkPhysicalDeviceRayTracingPipelinePropertiesKHR *rt = &e->ray_tracing;
    if (pl->sbt_count == 0)
        return true;
    uint32_t total = group_total(e->script, index, 0);
    uint32_t handle = rt->shaderGroupHandleSize;
    VkDeviceSize record = align_up(handle, rt->shaderGroupHandleAlignment);
    VkDeviceSize base_alignment = rt->shaderGroupBaseAlignment ? rt->shaderGroupBaseAlignment : 1;
    VkDeviceSize bytes = base_alignment;
    for (uint32_t i = 0; i < pl->sbt_count; ++i)
        bytes += align_up(pl->sbts[i].record_count * record, base_alignment);
    uint8_t *handles = malloc((size_t)total * handle + 1);
    x->sbt_regions = calloc(pl->sbt_count, sizeof(*x->sbt_regions));
    if (handles == NULL || x->sbt_regions == NULL) {
        free(handles);
        return exec_stop(e, VERDICT_FAIL, "out of memory");
    }
    if (!GPU_CHECK(e->gpu, vkGetRayTracingShaderGroupHandlesKHR(e->gpu->device, x->ray_tracing, 0, total,
                                                                (size_t)total * handle, handles))) {
        free(handles);
        return !exec_vulkan_failed(e);
    }
    struct gpu_buffer *table = gpu_buffer_create_with_usage(
        e->gpu, bytes, VK_BUFFER_USAGE_SHADER_BINDING_TABLE_BIT_KHR | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT, 0);
    if (table == NULL) {
        free(handles);
        return exec_no_object(e, "buffers");
    }
    VkDeviceAddress address = gpu_buffer_address(e->gpu, table);
    VkDeviceAddress at = align_up(address, base_alignment);
    for (uint32_t i = 0; i < pl->sbt_count; ++i) {
        const struct amber_sbt *sbt = &pl->sbts[i];
        for (uint32_t k = 0; k < sbt->record_count; ++k) {
            uint32_t group = 0;
            group_index(e->script, index, &sbt->records[k], &group, 0);
            memcpy((uint8_t *)table->mapped + (at - address) + k * record, handles + (size_t)group * handle, handle);
        }
        x->sbt_regions[i] = (VkStridedDeviceAddressRegionKHR){at, record, sbt->record_count * record};
        at += align_up(sbt->record_count * record, base_alignment);
    }
    free(handles);
    return true;
}

bool exec_create_ray_tracing(struct exec *e, uint32_t index)
{
    const struct amber_pipeline *pl = &e->script->pipelines[index];
    if (pl->library) /* made again for every pipeline that links it */
        return true;
    if (e->shader_modules == NULL) {
        e->shader_modules = calloc(e->script->shader_count + 1, sizeof(*e->shader_modules));
        if (e->shader_modules == NULL)
            return exec_stop(e, VERDICT_FAIL, "out of memory");
        e->ray_tracing = (VkPhysicalDeviceRayTracingPipelinePropertiesKHR){
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_PROPERTIES_KHR};
        VkPhysicalDeviceProperties2 properties = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                                  .pNext = &e->ray_tracing};
        vkGetPhysicalDeviceProperties2(e->gpu->physical, &properties);
    }
    e->pipelines[index].ray_tracing = make(e, index, index, false, 0);
    return e->pipelines[index].ray_tracing != VK_NULL_HANDLE && write_tables(e, index);
}
