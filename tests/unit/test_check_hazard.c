/* The hazard tracker's state machine (layer/check_hazard.c) without a driver: accesses and
 * barriers fed directly, findings read back from the layer's JSON-lines log. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check_hazard.h"
#include "check_hazard_submit.h"
#include "check_host.h"
#include "command_access.h"
#include "host_unseen.h"
#include "hazard_tracker.h"
#include "state_command_buffers.h"
#include "state_device.h"
#include "state_resources.h"
#include "queue_progress.h"
#include "settings.h"

/* short names for the stage and access bits of memory_access.h */
#define TOP STAGE_TOP_OF_PIPE
#define DRAW_INDIRECT STAGE_DRAW_INDIRECT
#define COMPUTE STAGE_COMPUTE_SHADER
#define TRANSFER STAGE_TRANSFER
#define BOTTOM STAGE_BOTTOM_OF_PIPE
#define SHADER_READ ACCESS_SHADER_READ
#define SHADER_WRITE ACCESS_SHADER_WRITE
#define TRANSFER_WRITE ACCESS_TRANSFER_WRITE
#define INDIRECT_READ ACCESS_INDIRECT_COMMAND_READ

static struct layer_instance instance;
static struct layer_device device;
static struct command_buffer_state cb, cb2, cb3;
static struct buffer_state buffers[3];
static struct semaphore_state binary_semaphore, other_binary_semaphore, timeline_semaphore;
static struct fence_state fence;
static struct image_state image = {.handle = (VkImage)0x300, .mip_levels = 4, .array_layers = 6};
static struct image_state volume = {
    .handle = (VkImage)0x301, .extent = {16, 16, 8}, .mip_levels = 2, .array_layers = 1, .type = VK_IMAGE_TYPE_3D};
static struct image_state frames = {.handle = (VkImage)0x302,
                                    .format = VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM,
                                    .extent = {64, 64, 1},
                                    .mip_levels = 1,
                                    .array_layers = 2,
                                    .type = VK_IMAGE_TYPE_2D};

static int setup(void **state)
{
    (void)state;
    memset(&instance, 0, sizeof(instance));
    memset(&device, 0, sizeof(device));
    memset(&cb, 0, sizeof(cb));
    memset(&cb2, 0, sizeof(cb2));
    memset(&cb3, 0, sizeof(cb3));
    cb.handle = (VkCommandBuffer)0xc1;
    cb2.handle = (VkCommandBuffer)0xc2;
    cb3.handle = (VkCommandBuffer)0xc3;
    binary_semaphore = other_binary_semaphore = (struct semaphore_state){.type = VK_SEMAPHORE_TYPE_BINARY};
    timeline_semaphore = (struct semaphore_state){.type = VK_SEMAPHORE_TYPE_TIMELINE};
    fence = (struct fence_state){0};
    handle_map_init(&device.objects[OBJECT_KIND_semaphore]);
    handle_map_put(&device.objects[OBJECT_KIND_semaphore], 0x5e, &binary_semaphore);
    handle_map_put(&device.objects[OBJECT_KIND_semaphore], 0x5f, &other_binary_semaphore);
    handle_map_put(&device.objects[OBJECT_KIND_semaphore], 0x7e, &timeline_semaphore);
    handle_map_init(&device.objects[OBJECT_KIND_fence]);
    handle_map_put(&device.objects[OBJECT_KIND_fence], 0xf1, &fence);
    struct settings_problems problems;
    settings_load(&instance.settings, NULL, &problems);
    instance.settings.log_stderr = STDERR_OFF;
    instance.settings.duplicate_limit = 100;
    pthread_mutex_init(&instance.messengers_lock, NULL);
    pthread_mutex_init(&instance.findings_lock, NULL);
    handle_map_init(&instance.finding_counts);
    instance.log_file = tmpfile();
    device.instance = &instance;
    handle_map_init(&device.objects[OBJECT_KIND_buffer]);
    handle_map_init(&device.objects[OBJECT_KIND_image]);
    handle_map_put(&device.objects[OBJECT_KIND_image], 0x300, &image);
    handle_map_put(&device.objects[OBJECT_KIND_image], 0x301, &volume);
    handle_map_put(&device.objects[OBJECT_KIND_image], 0x302, &frames);
    handle_map_init(&device.names);
    cb.device = cb2.device = cb3.device = &device;
    /* buffers 1 and 2 share memory 0x100 at offset 0; buffer 3 has its own memory */
    buffers[0] = (struct buffer_state){(VkBuffer)1, 4096, 0, (VkDeviceMemory)0x100, 0};
    buffers[1] = (struct buffer_state){(VkBuffer)2, 4096, 0, (VkDeviceMemory)0x100, 0};
    buffers[2] = (struct buffer_state){(VkBuffer)3, 4096, 0, (VkDeviceMemory)0x200, 0};
    for (int i = 0; i < 3; ++i)
        handle_map_put(&device.objects[OBJECT_KIND_buffer], (uint64_t)(i + 1), &buffers[i]);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    hazard_free(&cb);
    hazard_free(&cb2);
    hazard_free(&cb3);
    hazard_queues_free(&device);
    progress_free(&device);
    unseen_writes_free(&device);
    handle_map_destroy(&device.objects[OBJECT_KIND_semaphore], NULL);
    handle_map_destroy(&device.objects[OBJECT_KIND_fence], NULL);
    fclose(instance.log_file);
    handle_map_destroy(&instance.finding_counts, NULL);
    handle_map_destroy(&device.objects[OBJECT_KIND_buffer], NULL);
    handle_map_destroy(&device.objects[OBJECT_KIND_image], NULL);
    handle_map_destroy(&device.names, NULL);
    return 0;
}

/* How many findings with `id` the log holds. */
static int findings(const char *id)
{
    fflush(instance.log_file);
    rewind(instance.log_file);
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof(line), instance.log_file))
        if (strstr(line, id) != NULL)
            ++n;
    fseek(instance.log_file, 0, SEEK_END);
    return n;
}

static int all_findings(void)
{
    return findings("PREFLIGHT-hazard-");
}

/* One command of command buffer `c` accessing `buffer` [offset, offset + size). */
static void access_in(struct command_buffer_state *c, uint64_t buffer, uint64_t offset, uint64_t size, uint64_t stages,
                      uint64_t access_bits, bool write)
{
    struct hazard_accesses a = {.count = 1};
    assert_true(access_buffer_range(&device, buffer, offset, size, &a.a[0]));
    a.a[0].stages = stages;
    a.a[0].access = access_bits;
    a.a[0].read = !write;
    a.a[0].write = write;
    hazard_command(&device, c, &a, write ? "write" : "read");
    c->command_index++;
}

/* One command accessing `buffer` [offset, offset + size). */
static void access(uint64_t buffer, uint64_t offset, uint64_t size, uint64_t stages, uint64_t access_bits, bool write)
{
    access_in(&cb, buffer, offset, size, stages, access_bits, write);
}

static void barrier(uint64_t src, uint64_t dst, uint64_t src_access, uint64_t dst_access)
{
    struct hazard_memory_barrier m = {.global = true, .src_access = src_access, .dst_access = dst_access};
    hazard_barrier(&cb, src, dst, &m, src_access || dst_access ? 1 : 0);
    cb.command_index++;
}

