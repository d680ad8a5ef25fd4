/* The lifetime area's completion rules (layer/check_lifetime.c) without a driver: batches
 * submitted with the layer's own submit entry, waits fed directly, findings read back from the
 * layer's JSON-lines log. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check_lifetime.h"
#include "layer_state.h"
#include "settings.h"

/* loader_glue.c's registry is not linked: no command buffer is looked up by dispatch key here */
struct layer_device *layer_device_of(const void *dispatchable)
{
    (void)dispatchable;
    return NULL;
}

#define QUEUE_A ((VkQueue)(uintptr_t)0xa1)
#define QUEUE_B ((VkQueue)(uintptr_t)0xb1)
#define RENDER_PASS_1 0x1001ull
#define RENDER_PASS_2 0x1002ull

static struct layer_instance instance;
static struct layer_device device;
static struct command_buffer_state cb1, cb2;
static struct semaphore_state binary_semaphore = {.type = VK_SEMAPHORE_TYPE_BINARY};
static struct semaphore_state timeline_semaphore = {.type = VK_SEMAPHORE_TYPE_TIMELINE};

static int setup(void **state)
{
    (void)state;
    memset(&instance, 0, sizeof(instance));
    memset(&device, 0, sizeof(device));
    memset(&cb1, 0, sizeof(cb1));
    memset(&cb2, 0, sizeof(cb2));
    cb1.handle = (VkCommandBuffer)0xc1;
    cb2.handle = (VkCommandBuffer)0xc2;
    cb1.device = cb2.device = &device;
    struct settings_problems problems;
    settings_load(&instance.settings, NULL, &problems);
    instance.settings.log_stderr = STDERR_OFF;
    instance.settings.duplicate_limit = 100;
    pthread_mutex_init(&instance.messengers_lock, NULL);
    pthread_mutex_init(&instance.findings_lock, NULL);
    handle_map_init(&instance.finding_counts);
    instance.log_file = tmpfile();
    device.instance = &instance;
    handle_map_init(&device.names);
    handle_map_init(&device.semaphores);
    handle_map_put(&device.semaphores, 0x5e, &binary_semaphore);
    handle_map_put(&device.semaphores, 0x7e, &timeline_semaphore);
    /* each command buffer begins a render pass of its own (render passes need no other state) */
    lifetime_note_object(&cb1, VK_OBJECT_TYPE_RENDER_PASS, RENDER_PASS_1, 0, "vkCmdBeginRenderPass");
    lifetime_note_object(&cb2, VK_OBJECT_TYPE_RENDER_PASS, RENDER_PASS_2, 0, "vkCmdBeginRenderPass");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    lifetime_free(&cb1);
    lifetime_free(&cb2);
    lifetime_tracker_free(&device);
    fclose(instance.log_file);
    handle_map_destroy(&instance.finding_counts, NULL);
    handle_map_destroy(&device.names, NULL);
    handle_map_destroy(&device.semaphores, NULL);
    return 0;
}

static int findings(void)
{
    fflush(instance.log_file);
    rewind(instance.log_file);
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof(line), instance.log_file))
        n += strstr(line, "PREFLIGHT-lifetime-destroyed-while-pending") != NULL;
    fseek(instance.log_file, 0, SEEK_END);
    return n;
}

struct batch {
    struct hazard_semaphore_op wait, signal;
    struct command_buffer_state *cb;
    struct hazard_batch b;
};

/* One batch of command buffer `cb` on `queue`, optionally waiting for and signaling a semaphore. */
static void submit(VkQueue queue, struct command_buffer_state *cb, uint64_t wait_semaphore, uint64_t wait_value,
                   uint64_t signal_semaphore, uint64_t signal_value, uint64_t fence)
{
    struct batch s = {.wait = {(VkSemaphore)wait_semaphore, wait_value, ~0ull},
                      .signal = {(VkSemaphore)signal_semaphore, signal_value, 0},
                      .cb = cb};
    s.b = (struct hazard_batch){.waits = &s.wait,
                                .wait_count = wait_semaphore ? 1 : 0,
                                .command_buffers = &s.cb,
                                .command_buffer_count = cb ? 1 : 0,
                                .signals = &s.signal,
                                .signal_count = signal_semaphore ? 1 : 0,
                                .fence = (VkFence)fence};
    lifetime_submit_batch(&device, queue, &s.b);
}

