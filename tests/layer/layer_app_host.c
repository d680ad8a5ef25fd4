/* layer_app's host scenarios: host accesses that race the GPU (invalidate, map, write and flush
 * while a submission is pending) or miss the HOST barrier, with their correct twins; and soak
 * (memory over many submissions, LAYER_APP_SOAK_ITERATIONS, default 20000).
 * Scenarios: host-invalidate-early, host-invalidate-after-wait, host-read-no-barrier,
 * host-flush-pending, host-flush-before-submit, host-map-early, host-map-after-wait,
 * host-ring-whole-range, host-readback-persistent(-fixed), host-wait-through-semaphore(-no-barrier),
 * soak. */
#include <string.h>
#include <unistd.h>

#include "layer_app_objects.h"
#include "layer_test_spirv.h"

/* host-ring-whole-range: a two-slot ring in one mapped allocation; the GPU fills slot 0 while the
 * host writes slot 1 and flushes, invalidates and maps the whole allocation, as ring buffers
 * commonly do. Only slot 0 is pending, and none of these calls proves the host touches it: no
 * finding. */
static void scenario_host_ring(struct objects *o)
{
    VkBuffer ring = new_buffer(o, 8192, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    VkDeviceMemory memory = o->owned[o->owned_count - 1].memory;
    uint32_t *mapped = o->owned[o->owned_count - 1].mapped;
    VkFence fence = new_fence(o->a);
    struct recording r = begin(o->a, "ring-cb");
    vkCmdFillBuffer(r.cb, ring, 0, 4096, 7); /* slot 0 */
    buffer_barrier(r.cb, ring, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                   VK_ACCESS_HOST_READ_BIT);
    CHECK(vkEndCommandBuffer(r.cb));
    VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &r.cb};
    CHECK(vkQueueSubmit(o->a->queue, 1, &submit, fence));
    VkMappedMemoryRange whole = {
        .sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, .memory = memory, .offset = 0, .size = VK_WHOLE_SIZE};
    mapped[1024] = 42; /* slot 1 */
    CHECK(vkFlushMappedMemoryRanges(o->a->device, 1, &whole));
    CHECK(vkInvalidateMappedMemoryRanges(o->a->device, 1, &whole));
    vkUnmapMemory(o->a->device, memory);
    CHECK(vkMapMemory(o->a->device, memory, 0, VK_WHOLE_SIZE, 0, (void **)&mapped));
    o->owned[o->owned_count - 1].mapped = mapped;
    CHECK(vkWaitForFences(o->a->device, 1, &fence, VK_TRUE, UINT64_MAX));
    vkDestroyFence(o->a->device, fence, NULL);
    vkDestroyCommandPool(o->a->device, r.pool, NULL);
}

/* Host scenarios on a mapped buffer a fill writes:
 *   host-invalidate-early: vkInvalidateMappedMemoryRanges before waiting for the fill;
 *   host-invalidate-after-wait: after a fence wait that covers it through queue order (a later,
 *     empty submission's fence), with the barrier that makes the fill visible to the host;
 *   host-read-no-barrier: the same wait, but no HOST/HOST_READ barrier after the fill;
 *   host-flush-pending: the host writes and flushes memory a pending dispatch reads;
 *   host-flush-before-submit: the host writes and flushes before submitting the dispatch;
 *   host-map-early: the memory is unmapped before the submission and mapped again before the wait;
 *   host-map-after-wait: the same, mapped again after the wait (with the HOST barrier). */