static void read_after_write_needs_a_barrier(void **state)
{
    (void)state;
    access(3, 0, 4096, COMPUTE, SHADER_WRITE, true);
    access(3, 0, 4096, COMPUTE, SHADER_READ, false);
    assert_int_equal(findings("PREFLIGHT-hazard-read-after-write"), 1);
}

static void a_full_barrier_covers_read_after_write(void **state)
{
    (void)state;
    access(3, 0, 4096, COMPUTE, SHADER_WRITE, true);
    barrier(COMPUTE, COMPUTE, SHADER_WRITE, SHADER_READ);
    access(3, 0, 4096, COMPUTE, SHADER_READ, false);
    assert_int_equal(all_findings(), 0);
}

/* Runs of one repeated barrier are applied once per range (the log's run_start and the
 * hook-level repeat): a range touched inside a run must still get the barriers after its access. */
static void repeated_barriers_apply_after_each_access(void **state)
{
    (void)state;
    barrier(COMPUTE, COMPUTE, SHADER_WRITE, SHADER_READ);
    access(3, 0, 4096, COMPUTE, SHADER_WRITE, true); /* inside the run */
    barrier(COMPUTE, COMPUTE, SHADER_WRITE, SHADER_READ);
    assert_true(hazard_repeat_global_barrier(&cb, COMPUTE, COMPUTE, SHADER_WRITE, SHADER_READ));
    cb.command_index++;
    barrier(COMPUTE, COMPUTE, SHADER_WRITE, SHADER_READ);
    access(3, 0, 4096, COMPUTE, SHADER_READ, false); /* made visible by the repeats */
    assert_int_equal(all_findings(), 0);
    access(1, 0, 4096, COMPUTE, SHADER_WRITE, true); /* then only execution-only repeats */
    barrier(COMPUTE, COMPUTE, 0, 0);
    assert_false(hazard_repeat_global_barrier(&cb, COMPUTE, COMPUTE, SHADER_WRITE, SHADER_READ));
    barrier(COMPUTE, COMPUTE, 0, 0);
    barrier(COMPUTE, COMPUTE, 0, 0);
    access(1, 0, 4096, COMPUTE, SHADER_READ, false);
    assert_int_equal(findings("PREFLIGHT-hazard-read-after-write"), 1);
    /* other access masks are not a repeat of the last barrier */
    barrier(COMPUTE, COMPUTE, SHADER_WRITE, SHADER_WRITE);
    assert_false(hazard_repeat_global_barrier(&cb, COMPUTE, COMPUTE, SHADER_WRITE, SHADER_READ));
    assert_false(hazard_repeat_global_barrier(&cb, COMPUTE, TRANSFER, SHADER_WRITE, SHADER_WRITE));
    assert_true(hazard_repeat_global_barrier(&cb, COMPUTE, COMPUTE, SHADER_WRITE, SHADER_WRITE));
}

static void execution_only_barrier_is_not_enough_after_a_write(void **state)
{
    (void)state;
    access(3, 0, 4096, COMPUTE, SHADER_WRITE, true);
    barrier(COMPUTE, COMPUTE, 0, 0);
    access(3, 0, 4096, COMPUTE, SHADER_READ, false);
    assert_int_equal(findings("PREFLIGHT-hazard-read-after-write"), 1);
}

static void write_after_read_needs_only_execution(void **state)
{
    (void)state;
    access(3, 0, 4096, COMPUTE, SHADER_READ, false);
    barrier(COMPUTE, TRANSFER, 0, 0);
    access(3, 0, 4096, TRANSFER, TRANSFER_WRITE, true);
    assert_int_equal(all_findings(), 0);
    hazard_forget(&cb);
    access(3, 0, 4096, COMPUTE, SHADER_READ, false);
    barrier(TRANSFER, COMPUTE, TRANSFER_WRITE, SHADER_READ); /* orders transfer before compute, not the reverse */
    access(3, 0, 4096, TRANSFER, TRANSFER_WRITE, true);
    assert_int_equal(findings("PREFLIGHT-hazard-write-after-read"), 1);
}

/* A range keeps HAZARD_MAX_READS reads since its last write; a further read at other stages is
 * folded into the last slot (the stages of both). A barrier orders the folded use only when its
 * first scope holds every stage of it, so a fifth reader does not hide a write-after-read. */
static void a_fifth_reader_does_not_hide_write_after_read(void **state)
{
    (void)state;
    access(3, 0, 4096, TRANSFER, ACCESS_TRANSFER_READ, false);
    access(3, 0, 4096, COMPUTE, SHADER_READ, false);
    access(3, 0, 4096, STAGE_VERTEX_SHADER, SHADER_READ, false);
    barrier(TRANSFER | COMPUTE | STAGE_VERTEX_SHADER, TRANSFER, 0, 0); /* orders the first three */
    access(3, 0, 4096, DRAW_INDIRECT, INDIRECT_READ, false);
    access(3, 0, 4096, STAGE_FRAGMENT_SHADER, SHADER_READ, false); /* the fifth: folded with the fourth */
    barrier(DRAW_INDIRECT, TRANSFER, 0, 0);                        /* orders the fourth, not the fifth */
    access(3, 0, 4096, TRANSFER, TRANSFER_WRITE, true);
    assert_int_equal(findings("PREFLIGHT-hazard-write-after-read"), 1);
    assert_int_equal(all_findings(), 1);
    hazard_forget(&cb); /* the same with a barrier over both folded stages: ordered */
    access(3, 0, 4096, TRANSFER, ACCESS_TRANSFER_READ, false);
    access(3, 0, 4096, COMPUTE, SHADER_READ, false);
    access(3, 0, 4096, STAGE_VERTEX_SHADER, SHADER_READ, false);
    access(3, 0, 4096, DRAW_INDIRECT, INDIRECT_READ, false);
    access(3, 0, 4096, STAGE_FRAGMENT_SHADER, SHADER_READ, false);
    barrier(TRANSFER | COMPUTE | STAGE_FRAGMENT_SHADER, TRANSFER, 0, 0);
    access(3, 0, 4096, TRANSFER, TRANSFER_WRITE, true);
    assert_int_equal(all_findings(), 1);
}

static void wrong_stages_do_not_cover(void **state)
{
    (void)state;
    access(3, 0, 4096, COMPUTE, SHADER_WRITE, true);
    barrier(TRANSFER, COMPUTE, SHADER_WRITE, SHADER_READ); /* first scope misses the writer */
    access(3, 0, 4096, COMPUTE, SHADER_READ, false);
    assert_int_equal(findings("PREFLIGHT-hazard-read-after-write"), 1);
    access(3, 0, 4096, COMPUTE, SHADER_WRITE, true);
    barrier(COMPUTE, COMPUTE, SHADER_WRITE, SHADER_READ); /* DRAW_INDIRECT is logically earlier than COMPUTE */
    access(3, 0, 12, DRAW_INDIRECT, INDIRECT_READ, false);
    assert_int_equal(findings("PREFLIGHT-hazard-read-after-write"), 2);
}