static void destroy(uint64_t render_pass)
{
    lifetime_check_destroy(&device, VK_OBJECT_TYPE_RENDER_PASS, render_pass, 0, "vkDestroyRenderPass");
}

static void pending_work_is_reported_until_its_fence(void **state)
{
    (void)state;
    submit(QUEUE_A, &cb1, 0, 0, 0, 0, 0xf1);
    destroy(RENDER_PASS_1);
    assert_int_equal(findings(), 1);
    destroy(RENDER_PASS_2); /* not used by the pending work */
    assert_int_equal(findings(), 1);
    lifetime_fence_waited(&device, (VkFence)0xf1);
    destroy(RENDER_PASS_1);
    assert_int_equal(findings(), 1);
}

/* A queue's work completes in order as far as a wait can tell: a later fence completes it. */
static void a_later_fence_completes_earlier_batches(void **state)
{
    (void)state;
    submit(QUEUE_A, &cb1, 0, 0, 0, 0, 0);
    submit(QUEUE_A, &cb2, 0, 0, 0, 0, 0xf2);
    lifetime_fence_waited(&device, (VkFence)0xf2);
    destroy(RENDER_PASS_1);
    assert_int_equal(findings(), 0);
}

/* Another queue's fence says nothing about this queue's work, unless that work waited for it. */
static void semaphore_waits_carry_completion_across_queues(void **state)
{
    (void)state;
    submit(QUEUE_A, &cb1, 0, 0, 0, 0, 0);
    submit(QUEUE_B, &cb2, 0, 0, 0, 0, 0xf3);
    lifetime_fence_waited(&device, (VkFence)0xf3);
    destroy(RENDER_PASS_1);
    assert_int_equal(findings(), 1);
    lifetime_device_idle(&device);
    submit(QUEUE_A, &cb1, 0, 0, 0x5e, 0, 0);    /* signals the binary semaphore */
    submit(QUEUE_B, &cb2, 0x5e, 0, 0, 0, 0xf4); /* waits for it */
    lifetime_fence_waited(&device, (VkFence)0xf4);
    destroy(RENDER_PASS_1);
    assert_int_equal(findings(), 1);
}

/* A timeline value reached on the host completes the signal that reaches it and every signal
 * below it, not the ones above. */
static void timeline_values_complete_up_to_the_signal_reaching_them(void **state)
{
    (void)state;
    submit(QUEUE_A, &cb1, 0, 0, 0x7e, 2, 0);
    submit(QUEUE_B, &cb2, 0, 0, 0x7e, 5, 0);
    lifetime_semaphore_reached(&device, (VkSemaphore)0x7e, 1); /* reached: the signal of 2 ran */
    destroy(RENDER_PASS_1);
    assert_int_equal(findings(), 0);
    destroy(RENDER_PASS_2); /* the signal of 5 may not have run */
    assert_int_equal(findings(), 1);
    lifetime_semaphore_reached(&device, (VkSemaphore)0x7e, 3); /* only 5 reaches 3 */
    destroy(RENDER_PASS_2);
    assert_int_equal(findings(), 1);
}

static void queue_idle_completes_only_that_queue(void **state)
{
    (void)state;
    submit(QUEUE_A, &cb1, 0, 0, 0, 0, 0);
    submit(QUEUE_B, &cb2, 0, 0, 0, 0, 0);
    lifetime_queue_idle(&device, QUEUE_B);
    destroy(RENDER_PASS_2);
    assert_int_equal(findings(), 0);
    destroy(RENDER_PASS_1);
    assert_int_equal(findings(), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(pending_work_is_reported_until_its_fence, setup, teardown),
        cmocka_unit_test_setup_teardown(a_later_fence_completes_earlier_batches, setup, teardown),
        cmocka_unit_test_setup_teardown(semaphore_waits_carry_completion_across_queues, setup, teardown),
        cmocka_unit_test_setup_teardown(timeline_values_complete_up_to_the_signal_reaching_them, setup, teardown),
        cmocka_unit_test_setup_teardown(queue_idle_completes_only_that_queue, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
