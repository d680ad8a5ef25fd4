/* In-place FFTs with VkFFT (Debian's libvkfft-dev, the Vulkan backend), for the layer's
 * real-program acceptance: VkFFT binds one buffer as input and output of its dispatches and puts
 * SHADER_WRITE -> SHADER_READ barriers between its read-modify-write passes. Each size is
 * transformed forward in place and checked against a direct DFT, then back and checked against
 * the input. Exit 0 when every result is right, 1 when one is wrong, 3 when Vulkan or VkFFT fail.
 *
 * Usage: vkfft_inplace [SIZE...] (1D sizes; default: a fixed list of 1D, 2D and 3D shapes). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan.h>
#define VKFFT_BACKEND 0
#include <vkFFT.h>

#define CHECK_VK(call)                                                                                                 \
    do {                                                                                                               \
        VkResult r_ = (call);                                                                                          \
        if (r_ != VK_SUCCESS) {                                                                                        \
            fprintf(stderr, "%s failed: %d\n", #call, r_);                                                             \
            exit(3);                                                                                                   \
        }                                                                                                              \
    } while (0)

struct gpu {
    VkInstance instance;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    VkCommandPool pool;
    VkFence fence;
    uint32_t family;
};

static void gpu_open(struct gpu *g)
{
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_1};
    VkInstanceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
    CHECK_VK(vkCreateInstance(&info, NULL, &g->instance));
    uint32_t count = 1;
    VkResult r = vkEnumeratePhysicalDevices(g->instance, &count, &g->physical);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || count == 0) {
        fprintf(stderr, "no Vulkan device\n");
        exit(3);
    }
    uint32_t families = 8;
    VkQueueFamilyProperties props[8];
    vkGetPhysicalDeviceQueueFamilyProperties(g->physical, &families, props);
    for (g->family = 0; g->family < families && !(props[g->family].queueFlags & VK_QUEUE_COMPUTE_BIT); ++g->family)
        ;
    float priority = 1;
    VkDeviceQueueCreateInfo queue = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                     .queueFamilyIndex = g->family,
                                     .queueCount = 1,
                                     .pQueuePriorities = &priority};
    VkDeviceCreateInfo device = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = 1, .pQueueCreateInfos = &queue};
    CHECK_VK(vkCreateDevice(g->physical, &device, NULL, &g->device));
    vkGetDeviceQueue(g->device, g->family, 0, &g->queue);
    VkCommandPoolCreateInfo pool = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                    .queueFamilyIndex = g->family};
    CHECK_VK(vkCreateCommandPool(g->device, &pool, NULL, &g->pool));
    VkFenceCreateInfo fence = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    CHECK_VK(vkCreateFence(g->device, &fence, NULL, &g->fence));
}

static void gpu_close(struct gpu *g)
{
    vkDestroyFence(g->device, g->fence, NULL);
    vkDestroyCommandPool(g->device, g->pool, NULL);
    vkDestroyDevice(g->device, NULL);
    vkDestroyInstance(g->instance, NULL);
}

/* A host-visible, coherent storage buffer, mapped. */
struct mapped {
    VkBuffer buffer;
    VkDeviceMemory memory;
    float *data;
};

static struct mapped mapped_buffer(struct gpu *g, VkDeviceSize size)
{
    struct mapped m;
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size, .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
    CHECK_VK(vkCreateBuffer(g->device, &info, NULL, &m.buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(g->device, m.buffer, &req);
    VkPhysicalDeviceMemoryProperties props;
    vkGetPhysicalDeviceMemoryProperties(g->physical, &props);
    const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = 0;
    while (type < props.memoryTypeCount &&
           !((req.memoryTypeBits & (1u << type)) && (props.memoryTypes[type].propertyFlags & wanted) == wanted))
        ++type;
    if (type == props.memoryTypeCount) {
        fprintf(stderr, "no host-visible coherent memory\n");
        exit(3);
    }
    VkMemoryAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size, .memoryTypeIndex = type};
    CHECK_VK(vkAllocateMemory(g->device, &alloc, NULL, &m.memory));
    CHECK_VK(vkBindBufferMemory(g->device, m.buffer, m.memory, 0));
    CHECK_VK(vkMapMemory(g->device, m.memory, 0, VK_WHOLE_SIZE, 0, (void **)&m.data));
    return m;
}

static void free_mapped(struct gpu *g, struct mapped *m)
{
    vkDestroyBuffer(g->device, m->buffer, NULL);
    vkFreeMemory(g->device, m->memory, NULL);
}

/* One transform in place (inverse: -1 forward as VkFFT counts it, 1 back), then a barrier that
 * makes the result visible to the host, submitted and waited for. */
static int run_transform(struct gpu *g, VkFFTApplication *app, VkBuffer buffer, int inverse)
{
    VkCommandBufferAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                         .commandPool = g->pool,
                                         .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                         .commandBufferCount = 1};
    VkCommandBuffer cb;
    CHECK_VK(vkAllocateCommandBuffers(g->device, &alloc, &cb));
    VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                      .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    CHECK_VK(vkBeginCommandBuffer(cb, &begin));
    VkFFTLaunchParams params = {.commandBuffer = &cb, .buffer = &buffer};
    VkFFTResult result = VkFFTAppend(app, inverse, &params);
    VkMemoryBarrier to_host = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                               .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                               .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, NULL,
                         0, NULL);
    CHECK_VK(vkEndCommandBuffer(cb));
    if (result != VKFFT_SUCCESS) {
        fprintf(stderr, "VkFFTAppend: %d\n", (int)result);
        return 3;
    }
    VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb};
    CHECK_VK(vkQueueSubmit(g->queue, 1, &submit, g->fence));
    CHECK_VK(vkWaitForFences(g->device, 1, &g->fence, VK_TRUE, UINT64_MAX));
    CHECK_VK(vkResetFences(g->device, 1, &g->fence));
    vkFreeCommandBuffers(g->device, g->pool, 1, &cb);
    return 0;
}