static void top_and_bottom_of_pipe_per_scope(void **state)
{
    (void)state;
    /* BOTTOM_OF_PIPE first and TOP_OF_PIPE second: every stage, but no access in either scope */
    access(3, 0, 4096, COMPUTE, SHADER_READ, false);
    barrier(BOTTOM, TOP, 0, 0);
    access(3, 0, 4096, COMPUTE, SHADER_WRITE, true);
    assert_int_equal(all_findings(), 0);
    barrier(BOTTOM, TOP, SHADER_WRITE, SHADER_READ);
    access(3, 0, 4096, COMPUTE, SHADER_READ, false);
    assert_int_equal(findings("PREFLIGHT-hazard-read-after-write"), 1);
    /* TOP_OF_PIPE first and BOTTOM_OF_PIPE second: no stage in either scope */
    barrier(BOTTOM, TOP, 0, 0);
    access(3, 0, 4096, COMPUTE, SHADER_WRITE, true);
    barrier(TOP, BOTTOM, SHADER_WRITE, SHADER_READ);
    access(3, 0, 4096, COMPUTE, SHADER_READ, false);
    assert_int_equal(findings("PREFLIGHT-hazard-read-after-write"), 2);
    access(2, 0, 64, COMPUTE, SHADER_READ, false);
    barrier(TOP, COMPUTE, 0, 0);
    access(2, 0, 64, COMPUTE, SHADER_WRITE, true);
    assert_int_equal(findings("PREFLIGHT-hazard-write-after-read"), 1);
}

/* A barrier's access scopes hold only the stages it names: logically later stages are ordered, not
 * made visible (a uniform read in the fragment shader after a barrier to VERTEX_SHADER). */
#define VERTEX_SHADER STAGE_VERTEX_SHADER
#define FRAGMENT_SHADER STAGE_FRAGMENT_SHADER
#define UNIFORM_READ ACCESS_UNIFORM_READ
static void access_scopes_hold_only_the_stages_named(void **state)
{
    (void)state;
    access(3, 0, 256, TRANSFER, TRANSFER_WRITE, true);
    barrier(TRANSFER, VERTEX_SHADER, TRANSFER_WRITE, UNIFORM_READ);
    access(3, 0, 256, VERTEX_SHADER, UNIFORM_READ, false);
    assert_int_equal(all_findings(), 0);
    access(3, 0, 256, FRAGMENT_SHADER, UNIFORM_READ, false);
    assert_int_equal(findings("PREFLIGHT-hazard-read-after-write"), 1);
    /* and a write in a logically earlier stage than the one named is not made available */
    access(2, 0, 64, VERTEX_SHADER, SHADER_WRITE, true);
    barrier(FRAGMENT_SHADER, COMPUTE, SHADER_WRITE, SHADER_READ);
    access(2, 0, 64, COMPUTE, SHADER_READ, false);
    assert_int_equal(findings("PREFLIGHT-hazard-read-after-write"), 2);
}

static void dependency_chains(void **state)
{
    (void)state;
    access(3, 0, 4096, COMPUTE, SHADER_WRITE, true);
    barrier(COMPUTE, TRANSFER, SHADER_WRITE, 0); /* made available, ordered before transfer */
    barrier(TRANSFER, COMPUTE, 0, SHADER_READ);  /* chained: visible to compute reads */
    access(3, 0, 4096, COMPUTE, SHADER_READ, false);
    assert_int_equal(all_findings(), 0);
}

static void memory_not_handles(void **state)
{
    (void)state;
    access(1, 0, 4096, COMPUTE, SHADER_WRITE, true);
    access(2, 1024, 16, COMPUTE, SHADER_READ, false); /* another buffer on the same memory */
    assert_int_equal(findings("PREFLIGHT-hazard-read-after-write"), 1);
    access(3, 0, 1024, COMPUTE, SHADER_WRITE, true);
    access(3, 2048, 1024, COMPUTE, SHADER_READ, false); /* disjoint range */
    access(3, 1024, 1024, COMPUTE, SHADER_WRITE, true); /* disjoint too */
    assert_int_equal(all_findings(), 1);
}

static void buffer_barrier_covers_only_its_range(void **state)
{
    (void)state;
    access(3, 0, 4096, COMPUTE, SHADER_WRITE, true);
    struct hazard_access elsewhere;
    assert_true(access_buffer_range(&device, 1, 0, 4096, &elsewhere)); /* memory 0x100, not 0x200 */
    struct hazard_memory_barrier m = {
        .key = elsewhere.key, .begin = 0, .end = 4096, .src_access = SHADER_WRITE, .dst_access = SHADER_READ};
    hazard_barrier(&cb, COMPUTE, COMPUTE, &m, 1);
    cb.command_index++;
    access(3, 0, 4096, COMPUTE, SHADER_READ, false);
    assert_int_equal(findings("PREFLIGHT-hazard-read-after-write"), 1);
}

static void forget_and_write_after_write(void **state)
{
    (void)state;
    access(3, 0, 4096, TRANSFER, TRANSFER_WRITE, true);
    access(3, 0, 4096, COMPUTE, SHADER_WRITE, true);
    assert_int_equal(findings("PREFLIGHT-hazard-write-after-write"), 1);
    hazard_forget(&cb);
    access(3, 0, 4096, COMPUTE, SHADER_READ, false);
    assert_int_equal(all_findings(), 1);
}

static void image_access(uint32_t mip, uint32_t layer, uint64_t stages, uint64_t access_bits, bool write)
{
    struct hazard_accesses a = {.count = 1};
    assert_true(access_image_range(&device, 0x300, VK_IMAGE_ASPECT_COLOR_BIT, mip, 1, layer, 1, &a.a[0]));
    a.a[0].stages = stages;
    a.a[0].access = access_bits;
    a.a[0].read = !write;
    a.a[0].write = write;
    hazard_command(&device, &cb, &a, write ? "write" : "read");
    cb.command_index++;
}

static void transition(uint64_t src, uint64_t dst, uint64_t dst_access)
{
    struct hazard_access range;
    assert_true(access_image_range(&device, 0x300, VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1, &range));
    struct hazard_memory_barrier b = {.image = true,
                                      .key = range.key,
                                      .begin = range.begin,
                                      .end = range.end,
                                      .layer_begin = range.layer_begin,
                                      .layer_end = range.layer_end,
                                      .dst_access = dst_access};
    hazard_barrier(&cb, src, dst, &b, 1);
    hazard_image_transition(&device, &cb, src, dst, &b, "transition");
    cb.command_index++;
}

static void image_subresources_and_layout_transitions(void **state)
{
    (void)state;
    image_access(0, 0, COMPUTE, SHADER_WRITE, true);
    image_access(1, 0, COMPUTE, SHADER_READ, false); /* another mip */
    image_access(0, 1, COMPUTE, SHADER_READ, false); /* another layer */
    assert_int_equal(all_findings(), 0);
    image_access(0, 0, COMPUTE, SHADER_READ, false);
    assert_int_equal(findings("PREFLIGHT-hazard-read-after-write"), 1);
    /* a transition is a write: earlier accesses must be in its first scope */
    transition(TOP, TRANSFER, TRANSFER_WRITE);
    assert_int_equal(findings("PREFLIGHT-hazard-write-after-read"), 1); /* the read since the write, unordered */
    image_access(0, 0, COMPUTE, SHADER_READ, false);                    /* ordered only before TRANSFER */
    assert_int_equal(findings("PREFLIGHT-hazard-read-after-write"), 2);
    transition(TOP, TRANSFER, TRANSFER_WRITE);
    assert_int_equal(findings("PREFLIGHT-hazard-write-after-read"), 2);
    transition(TRANSFER, TRANSFER, TRANSFER_WRITE); /* chains after the previous transition */
    assert_int_equal(all_findings(), 4);
    /* after a transition, accesses in its second scope are ordered and see it */
    image_access(0, 0, TRANSFER, TRANSFER_WRITE, true);
    assert_int_equal(all_findings(), 4);
}

