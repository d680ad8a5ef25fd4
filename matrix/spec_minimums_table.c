/* The Vulkan specification's required limits, as data. Values are from the "Required Limits"
 * tables of the Vulkan 1.3 specification and the extension appendices; one row per requirement,
 * with the extension and feature that make it apply. A limit not listed here is not checked. */
#include "spec_minimums.h"

#define LIMIT(member) "properties/VkPhysicalDeviceProperties/limits/" member
#define FEATURE(member) "features/VkPhysicalDeviceFeatures/" member
#define P(structure, member) "properties/" structure "/" member

#define AT_LEAST(path, v)                                                                                              \
    {                                                                                                                  \
        path, SPEC_AT_LEAST, (v), {0}, NULL, NULL                                                                      \
    }
#define AT_LEAST_IF(path, v, feature)                                                                                  \
    {                                                                                                                  \
        path, SPEC_AT_LEAST, (v), {0}, NULL, feature                                                                   \
    }
#define AT_MOST(path, v)                                                                                               \
    {                                                                                                                  \
        path, SPEC_AT_MOST, (v), {0}, NULL, NULL                                                                       \
    }
#define AT_MOST_IF(path, v, feature)                                                                                   \
    {                                                                                                                  \
        path, SPEC_AT_MOST, (v), {0}, NULL, feature                                                                    \
    }
#define SAMPLES_1_4(path)                                                                                              \
    {                                                                                                                  \
        path, SPEC_INCLUDES_BITS, 0, {"VK_SAMPLE_COUNT_1_BIT", "VK_SAMPLE_COUNT_4_BIT"}, NULL, NULL                    \
    }
#define EXT_AT_LEAST(path, v, ext)                                                                                     \
    {                                                                                                                  \
        path, SPEC_AT_LEAST, (v), {0}, ext, NULL                                                                       \
    }
#define EXT_AT_MOST(path, v, ext)                                                                                      \
    {                                                                                                                  \
        path, SPEC_AT_MOST, (v), {0}, ext, NULL                                                                        \
    }

