/* Area `hazard`: the findings of the hazard tracker's conflicts, formatted here and only here
 * (the tracker finds conflicts; record time and submit time report them through this). */
#ifndef PREFLIGHT_LAYER_CHECK_HAZARD_REPORT_H
#define PREFLIGHT_LAYER_CHECK_HAZARD_REPORT_H

#include "hazard_tracker.h"

struct layer_device;
struct command_buffer_state;

/* Reports a conflict; `context` describes where the earlier use was when not in this command
 * buffer ("" otherwise). */
void hazard_report(struct layer_device *ld, struct command_buffer_state *cb, uint32_t command_index, const char *call,
                   const struct hazard_access *now, const struct hazard_range *r, const struct hazard_conflict *c,
                   const char *context);

#endif