/* Mips [mip, mip + count) of the test image as one access. */
static void mips_access(uint32_t mip, uint32_t count, uint64_t stages, uint64_t access_bits, bool write)
{
    struct hazard_accesses a = {.count = 1};
    assert_true(access_image_range(&device, 0x300, VK_IMAGE_ASPECT_COLOR_BIT, mip, count, 0, 1, &a.a[0]));
    a.a[0].stages = stages;
    a.a[0].access = access_bits;
    a.a[0].read = !write;
    a.a[0].write = write;
    hazard_command(&device, &cb, &a, write ? "write" : "read");
    cb.command_index++;
}

/* A barrier (no transition) over mips [mip, mip + count) of the test image. */
static void mips_barrier(uint32_t mip, uint32_t count, uint64_t src, uint64_t dst, uint64_t src_access,
                         uint64_t dst_access)
{
    struct hazard_access range;
    assert_true(access_image_range(&device, 0x300, VK_IMAGE_ASPECT_COLOR_BIT, mip, count, 0, 1, &range));
    struct hazard_memory_barrier b = hazard_barrier_over(&range, src_access, dst_access);
    hazard_barrier(&cb, src, dst, &b, 1);
    cb.command_index++;
}

static void a_barrier_over_part_of_a_range_covers_only_that_part(void **state)
{
    (void)state;
    /* buffers: a write of [0, 4096), a barrier over [0, 256): a read of [256, 512) is unordered */
    access(3, 0, 4096, COMPUTE, SHADER_WRITE, true);
    struct hazard_access part;
    assert_true(access_buffer_range(&device, 3, 0, 256, &part));
    struct hazard_memory_barrier m = hazard_barrier_over(&part, SHADER_WRITE, SHADER_READ);
    hazard_barrier(&cb, COMPUTE, COMPUTE, &m, 1);
    cb.command_index++;
    access(3, 0, 256, COMPUTE, SHADER_READ, false);
    assert_int_equal(all_findings(), 0);
    access(3, 256, 256, COMPUTE, SHADER_READ, false);
    assert_int_equal(findings("PREFLIGHT-hazard-read-after-write"), 1);
    /* images: a write of every mip, a barrier over mip 0: mip 1 is unordered, mip 0 ordered */
    mips_access(0, 4, TRANSFER, TRANSFER_WRITE, true);
    mips_barrier(0, 1, TRANSFER, COMPUTE, TRANSFER_WRITE, SHADER_READ);
    image_access(0, 0, COMPUTE, SHADER_READ, false);
    assert_int_equal(all_findings(), 1);
    image_access(1, 0, COMPUTE, SHADER_READ, false);
    assert_int_equal(findings("PREFLIGHT-hazard-read-after-write"), 2);
}

static void a_write_replaces_the_uses_of_what_it_covers(void **state)
{
    (void)state;
    /* a write of every mip made visible to mip 0's reader only; then mip 2 is rewritten and read
     * without a barrier: one finding, against the rewrite (the first write of mip 2 is gone) */
    mips_access(0, 4, TRANSFER, TRANSFER_WRITE, true);
    mips_barrier(0, 1, TRANSFER, TRANSFER, TRANSFER_WRITE, ACCESS_TRANSFER_READ);
    mips_barrier(1, 1, TRANSFER, TRANSFER, TRANSFER_WRITE, ACCESS_TRANSFER_WRITE);
    mips_access(2, 1, TRANSFER, TRANSFER_WRITE, true); /* WAW with the first write: unordered */
    assert_int_equal(findings("PREFLIGHT-hazard-write-after-write"), 1);
    mips_access(2, 1, TRANSFER, ACCESS_TRANSFER_READ, false);
    assert_int_equal(findings("PREFLIGHT-hazard-read-after-write"), 1);
    assert_int_equal(all_findings(), 2);
    /* a write over all mips after a full barrier: later reads of any mip meet only it */
    barrier(TRANSFER, TRANSFER, TRANSFER_WRITE, ACCESS_TRANSFER_READ | TRANSFER_WRITE);
    mips_access(0, 4, TRANSFER, TRANSFER_WRITE, true);
    barrier(TRANSFER, COMPUTE, TRANSFER_WRITE, SHADER_READ);
    for (uint32_t mip = 0; mip < 4; ++mip)
        image_access(mip, 0, COMPUTE, SHADER_READ, false);
    assert_int_equal(all_findings(), 2);
}

static void ownership_transition_from(uint64_t src, uint64_t src_access, uint64_t dst, uint64_t dst_access,
                                      bool ownership)
{
    struct hazard_access range;
    assert_true(access_image_range(&device, 0x300, VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1, &range));
    struct hazard_memory_barrier b = hazard_barrier_over(&range, src_access, dst_access);
    b.ownership_transfer = ownership;
    hazard_barrier(&cb, src, dst, &b, 1);
    hazard_image_transition(&device, &cb, src, dst, &b, "transition");
    cb.command_index++;
}

static void transition_from(uint64_t src, uint64_t src_access, uint64_t dst, uint64_t dst_access)
{
    struct hazard_access range;
    assert_true(access_image_range(&device, 0x300, VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1, &range));
    struct hazard_memory_barrier b = hazard_barrier_over(&range, src_access, dst_access);
    hazard_barrier(&cb, src, dst, &b, 1);
    hazard_image_transition(&device, &cb, src, dst, &b, "transition");
    cb.command_index++;
}

/* Two writes are location-ordered when the first is made available and happens before the second
 * (the memory model appendix): the second need not be in a destination access scope, unless the
 * write_after_write = visible setting asks for Vulkan-ValidationLayers' reading. A layout
 * transition needs the earlier write in its own source access scope or made available by a
 * dependency it chains to. */
