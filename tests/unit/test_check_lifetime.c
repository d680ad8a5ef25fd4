/* The queue model's completion rules (layer/queue_progress.c) as the lifetime area
 * (layer/check_lifetime.c) sees them, without a driver: batches submitted and waits fed as the
 * validators hand them on, findings read back from the layer's JSON-lines log. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check_lifetime.h"
#include "state_command_buffers.h"
#include "state_device.h"
#include "queue_progress.h"
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
static struct semaphore_state binary_semaphore, timeline_semaphore;
static struct fence_state fences[4]; /* 0xf1 .. 0xf4 */

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
    binary_semaphore = (struct semaphore_state){.type = VK_SEMAPHORE_TYPE_BINARY};
    timeline_semaphore = (struct semaphore_state){.type = VK_SEMAPHORE_TYPE_TIMELINE};
    handle_map_init(&device.objects[OBJECT_KIND_semaphore]);
    handle_map_put(&device.objects[OBJECT_KIND_semaphore], 0x5e, &binary_semaphore);
    handle_map_put(&device.objects[OBJECT_KIND_semaphore], 0x7e, &timeline_semaphore);
    handle_map_init(&device.objects[OBJECT_KIND_fence]);
    for (int i = 0; i < 4; ++i) {
        fences[i] = (struct fence_state){0};
        handle_map_put(&device.objects[OBJECT_KIND_fence], 0xf1 + (uint64_t)i, &fences[i]);
    }
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
    progress_free(&device);
    handle_map_destroy(&device.objects[OBJECT_KIND_fence], NULL);
    fclose(instance.log_file);
    handle_map_destroy(&instance.finding_counts, NULL);
    handle_map_destroy(&device.names, NULL);
    handle_map_destroy(&device.objects[OBJECT_KIND_semaphore], NULL);
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
    struct semaphore_op wait, signal;
    struct command_buffer_state *cb;
    struct queue_batch b;
};

/* One batch of command buffer `cb` on `queue`, optionally waiting for and signaling a semaphore. */
static void submit(VkQueue queue, struct command_buffer_state *cb, uint64_t wait_semaphore, uint64_t wait_value,
                   uint64_t signal_semaphore, uint64_t signal_value, uint64_t fence)
{
    struct batch s = {.wait = {(VkSemaphore)wait_semaphore, wait_value, ~0ull},
                      .signal = {(VkSemaphore)signal_semaphore, signal_value, 0},
                      .cb = cb};
    s.b = (struct queue_batch){.waits = &s.wait,
                               .wait_count = wait_semaphore ? 1 : 0,
                               .command_buffers = &s.cb,
                               .command_buffer_count = cb ? 1 : 0,
                               .signals = &s.signal,
                               .signal_count = signal_semaphore ? 1 : 0,
                               .fence = (VkFence)fence};
    struct progress_batch ordered;
    progress_submit(&device, queue, &s.b, &ordered);
    lifetime_submit_batch(&device, &ordered, &s.b);
    lifetime_retire_completed(&device);
}

/* The waits, as the wait validators hand them on. */
static void fence_waited(uint64_t fence)
{
    progress_fence_waited(&device, (VkFence)fence);
    lifetime_retire_completed(&device);
}

static void device_idle(void)
{
    progress_device_idle(&device);
    lifetime_retire_completed(&device);
}

static void queue_idle(VkQueue queue)
{
    progress_queue_idle(&device, queue);
    lifetime_retire_completed(&device);
}

static void semaphore_reached(uint64_t semaphore, uint64_t value, bool exact)
{
    progress_semaphore_reached(&device, (VkSemaphore)semaphore, value, exact);
    lifetime_retire_completed(&device);
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
    fence_waited(0xf1);
    destroy(RENDER_PASS_1);
    assert_int_equal(findings(), 1);
}

/* A queue's work completes in order as far as a wait can tell: a later fence completes it. */
static void a_later_fence_completes_earlier_batches(void **state)
{
    (void)state;
    submit(QUEUE_A, &cb1, 0, 0, 0, 0, 0);
    submit(QUEUE_A, &cb2, 0, 0, 0, 0, 0xf2);
    fence_waited(0xf2);
    destroy(RENDER_PASS_1);
    assert_int_equal(findings(), 0);
}

/* Another queue's fence says nothing about this queue's work, unless that work waited for it. */
static void semaphore_waits_carry_completion_across_queues(void **state)
{
    (void)state;
    submit(QUEUE_A, &cb1, 0, 0, 0, 0, 0);
    submit(QUEUE_B, &cb2, 0, 0, 0, 0, 0xf3);
    fence_waited(0xf3);
    destroy(RENDER_PASS_1);
    assert_int_equal(findings(), 1);
    device_idle();
    submit(QUEUE_A, &cb1, 0, 0, 0x5e, 0, 0);    /* signals the binary semaphore */
    submit(QUEUE_B, &cb2, 0x5e, 0, 0, 0, 0xf4); /* waits for it */
    fence_waited(0xf4);
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
    semaphore_reached(0x7e, 1, false); /* reached: the signal of 2 ran */
    destroy(RENDER_PASS_1);
    assert_int_equal(findings(), 0);
    destroy(RENDER_PASS_2); /* the signal of 5 may not have run */
    assert_int_equal(findings(), 1);
    semaphore_reached(0x7e, 3, false); /* only 5 reaches 3 */
    destroy(RENDER_PASS_2);
    assert_int_equal(findings(), 1);
}

/* A counter read says the value itself: the last signal at or below it set it, and a signal above
 * it has not run (a wait for the value, by contrast, is satisfied by the first signal reaching it). */
static void a_counter_read_completes_only_the_signals_up_to_its_value(void **state)
{
    (void)state;
    submit(QUEUE_A, &cb1, 0, 0, 0x7e, 2, 0);
    submit(QUEUE_B, &cb2, 0, 0, 0x7e, 5, 0);
    semaphore_reached(0x7e, 3, true); /* the counter is at 3: the signal of 2 ran, not the one of 5 */
    destroy(RENDER_PASS_1);
    assert_int_equal(findings(), 0);
    destroy(RENDER_PASS_2);
    assert_int_equal(findings(), 1);
    semaphore_reached(0x7e, 5, true);
    destroy(RENDER_PASS_2);
    assert_int_equal(findings(), 1);
}

/* A value the host set (vkSignalSemaphore) or the initial value completes no GPU work. */
static void a_value_the_host_set_completes_no_work(void **state)
{
    (void)state;
    timeline_semaphore.initial_value = 1;
    submit(QUEUE_A, &cb1, 0, 0, 0x7e, 4, 0);
    semaphore_reached(0x7e, 1, false); /* the initial value */
    progress_host_signal(&device, (VkSemaphore)0x7e, 3);
    semaphore_reached(0x7e, 3, false);
    semaphore_reached(0x7e, 3, true); /* the counter read says 3: the signal of 4 has not run */
    destroy(RENDER_PASS_1);
    assert_int_equal(findings(), 1);
}

static void queue_idle_completes_only_that_queue(void **state)
{
    (void)state;
    submit(QUEUE_A, &cb1, 0, 0, 0, 0, 0);
    submit(QUEUE_B, &cb2, 0, 0, 0, 0, 0);
    queue_idle(QUEUE_B);
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
        cmocka_unit_test_setup_teardown(a_counter_read_completes_only_the_signals_up_to_its_value, setup, teardown),
        cmocka_unit_test_setup_teardown(a_value_the_host_set_completes_no_work, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
