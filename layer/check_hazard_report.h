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

/* The conflict last reported for one access: several ranges of its memory (a range split by a
 * barrier, a level tracked alone and with the others) may hold the same earlier use, which is one
 * finding, not one per range. */
struct hazard_reported {
    bool any;
    enum check_id check;
    uint64_t command_buffer;
    uint32_t command_index;
    const char *call;
};
/* True when `c` names the same earlier use and check as the last one reported; else remembers it. */
bool hazard_reported_before(struct hazard_reported *last, const struct hazard_conflict *c);

#endif
