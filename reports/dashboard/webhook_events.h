/* Which uploads are webhook events (issue 43 item 6), decided inside the upload's transaction by
 * comparing the derived tables before and after its rows are written (ingest.h's observer):
 *   regression          a (device, driver) with tests regressed that were not regressed before
 *                       (one event per (device, driver) and upload, listing the new tests; a
 *                       flaky test is no regression, fleet_verdict.h);
 *   unexpected-failure  with --expectations: a test failing on this upload that no entry excuses
 *                       and that had not failed on this (device, driver) before;
 *   lost-gpu            a machine whose newest run has no Vulkan device, where its run before had.
 * Each goes to the outbox (webhook.h). */
#ifndef PREFLIGHT_DASHBOARD_WEBHOOK_EVENTS_H
#define PREFLIGHT_DASHBOARD_WEBHOOK_EVENTS_H

#include "expectations.h"
#include "ingest.h"

struct webhook_events_config {
    const struct expectations *expectations; /* NULL: no unexpected-failure events */
    const char *public_url;                  /* links in the events ("" or NULL: none) */
};

/* The observer to pass in ingest_source; `config` must outlive the uploads. */
struct ingest_observer webhook_events_observer(const struct webhook_events_config *config);

#endif
