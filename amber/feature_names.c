#include "feature_names.h"

#include <stddef.h>
#include <string.h>

#include "smoke.h"

#define CORE_FEATURES(X)                                                                                               \
    X(robustBufferAccess)                                                                                              \
    X(fullDrawIndexUint32)                                                                                             \
    X(imageCubeArray)                                                                                                  \
    X(independentBlend)                                                                                                \
    X(geometryShader)                                                                                                  \
    X(tessellationShader)                                                                                              \
    X(sampleRateShading)                                                                                               \
    X(dualSrcBlend)                                                                                                    \
    X(logicOp)                                                                                                         \
    X(multiDrawIndirect)                                                                                               \
    X(drawIndirectFirstInstance)                                                                                       \
    X(depthClamp)                                                                                                      \
    X(depthBiasClamp)                                                                                                  \
    X(fillModeNonSolid)                                                                                                \
    X(depthBounds)                                                                                                     \
    X(wideLines)                                                                                                       \
    X(largePoints)                                                                                                     \
    X(alphaToOne)                                                                                                      \
    X(multiViewport)                                                                                                   \
    X(samplerAnisotropy)                                                                                               \
    X(textureCompressionETC2)                                                                                          \
    X(textureCompressionASTC_LDR)                                                                                      \
    X(textureCompressionBC)                                                                                            \
    X(occlusionQueryPrecise)                                                                                           \
    X(pipelineStatisticsQuery)                                                                                         \
    X(vertexPipelineStoresAndAtomics)                                                                                  \
    X(fragmentStoresAndAtomics)                                                                                        \
    X(shaderTessellationAndGeometryPointSize)                                                                          \
    X(shaderImageGatherExtended)                                                                                       \
    X(shaderStorageImageExtendedFormats)                                                                               \
    X(shaderStorageImageMultisample)                                                                                   \
    X(shaderStorageImageReadWithoutFormat)                                                                             \
    X(shaderStorageImageWriteWithoutFormat)                                                                            \
    X(shaderUniformBufferArrayDynamicIndexing)                                                                         \
    X(shaderSampledImageArrayDynamicIndexing)                                                                          \
    X(shaderStorageBufferArrayDynamicIndexing)                                                                         \
    X(shaderStorageImageArrayDynamicIndexing)                                                                          \
    X(shaderClipDistance)                                                                                              \
    X(shaderCullDistance)                                                                                              \
    X(shaderFloat64)                                                                                                   \
    X(shaderInt64)                                                                                                     \
    X(shaderInt16)                                                                                                     \
    X(shaderResourceResidency)                                                                                         \
    X(shaderResourceMinLod)                                                                                            \
    X(sparseBinding)                                                                                                   \
    X(sparseResidencyBuffer)                                                                                           \
    X(sparseResidencyImage2D)                                                                                          \
    X(sparseResidencyImage3D)                                                                                          \
    X(sparseResidency2Samples)                                                                                         \
    X(sparseResidency4Samples)                                                                                         \
    X(sparseResidency8Samples)                                                                                         \
    X(sparseResidency16Samples)                                                                                        \
    X(sparseResidencyAliased)                                                                                          \
    X(variableMultisampleRate)                                                                                         \
    X(inheritedQueries)

#define CORE(member_name)                                                                                              \
    {.name = #member_name,                                                                                             \
     .kind = AMBER_FEATURE_KIND_CORE,                                                                                  \
     .member = #member_name,                                                                                           \
     .structs = {"VkPhysicalDeviceFeatures"},                                                                          \
     .member_offset = offsetof(VkPhysicalDeviceFeatures, member_name)},
