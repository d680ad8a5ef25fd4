/* The layer's cost on an engine's hot path: records command buffers full of compute dispatches
 * (pipeline and descriptor-set binds, a dispatch and a barrier, as an engine's RHI does), submits
 * each one and waits for it, and prints the host time per dispatch spent in recording and in
 * vkQueueSubmit (the wait for the GPU is not counted: it measures the device, not the layer).
 * Run it without and with VK_LAYER_PREFLIGHT_validation (bench/run_layer_bench.sh does that, and
 * Vulkan-ValidationLayers too) and compare.
 * Usage: layer_bench [--buffers N] [--dispatches M] [--bindings 2|3] [--sets S] [--engine] [--record-only]
 *   --bindings 3 binds one buffer to both read-only bindings (checked, no finding);
 *   --bindings 2 is alias_copy.comp with disjoint buffers;
 *   --sets S rotates S descriptor sets over different buffers, so the bound state changes at
 *   every dispatch (S = 1: the same set is bound again each time, as many RHIs do);
 *   --engine binds the pipeline and pushes constants once per command buffer, then only binds sets,
 *   dispatches and barriers (the shape of issue 15's workload: 20 x 2000 with 1 or 64 sets);
 *   --record-only records without submitting (for profiling the recording path alone). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vulkan/vulkan.h>

#include "layer_test_spirv.h"

#define MAX_SETS 64

#define CHECK(call)                                                                                                    \
    do {                                                                                                               \
        VkResult r_ = (call);                                                                                          \
        if (r_ != VK_SUCCESS) {                                                                                        \
            fprintf(stderr, "layer_bench: %s failed: %d\n", #call, r_);                                                \
            exit(3);                                                                                                   \
        }                                                                                                              \
    } while (0)

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int buffers = 100, dispatches = 1000, bindings = 3, sets = 1;
    bool submit = true, engine = false;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--buffers") == 0 && i + 1 < argc)
            buffers = atoi(argv[++i]);
        else if (strcmp(argv[i], "--dispatches") == 0 && i + 1 < argc)
            dispatches = atoi(argv[++i]);
        else if (strcmp(argv[i], "--bindings") == 0 && i + 1 < argc)
            bindings = atoi(argv[++i]);
        else if (strcmp(argv[i], "--sets") == 0 && i + 1 < argc)
            sets = atoi(argv[++i]);
        else if (strcmp(argv[i], "--record-only") == 0)
            submit = false;
        else if (strcmp(argv[i], "--engine") == 0)
            engine = true;
        else {
            fprintf(stderr, "usage: layer_bench [--buffers N] [--dispatches M] [--bindings 2|3] [--sets S] [--engine] "
                            "[--record-only]\n");
            return 2;
        }
    }
    if (buffers <= 0 || dispatches <= 0 || (bindings != 2 && bindings != 3) || sets <= 0 || sets > MAX_SETS) {
        fprintf(stderr, "layer_bench: --buffers and --dispatches must be positive, --bindings 2 or 3, --sets 1..%d\n",
                MAX_SETS);
        return 2;
    }
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_1};
    VkInstanceCreateInfo instance_info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
    VkInstance instance;
    CHECK(vkCreateInstance(&instance_info, NULL, &instance));
    uint32_t count = 1;
    VkPhysicalDevice physical;
    VkResult r = vkEnumeratePhysicalDevices(instance, &count, &physical);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || count == 0) {
        fprintf(stderr, "layer_bench: no Vulkan device\n");
        return 3;
    }
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(physical, &props);
    float priority = 1;
    VkDeviceQueueCreateInfo queue = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                     .queueFamilyIndex = 0,
                                     .queueCount = 1,
                                     .pQueuePriorities = &priority};
    VkDeviceCreateInfo device_info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = 1, .pQueueCreateInfos = &queue};
    VkDevice device;
    CHECK(vkCreateDevice(physical, &device_info, NULL, &device));

    /* three storage buffers with their own memory per descriptor set */
    VkBuffer buf[MAX_SETS][3];
    VkDeviceMemory mem[MAX_SETS][3];
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(physical, &mp);
    for (int s = 0; s < sets; ++s) {
        for (int i = 0; i < 3; ++i) {
            VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                                     .size = 65536,
                                     .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
            CHECK(vkCreateBuffer(device, &bi, NULL, &buf[s][i]));
            VkMemoryRequirements req;
            vkGetBufferMemoryRequirements(device, buf[s][i], &req);
            uint32_t type = 0;
            while (type < mp.memoryTypeCount && !(req.memoryTypeBits & (1u << type)))
                ++type;
            VkMemoryAllocateInfo ai = {
                .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size, .memoryTypeIndex = type};
            CHECK(vkAllocateMemory(device, &ai, NULL, &mem[s][i]));
            CHECK(vkBindBufferMemory(device, buf[s][i], mem[s][i], 0));
        }
    }
    VkDescriptorSetLayoutBinding lb[3];
    for (uint32_t i = 0; i < 3; ++i)
        lb[i] =
            (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkDescriptorSetLayoutCreateInfo sli = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           .bindingCount = (uint32_t)bindings,
                                           .pBindings = lb};
    VkDescriptorSetLayout set_layout;
    CHECK(vkCreateDescriptorSetLayout(device, &sli, NULL, &set_layout));
    VkPushConstantRange push = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 16};
    VkPipelineLayoutCreateInfo pli = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = 1,
                                      .pSetLayouts = &set_layout,
                                      .pushConstantRangeCount = 1,
                                      .pPushConstantRanges = &push};
    VkPipelineLayout layout;
    CHECK(vkCreatePipelineLayout(device, &pli, NULL, &layout));
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3 * (uint32_t)sets};
    VkDescriptorPoolCreateInfo dpi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                      .maxSets = (uint32_t)sets,
                                      .poolSizeCount = 1,
                                      .pPoolSizes = &ps};
    VkDescriptorPool pool;
    CHECK(vkCreateDescriptorPool(device, &dpi, NULL, &pool));
    VkDescriptorSet set[MAX_SETS];
    for (int s = 0; s < sets; ++s) {
        VkDescriptorSetAllocateInfo dsa = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                           .descriptorPool = pool,
                                           .descriptorSetCount = 1,
                                           .pSetLayouts = &set_layout};
        CHECK(vkAllocateDescriptorSets(device, &dsa, &set[s]));
        /* 3 bindings: buffer 0 read twice, buffer 2 written; 2 bindings: 0 read, 1 written */
        VkDescriptorBufferInfo infos[3] = {{buf[s][0], 0, VK_WHOLE_SIZE},
                                           {bindings == 3 ? buf[s][0] : buf[s][1], 0, VK_WHOLE_SIZE},
                                           {buf[s][2], 0, VK_WHOLE_SIZE}};
        VkWriteDescriptorSet write = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                      .dstSet = set[s],
                                      .descriptorCount = (uint32_t)bindings,
                                      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      .pBufferInfo = infos};
        vkUpdateDescriptorSets(device, 1, &write, 0, NULL);
    }
    VkShaderModuleCreateInfo smi = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = bindings == 3 ? layer_test_spirv_alias_read_twice_size : layer_test_spirv_alias_copy_size,
        .pCode = bindings == 3 ? layer_test_spirv_alias_read_twice : layer_test_spirv_alias_copy};
    VkShaderModule module;
    CHECK(vkCreateShaderModule(device, &smi, NULL, &module));
    VkComputePipelineCreateInfo cpi = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
                                       .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                                 .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                                                 .module = module,
                                                 .pName = "main"},
                                       .layout = layout};
    VkPipeline pipeline;
    CHECK(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpi, NULL, &pipeline));

    VkCommandPoolCreateInfo cpool = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = 0};
    VkCommandPool command_pool;
    CHECK(vkCreateCommandPool(device, &cpool, NULL, &command_pool));
    VkCommandBufferAllocateInfo cba = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = command_pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
    VkCommandBuffer cb;
    CHECK(vkAllocateCommandBuffers(device, &cba, &cb));
    VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                      .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    VkMemoryBarrier barrier = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                               .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                               .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
    VkQueue run_queue;
    vkGetDeviceQueue(device, 0, 0, &run_queue);
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    CHECK(vkCreateFence(device, &fi, NULL, &fence));
    double host_seconds = 0, submit_seconds = 0;
    for (int b = 0; b < buffers; ++b) {
        double start = now_seconds();
        CHECK(vkResetCommandPool(device, command_pool, 0));
        CHECK(vkBeginCommandBuffer(cb, &begin));
        const uint32_t constants[4] = {(uint32_t)b, 1, 2, 3};
        if (engine) {
            vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
            vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(constants), constants);
        }
        for (int d = 0; d < dispatches; ++d) {
            if (!engine)
                vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
            vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set[d % sets], 0, NULL);
            vkCmdDispatch(cb, 1, 1, 1);
            /* each dispatch writes its output: a correct program orders them */
            vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                                 &barrier, 0, NULL, 0, NULL);
        }
        CHECK(vkEndCommandBuffer(cb));
        double submit_start = now_seconds();
        VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb};
        if (submit)
            CHECK(vkQueueSubmit(run_queue, 1, &si, fence));
        double end = now_seconds();
        host_seconds += end - start;
        submit_seconds += end - submit_start;
        if (submit) {
            CHECK(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX)); /* the GPU's time: not counted */
            CHECK(vkResetFences(device, 1, &fence));
        }
    }
    double per_dispatch_ns = host_seconds * 1e9 / ((double)buffers * dispatches);
    printf("{\"device\": \"%s\", \"bindings\": %d, \"sets\": %d, \"command_buffers\": %d, "
           "\"dispatches_per_buffer\": %d, \"engine\": %s, \"host_seconds\": %.4f, \"submit_seconds\": %.4f, "
           "\"ns_per_bind_bind_dispatch_barrier\": %.1f}\n",
           props.deviceName, bindings, sets, buffers, dispatches, engine ? "true" : "false", host_seconds,
           submit_seconds, per_dispatch_ns);
    vkDestroyFence(device, fence, NULL);
    vkDestroyCommandPool(device, command_pool, NULL);
    vkDestroyPipeline(device, pipeline, NULL);
    vkDestroyShaderModule(device, module, NULL);
    vkDestroyDescriptorPool(device, pool, NULL);
    vkDestroyPipelineLayout(device, layout, NULL);
    vkDestroyDescriptorSetLayout(device, set_layout, NULL);
    for (int s = 0; s < sets; ++s) {
        for (int i = 0; i < 3; ++i) {
            vkDestroyBuffer(device, buf[s][i], NULL);
            vkFreeMemory(device, mem[s][i], NULL);
        }
    }
    vkDestroyDevice(device, NULL);
    vkDestroyInstance(instance, NULL);
    return 0;
}