static void scenario_host(struct objects *o, const char *name)
{
    if (strcmp(name, "host-ring-whole-range") == 0) {
        scenario_host_ring(o);
        return;
    }
    VkBuffer target = new_buffer(o, 4096, VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkDeviceMemory memory = o->owned[o->owned_count - 1].memory;
    uint32_t *mapped = o->owned[o->owned_count - 1].mapped;
    VkFence fence = new_fence(o->a);
    struct recording r = begin(o->a, "host-cb");
    VkMappedMemoryRange range = {
        .sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, .memory = memory, .offset = 0, .size = VK_WHOLE_SIZE};
    if (strncmp(name, "host-flush-", 11) == 0) {
        VkBuffer out = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        struct copy_setup c = copy_setup(o, target, 0, out);
        copy_run(r.cb, &c); /* reads the mapped buffer */
        CHECK(vkEndCommandBuffer(r.cb));
        VkSubmitInfo submit = {
            .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &r.cb};
        bool pending = strcmp(name, "host-flush-pending") == 0;
        if (!pending) {
            mapped[0] = 42;
            CHECK(vkFlushMappedMemoryRanges(o->a->device, 1, &range));
        }
        CHECK(vkQueueSubmit(o->a->queue, 1, &submit, fence));
        if (pending) {
            mapped[0] = 42; /* while the dispatch may still read it */
            CHECK(vkFlushMappedMemoryRanges(o->a->device, 1, &range));
        }
        CHECK(vkWaitForFences(o->a->device, 1, &fence, VK_TRUE, UINT64_MAX));
    } else {
        vkCmdFillBuffer(r.cb, target, 0, 4096, 7);
        if (strcmp(name, "host-read-no-barrier") != 0) /* the fill made visible to host reads */
            buffer_barrier(r.cb, target, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                           VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
        CHECK(vkEndCommandBuffer(r.cb));
        VkSubmitInfo submit = {
            .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &r.cb};
        if (strcmp(name, "host-invalidate-early") == 0) {
            CHECK(vkQueueSubmit(o->a->queue, 1, &submit, fence));
            CHECK(vkInvalidateMappedMemoryRanges(o->a->device, 1, &range)); /* too early */
            CHECK(vkWaitForFences(o->a->device, 1, &fence, VK_TRUE, UINT64_MAX));
        } else if (strncmp(name, "host-map-", 9) == 0) {
            vkUnmapMemory(o->a->device, memory);
            CHECK(vkQueueSubmit(o->a->queue, 1, &submit, fence));
            bool early = strcmp(name, "host-map-early") == 0;
            if (early) /* mapped while the fill may still be writing */
                CHECK(vkMapMemory(o->a->device, memory, 0, VK_WHOLE_SIZE, 0, (void **)&mapped));
            CHECK(vkWaitForFences(o->a->device, 1, &fence, VK_TRUE, UINT64_MAX));
            if (!early)
                CHECK(vkMapMemory(o->a->device, memory, 0, VK_WHOLE_SIZE, 0, (void **)&mapped));
            o->owned[o->owned_count - 1].mapped = mapped;
        } else {
            CHECK(vkQueueSubmit(o->a->queue, 1, &submit, VK_NULL_HANDLE));
            CHECK(vkQueueSubmit(o->a->queue, 0, NULL, fence)); /* its fence covers the fill too */
            CHECK(vkWaitForFences(o->a->device, 1, &fence, VK_TRUE, UINT64_MAX));
        }
        CHECK(vkInvalidateMappedMemoryRanges(o->a->device, 1, &range)); /* after the wait */
        if (mapped[1023] != 7)
            fprintf(stderr, "fill not visible\n");
    }
    vkDestroyFence(o->a->device, fence, NULL);
    vkDestroyCommandPool(o->a->device, r.pool, NULL);
}

/* Each iteration allocates a command buffer, records fills, dispatches and barriers, updates the
 * submits it (every 4th with a fence that is then waited for, the others ordered by a semaphore
 * chain); after each fence wait the command buffers are freed and the descriptor set rewritten. Prints the resident size after a warm-up tenth
 * and at the end. */
static void scenario_soak(struct objects *o, int iterations)
{
    struct app *a = o->a;
    VkBuffer src = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    VkBuffer dst = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    struct copy_setup c = copy_setup(o, src, 0, dst);
    VkCommandPoolCreateInfo pool_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                         .queueFamilyIndex = a->family};
    VkCommandPool pool;
    CHECK(vkCreateCommandPool(a->device, &pool_info, NULL, &pool));
    VkFence fence = new_fence(a);
    VkSemaphore chain[2] = {new_semaphore(a, false), new_semaphore(a, false)};
    VkCommandBuffer pending[4] = {0};
    long warm = 0;
    bool waiting = false; /* the previous submission signaled chain[(i - 1) % 2] */
    for (int i = 0; i < iterations; ++i) {
        if (i == iterations / 10)
            warm = resident_kb();
        VkCommandBufferAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                             .commandPool = pool,
                                             .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                             .commandBufferCount = 1};
        VkCommandBuffer cb;
        CHECK(vkAllocateCommandBuffers(a->device, &alloc, &cb));
        VkCommandBufferBeginInfo begin_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                               .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
        CHECK(vkBeginCommandBuffer(cb, &begin_info));
        vkCmdFillBuffer(cb, src, 0, 4096, (uint32_t)i);
        buffer_barrier(cb, src, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
        for (int d = 0; d < 4; ++d) {
            copy_run(cb, &c);
            buffer_barrier(cb, dst, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT);
        }
        /* the next iteration's fill overwrites src, which these dispatches read */
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0,
                             NULL, 0, NULL);
        CHECK(vkEndCommandBuffer(cb));
        bool fenced = i % 4 == 3;
        submit_one(a->queue, cb, waiting ? chain[(i + 1) % 2] : VK_NULL_HANDLE, fenced ? VK_NULL_HANDLE : chain[i % 2],
                   false, fenced ? fence : VK_NULL_HANDLE);
        waiting = !fenced;
        pending[i % 4] = cb;
        if (fenced) {
            CHECK(vkWaitForFences(a->device, 1, &fence, VK_TRUE, UINT64_MAX));
            CHECK(vkResetFences(a->device, 1, &fence));
            vkFreeCommandBuffers(a->device, pool, 4, pending);
            write_buffer(o, c.set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, src, 0, 4096); /* no longer in use */
        }
    }
    CHECK(vkDeviceWaitIdle(a->device));
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    /* sanitizer allocators hold freed memory (quarantine, shadow): the driver alone grows then */
    printf("soak: %d iterations (sanitizer build: resident size not meaningful)\n", iterations);
    (void)warm;
#else
    printf("soak: %d iterations, resident kB after a tenth %ld, at the end %ld\n", iterations, warm, resident_kb());
#endif
    vkDestroySemaphore(a->device, chain[0], NULL);
    vkDestroySemaphore(a->device, chain[1], NULL);
    vkDestroyFence(a->device, fence, NULL);
    vkDestroyCommandPool(a->device, pool, NULL);
}

