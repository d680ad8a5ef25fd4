/* GPU timing for evidence: timestamp queries around measured work, read back in nanoseconds.
 * A test records the same work several times (a sample per pair of timestamps) and reports the
 * median, at a baseline and with the feature; the runner runs such tests alone (SMOKE_RUNS_ALONE)
 * so no other test's work lands between the timestamps. */
#ifndef PREFLIGHT_SMOKE_TIMING_H
#define PREFLIGHT_SMOKE_TIMING_H

#include <stdbool.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "gpu.h"

#define TIMING_MAX_SAMPLES 32

struct gpu_timing {
    VkQueryPool pool;      /* VK_NULL_HANDLE when the queue cannot time */
    uint32_t samples;      /* timestamp pairs */
    double period_ns;      /* timestampPeriod */
    uint64_t mask;         /* timestampValidBits */
    char unavailable[160]; /* why not, when pool is null */
};

/* A pool for `samples` pairs on the gpu's queue; false (and `unavailable` says why) when the
 * queue family has no valid timestamp bits. Not a failure of the test. */
bool timing_create(struct gpu *gpu, struct gpu_timing *t, uint32_t samples);
/* Recorded before the first sample in the command buffer. */
void timing_reset(struct gpu *gpu, const struct gpu_timing *t);
void timing_begin(struct gpu *gpu, const struct gpu_timing *t, uint32_t sample);
void timing_end(struct gpu *gpu, const struct gpu_timing *t, uint32_t sample);
/* After the submission completed: each sample's duration in ns; false when a read failed. */
bool timing_read(struct gpu *gpu, const struct gpu_timing *t, double *durations_ns);

double timing_median(const double *values, uint32_t count);

/* Evidence {"what", "baseline": what, "baseline_ns", "feature_ns", "ratio", "samples"} for one
 * comparison of medians; ratio is feature / baseline. */
cJSON *timing_comparison(const char *what, const char *baseline, const double *baseline_ns, const double *feature_ns,
                         uint32_t samples);

#endif
