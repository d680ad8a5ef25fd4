#include "acceleration.h"

#include <string.h>

static VkDeviceAddress align_up(VkDeviceAddress value, VkDeviceAddress alignment)
{
    return alignment ? (value + alignment - 1) / alignment * alignment : value;
}

static uint32_t scratch_alignment(struct gpu *gpu)
{
    VkPhysicalDeviceAccelerationStructurePropertiesKHR as = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_PROPERTIES_KHR};
    VkPhysicalDeviceProperties2 properties = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &as};
    vkGetPhysicalDeviceProperties2(gpu->physical, &properties);
    return as.minAccelerationStructureScratchOffsetAlignment;
}

/* Sizes, storage, the structure itself and scratch (aligned as the device asks), then the build. */
static VkAccelerationStructureKHR build_one(struct gpu *gpu, VkAccelerationStructureBuildGeometryInfoKHR *build,
                                            uint32_t primitive_count)
{
    if (gpu_failed(gpu) || gpu->acceleration_structure_count == 8)
        return VK_NULL_HANDLE;
    VkAccelerationStructureBuildSizesInfoKHR sizes = {
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_SIZES_INFO_KHR};
    vkGetAccelerationStructureBuildSizesKHR(gpu->device, VK_ACCELERATION_STRUCTURE_BUILD_TYPE_DEVICE_KHR, build,
                                            &primitive_count, &sizes);
    struct gpu_buffer *storage = gpu_buffer_create_with_usage(
        gpu, sizes.accelerationStructureSize,
        VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_STORAGE_BIT_KHR | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT, 0);
    uint32_t alignment = scratch_alignment(gpu);
    struct gpu_buffer *scratch = gpu_buffer_create_with_usage(gpu, sizes.buildScratchSize + alignment,
                                                              VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT, 0);
    if (gpu_failed(gpu))
        return VK_NULL_HANDLE;
    VkAccelerationStructureCreateInfoKHR create = {
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_CREATE_INFO_KHR,
        .buffer = storage->buffer,
        .size = sizes.accelerationStructureSize,
        .type = build->type,
    };
    VkAccelerationStructureKHR structure = VK_NULL_HANDLE;
    if (!GPU_CHECK(gpu, vkCreateAccelerationStructureKHR(gpu->device, &create, NULL, &structure)))
        return VK_NULL_HANDLE;
    gpu->acceleration_structures[gpu->acceleration_structure_count++] = structure;
    build->dstAccelerationStructure = structure;
    build->scratchData.deviceAddress = align_up(gpu_buffer_address(gpu, scratch), alignment);
    VkAccelerationStructureBuildRangeInfoKHR range = {.primitiveCount = primitive_count};
    const VkAccelerationStructureBuildRangeInfoKHR *ranges = &range;
    vkCmdBuildAccelerationStructuresKHR(gpu->cmd, 1, build, &ranges);
    return structure;
}