/* ---- the spec's rules on patterns of real programs (each a correct program and a buggy one) ---- */

/* host-readback-persistent / -fixed: a buffer only the host reads (TRANSFER_DST), mapped once
 * before the work, written by a GPU copy; the host waits for the fence and reads the mapping with
 * no invalidate (coherent memory). Without a HOST/HOST_READ barrier after the copy the read may see
 * stale data; -fixed has it. host-readback-marker: the same buffer written by fills (a GPU progress
 * marker, as Godot's crash breadcrumbs, which the host reads only after a device loss).
 * host-readback-gpu-readable: the copy into a mapped buffer the GPU can also read (storage). */
static void scenario_host_readback(struct objects *o, const char *name)
{
    bool fixed = strcmp(name, "host-readback-persistent-fixed") == 0;
    bool marker = strcmp(name, "host-readback-marker") == 0;
    bool gpu_readable = strcmp(name, "host-readback-gpu-readable") == 0;
    VkBuffer source = new_buffer(o, 4096, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    uint32_t *source_words = o->owned[o->owned_count - 1].mapped;
    for (int i = 0; i < 1024; ++i)
        source_words[i] = 9;
    VkBuffer readback =
        new_buffer(o, 4096, VK_BUFFER_USAGE_TRANSFER_DST_BIT | (gpu_readable ? VK_BUFFER_USAGE_STORAGE_BUFFER_BIT : 0));
    const uint32_t *mapped = o->owned[o->owned_count - 1].mapped;
    if (o->a->set_name != NULL) {
        VkDebugUtilsObjectNameInfoEXT name_info = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
                                                   .objectType = VK_OBJECT_TYPE_BUFFER,
                                                   .objectHandle = (uint64_t)readback,
                                                   .pObjectName = "readback"};
        o->a->set_name(o->a->device, &name_info);
    }
    VkFence fence = new_fence(o->a);
    struct recording r = begin(o->a, "readback-cb");
    if (marker) { /* a running id, then a phase marker */
        vkCmdFillBuffer(r.cb, readback, 0, 4, 1);
        vkCmdFillBuffer(r.cb, readback, 4, 4092, 9);
    } else {
        VkBufferCopy whole = {0, 0, 4096};
        vkCmdCopyBuffer(r.cb, source, readback, 1, &whole);
    }
    if (fixed)
        buffer_barrier(r.cb, readback, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    CHECK(vkEndCommandBuffer(r.cb));
    submit_one(o->a->queue, r.cb, VK_NULL_HANDLE, VK_NULL_HANDLE, false, fence);
    CHECK(vkWaitForFences(o->a->device, 1, &fence, VK_TRUE, UINT64_MAX));
    if (mapped[1023] != 9)
        fprintf(stderr, "readback: the GPU's write not seen\n");
    vkDestroyFence(o->a->device, fence, NULL);
    vkDestroyCommandPool(o->a->device, r.pool, NULL);
}

/* host-timeline-wait-early / -fixed: one batch signals timeline value 1, the next fills a mapped
 * buffer (with the HOST barrier) and signals 2. The host waits for value 1 — satisfied by the first
 * batch, so the fill is not ordered before the wait's return — and invalidates the buffer's memory:
 * too early. -fixed waits for 2. */
static void scenario_timeline_host_wait(struct objects *o, const char *name)
{
    if (!o->a->timeline) {
        printf("skip: timeline semaphores not enabled\n");
        return;
    }
    bool fixed = strcmp(name, "host-timeline-wait-fixed") == 0;
    VkBuffer target = new_buffer(o, 4096, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    VkDeviceMemory memory = o->owned[o->owned_count - 1].memory;
    VkSemaphore timeline = new_semaphore(o->a, true);
    uint64_t values[2] = {1, 2};
    VkTimelineSemaphoreSubmitInfo first_values = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                                  .signalSemaphoreValueCount = 1,
                                                  .pSignalSemaphoreValues = &values[0]};
    VkSubmitInfo first = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                          .pNext = &first_values,
                          .signalSemaphoreCount = 1,
                          .pSignalSemaphores = &timeline};
    struct recording r = begin(o->a, "timeline-fill-cb");
    vkCmdFillBuffer(r.cb, target, 0, 4096, 5);
    buffer_barrier(r.cb, target, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    CHECK(vkEndCommandBuffer(r.cb));
    VkTimelineSemaphoreSubmitInfo second_values = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                                   .signalSemaphoreValueCount = 1,
                                                   .pSignalSemaphoreValues = &values[1]};
    VkSubmitInfo second = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                           .pNext = &second_values,
                           .commandBufferCount = 1,
                           .pCommandBuffers = &r.cb,
                           .signalSemaphoreCount = 1,
                           .pSignalSemaphores = &timeline};
    CHECK(vkQueueSubmit(o->a->queue, 1, &first, VK_NULL_HANDLE));
    CHECK(vkQueueSubmit(o->a->queue, 1, &second, VK_NULL_HANDLE));
    VkSemaphoreWaitInfo wait = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
                                .semaphoreCount = 1,
                                .pSemaphores = &timeline,
                                .pValues = fixed ? &values[1] : &values[0]};
    CHECK(vkWaitSemaphores(o->a->device, &wait, UINT64_MAX));
    VkMappedMemoryRange range = {
        .sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, .memory = memory, .offset = 0, .size = VK_WHOLE_SIZE};
    CHECK(vkInvalidateMappedMemoryRanges(o->a->device, 1, &range));
    wait.pValues = &values[1];
    CHECK(vkWaitSemaphores(o->a->device, &wait, UINT64_MAX));
    vkDestroySemaphore(o->a->device, timeline, NULL);
    vkDestroyCommandPool(o->a->device, r.pool, NULL);
}