static void write_after_write_needs_a_memory_dependency(void **state)
{
    (void)state;
    access(3, 0, 4096, TRANSFER, TRANSFER_WRITE, true);
    barrier(TRANSFER, COMPUTE, TRANSFER_WRITE, SHADER_READ); /* available, ordered: enough */
    access(3, 0, 4096, COMPUTE, SHADER_WRITE, true);
    assert_int_equal(all_findings(), 0);
    barrier(COMPUTE, TRANSFER, 0, 0); /* ordered, never made available */
    access(3, 0, 4096, TRANSFER, TRANSFER_WRITE, true);
    assert_int_equal(findings("PREFLIGHT-hazard-write-after-write"), 1);
    barrier(TRANSFER, COMPUTE, TRANSFER_WRITE, TRANSFER_WRITE);
    barrier(COMPUTE, TRANSFER, 0, 0); /* the availability chained through an execution dependency */
    access(3, 0, 4096, TRANSFER, TRANSFER_WRITE, true);
    assert_int_equal(all_findings(), 1);
    /* reads since the first write: a write after them needs only an execution dependency */
    barrier(TRANSFER, COMPUTE, TRANSFER_WRITE, SHADER_READ);
    access(3, 0, 4096, COMPUTE, SHADER_READ, false);
    barrier(COMPUTE, COMPUTE, 0, 0);
    access(3, 0, 4096, COMPUTE, SHADER_WRITE, true);
    assert_int_equal(all_findings(), 1);
    /* layout transitions */
    image_access(0, 0, COMPUTE, SHADER_WRITE, true);
    transition_from(COMPUTE, 0, TRANSFER, TRANSFER_WRITE); /* ordered, but the write is not available */
    assert_int_equal(findings("PREFLIGHT-hazard-write-after-write"), 2);
    image_access(0, 0, TRANSFER, TRANSFER_WRITE, true);
    transition_from(TRANSFER, TRANSFER_WRITE, COMPUTE, SHADER_READ); /* in its source access scope */
    transition_from(COMPUTE, 0, TRANSFER, TRANSFER_WRITE);           /* chains to the previous transition */
    assert_int_equal(all_findings(), 2);
    image_access(0, 0, TRANSFER, TRANSFER_WRITE, true);
    barrier(TRANSFER, BOTTOM, TRANSFER_WRITE, 0);       /* available, but nothing chains to BOTTOM */
    transition_from(TRANSFER, 0, COMPUTE, SHADER_READ); /* ordered directly, not available to it */
    assert_int_equal(findings("PREFLIGHT-hazard-write-after-write"), 3);
}

/* A rendering's store operation is checked at the rendering's first command and happens after
 * every command recorded since (the spec orders it after the last subpass's commands); commands
 * before that first one still count. (Reads by the same stages merge into the latest, so the
 * earlier read here is in another stage.) */
static void store_at_an_earlier_command_follows_the_commands_since(void **state)
{
    (void)state;
    access(3, 0, 4096, DRAW_INDIRECT, INDIRECT_READ, false); /* command 0: before the rendering */
    uint32_t begin = cb.command_index;                       /* command 1: the rendering begins */
    cb.command_index++;
    access(3, 0, 4096, COMPUTE, SHADER_READ, false); /* command 2: inside it */
    struct hazard_accesses store = {.count = 1};
    assert_true(access_buffer_range(&device, 3, 0, 4096, &store.a[0]));
    store.a[0].stages = TRANSFER;
    store.a[0].access = TRANSFER_WRITE;
    store.a[0].write = true;
    hazard_command_at(&device, &cb, &store, "store", begin);
    /* only command 0's read is unordered: one write-after-read, naming it */
    assert_int_equal(findings("PREFLIGHT-hazard-write-after-read"), 1);
    assert_int_equal(all_findings(), 1);
}

/* --- submit time ------------------------------------------------------------------------------- */

#define QUEUE_A ((VkQueue)0xa1)
#define QUEUE_B ((VkQueue)0xb1)

/* A batch as validate_submit hands it on: numbered and ordered by the queue model, then checked. */
static void submit_batch(VkQueue queue, const struct queue_batch *batch)
{
    struct progress_batch ordered;
    progress_submit(&device, queue, batch, &ordered);
    hazard_submit_batch(&device, &ordered, batch);
}

/* Waits, as the wait validators hand them on. */
static void device_idle(void)
{
    progress_device_idle(&device);
    hazard_retire_completed(&device);
}

static void fence_waited(VkFence f)
{
    progress_fence_waited(&device, f);
    hazard_retire_completed(&device);
}

static void submit_waiting_at(VkQueue queue, struct command_buffer_state *c, VkSemaphore wait, uint64_t wait_stages,
                              VkSemaphore signal, VkFence fence)
{
    hazard_end(c);
    struct command_buffer_state *list[1] = {c};
    struct semaphore_op w = {wait, 0, wait_stages}, s = {signal, 0, 0};
    struct queue_batch batch = {.waits = &w,
                                .wait_count = wait ? 1 : 0,
                                .command_buffers = list,
                                .command_buffer_count = 1,
                                .signals = &s,
                                .signal_count = signal ? 1 : 0,
                                .fence = fence};
    submit_batch(queue, &batch);
}

static void submit(VkQueue queue, struct command_buffer_state *c, VkSemaphore wait, VkSemaphore signal, VkFence fence)
{
    submit_waiting_at(queue, c, wait, COMPUTE, signal, fence);
}

static void submit_signal_value(VkQueue queue, struct command_buffer_state *c, VkSemaphore signal, uint64_t value)
{
    hazard_end(c);
    struct command_buffer_state *list[1] = {c};
    struct semaphore_op s = {signal, value, 0};
    struct queue_batch batch = {.command_buffers = list, .command_buffer_count = 1, .signals = &s, .signal_count = 1};
    submit_batch(queue, &batch);
}

static void submit_wait_value(VkQueue queue, struct command_buffer_state *c, VkSemaphore wait, uint64_t value)
{
    hazard_end(c);
    struct command_buffer_state *list[1] = {c};
    struct semaphore_op w = {wait, value, COMPUTE};
    struct queue_batch batch = {.waits = &w, .wait_count = 1, .command_buffers = list, .command_buffer_count = 1};
    submit_batch(queue, &batch);
}

static void submit_time_read_after_write_across_command_buffers(void **state)
{
    (void)state;
    access_in(&cb, 3, 0, 4096, TRANSFER, TRANSFER_WRITE, true);
    access_in(&cb2, 3, 0, 4096, COMPUTE, SHADER_READ, false);
    submit(QUEUE_A, &cb, VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE);
    assert_int_equal(all_findings(), 0);
    submit(QUEUE_A, &cb2, VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE);
    assert_int_equal(findings("PREFLIGHT-hazard-read-after-write"), 1);
}

static void submit_time_barriers_of_either_command_buffer_count(void **state)
{
    (void)state;
    /* the barrier at the end of the writer's command buffer */
    access_in(&cb, 3, 0, 4096, TRANSFER, TRANSFER_WRITE, true);
    struct hazard_memory_barrier m = {.global = true, .src_access = TRANSFER_WRITE, .dst_access = SHADER_READ};
    hazard_barrier(&cb, TRANSFER, COMPUTE, &m, 1);
    access_in(&cb2, 3, 0, 4096, COMPUTE, SHADER_READ, false);
    submit(QUEUE_A, &cb, VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE);
    submit(QUEUE_A, &cb2, VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE);
    assert_int_equal(all_findings(), 0);
    /* a third command buffer writes again with no barrier: the second one's read is not ordered
     * before it (a write after reads is checked against the reads) */
    access_in(&cb3, 3, 0, 4096, TRANSFER, TRANSFER_WRITE, true);
    submit(QUEUE_A, &cb3, VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE);
    assert_int_equal(findings("PREFLIGHT-hazard-write-after-read"), 1);
    /* the barrier at the start of the reader's command buffer, before its first access */
    device_idle();
    hazard_reset(&cb);
    hazard_reset(&cb2);
    access_in(&cb, 3, 0, 4096, TRANSFER, TRANSFER_WRITE, true);
    hazard_barrier(&cb2, TRANSFER, COMPUTE, &m, 1);
    access_in(&cb2, 3, 0, 4096, COMPUTE, SHADER_READ, false);
    submit(QUEUE_A, &cb, VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE);
    submit(QUEUE_A, &cb2, VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE);
    assert_int_equal(all_findings(), 1);
    /* after the access it is too late */
    device_idle();
    hazard_reset(&cb);
    hazard_reset(&cb2);
    access_in(&cb, 3, 0, 4096, TRANSFER, TRANSFER_WRITE, true);
    access_in(&cb2, 3, 0, 4096, COMPUTE, SHADER_READ, false);
    hazard_barrier(&cb2, TRANSFER, COMPUTE, &m, 1);
    submit(QUEUE_A, &cb, VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE);
    submit(QUEUE_A, &cb2, VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE);
    assert_int_equal(findings("PREFLIGHT-hazard-read-after-write"), 1);
}

