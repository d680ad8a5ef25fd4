/* The fast power source against the energy counter on a load that switches on and off faster
 * than the counter updates: a square wave of GPU work (ON_MS busy, OFF_MS idle), and windows of
 * several lengths over it, each measured by both sources (NVML's energy counter between two of
 * its changes, the driver's 20 ms samples over the same time). Prints the error of the samples per
 * window, and of the fast source's steady figure for a constant load. Needs an NVIDIA GPU and its
 * driver's NVML; elsewhere it says so and exits 2. docs/benchmarks.md has a run.
 * Usage: power_square_wave [ON_MS OFF_MS SECONDS] (default 41 60 12); POWER_SQUARE_WAVE_DUMP=FILE
 * writes the counter's changes and the samples (time since the start in ms, joules or watts). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <volk.h>

#include "bench_spirv.h"
#include "fast_check.h"
#include "gpu.h"
#include "power.h"
#include "power_source.h"

#define MAX_SAMPLES 4096
#define MAX_EDGES 4096

struct edge {
    double at_ms, joules;
};

static double now_ms(void)
{
    return power_real_clock.now_ms();
}

static bool open_device(struct gpu *gpu, VkInstance *instance)
{
    if (volkInitialize() != VK_SUCCESS) {
        fprintf(stderr, "power_square_wave: no Vulkan loader\n");
        return false;
    }
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_1};
    VkInstanceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
    if (vkCreateInstance(&info, NULL, instance) != VK_SUCCESS) {
        fprintf(stderr, "power_square_wave: vkCreateInstance failed\n");
        return false;
    }
    volkLoadInstance(*instance);
    uint32_t count = 1;
    VkPhysicalDevice physical;
    VkResult r = vkEnumeratePhysicalDevices(*instance, &count, &physical);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || count == 0) {
        fprintf(stderr, "power_square_wave: no Vulkan device\n");
        return false;
    }
    struct gpu_options options = {0};
    return gpu_open(gpu, *instance, physical, VK_API_VERSION_1_1, &options);
}

/* Busy for about `ms`: dispatches of the spin shader, each about 1 ms, submitted and waited for. */
static void busy(struct gpu *gpu, const struct gpu_pipeline *p, uint32_t iterations, double ms)
{
    double end = now_ms() + ms;
    while (now_ms() < end) {
        gpu_begin(gpu);
        gpu_dispatch(gpu, p, 1024, 1, 1, &iterations);
        gpu_submit_and_wait(gpu);
    }
}

/* Chooses `iterations` so one dispatch takes about 1 ms. */
static uint32_t calibrate(struct gpu *gpu, const struct gpu_pipeline *p)
{
    uint32_t iterations = 1024;
    for (int round = 0; round < 12; ++round) {
        double start = now_ms();
        gpu_begin(gpu);
        gpu_dispatch(gpu, p, 1024, 1, 1, &iterations);
        gpu_submit_and_wait(gpu);
        double took = now_ms() - start;
        if (took > 0.8)
            break;
        iterations *= 2;
    }
    return iterations;
}