/* host-wait-through-semaphore(-no-barrier): the first queue fills a mapped buffer (with the HOST
 * barrier; -no-barrier: without) and signals a semaphore; the second queue waits for it in an empty
 * command buffer's batch, with a fence. The host waits for that fence and invalidates the buffer:
 * the batch that waited for the fill is complete, so the fill is too. The correct program gets no
 * finding; without the barrier the host reads a write nothing made visible to it. Needs a second
 * queue (lavapipe has one: it runs on the H200). */
static void scenario_wait_through_semaphore(struct objects *o, const char *name)
{
    if (o->a->queue2 == VK_NULL_HANDLE) {
        printf("skip: the device has one queue\n");
        return;
    }
    VkBuffer target = new_buffer(o, 4096, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    VkDeviceMemory memory = o->owned[o->owned_count - 1].memory;
    VkSemaphore filled = new_semaphore(o->a, false);
    VkFence fence = new_fence(o->a);
    struct recording producer = begin(o->a, "fill-cb"), consumer = begin(o->a, "consumer-cb");
    vkCmdFillBuffer(producer.cb, target, 0, 4096, 3);
    if (strcmp(name, "host-wait-through-semaphore") == 0)
        buffer_barrier(producer.cb, target, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    CHECK(vkEndCommandBuffer(producer.cb));
    CHECK(vkEndCommandBuffer(consumer.cb));
    submit_one(o->a->queue, producer.cb, VK_NULL_HANDLE, filled, false, VK_NULL_HANDLE);
    submit_one(o->a->queue2, consumer.cb, filled, VK_NULL_HANDLE, false, fence);
    CHECK(vkWaitForFences(o->a->device, 1, &fence, VK_TRUE, UINT64_MAX));
    VkMappedMemoryRange range = {
        .sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, .memory = memory, .offset = 0, .size = VK_WHOLE_SIZE};
    CHECK(vkInvalidateMappedMemoryRanges(o->a->device, 1, &range));
    CHECK(vkQueueWaitIdle(o->a->queue));
    vkDestroyFence(o->a->device, fence, NULL);
    vkDestroySemaphore(o->a->device, filled, NULL);
    vkDestroyCommandPool(o->a->device, producer.pool, NULL);
    vkDestroyCommandPool(o->a->device, consumer.pool, NULL);
}

bool scenarios_host(struct app *a, const char *name)
{
    struct objects o = {.a = a};
    bool known = true;
    if (strncmp(name, "host-timeline-wait-", 19) == 0) {
        scenario_timeline_host_wait(&o, name);
    } else if (strncmp(name, "host-wait-through-semaphore", 27) == 0) {
        scenario_wait_through_semaphore(&o, name);
    } else if (strncmp(name, "host-readback-", 14) == 0) {
        scenario_host_readback(&o, name);
    } else if (strncmp(name, "host-", 5) == 0 &&
               strstr(" host-invalidate-early host-invalidate-after-wait host-read-no-barrier host-flush-pending"
                      " host-map-early host-map-after-wait host-ring-whole-range"
                      " host-flush-before-submit ",
                      name) != NULL) {
        scenario_host(&o, name);
    } else if (strcmp(name, "soak") == 0) {
        const char *n = getenv("LAYER_APP_SOAK_ITERATIONS");
        scenario_soak(&o, n ? atoi(n) : 20000);
    } else {
        known = false;
    }
    destroy_objects(&o);
    return known;
}
