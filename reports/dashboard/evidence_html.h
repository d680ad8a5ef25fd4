/* A smoke test's evidence as a person reads it, by the kind of each part, whatever the test:
 * the six signals as a row of marks, histograms as bars (a VRS test's shading rates, the requested
 * one marked), GPU timing against its baseline with the ratio, steady power when measured, the
 * artifact images inline, counters and readbacks as small tables, lists of results (rays, an
 * AmberScript test's mismatches) as tables, and the raw JSON folded away. No test id is special. */
#ifndef PREFLIGHT_DASHBOARD_EVIDENCE_HTML_H
#define PREFLIGHT_DASHBOARD_EVIDENCE_HTML_H

#include <cjson/cJSON.h>

#include "html.h"

/* `stored`: sha256 -> true for the artifacts the dashboard holds (uploaded), false for named only. */
void evidence_html(struct buf *b, const cJSON *evidence, const cJSON *stored);
/* The six signals (declared, readback, artifacts, counters, timing, power) as marks; nothing when
 * the evidence has no "signals". */
void evidence_signals_html(struct buf *b, const cJSON *evidence);

#endif