/* The input signal: deterministic, not symmetric. */
static void fill(float *data, uint64_t n)
{
    for (uint64_t i = 0; i < n; ++i) {
        data[2 * i] = (float)sin(0.37 * (double)i) + 0.25f * (float)(i % 7);
        data[2 * i + 1] = (float)cos(0.11 * (double)i * (double)i / (double)n);
    }
}

/* The largest error of `got` against the direct multidimensional DFT of `in` (forward, e^-i). */
static double dft_error(const float *in, const float *got, const uint64_t size[3])
{
    double worst = 0, scale = 0;
    uint64_t n = size[0] * size[1] * size[2];
    for (uint64_t i = 0; i < n; ++i)
        scale = fmax(scale, fabs(in[2 * i]) + fabs(in[2 * i + 1]));
    for (uint64_t k = 0; k < n; ++k) {
        uint64_t kx = k % size[0], ky = k / size[0] % size[1], kz = k / (size[0] * size[1]);
        double re = 0, im = 0;
        for (uint64_t j = 0; j < n; ++j) {
            uint64_t jx = j % size[0], jy = j / size[0] % size[1], jz = j / (size[0] * size[1]);
            double phase =
                -2 * M_PI *
                ((double)(kx * jx % size[0]) / (double)size[0] + (double)(ky * jy % size[1]) / (double)size[1] +
                 (double)(kz * jz % size[2]) / (double)size[2]);
            re += in[2 * j] * cos(phase) - in[2 * j + 1] * sin(phase);
            im += in[2 * j] * sin(phase) + in[2 * j + 1] * cos(phase);
        }
        worst = fmax(worst, fmax(fabs(re - got[2 * k]), fabs(im - got[2 * k + 1])));
    }
    return worst / (scale * (double)n);
}

static int check_shape(struct gpu *g, uint64_t dims, const uint64_t size[3])
{
    uint64_t n = size[0] * size[1] * size[2];
    uint64_t bytes = n * 2 * sizeof(float);
    struct mapped m = mapped_buffer(g, bytes);
    float *input = malloc(bytes);
    if (input == NULL)
        return 3;
    fill(m.data, n);
    memcpy(input, m.data, bytes);
    VkFFTConfiguration config = {0};
    config.FFTdim = dims;
    config.size[0] = size[0];
    config.size[1] = size[1];
    config.size[2] = size[2];
    config.physicalDevice = &g->physical;
    config.device = &g->device;
    config.queue = &g->queue;
    config.commandPool = &g->pool;
    config.fence = &g->fence;
    config.bufferSize = &bytes;
    config.buffer = &m.buffer;
    VkFFTApplication app = {0};
    VkFFTResult made = initializeVkFFT(&app, config);
    int status = 0;
    if (made != VKFFT_SUCCESS) {
        fprintf(stderr, "initializeVkFFT(%llux%llux%llu): %d\n", (unsigned long long)size[0],
                (unsigned long long)size[1], (unsigned long long)size[2], (int)made);
        status = 3;
    }
    double forward = 1, back = 1;
    if (status == 0)
        status = run_transform(g, &app, m.buffer, -1);
    if (status == 0) {
        forward = dft_error(input, m.data, size);
        status = run_transform(g, &app, m.buffer, 1);
    }
    if (status == 0) {
        back = 0;
        for (uint64_t i = 0; i < 2 * n; ++i)
            back = fmax(back, fabs(m.data[i] / (double)n - input[i]));
        if (forward > 1e-4 || back > 1e-3)
            status = 1;
    }
    printf("%s %llux%llux%llu: forward error %.2e, round trip error %.2e\n", status == 0 ? "ok  " : "FAIL",
           (unsigned long long)size[0], (unsigned long long)size[1], (unsigned long long)size[2], forward, back);
    if (made == VKFFT_SUCCESS)
        deleteVkFFT(&app);
    free(input);
    free_mapped(g, &m);
    return status;
}

int main(int argc, char **argv)
{
    static const uint64_t shapes[][4] = {{1, 8, 1, 1},    {1, 64, 1, 1},  {1, 256, 1, 1}, {1, 1000, 1, 1},
                                         {1, 1536, 1, 1}, {2, 32, 24, 1}, {3, 8, 8, 8}};
    struct gpu g;
    gpu_open(&g);
    int worst = 0;
    if (argc > 1) {
        for (int i = 1; i < argc; ++i) {
            uint64_t size[3] = {strtoull(argv[i], NULL, 10), 1, 1};
            if (size[0] < 2 || size[0] > 65536) {
                fprintf(stderr, "vkfft_inplace: size %s is not in [2, 65536]\n", argv[i]);
                gpu_close(&g);
                return 2;
            }
            int s = check_shape(&g, 1, size);
            worst = s > worst ? s : worst;
        }
    } else {
        for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); ++i) {
            int s = check_shape(&g, shapes[i][0], &shapes[i][1]);
            worst = s > worst ? s : worst;
        }
    }
    gpu_close(&g);
    return worst;
}