const struct spec_minimum spec_minimums_table[] = {
    /* Vulkan 1.0 */
    AT_LEAST(LIMIT("maxImageDimension1D"), 4096),
    AT_LEAST(LIMIT("maxImageDimension2D"), 4096),
    AT_LEAST(LIMIT("maxImageDimension3D"), 256),
    AT_LEAST(LIMIT("maxImageDimensionCube"), 4096),
    AT_LEAST(LIMIT("maxImageArrayLayers"), 256),
    AT_LEAST(LIMIT("maxTexelBufferElements"), 65536),
    AT_LEAST(LIMIT("maxUniformBufferRange"), 16384),
    AT_LEAST(LIMIT("maxStorageBufferRange"), 134217728.0),
    AT_LEAST(LIMIT("maxPushConstantsSize"), 128),
    AT_LEAST(LIMIT("maxMemoryAllocationCount"), 4096),
    AT_LEAST(LIMIT("maxSamplerAllocationCount"), 4000),
    AT_MOST(LIMIT("bufferImageGranularity"), 131072),
    AT_LEAST_IF(LIMIT("sparseAddressSpaceSize"), 2147483648.0, FEATURE("sparseBinding")),
    AT_LEAST(LIMIT("maxBoundDescriptorSets"), 4),
    AT_LEAST(LIMIT("maxPerStageDescriptorSamplers"), 16),
    AT_LEAST(LIMIT("maxPerStageDescriptorUniformBuffers"), 12),
    AT_LEAST(LIMIT("maxPerStageDescriptorStorageBuffers"), 4),
    AT_LEAST(LIMIT("maxPerStageDescriptorSampledImages"), 16),
    AT_LEAST(LIMIT("maxPerStageDescriptorStorageImages"), 4),
    AT_LEAST(LIMIT("maxPerStageDescriptorInputAttachments"), 4),
    AT_LEAST(LIMIT("maxPerStageResources"), 128),
    AT_LEAST(LIMIT("maxDescriptorSetSamplers"), 96),
    AT_LEAST(LIMIT("maxDescriptorSetUniformBuffers"), 72),
    AT_LEAST(LIMIT("maxDescriptorSetUniformBuffersDynamic"), 8),
    AT_LEAST(LIMIT("maxDescriptorSetStorageBuffers"), 24),
    AT_LEAST(LIMIT("maxDescriptorSetStorageBuffersDynamic"), 4),
    AT_LEAST(LIMIT("maxDescriptorSetSampledImages"), 96),
    AT_LEAST(LIMIT("maxDescriptorSetStorageImages"), 24),
    AT_LEAST(LIMIT("maxDescriptorSetInputAttachments"), 4),
    AT_LEAST(LIMIT("maxVertexInputAttributes"), 16),
    AT_LEAST(LIMIT("maxVertexInputBindings"), 16),
    AT_LEAST(LIMIT("maxVertexInputAttributeOffset"), 2047),
    AT_LEAST(LIMIT("maxVertexInputBindingStride"), 2048),
    AT_LEAST(LIMIT("maxVertexOutputComponents"), 64),
    AT_LEAST_IF(LIMIT("maxTessellationGenerationLevel"), 64, FEATURE("tessellationShader")),
    AT_LEAST_IF(LIMIT("maxTessellationPatchSize"), 32, FEATURE("tessellationShader")),
    AT_LEAST_IF(LIMIT("maxTessellationControlPerVertexInputComponents"), 64, FEATURE("tessellationShader")),
    AT_LEAST_IF(LIMIT("maxTessellationControlPerVertexOutputComponents"), 64, FEATURE("tessellationShader")),
    AT_LEAST_IF(LIMIT("maxTessellationControlPerPatchOutputComponents"), 120, FEATURE("tessellationShader")),
    AT_LEAST_IF(LIMIT("maxTessellationControlTotalOutputComponents"), 2048, FEATURE("tessellationShader")),
    AT_LEAST_IF(LIMIT("maxTessellationEvaluationInputComponents"), 64, FEATURE("tessellationShader")),
    AT_LEAST_IF(LIMIT("maxTessellationEvaluationOutputComponents"), 64, FEATURE("tessellationShader")),
    AT_LEAST_IF(LIMIT("maxGeometryShaderInvocations"), 32, FEATURE("geometryShader")),
    AT_LEAST_IF(LIMIT("maxGeometryInputComponents"), 64, FEATURE("geometryShader")),
    AT_LEAST_IF(LIMIT("maxGeometryOutputComponents"), 64, FEATURE("geometryShader")),
    AT_LEAST_IF(LIMIT("maxGeometryOutputVertices"), 256, FEATURE("geometryShader")),
    AT_LEAST_IF(LIMIT("maxGeometryTotalOutputComponents"), 1024, FEATURE("geometryShader")),
    AT_LEAST(LIMIT("maxFragmentInputComponents"), 64),
    AT_LEAST(LIMIT("maxFragmentOutputAttachments"), 4),
    AT_LEAST_IF(LIMIT("maxFragmentDualSrcAttachments"), 1, FEATURE("dualSrcBlend")),
    AT_LEAST(LIMIT("maxFragmentCombinedOutputResources"), 4),
    AT_LEAST(LIMIT("maxComputeSharedMemorySize"), 16384),
    AT_LEAST(LIMIT("maxComputeWorkGroupCount/0"), 65535),
    AT_LEAST(LIMIT("maxComputeWorkGroupCount/1"), 65535),
    AT_LEAST(LIMIT("maxComputeWorkGroupCount/2"), 65535),
    AT_LEAST(LIMIT("maxComputeWorkGroupInvocations"), 128),
    AT_LEAST(LIMIT("maxComputeWorkGroupSize/0"), 128),
    AT_LEAST(LIMIT("maxComputeWorkGroupSize/1"), 128),
    AT_LEAST(LIMIT("maxComputeWorkGroupSize/2"), 64),
    AT_LEAST(LIMIT("subPixelPrecisionBits"), 4),
    AT_LEAST(LIMIT("subTexelPrecisionBits"), 4),
    AT_LEAST(LIMIT("mipmapPrecisionBits"), 4),
    AT_LEAST(LIMIT("maxDrawIndexedIndexValue"), 16777215.0),
    AT_LEAST_IF(LIMIT("maxDrawIndexedIndexValue"), 4294967295.0, FEATURE("fullDrawIndexUint32")),
    AT_LEAST(LIMIT("maxDrawIndirectCount"), 1),
    AT_LEAST_IF(LIMIT("maxDrawIndirectCount"), 65535, FEATURE("multiDrawIndirect")),
    AT_LEAST(LIMIT("maxSamplerLodBias"), 2),
    AT_LEAST_IF(LIMIT("maxSamplerAnisotropy"), 16, FEATURE("samplerAnisotropy")),
    AT_LEAST(LIMIT("maxViewports"), 1),
    AT_LEAST_IF(LIMIT("maxViewports"), 16, FEATURE("multiViewport")),
    AT_LEAST(LIMIT("maxViewportDimensions/0"), 4096),
    AT_LEAST(LIMIT("maxViewportDimensions/1"), 4096),
    AT_MOST(LIMIT("viewportBoundsRange/0"), -8192),
    AT_LEAST(LIMIT("viewportBoundsRange/1"), 8191),
    AT_MOST(LIMIT("minTexelBufferOffsetAlignment"), 256),
    AT_MOST(LIMIT("minUniformBufferOffsetAlignment"), 256),
    AT_MOST(LIMIT("minStorageBufferOffsetAlignment"), 256),
    AT_MOST(LIMIT("minTexelOffset"), -8),
    AT_LEAST(LIMIT("maxTexelOffset"), 7),
    AT_MOST_IF(LIMIT("minTexelGatherOffset"), -8, FEATURE("shaderImageGatherExtended")),
    AT_LEAST_IF(LIMIT("maxTexelGatherOffset"), 7, FEATURE("shaderImageGatherExtended")),
    AT_MOST_IF(LIMIT("minInterpolationOffset"), -0.5, FEATURE("sampleRateShading")),
    AT_LEAST_IF(LIMIT("maxInterpolationOffset"), 0.4375, FEATURE("sampleRateShading")),
    AT_LEAST_IF(LIMIT("subPixelInterpolationOffsetBits"), 4, FEATURE("sampleRateShading")),
    AT_LEAST(LIMIT("maxFramebufferWidth"), 4096),
    AT_LEAST(LIMIT("maxFramebufferHeight"), 4096),
    AT_LEAST(LIMIT("maxFramebufferLayers"), 256),
    SAMPLES_1_4(LIMIT("framebufferColorSampleCounts")),
    SAMPLES_1_4(LIMIT("framebufferDepthSampleCounts")),
    SAMPLES_1_4(LIMIT("framebufferStencilSampleCounts")),
    SAMPLES_1_4(LIMIT("framebufferNoAttachmentsSampleCounts")),
    AT_LEAST(LIMIT("maxColorAttachments"), 4),
    SAMPLES_1_4(LIMIT("sampledImageColorSampleCounts")),
    {LIMIT("sampledImageIntegerSampleCounts"), SPEC_INCLUDES_BITS, 0, {"VK_SAMPLE_COUNT_1_BIT"}, NULL, NULL},
    SAMPLES_1_4(LIMIT("sampledImageDepthSampleCounts")),
    SAMPLES_1_4(LIMIT("sampledImageStencilSampleCounts")),
    {LIMIT("storageImageSampleCounts"), SPEC_INCLUDES_BITS, 0, {"VK_SAMPLE_COUNT_1_BIT"}, NULL, NULL},
    AT_LEAST(LIMIT("maxSampleMaskWords"), 1),
    AT_LEAST_IF(LIMIT("maxClipDistances"), 8, FEATURE("shaderClipDistance")),
    AT_LEAST_IF(LIMIT("maxCullDistances"), 8, FEATURE("shaderCullDistance")),
    AT_LEAST_IF(LIMIT("maxCombinedClipAndCullDistances"), 8, FEATURE("shaderCullDistance")),
    AT_LEAST(LIMIT("discreteQueuePriorities"), 2),
    AT_MOST_IF(LIMIT("pointSizeRange/0"), 1.0, FEATURE("largePoints")),
    AT_LEAST_IF(LIMIT("pointSizeRange/1"), 63.875, FEATURE("largePoints")),
    AT_MOST_IF(LIMIT("lineWidthRange/0"), 1.0, FEATURE("wideLines")),
    AT_LEAST_IF(LIMIT("lineWidthRange/1"), 7.875, FEATURE("wideLines")),
    AT_MOST_IF(LIMIT("pointSizeGranularity"), 1.0, FEATURE("largePoints")),
    AT_MOST_IF(LIMIT("lineWidthGranularity"), 1.0, FEATURE("wideLines")),
    AT_MOST(LIMIT("nonCoherentAtomSize"), 256),

    /* Vulkan 1.1 */
    AT_LEAST_IF(P("VkPhysicalDeviceMultiviewProperties", "maxMultiviewViewCount"), 6,
                "features/VkPhysicalDeviceMultiviewFeatures/multiview"),
    AT_LEAST_IF(P("VkPhysicalDeviceMultiviewProperties", "maxMultiviewInstanceIndex"), 134217727.0,
                "features/VkPhysicalDeviceMultiviewFeatures/multiview"),
    AT_LEAST(P("VkPhysicalDeviceMaintenance3Properties", "maxPerSetDescriptors"), 1024),
    AT_LEAST(P("VkPhysicalDeviceMaintenance3Properties", "maxMemoryAllocationSize"), 1073741824.0),
    AT_LEAST(P("VkPhysicalDeviceSubgroupProperties", "subgroupSize"), 1),

    /* Vulkan 1.2 */
    AT_LEAST(P("VkPhysicalDeviceTimelineSemaphoreProperties", "maxTimelineSemaphoreValueDifference"), 2147483647.0),
    AT_LEAST_IF(P("VkPhysicalDeviceDescriptorIndexingProperties", "maxUpdateAfterBindDescriptorsInAllPools"), 500000,
                "features/VkPhysicalDeviceVulkan12Features/descriptorIndexing"),

    /* Vulkan 1.3 */
    AT_LEAST_IF(P("VkPhysicalDeviceInlineUniformBlockProperties", "maxInlineUniformBlockSize"), 256,
                "features/VkPhysicalDeviceInlineUniformBlockFeatures/inlineUniformBlock"),
    AT_LEAST_IF(P("VkPhysicalDeviceInlineUniformBlockProperties", "maxPerStageDescriptorInlineUniformBlocks"), 4,
                "features/VkPhysicalDeviceInlineUniformBlockFeatures/inlineUniformBlock"),
    AT_LEAST_IF(P("VkPhysicalDeviceInlineUniformBlockProperties", "maxDescriptorSetInlineUniformBlocks"), 4,
                "features/VkPhysicalDeviceInlineUniformBlockFeatures/inlineUniformBlock"),
    AT_LEAST(P("VkPhysicalDeviceMaintenance4Properties", "maxBufferSize"), 1073741824.0),

    /* VK_KHR_acceleration_structure */
    EXT_AT_LEAST(P("VkPhysicalDeviceAccelerationStructurePropertiesKHR", "maxGeometryCount"), 16777215.0,
                 "VK_KHR_acceleration_structure"),
    EXT_AT_LEAST(P("VkPhysicalDeviceAccelerationStructurePropertiesKHR", "maxInstanceCount"), 16777215.0,
                 "VK_KHR_acceleration_structure"),
    EXT_AT_LEAST(P("VkPhysicalDeviceAccelerationStructurePropertiesKHR", "maxPrimitiveCount"), 536870911.0,
                 "VK_KHR_acceleration_structure"),
    EXT_AT_LEAST(P("VkPhysicalDeviceAccelerationStructurePropertiesKHR", "maxPerStageDescriptorAccelerationStructures"),
                 16, "VK_KHR_acceleration_structure"),
    EXT_AT_LEAST(P("VkPhysicalDeviceAccelerationStructurePropertiesKHR", "maxDescriptorSetAccelerationStructures"), 16,
                 "VK_KHR_acceleration_structure"),
    EXT_AT_MOST(
        P("VkPhysicalDeviceAccelerationStructurePropertiesKHR", "minAccelerationStructureScratchOffsetAlignment"), 256,
        "VK_KHR_acceleration_structure"),

    /* VK_KHR_ray_tracing_pipeline */
    EXT_AT_LEAST(P("VkPhysicalDeviceRayTracingPipelinePropertiesKHR", "maxRayRecursionDepth"), 1,
                 "VK_KHR_ray_tracing_pipeline"),
    EXT_AT_LEAST(P("VkPhysicalDeviceRayTracingPipelinePropertiesKHR", "maxShaderGroupStride"), 4096,
                 "VK_KHR_ray_tracing_pipeline"),
    EXT_AT_MOST(P("VkPhysicalDeviceRayTracingPipelinePropertiesKHR", "shaderGroupBaseAlignment"), 64,
                "VK_KHR_ray_tracing_pipeline"),
    EXT_AT_LEAST(P("VkPhysicalDeviceRayTracingPipelinePropertiesKHR", "maxRayDispatchInvocationCount"), 1073741824.0,
                 "VK_KHR_ray_tracing_pipeline"),
    EXT_AT_MOST(P("VkPhysicalDeviceRayTracingPipelinePropertiesKHR", "shaderGroupHandleAlignment"), 32,
                "VK_KHR_ray_tracing_pipeline"),
    EXT_AT_LEAST(P("VkPhysicalDeviceRayTracingPipelinePropertiesKHR", "maxRayHitAttributeSize"), 32,
                 "VK_KHR_ray_tracing_pipeline"),

    /* VK_EXT_mesh_shader */
    EXT_AT_LEAST(P("VkPhysicalDeviceMeshShaderPropertiesEXT", "maxMeshWorkGroupTotalCount"), 4194304.0,
                 "VK_EXT_mesh_shader"),
    EXT_AT_LEAST(P("VkPhysicalDeviceMeshShaderPropertiesEXT", "maxMeshWorkGroupCount/0"), 65535, "VK_EXT_mesh_shader"),
    EXT_AT_LEAST(P("VkPhysicalDeviceMeshShaderPropertiesEXT", "maxMeshWorkGroupCount/1"), 65535, "VK_EXT_mesh_shader"),
    EXT_AT_LEAST(P("VkPhysicalDeviceMeshShaderPropertiesEXT", "maxMeshWorkGroupCount/2"), 65535, "VK_EXT_mesh_shader"),
    EXT_AT_LEAST(P("VkPhysicalDeviceMeshShaderPropertiesEXT", "maxMeshWorkGroupInvocations"), 128,
                 "VK_EXT_mesh_shader"),
    EXT_AT_LEAST(P("VkPhysicalDeviceMeshShaderPropertiesEXT", "maxMeshWorkGroupSize/0"), 128, "VK_EXT_mesh_shader"),
    EXT_AT_LEAST(P("VkPhysicalDeviceMeshShaderPropertiesEXT", "maxMeshWorkGroupSize/1"), 128, "VK_EXT_mesh_shader"),
    EXT_AT_LEAST(P("VkPhysicalDeviceMeshShaderPropertiesEXT", "maxMeshWorkGroupSize/2"), 128, "VK_EXT_mesh_shader"),
    EXT_AT_LEAST(P("VkPhysicalDeviceMeshShaderPropertiesEXT", "maxMeshSharedMemorySize"), 28672, "VK_EXT_mesh_shader"),
    EXT_AT_LEAST(P("VkPhysicalDeviceMeshShaderPropertiesEXT", "maxMeshOutputMemorySize"), 32768, "VK_EXT_mesh_shader"),
    EXT_AT_LEAST(P("VkPhysicalDeviceMeshShaderPropertiesEXT", "maxMeshOutputComponents"), 128, "VK_EXT_mesh_shader"),
    EXT_AT_LEAST(P("VkPhysicalDeviceMeshShaderPropertiesEXT", "maxMeshOutputVertices"), 256, "VK_EXT_mesh_shader"),
    EXT_AT_LEAST(P("VkPhysicalDeviceMeshShaderPropertiesEXT", "maxMeshOutputPrimitives"), 256, "VK_EXT_mesh_shader"),
    EXT_AT_LEAST(P("VkPhysicalDeviceMeshShaderPropertiesEXT", "maxMeshOutputLayers"), 8, "VK_EXT_mesh_shader"),
    EXT_AT_LEAST(P("VkPhysicalDeviceMeshShaderPropertiesEXT", "maxMeshMultiviewViewCount"), 1, "VK_EXT_mesh_shader"),

    /* VK_KHR_fragment_shading_rate */
    EXT_AT_LEAST(P("VkPhysicalDeviceFragmentShadingRatePropertiesKHR", "maxFragmentSize/width"), 2,
                 "VK_KHR_fragment_shading_rate"),
    EXT_AT_LEAST(P("VkPhysicalDeviceFragmentShadingRatePropertiesKHR", "maxFragmentSize/height"), 2,
                 "VK_KHR_fragment_shading_rate"),
};

const size_t spec_minimums_table_size = sizeof(spec_minimums_table) / sizeof(spec_minimums_table[0]);