VkAccelerationStructureKHR scene_build(struct gpu *gpu, enum scene_geometry geometry, VkPipelineStageFlags reader_stage)
{
    const VkBufferUsageFlags input_usage = VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR |
                                           VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    VkAccelerationStructureGeometryKHR blas_geometry = {.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR};
    if (geometry == SCENE_AABB) {
        const VkAabbPositionsKHR box = {-1, -1, SCENE_PLANE_Z, 1, 1, SCENE_BOX_MAX_Z};
        struct gpu_buffer *boxes = gpu_buffer_create_with_usage(gpu, sizeof(box), input_usage, 0);
        if (boxes != NULL)
            memcpy(boxes->mapped, &box, sizeof(box));
        blas_geometry.geometryType = VK_GEOMETRY_TYPE_AABBS_KHR;
        blas_geometry.geometry.aabbs = (VkAccelerationStructureGeometryAabbsDataKHR){
            .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_AABBS_DATA_KHR,
            .data.deviceAddress = gpu_buffer_address(gpu, boxes),
            .stride = sizeof(VkAabbPositionsKHR),
        };
    } else {
        const float vertices[9] = {-1, -1, SCENE_PLANE_Z, 1, -1, SCENE_PLANE_Z, 0, 1, SCENE_PLANE_Z};
        struct gpu_buffer *vertex_buffer = gpu_buffer_create_with_usage(gpu, sizeof(vertices), input_usage, 0);
        if (vertex_buffer != NULL)
            memcpy(vertex_buffer->mapped, vertices, sizeof(vertices));
        blas_geometry.geometryType = VK_GEOMETRY_TYPE_TRIANGLES_KHR;
        blas_geometry.flags = geometry == SCENE_TRIANGLE_OPAQUE ? VK_GEOMETRY_OPAQUE_BIT_KHR : 0;
        blas_geometry.geometry.triangles = (VkAccelerationStructureGeometryTrianglesDataKHR){
            .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_TRIANGLES_DATA_KHR,
            .vertexFormat = VK_FORMAT_R32G32B32_SFLOAT,
            .vertexData.deviceAddress = gpu_buffer_address(gpu, vertex_buffer),
            .vertexStride = 3 * sizeof(float),
            .maxVertex = 2,
            .indexType = VK_INDEX_TYPE_NONE_KHR,
        };
    }
    VkAccelerationStructureBuildGeometryInfoKHR blas_build = {
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_GEOMETRY_INFO_KHR,
        .type = VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR,
        .flags = VK_BUILD_ACCELERATION_STRUCTURE_PREFER_FAST_TRACE_BIT_KHR,
        .mode = VK_BUILD_ACCELERATION_STRUCTURE_MODE_BUILD_KHR,
        .geometryCount = 1,
        .pGeometries = &blas_geometry,
    };
    VkAccelerationStructureKHR blas = build_one(gpu, &blas_build, 1);
    if (blas == VK_NULL_HANDLE)
        return VK_NULL_HANDLE;
    /* The TLAS build reads the BLAS. */
    gpu_memory_barrier(
        gpu, VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR, VK_ACCESS_ACCELERATION_STRUCTURE_WRITE_BIT_KHR,
        VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR, VK_ACCESS_ACCELERATION_STRUCTURE_READ_BIT_KHR);

    VkAccelerationStructureDeviceAddressInfoKHR blas_address = {
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_DEVICE_ADDRESS_INFO_KHR,
        .accelerationStructure = blas,
    };
    VkAccelerationStructureInstanceKHR instance = {
        .transform = {.matrix = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}},
        .mask = 0xFF,
        .flags = VK_GEOMETRY_INSTANCE_TRIANGLE_FACING_CULL_DISABLE_BIT_KHR,
        .accelerationStructureReference = vkGetAccelerationStructureDeviceAddressKHR(gpu->device, &blas_address),
    };
    struct gpu_buffer *instances = gpu_buffer_create_with_usage(gpu, sizeof(instance), input_usage, 0);
    if (instances == NULL)
        return VK_NULL_HANDLE;
    memcpy(instances->mapped, &instance, sizeof(instance));
    VkAccelerationStructureGeometryKHR tlas_geometry = {
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
        .geometryType = VK_GEOMETRY_TYPE_INSTANCES_KHR,
        .geometry.instances =
            {
                .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_INSTANCES_DATA_KHR,
                .data.deviceAddress = gpu_buffer_address(gpu, instances),
            },
    };
    VkAccelerationStructureBuildGeometryInfoKHR tlas_build = blas_build;
    tlas_build.type = VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR;
    tlas_build.pGeometries = &tlas_geometry;
    VkAccelerationStructureKHR tlas = build_one(gpu, &tlas_build, 1);
    gpu_memory_barrier(gpu, VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR,
                       VK_ACCESS_ACCELERATION_STRUCTURE_WRITE_BIT_KHR, reader_stage,
                       VK_ACCESS_ACCELERATION_STRUCTURE_READ_BIT_KHR);
    return tlas;
}