static void submit_time_semaphores_and_queues(void **state)
{
    (void)state;
    /* another queue, no semaphore: the read is not ordered after the write */
    access_in(&cb, 3, 0, 4096, TRANSFER, TRANSFER_WRITE, true);
    access_in(&cb2, 3, 0, 4096, COMPUTE, SHADER_READ, false);
    submit(QUEUE_A, &cb, VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE);
    submit(QUEUE_B, &cb2, VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE);
    assert_int_equal(findings("PREFLIGHT-hazard-read-after-write"), 1);
    /* a semaphore signaled after the write and waited before the read orders them */
    access_in(&cb3, 1, 0, 4096, TRANSFER, TRANSFER_WRITE, true);
    submit(QUEUE_A, &cb3, VK_NULL_HANDLE, (VkSemaphore)0x5e, VK_NULL_HANDLE);
    hazard_reset(&cb2);
    access_in(&cb2, 1, 0, 4096, COMPUTE, SHADER_READ, false);
    submit(QUEUE_B, &cb2, (VkSemaphore)0x5e, VK_NULL_HANDLE, VK_NULL_HANDLE);
    assert_int_equal(all_findings(), 1);
    /* a wait whose stage mask misses the reader's stage orders nothing for it... */
    device_idle();
    hazard_reset(&cb);
    hazard_reset(&cb2);
    access_in(&cb, 2, 0, 2048, TRANSFER, TRANSFER_WRITE, true);
    submit(QUEUE_A, &cb, VK_NULL_HANDLE, (VkSemaphore)0x5f, VK_NULL_HANDLE);
    access_in(&cb2, 2, 0, 2048, COMPUTE, SHADER_READ, false);
    submit_waiting_at(QUEUE_B, &cb2, (VkSemaphore)0x5f, TRANSFER, VK_NULL_HANDLE, VK_NULL_HANDLE);
    assert_int_equal(findings("PREFLIGHT-hazard-read-after-write"), 2);
    /* ...unless a barrier on the waiting queue chains from the wait's stages to it */
    device_idle();
    hazard_reset(&cb);
    hazard_reset(&cb2);
    access_in(&cb, 2, 0, 2048, TRANSFER, TRANSFER_WRITE, true);
    submit(QUEUE_A, &cb, VK_NULL_HANDLE, (VkSemaphore)0x5f, VK_NULL_HANDLE);
    struct hazard_memory_barrier m = {.global = true, .src_access = 0, .dst_access = SHADER_READ};
    hazard_barrier(&cb2, TRANSFER, COMPUTE, &m, 1);
    access_in(&cb2, 2, 0, 2048, COMPUTE, SHADER_READ, false);
    submit_waiting_at(QUEUE_B, &cb2, (VkSemaphore)0x5f, TRANSFER, VK_NULL_HANDLE, VK_NULL_HANDLE);
    assert_int_equal(all_findings(), 2);
    /* an execution-only barrier orders the read but makes nothing visible to it */
    device_idle();
    hazard_reset(&cb);
    hazard_reset(&cb2);
    access_in(&cb, 2, 0, 2048, TRANSFER, TRANSFER_WRITE, true);
    submit(QUEUE_A, &cb, VK_NULL_HANDLE, (VkSemaphore)0x5f, VK_NULL_HANDLE);
    hazard_barrier(&cb2, TRANSFER, COMPUTE, NULL, 0);
    access_in(&cb2, 2, 0, 2048, COMPUTE, SHADER_READ, false);
    submit_waiting_at(QUEUE_B, &cb2, (VkSemaphore)0x5f, TRANSFER, VK_NULL_HANDLE, VK_NULL_HANDLE);
    assert_int_equal(findings("PREFLIGHT-hazard-read-after-write"), 3);
    /* the layout transition of a queue family ownership acquire is ordered by the release before the
     * signal, whatever its first scope (written with TOP_OF_PIPE) */
    device_idle();
    hazard_reset(&cb);
    hazard_reset(&cb2);
    struct hazard_accesses image_write = {.count = 1};
    assert_true(access_image_range(&device, 0x300, VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1, &image_write.a[0]));
    image_write.a[0].stages = COMPUTE;
    image_write.a[0].access = SHADER_WRITE;
    image_write.a[0].write = true;
    hazard_command(&device, &cb2, &image_write, "release");
    submit(QUEUE_A, &cb2, VK_NULL_HANDLE, (VkSemaphore)0x5e, VK_NULL_HANDLE);
    ownership_transition_from(TOP, 0, COMPUTE, SHADER_READ, true); /* the acquire, in cb */
    submit(QUEUE_B, &cb, (VkSemaphore)0x5e, VK_NULL_HANDLE, VK_NULL_HANDLE);
    assert_int_equal(all_findings(), 3);
    /* any other transition from TOP_OF_PIPE chains to no wait: it races with the other queue */
    device_idle();
    hazard_reset(&cb);
    hazard_reset(&cb2);
    hazard_command(&device, &cb2, &image_write, "writer");
    submit(QUEUE_A, &cb2, VK_NULL_HANDLE, (VkSemaphore)0x5e, VK_NULL_HANDLE);
    transition_from(TOP, 0, COMPUTE, SHADER_READ);
    submit_waiting_at(QUEUE_B, &cb, (VkSemaphore)0x5e, TOP, VK_NULL_HANDLE, VK_NULL_HANDLE);
    assert_int_equal(findings("PREFLIGHT-hazard-write-after-write"), 1);
    assert_int_equal(all_findings(), 4);
    /* and on one queue, a semaphore pair is a full dependency */
    device_idle();
    hazard_reset(&cb);
    access_in(&cb, 2, 0, 4096, COMPUTE, SHADER_WRITE, true);
    submit(QUEUE_A, &cb, VK_NULL_HANDLE, (VkSemaphore)0x5e, VK_NULL_HANDLE);
    hazard_reset(&cb3);
    access_in(&cb3, 2, 0, 4096, COMPUTE, SHADER_READ, false);
    submit(QUEUE_A, &cb3, (VkSemaphore)0x5e, VK_NULL_HANDLE, VK_NULL_HANDLE);
    assert_int_equal(all_findings(), 4);
    /* ...into the wait's stages: a wait at TOP_OF_PIPE makes nothing visible, and a transition
     * from TOP_OF_PIPE after it chains to nothing */
    device_idle();
    hazard_reset(&cb);
    hazard_reset(&cb2);
    hazard_command(&device, &cb2, &image_write, "upload");
    submit(QUEUE_A, &cb2, VK_NULL_HANDLE, (VkSemaphore)0x5e, VK_NULL_HANDLE);
    transition_from(TOP, 0, COMPUTE, SHADER_READ);
    submit_waiting_at(QUEUE_A, &cb, (VkSemaphore)0x5e, TOP, VK_NULL_HANDLE, VK_NULL_HANDLE);
    assert_int_equal(findings("PREFLIGHT-hazard-write-after-write"), 2);
}

