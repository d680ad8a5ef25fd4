/* The fast source's samples over one phase: pure logic over (time, watts) pairs, unit-tested with
 * made-up buffers. Each sample is the driver's mean power since the sample before; the driver
 * stamps it when it takes it, and the stamps jitter (8 to 31 ms apart at a nominal 20 ms on an
 * H100). So only samples whose previous sample came after the load began count (the first one
 * after it mixes idle and load); a sample with no known predecessor counts where one nominal period
 * before it lies under load. Samples arrive in batches from the driver's buffer: a batch is
 * sorted before it is taken, one seen before (or older than the newest taken) is dropped, a step
 * of more than SAMPLE_GAP_FACTOR periods is a gap (the driver skipped samples, or the buffer
 * wrapped before it was read). The window has settled, as steady.h decides it for the counter,
 * when the last STEADY_WINDOW samples vary by less than STEADY_SPREAD_LIMIT. */
#ifndef PREFLIGHT_POWER_SAMPLE_WINDOW_H
#define PREFLIGHT_POWER_SAMPLE_WINDOW_H

#include <stdbool.h>
#include <stddef.h>

#include "power_source.h"

#define SAMPLE_WINDOW_MAX 512
#define SAMPLE_GAP_FACTOR 1.75 /* a step of 35 ms at 20 ms: beyond the jitter seen, short of two periods */

struct sample_window {
    double load_start_ms;
    double period_ms; /* the buffer's period; 0 until two samples showed it */
    double newest_ms; /* the newest sample taken or skipped */
    struct power_sample taken[SAMPLE_WINDOW_MAX];
    unsigned count;
    unsigned gaps, out_of_order, partial; /* partial: samples whose period began before the load */
    double gap_ms;                        /* the time the gaps left uncovered */
};

/* `period_ms` as known before the phase (0: learnt from the samples). */
void sample_window_begin(struct sample_window *w, double load_start_ms, double period_ms);
/* A batch as the source returned it. */
void sample_window_add(struct sample_window *w, const struct power_sample *batch, unsigned n);
bool sample_window_settled(const struct sample_window *w);

struct sample_figures {
    unsigned samples;       /* the last STEADY_WINDOW, or all when fewer */
    double mean_watts;      /* their mean */
    double spread_pct;      /* their coefficient of variation */
    double uncertainty_pct; /* of mean_watts: twice the standard error of the mean, with the gaps' share */
    bool settled;
    double covered_ms; /* the time the samples taken cover */
};

/* false, with `reason`, when fewer than two samples lie wholly under load. */
bool sample_window_figures(const struct sample_window *w, double elapsed_ms, struct sample_figures *f, char *reason,
                           size_t size);

#endif