int main(int argc, char **argv)
{
    double on_ms = argc > 1 ? atof(argv[1]) : 41, off_ms = argc > 2 ? atof(argv[2]) : 60;
    double seconds = argc > 3 ? atof(argv[3]) : 12;
    if (!(on_ms > 0 && off_ms >= 0 && seconds > 1 && seconds < 600)) {
        fprintf(stderr, "usage: power_square_wave [ON_MS OFF_MS SECONDS]\n");
        return 2;
    }
    struct gpu gpu = {0};
    VkInstance instance = VK_NULL_HANDLE;
    if (!open_device(&gpu, &instance))
        return 2;
    struct power_device_id id;
    power_device_id_of(gpu.physical, &id);
    struct power_source source;
    char reason[768];
    if (!power_source_open(&source, &id, reason, sizeof(reason)) || source.quantity != POWER_ENERGY_JOULES ||
        source.read_samples == NULL) {
        fprintf(stderr, "power_square_wave: needs an energy counter and a sample buffer: %s\n",
                reason[0] ? reason : source.name);
        return 2;
    }
    printf("# %s\n# counter: %s\n# samples: %s\n", gpu.properties.deviceName, source.sensor, source.samples_sensor);
    VkDescriptorType storage = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    struct gpu_pipeline *p =
        gpu_pipeline_create(&gpu, bench_spirv_spin, bench_spirv_spin_size, &storage, 1, sizeof(uint32_t), NULL, 0, 0);
    struct gpu_buffer *sink = gpu_buffer_create(&gpu, 4096, 0);
    if (p == NULL || sink == NULL) {
        fprintf(stderr, "power_square_wave: the pipeline failed: %s\n", gpu.error_call);
        return 1;
    }
    gpu_bind_buffer(&gpu, p, 0, sink);
    uint32_t iterations = calibrate(&gpu, p);

    /* the square wave, with the counter polled every 0.2 ms and the buffer every 5 ms throughout */
    static struct power_sample samples[MAX_SAMPLES];
    static struct edge edges[MAX_EDGES];
    static double latency[MAX_SAMPLES]; /* per read that brought samples: read time - newest sample */
    unsigned sample_count = 0, edge_count = 0, latency_count = 0;
    char error[256];
    struct power_sample drain[256];
    while (source.read_samples(&source, drain, 256, error, sizeof(error)) == 256)
        ;
    double last_value = 0, last_read = now_ms();
    source.read(&source, &last_value, error, sizeof(error));
    double start = now_ms(), last_buffer_read = start;
    while (now_ms() - start < seconds * 1000) {
        double phase = fmod(now_ms() - start, on_ms + off_ms);
        if (phase < on_ms)
            busy(&gpu, p, iterations, 1);
        else
            power_real_clock.sleep_ms(0.2);
        double t0 = now_ms(), value;
        if (!source.read(&source, &value, error, sizeof(error))) {
            fprintf(stderr, "power_square_wave: %s\n", error);
            return 1;
        }
        double t = (t0 + now_ms()) / 2;
        if (value != last_value && edge_count < MAX_EDGES)
            edges[edge_count++] = (struct edge){.at_ms = (last_read + t) / 2, .joules = value};
        last_value = value;
        last_read = t;
        if (t - last_buffer_read >= 5 && sample_count < MAX_SAMPLES) {
            int got =
                source.read_samples(&source, samples + sample_count, MAX_SAMPLES - sample_count, error, sizeof(error));
            if (got > 0) {
                sample_count += (unsigned)got;
                latency[latency_count++] = t - samples[sample_count - 1].at_ms;
            }
            last_buffer_read = t;
        }
    }
    power_real_clock.sleep_ms(50);
    int got = source.read_samples(&source, samples + sample_count, MAX_SAMPLES - sample_count, error, sizeof(error));
    if (got > 0)
        sample_count += (unsigned)got;
    /* the samples' period: their median step */
    double period = 0;
    {
        unsigned steps = 0;
        double sum = 0;
        for (unsigned i = 1; i < sample_count; ++i)
            if (samples[i].at_ms - samples[i - 1].at_ms < 40) {
                sum += samples[i].at_ms - samples[i - 1].at_ms;
                ++steps;
            }
        period = steps ? sum / steps : 0;
    }
    printf("# square wave %.0f ms on / %.0f ms off for %.0f s: %u counter changes, %u samples, period %.2f ms\n", on_ms,
           off_ms, seconds, edge_count, sample_count, period);
    /* how late the driver publishes a sample: the age of the newest one when a read brought some */
    for (unsigned i = 1; i < latency_count; ++i)
        for (unsigned j = i; j > 0 && latency[j - 1] > latency[j]; --j) {
            double t = latency[j];
            latency[j] = latency[j - 1];
            latency[j - 1] = t;
        }
    if (latency_count > 0)
        printf("# a read that brought samples: %u reads, the newest sample %.1f ms old (median), %.1f ms (max), %.1f "
               "ms (min)\n",
               latency_count, latency[latency_count / 2], latency[latency_count - 1], latency[0]);
    const char *dump = getenv("POWER_SQUARE_WAVE_DUMP");
    if (dump != NULL) {
        FILE *f = fopen(dump, "w");
        for (unsigned i = 0; f != NULL && i < edge_count; ++i)
            fprintf(f, "edge\t%.3f\t%.4f\n", edges[i].at_ms - start, edges[i].joules);
        for (unsigned i = 0; f != NULL && i < sample_count; ++i)
            fprintf(f, "sample\t%.3f\t%.3f\n", samples[i].at_ms - start, samples[i].watts);
        if (f != NULL)
            fclose(f);
    }
    printf("window_s\twindows\tmean_error_pct\tmax_abs_error_pct\tmean_watts_counter\n");
    const double windows_s[] = {0.25, 0.5, 1.0, 1.5, 3.0};
    for (unsigned w = 0; w < sizeof(windows_s) / sizeof(windows_s[0]); ++w) {
        /* windows from one counter change to the first change at least window_s later */
        unsigned n = 0;
        double sum = 0, worst = 0, watts = 0;
        for (unsigned a = 0; a < edge_count;) {
            unsigned b = a + 1;
            while (b < edge_count && edges[b].at_ms - edges[a].at_ms < windows_s[w] * 1000)
                ++b;
            if (b >= edge_count)
                break;
            double counter = edges[b].joules - edges[a].joules, covered = 0;
            double fast = power_samples_energy(samples, sample_count, period, edges[a].at_ms, edges[b].at_ms, &covered);
            double span = edges[b].at_ms - edges[a].at_ms;
            if (counter > 0 && covered > 0.95 * span) {
                double error_pct = (fast - counter) / counter * 100;
                sum += error_pct;
                worst = fabs(error_pct) > worst ? fabs(error_pct) : worst;
                watts += counter / (span / 1000);
                ++n;
            }
            a = b;
        }
        if (n > 0)
            printf("%.2f\t%u\t%+.2f\t%.2f\t%.1f\n", windows_s[w], n, sum / n, worst, watts / n);
        else
            printf("%.2f\t0\t-\t-\t-\n", windows_s[w]);
    }
    power_source_close(&source);
    gpu_close(&gpu);
    vkDestroyInstance(instance, NULL);
    return 0;
}
