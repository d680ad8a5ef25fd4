#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool timing_create(struct gpu *gpu, struct gpu_timing *t, uint32_t samples)
{
    memset(t, 0, sizeof(*t));
    uint32_t bits = gpu->timestamp_valid_bits;
    if (bits == 0 || gpu->properties.limits.timestampPeriod <= 0) {
        snprintf(t->unavailable, sizeof(t->unavailable),
                 "queue family %u declares no timestamp bits (timestampValidBits 0)", gpu->queue_family);
        return false;
    }
    if (samples > TIMING_MAX_SAMPLES)
        samples = TIMING_MAX_SAMPLES;
    VkQueryPoolCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
        .queryType = VK_QUERY_TYPE_TIMESTAMP,
        .queryCount = samples * 2,
    };
    if (gpu->query_pool_count >= sizeof(gpu->query_pools) / sizeof(gpu->query_pools[0]) ||
        !GPU_CHECK(gpu, vkCreateQueryPool(gpu->device, &info, NULL, &t->pool))) {
        t->pool = VK_NULL_HANDLE;
        snprintf(t->unavailable, sizeof(t->unavailable), "the timestamp query pool could not be created");
        return false;
    }
    gpu->query_pools[gpu->query_pool_count++] = t->pool; /* destroyed by gpu_close */
    t->samples = samples;
    t->period_ns = gpu->properties.limits.timestampPeriod;
    t->mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    return true;
}

void timing_reset(struct gpu *gpu, const struct gpu_timing *t)
{
    if (t->pool != VK_NULL_HANDLE)
        vkCmdResetQueryPool(gpu->cmd, t->pool, 0, t->samples * 2);
}

void timing_begin(struct gpu *gpu, const struct gpu_timing *t, uint32_t sample)
{
    if (t->pool != VK_NULL_HANDLE && sample < t->samples)
        vkCmdWriteTimestamp(gpu->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, t->pool, sample * 2);
}

void timing_end(struct gpu *gpu, const struct gpu_timing *t, uint32_t sample)
{
    if (t->pool != VK_NULL_HANDLE && sample < t->samples)
        vkCmdWriteTimestamp(gpu->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, t->pool, sample * 2 + 1);
}

bool timing_read(struct gpu *gpu, const struct gpu_timing *t, double *durations_ns)
{
    if (t->pool == VK_NULL_HANDLE)
        return false;
    uint64_t stamps[TIMING_MAX_SAMPLES * 2];
    VkResult result = vkGetQueryPoolResults(gpu->device, t->pool, 0, t->samples * 2, sizeof(stamps), stamps,
                                            sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    if (!gpu_check(gpu, result, "vkGetQueryPoolResults (timestamps)"))
        return false;
    for (uint32_t i = 0; i < t->samples; ++i) {
        uint64_t ticks = ((stamps[i * 2 + 1] & t->mask) - (stamps[i * 2] & t->mask)) & t->mask;
        durations_ns[i] = (double)ticks * t->period_ns;
    }
    return true;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double timing_median(const double *values, uint32_t count)
{
    if (count == 0)
        return 0;
    double sorted[TIMING_MAX_SAMPLES];
    if (count > TIMING_MAX_SAMPLES)
        count = TIMING_MAX_SAMPLES;
    memcpy(sorted, values, count * sizeof(double));
    qsort(sorted, count, sizeof(double), by_value);
    return count % 2 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2;
}

static double rounded(double v)
{
    return (double)(long long)(v * 1000 + (v >= 0 ? 0.5 : -0.5)) / 1000.0;
}

cJSON *timing_comparison(const char *what, const char *baseline, const double *baseline_ns, const double *feature_ns,
                         uint32_t samples)
{
    cJSON *c = cJSON_CreateObject();
    double b = timing_median(baseline_ns, samples), f = timing_median(feature_ns, samples);
    cJSON_AddStringToObject(c, "what", what);
    cJSON_AddStringToObject(c, "baseline", baseline);
    cJSON_AddNumberToObject(c, "baseline_ns", rounded(b));
    cJSON_AddNumberToObject(c, "feature_ns", rounded(f));
    if (b > 0)
        cJSON_AddNumberToObject(c, "ratio", rounded(f / b));
    else
        cJSON_AddNullToObject(c, "ratio");
    cJSON_AddNumberToObject(c, "samples", samples);
    return c;
}