/* Timeline waits: satisfied by the first signal that reaches the value, and only by it and the
 * signals before it. */
static void timeline_waits(void **state)
{
    (void)state;
    /* a wait for 1 whose only signal is 2 is ordered after that signal */
    access_in(&cb, 3, 0, 4096, TRANSFER, TRANSFER_WRITE, true);
    submit_signal_value(QUEUE_A, &cb, (VkSemaphore)0x7e, 2);
    access_in(&cb2, 3, 0, 4096, COMPUTE, SHADER_READ, false);
    submit_wait_value(QUEUE_B, &cb2, (VkSemaphore)0x7e, 1);
    assert_int_equal(all_findings(), 0);
    /* a stale wait: 3 reached by an earlier signal does not order after the later signal of 4 */
    device_idle();
    hazard_reset(&cb);
    hazard_reset(&cb2);
    hazard_reset(&cb3);
    submit_signal_value(QUEUE_A, &cb3, (VkSemaphore)0x7e, 3);
    access_in(&cb, 3, 0, 4096, TRANSFER, TRANSFER_WRITE, true);
    submit_signal_value(QUEUE_A, &cb, (VkSemaphore)0x7e, 4);
    access_in(&cb2, 3, 0, 4096, COMPUTE, SHADER_READ, false);
    submit_wait_value(QUEUE_B, &cb2, (VkSemaphore)0x7e, 3);
    assert_int_equal(findings("PREFLIGHT-hazard-read-after-write"), 1);
    /* a wait submitted before its signal: the signaling queue's earlier work comes first */
    device_idle();
    hazard_reset(&cb);
    hazard_reset(&cb2);
    access_in(&cb2, 1, 0, 4096, COMPUTE, SHADER_READ, false);
    submit_wait_value(QUEUE_B, &cb2, (VkSemaphore)0x7e, 9);
    access_in(&cb, 1, 0, 4096, TRANSFER, TRANSFER_WRITE, true);
    submit_signal_value(QUEUE_A, &cb, (VkSemaphore)0x7e, 9);
    assert_int_equal(all_findings(), 1);
}

/* Layout transitions on one queue are ordered among themselves (a render pass's after a barrier's). */
static void layout_transitions_are_ordered_among_themselves(void **state)
{
    (void)state;
    transition_from(COMPUTE, 0, COMPUTE, SHADER_READ);
    transition_from(TOP, 0, COMPUTE, SHADER_READ);
    assert_int_equal(all_findings(), 0);
}

/* 3D images are tracked by depth slice: copies into different slices do not overlap. */
static void three_d_images_by_slice(void **state)
{
    (void)state;
    struct hazard_accesses copy = {.count = 1};
    assert_true(access_image_region(&device, 0x301, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1, 0, 1, &copy.a[0]));
    copy.a[0].stages = TRANSFER;
    copy.a[0].access = TRANSFER_WRITE;
    copy.a[0].write = true;
    hazard_command(&device, &cb, &copy, "vkCmdCopyBufferToImage");
    cb.command_index++;
    assert_true(access_image_region(&device, 0x301, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1, 1, 3, &copy.a[0]));
    hazard_command(&device, &cb, &copy, "vkCmdCopyBufferToImage");
    cb.command_index++;
    assert_int_equal(all_findings(), 0);
    /* level 1 has 4 slices; a barrier's range (one "layer") covers all of them */
    assert_true(access_image_region(&device, 0x301, VK_IMAGE_ASPECT_COLOR_BIT, 1, 0, 1, 2, 0, &copy.a[0]));
    assert_int_equal(copy.a[0].layer_begin, 2);
    assert_int_equal(copy.a[0].layer_end, 4);
    assert_true(access_image_range(&device, 0x301, VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1, &copy.a[0]));
    assert_int_equal(copy.a[0].layer_end, 8);
    hazard_command(&device, &cb, &copy, "vkCmdClearColorImage");
    assert_int_equal(findings("PREFLIGHT-hazard-write-after-write"), 2);
}

/* The planes of a multi-planar image are separate memory: each is a run of layers of its own
 * (plane p's layer l is p * arrayLayers + l); COLOR names every plane. */
static void multi_planar_images_by_plane(void **state)
{
    (void)state;
    struct hazard_access a;
    assert_true(access_image_range(&device, 0x302, VK_IMAGE_ASPECT_PLANE_1_BIT, 0, 1, 1, 1, &a));
    assert_int_equal(a.layer_begin, 3);
    assert_int_equal(a.layer_end, 4);
    assert_true(access_image_range(&device, 0x302, VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 2, &a));
    assert_int_equal(a.layer_begin, 0);
    assert_int_equal(a.layer_end, 6);
    /* planes 1 and 2, layer 0 only: a superset (plane 1's layer 1 too) */
    assert_true(
        access_image_range(&device, 0x302, VK_IMAGE_ASPECT_PLANE_1_BIT | VK_IMAGE_ASPECT_PLANE_2_BIT, 0, 1, 0, 1, &a));
    assert_int_equal(a.layer_begin, 2);
    assert_int_equal(a.layer_end, 5);
    /* render-pass stores into plane 0 and then plane 1, no barrier: no conflict; plane 1 again: WAW */
    struct hazard_accesses store = {.count = 1};
    for (uint32_t plane = 0; plane < 3; ++plane) {
        assert_true(access_image_range(&device, 0x302, VK_IMAGE_ASPECT_PLANE_0_BIT << (plane ? 1 : 0), 0, 1, 0, 1,
                                       &store.a[0]));
        store.a[0].stages = STAGE_COLOR_ATTACHMENT_OUTPUT;
        store.a[0].access = HAZARD_ACCESS_COLOR_WRITE;
        store.a[0].write = true;
        hazard_command(&device, &cb, &store, "vkCmdEndRenderPass");
        cb.command_index++;
        assert_int_equal(findings("PREFLIGHT-hazard-write-after-write"), plane < 2 ? 0 : 1);
    }
}

