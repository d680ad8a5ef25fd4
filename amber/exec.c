/* One file's run on the device and its verdict (docs/amber.md "Verdicts"): every pipeline is made
 * first (a shader that does not compile fails the file before anything runs), then the commands run
 * in order; the file passes when every EXPECT held and nothing failed on the way. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amber.h"
#include "exec.h"

bool exec_stop(struct exec *e, enum verdict status, const char *format, ...)
{
    if (!e->stopped) {
        e->stopped = true;
        e->out->status = status;
        va_list args;
        va_start(args, format);
        vsnprintf(e->out->reason, sizeof(e->out->reason), format, args);
        va_end(args);
    }
    return false;
}

bool exec_vulkan_failed(struct exec *e)
{
    if (!gpu_failed(e->gpu))
        return false;
    if (!e->stopped) {
        e->stopped = true;
        smoke_gpu_failed(e->gpu, e->out);
    }
    return true;
}

bool exec_no_object(struct exec *e, const char *what)
{
    if (!exec_vulkan_failed(e))
        exec_stop(e, VERDICT_SKIPPED,
                  "more than %d %s (buffers, images and DRAW_RECT/DRAW_GRID vertices): beyond "
                  "preflight's limit",
                  GPU_MAX_OBJECTS, what);
    return false;
}

static void query_subgroup_sizes(struct exec *e)
{
    e->subgroup_size = (VkPhysicalDeviceSubgroupSizeControlProperties){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
    VkPhysicalDeviceProperties2 properties = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                              .pNext = &e->subgroup_size};
    if (e->gpu->api_version >= VK_API_VERSION_1_1 && vkGetPhysicalDeviceProperties2 != NULL)
        vkGetPhysicalDeviceProperties2(e->gpu->physical, &properties);
}

static bool any_timed(const struct amber_script *s)
{
    for (uint32_t i = 0; i < s->command_count; ++i)
        if (s->commands[i].timed)
            return true;
    return false;
}

static bool create_timing_pool(struct exec *e)
{
    if (!any_timed(e->script) || e->gpu->timestamp_valid_bits == 0)
        return true;
    VkQueryPoolCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
        .queryType = VK_QUERY_TYPE_TIMESTAMP,
        .queryCount = 2 * EXEC_MAX_TIMINGS,
    };
    if (!GPU_CHECK(e->gpu, vkCreateQueryPool(e->gpu->device, &info, NULL, &e->timing_pool)))
        return !exec_vulkan_failed(e);
    return true;
}

static bool allocate(struct exec *e)
{
    const struct amber_script *s = e->script;
    e->buffers = calloc(s->buffer_count + 1, sizeof(*e->buffers));
    e->pipelines = calloc(s->pipeline_count + 1, sizeof(*e->pipelines));
    e->spirv = calloc(s->shader_count + 1, sizeof(*e->spirv));
    e->samplers = calloc(s->sampler_count + 1, sizeof(*e->samplers));
    e->rect_vertices = calloc(s->command_count + 1, sizeof(*e->rect_vertices));
    e->failures = cJSON_CreateArray();
    e->timings = cJSON_CreateArray();
    if (e->buffers == NULL || e->pipelines == NULL || e->spirv == NULL || e->samplers == NULL ||
        e->rect_vertices == NULL)
        return exec_stop(e, VERDICT_FAIL, "out of memory");
    return true;
}

static void release(struct exec *e)
{
    if (e->gpu->device != VK_NULL_HANDLE)
        vkDeviceWaitIdle(e->gpu->device);
    if (e->pipelines != NULL)
        exec_destroy_pipelines(e);
    exec_destroy_resources(e);
    exec_destroy_acceleration_structures(e);
    free(e->shader_modules);
    /* buffers and images are the toolkit's: the session releases them after the test */
    free(e->buffers);
    free(e->pipelines);
    free(e->spirv);
    free(e->samplers);
    free(e->rect_vertices);
}

static void add_evidence(struct exec *e, uint32_t command_count)
{
    cJSON *evidence = e->out->evidence;
    cJSON_AddStringToObject(evidence, "file", e->file);
    cJSON *expectations = cJSON_AddObjectToObject(evidence, "expectations");
    cJSON_AddNumberToObject(expectations, "in_file", e->script->expect_count);
    cJSON_AddNumberToObject(expectations, "run", e->expectations_run);
    cJSON_AddNumberToObject(expectations, "failed", e->expectations_failed);
    cJSON_AddNumberToObject(evidence, "commands", command_count);
    cJSON_AddNumberToObject(evidence, "pipelines", e->script->pipeline_count);
    cJSON_AddItemToObject(evidence, "failures", e->failures);
    if (cJSON_GetArraySize(e->timings) > 0)
        cJSON_AddItemToObject(evidence, "timings", e->timings);
    else
        cJSON_Delete(e->timings);
}

void amber_execute(struct gpu *gpu, const struct amber_script *script, const char *file, struct smoke_outcome *out)
{
    struct exec e = {.gpu = gpu, .script = script, .file = file, .out = out};
    out->status = VERDICT_PASS;
    out->reason[0] = '\0';
    if (allocate(&e)) {
        query_subgroup_sizes(&e);
        bool ok = exec_create_samplers(&e) && create_timing_pool(&e) && exec_plan_buffers(&e) &&
                  exec_build_acceleration_structures(&e);
        for (uint32_t i = 0; ok && i < script->pipeline_count; ++i)
            ok = exec_create_pipeline(&e, i);
        if (ok && exec_run_commands(&e, 0, script->command_count))
            exec_flush(&e);
    }
    if (!e.stopped && e.expectations_failed > 0) {
        smoke_set(out, VERDICT_FAIL, "%u of %u EXPECT failed; %s", e.expectations_failed, e.expectations_run,
                  e.first_failure);
    } else if (!e.stopped && script->expect_count == 0) {
        smoke_set(out, VERDICT_PASS, "ran without error; the file has no EXPECT");
    }
    add_evidence(&e, script->command_count);
    release(&e);
}
