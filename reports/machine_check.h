/* `preflight-report machine-check`: whether a report's devices are the ones a farm machine is
 * configured to have (machine_config.h); what preflight-farm-run --machine runs after the probe. */
#ifndef PREFLIGHT_REPORTS_MACHINE_CHECK_H
#define PREFLIGHT_REPORTS_MACHINE_CHECK_H

extern const char machine_check_help[];

/* The command's arguments after "machine-check"; returns its exit code: 0 the devices are the
 * configured ones, 1 they differ, 2 bad usage, 3 a malformed configuration or report, 4 the output
 * could not be written. */
int machine_check_command(int argc, char **argv);

#endif