static void submit_time_fences_retire_work(void **state)
{
    (void)state;
    access_in(&cb, 3, 0, 4096, TRANSFER, TRANSFER_WRITE, true);
    submit(QUEUE_A, &cb, VK_NULL_HANDLE, VK_NULL_HANDLE, (VkFence)0xf1);
    fence_waited((VkFence)0xf1);
    access_in(&cb2, 3, 0, 4096, COMPUTE, SHADER_READ, false);
    submit(QUEUE_B, &cb2, VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE); /* even on another queue */
    assert_int_equal(all_findings(), 0);
    hazard_reset(&cb);
    access_in(&cb, 3, 0, 4096, TRANSFER, TRANSFER_WRITE, true); /* WAR with cb2's read on queue B */
    submit(QUEUE_A, &cb, VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE);
    assert_int_equal(findings("PREFLIGHT-hazard-write-after-read"), 1);
    device_idle();
    hazard_reset(&cb3);
    access_in(&cb3, 3, 0, 4096, COMPUTE, SHADER_READ, false);
    submit(QUEUE_B, &cb3, VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE);
    assert_int_equal(all_findings(), 1);
}

/* Completion spreads along semaphores: the fence of a batch that waited for another queue's signal
 * completes the signaling batch too, whose write is then no longer pending for the host checks
 * (and, as no barrier made it visible to the host, is an unseen write). */
static void a_fence_completes_what_its_batch_waited_for(void **state)
{
    (void)state;
    access_in(&cb, 3, 0, 4096, TRANSFER, TRANSFER_WRITE, true);
    submit(QUEUE_A, &cb, VK_NULL_HANDLE, (VkSemaphore)0x5e, VK_NULL_HANDLE);
    submit(QUEUE_B, &cb2, (VkSemaphore)0x5e, VK_NULL_HANDLE, (VkFence)0xf1);
    struct hazard_pending pending;
    assert_true(hazard_pending_use(&device, 0x200, 0, 4096, 1, true, &pending));
    struct unseen_write unseen;
    assert_false(unseen_write_take(&device, 0x200, 0, 4096, &unseen));
    fence_waited((VkFence)0xf1);
    assert_false(hazard_pending_use(&device, 0x200, 0, 4096, 1, true, &pending));
    assert_true(unseen_write_take(&device, 0x200, 0, 4096, &unseen));
    assert_int_equal(all_findings(), 0);
}

/* Completion does not spread through the presentation engine: the fence of a batch that waited
 * for an acquire's semaphore does not complete the engine's reads of other images before it, so
 * a later transition of a presented image at a stage the next acquire's wait misses still meets
 * the engine's read (as swapchain programs mpv and gst-vulkansink show). */
static void a_fence_after_an_acquire_does_not_complete_the_presents(void **state)
{
    (void)state;
    struct hazard_access presented;
    assert_true(access_image_range(&device, 0x300, VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1, &presented));
    struct progress_batch ordered;
    progress_present(&device, QUEUE_A, NULL, 0, &ordered); /* the engine reads image 0x300 */
    hazard_present(&device, &ordered, &presented, 1);
    progress_acquired(&device, (VkSemaphore)0x5e, VK_NULL_HANDLE);
    submit(QUEUE_A, &cb2, (VkSemaphore)0x5e, VK_NULL_HANDLE, (VkFence)0xf1);
    fence_waited((VkFence)0xf1);
    progress_acquired(&device, (VkSemaphore)0x5f, VK_NULL_HANDLE);
    transition_from(TOP, 0, COMPUTE, SHADER_READ); /* from TOP_OF_PIPE: chained to no wait */
    submit(QUEUE_A, &cb, (VkSemaphore)0x5f, VK_NULL_HANDLE, VK_NULL_HANDLE);
    assert_int_equal(findings("PREFLIGHT-hazard-write-after-read"), 1);
}

static void many_barriers_stay_bounded(void **state)
{
    (void)state;
    /* one long recording: the barrier log is capped, past the cap it starts over without findings */
    for (int i = 0; i < HAZARD_MAX_LOGGED_BARRIERS + 10; ++i) {
        access_in(&cb, 3, 0, 4096, COMPUTE, SHADER_WRITE, true);
        barrier(COMPUTE, COMPUTE, SHADER_WRITE, SHADER_READ | SHADER_WRITE);
    }
    assert_int_equal(all_findings(), 0);
    struct hazard_tracker *t = cb.hazards;
    assert_true(t->barrier_count <= HAZARD_MAX_LOGGED_BARRIERS);
    assert_true(t->count <= 1);
    /* many submissions of it on one queue: the queue's log is compacted */
    for (int i = 0; i < 100; ++i)
        submit(QUEUE_A, &cb, VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE);
    assert_int_equal(all_findings(), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(read_after_write_needs_a_barrier, setup, teardown),
        cmocka_unit_test_setup_teardown(a_full_barrier_covers_read_after_write, setup, teardown),
        cmocka_unit_test_setup_teardown(repeated_barriers_apply_after_each_access, setup, teardown),
        cmocka_unit_test_setup_teardown(execution_only_barrier_is_not_enough_after_a_write, setup, teardown),
        cmocka_unit_test_setup_teardown(write_after_read_needs_only_execution, setup, teardown),
        cmocka_unit_test_setup_teardown(a_fifth_reader_does_not_hide_write_after_read, setup, teardown),
        cmocka_unit_test_setup_teardown(wrong_stages_do_not_cover, setup, teardown),
        cmocka_unit_test_setup_teardown(top_and_bottom_of_pipe_per_scope, setup, teardown),
        cmocka_unit_test_setup_teardown(dependency_chains, setup, teardown),
        cmocka_unit_test_setup_teardown(access_scopes_hold_only_the_stages_named, setup, teardown),
        cmocka_unit_test_setup_teardown(timeline_waits, setup, teardown),
        cmocka_unit_test_setup_teardown(layout_transitions_are_ordered_among_themselves, setup, teardown),
        cmocka_unit_test_setup_teardown(three_d_images_by_slice, setup, teardown),
        cmocka_unit_test_setup_teardown(memory_not_handles, setup, teardown),
        cmocka_unit_test_setup_teardown(buffer_barrier_covers_only_its_range, setup, teardown),
        cmocka_unit_test_setup_teardown(a_barrier_over_part_of_a_range_covers_only_that_part, setup, teardown),
        cmocka_unit_test_setup_teardown(a_write_replaces_the_uses_of_what_it_covers, setup, teardown),
        cmocka_unit_test_setup_teardown(forget_and_write_after_write, setup, teardown),
        cmocka_unit_test_setup_teardown(image_subresources_and_layout_transitions, setup, teardown),
        cmocka_unit_test_setup_teardown(write_after_write_needs_a_memory_dependency, setup, teardown),
        cmocka_unit_test_setup_teardown(store_at_an_earlier_command_follows_the_commands_since, setup, teardown),
        cmocka_unit_test_setup_teardown(submit_time_read_after_write_across_command_buffers, setup, teardown),
        cmocka_unit_test_setup_teardown(submit_time_barriers_of_either_command_buffer_count, setup, teardown),
        cmocka_unit_test_setup_teardown(submit_time_semaphores_and_queues, setup, teardown),
        cmocka_unit_test_setup_teardown(multi_planar_images_by_plane, setup, teardown),
        cmocka_unit_test_setup_teardown(submit_time_fences_retire_work, setup, teardown),
        cmocka_unit_test_setup_teardown(a_fence_completes_what_its_batch_waited_for, setup, teardown),
        cmocka_unit_test_setup_teardown(a_fence_after_an_acquire_does_not_complete_the_presents, setup, teardown),
        cmocka_unit_test_setup_teardown(many_barriers_stay_bounded, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