#define STRUCT(amber, member_name, field, vk_type, s_type, promoted, extension_name)                                   \
    {.name = amber "." #member_name,                                                                                   \
     .kind = AMBER_FEATURE_KIND_STRUCT,                                                                                \
     .member = #member_name,                                                                                           \
     .structs = {#vk_type, promoted},                                                                                  \
     .member_offset = offsetof(vk_type, member_name),                                                                  \
     .storage_offset = offsetof(struct smoke_device_features, field),                                                  \
     .type = s_type,                                                                                                   \
     .extension = extension_name},
#define SUBGROUP_OPERATION(amber, bit)                                                                                 \
    {.name = "SubgroupSupportedOperations." amber,                                                                     \
     .kind = AMBER_FEATURE_KIND_PROPERTY,                                                                              \
     .member = "VK_SUBGROUP_FEATURE_" bit "_BIT",                                                                      \
     .structs = {"properties/VkPhysicalDeviceSubgroupProperties/supportedOperations"}},
#define SUBGROUP_STAGE(amber, bit)                                                                                     \
    {.name = "SubgroupSupportedStages." amber,                                                                         \
     .kind = AMBER_FEATURE_KIND_PROPERTY,                                                                              \
     .member = "VK_SHADER_STAGE_" bit "_BIT",                                                                          \
     .structs = {"properties/VkPhysicalDeviceSubgroupProperties/supportedStages"}},

static const struct amber_feature features[] = {
    CORE_FEATURES(CORE)
    /* docs/amber_script.md's list of the other names */
    STRUCT("VariablePointerFeatures", variablePointers, variable_pointers, VkPhysicalDeviceVariablePointersFeatures,
           VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES, "VkPhysicalDeviceVulkan11Features",
           "VK_KHR_variable_pointers") STRUCT("VariablePointerFeatures", variablePointersStorageBuffer,
                                              variable_pointers, VkPhysicalDeviceVariablePointersFeatures,
                                              VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES,
                                              "VkPhysicalDeviceVulkan11Features", "VK_KHR_variable_pointers")
        STRUCT("Float16Int8Features", shaderFloat16, float16_int8, VkPhysicalDeviceShaderFloat16Int8Features,
               VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES, "VkPhysicalDeviceVulkan12Features",
               "VK_KHR_shader_float16_int8") STRUCT("Float16Int8Features", shaderInt8, float16_int8,
                                                    VkPhysicalDeviceShaderFloat16Int8Features,
                                                    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES,
                                                    "VkPhysicalDeviceVulkan12Features", "VK_KHR_shader_float16_int8")
            STRUCT(
                "VulkanMemoryModelFeatures", vulkanMemoryModel, memory_model, VkPhysicalDeviceVulkanMemoryModelFeatures,
                VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES, "VkPhysicalDeviceVulkan12Features",
                "VK_KHR_vulkan_memory_model") STRUCT("VulkanMemoryModelFeatures", vulkanMemoryModelDeviceScope,
                                                     memory_model, VkPhysicalDeviceVulkanMemoryModelFeatures,
                                                     VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES,
                                                     "VkPhysicalDeviceVulkan12Features", "VK_KHR_vulkan_memory_model")
                STRUCT("ZeroInitializeWorkgroupMemoryFeatures", shaderZeroInitializeWorkgroupMemory,
                       zero_initialize_workgroup_memory, VkPhysicalDeviceZeroInitializeWorkgroupMemoryFeatures,
                       VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ZERO_INITIALIZE_WORKGROUP_MEMORY_FEATURES,
                       "VkPhysicalDeviceVulkan13Features", "VK_KHR_zero_initialize_workgroup_memory")
                    STRUCT("Storage8BitFeatures", storageBuffer8BitAccess, storage_8bit,
                           VkPhysicalDevice8BitStorageFeatures, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES,
                           "VkPhysicalDeviceVulkan12Features",
                           "VK_KHR_8bit_storage") STRUCT("Storage8BitFeatures", uniformAndStorageBuffer8BitAccess,
                                                         storage_8bit, VkPhysicalDevice8BitStorageFeatures,
                                                         VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES,
                                                         "VkPhysicalDeviceVulkan12Features", "VK_KHR_8bit_storage")
                        STRUCT("Storage8BitFeatures", storagePushConstant8, storage_8bit,
                               VkPhysicalDevice8BitStorageFeatures,
                               VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES,
                               "VkPhysicalDeviceVulkan12Features",
                               "VK_KHR_8bit_storage") STRUCT("Storage16BitFeatures", storageBuffer16BitAccess,
                                                             storage_16bit, VkPhysicalDevice16BitStorageFeatures,
                                                             VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES,
                                                             "VkPhysicalDeviceVulkan11Features", "VK_KHR_16bit_storage")
                            STRUCT(
                                "Storage16BitFeatures", uniformAndStorageBuffer16BitAccess, storage_16bit,
                                VkPhysicalDevice16BitStorageFeatures,
                                VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES,
                                "VkPhysicalDeviceVulkan11Features",
                                "VK_KHR_16bit_storage") STRUCT("Storage16BitFeatures", storagePushConstant16,
                                                               storage_16bit, VkPhysicalDevice16BitStorageFeatures,
                                                               VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES,
                                                               "VkPhysicalDeviceVulkan11Features",
                                                               "VK_KHR_16bit_storage")
                                STRUCT("Storage16BitFeatures", storageInputOutput16, storage_16bit,
                                       VkPhysicalDevice16BitStorageFeatures,
                                       VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES,
                                       "VkPhysicalDeviceVulkan11Features", "VK_KHR_16bit_storage")
                                    STRUCT("SubgroupSizeControl", subgroupSizeControl, subgroup_size_control,
                                           VkPhysicalDeviceSubgroupSizeControlFeatures,
                                           VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES,
                                           "VkPhysicalDeviceVulkan13Features", "VK_EXT_subgroup_size_control")
                                        STRUCT("SubgroupSizeControl", computeFullSubgroups, subgroup_size_control,
                                               VkPhysicalDeviceSubgroupSizeControlFeatures,
                                               VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES,
                                               "VkPhysicalDeviceVulkan13Features", "VK_EXT_subgroup_size_control")
                                            STRUCT("DepthClampZeroOneFeatures", depthClampZeroOne, depth_clamp_zero_one,
                                                   VkPhysicalDeviceDepthClampZeroOneFeaturesEXT,
                                                   VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLAMP_ZERO_ONE_FEATURES_EXT,
                                                   NULL, "VK_EXT_depth_clamp_zero_one")
                                                STRUCT(
                                                    "RayTracingPipelineFeaturesKHR", rayTracingPipeline,
                                                    ray_tracing_pipeline, VkPhysicalDeviceRayTracingPipelineFeaturesKHR,
                                                    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR,
                                                    NULL, "VK_KHR_ray_tracing_pipeline")
                                                    STRUCT(
                                                        "AccelerationStructureFeaturesKHR", accelerationStructure,
                                                        acceleration_structure,
                                                        VkPhysicalDeviceAccelerationStructureFeaturesKHR,
                                                        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR,
                                                        NULL, "VK_KHR_acceleration_structure")
                                                        STRUCT(
                                                            "BufferDeviceAddressFeatures", bufferDeviceAddress,
                                                            buffer_device_address,
                                                            VkPhysicalDeviceBufferDeviceAddressFeatures,
                                                            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES,
                                                            "VkPhysicalDeviceVulkan12Features",
                                                            "VK_KHR_buffer_device_address")
    /* in Amber's table, not in its document */
    STRUCT("IndexTypeUint8Features", indexTypeUint8, index_type_uint8, VkPhysicalDeviceIndexTypeUint8FeaturesEXT,
           VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INDEX_TYPE_UINT8_FEATURES_EXT, "VkPhysicalDeviceIndexTypeUint8FeaturesKHR",
           "VK_EXT_index_type_uint8")
        STRUCT("ShaderSubgroupExtendedTypesFeatures", shaderSubgroupExtendedTypes, subgroup_extended_types,
               VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures,
               VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES,
               "VkPhysicalDeviceVulkan12Features", "VK_KHR_shader_subgroup_extended_types")
            SUBGROUP_OPERATION("basic", "BASIC") SUBGROUP_OPERATION("vote", "VOTE")
                SUBGROUP_OPERATION("arithmetic", "ARITHMETIC") SUBGROUP_OPERATION("ballot", "BALLOT")
                    SUBGROUP_OPERATION("shuffle", "SHUFFLE") SUBGROUP_OPERATION("shuffleRelative", "SHUFFLE_RELATIVE")
                        SUBGROUP_OPERATION("clustered", "CLUSTERED") SUBGROUP_OPERATION("quad", "QUAD") SUBGROUP_STAGE(
                            "vertex", "VERTEX") SUBGROUP_STAGE("tessellationControl", "TESSELLATION_CONTROL")
                            SUBGROUP_STAGE("tessellationEvaluation", "TESSELLATION_EVALUATION")
                                SUBGROUP_STAGE("geometry", "GEOMETRY") SUBGROUP_STAGE("fragment", "FRAGMENT")
                                    SUBGROUP_STAGE("compute",
                                                   "COMPUTE"){.name = "CooperativeMatrixFeaturesKHR.cooperativeMatrix",
                                                              .kind = AMBER_FEATURE_KIND_MISSING},
    {.name = "ShaderLongVectorFeaturesEXT.longVector", .kind = AMBER_FEATURE_KIND_MISSING},
};

enum amber_feature_status amber_feature_lookup(const char *name, const struct amber_feature **feature)
{
    for (size_t i = 0; i < sizeof(features) / sizeof(features[0]); ++i)
        if (strcmp(features[i].name, name) == 0) {
            if (feature != NULL)
                *feature = &features[i];
            return features[i].kind == AMBER_FEATURE_KIND_MISSING ? AMBER_FEATURE_NOT_IN_HEADERS : AMBER_FEATURE_KNOWN;
        }
    return AMBER_FEATURE_UNKNOWN;
}
