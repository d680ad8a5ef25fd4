#include "matrix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_path.h"
#include "report_model.h"

/* Extensions an engine team asks about first; each one row in the "extensions" group. */
static const char *const key_extensions[] = {
    "VK_KHR_dynamic_rendering",      "VK_KHR_synchronization2",
    "VK_KHR_timeline_semaphore",     "VK_EXT_descriptor_indexing",
    "VK_KHR_buffer_device_address",  "VK_EXT_descriptor_buffer",
    "VK_KHR_fragment_shading_rate",  "VK_EXT_mesh_shader",
    "VK_KHR_acceleration_structure", "VK_KHR_ray_query",
    "VK_KHR_ray_tracing_pipeline",   "VK_EXT_subgroup_size_control",
    "VK_KHR_shader_float16_int8",    "VK_EXT_shader_atomic_float",
    "VK_KHR_shader_atomic_int64",
};

/* Limits that decide whether shaders and passes fit; each one row in the "limits" group. */
static const char *const key_limits[] = {
    "limits/maxComputeWorkGroupInvocations",
    "limits/maxComputeWorkGroupSize/0",
    "limits/maxComputeWorkGroupSize/1",
    "limits/maxComputeWorkGroupSize/2",
    "limits/maxComputeWorkGroupCount/0",
    "limits/maxComputeWorkGroupCount/1",
    "limits/maxComputeWorkGroupCount/2",
    "limits/maxComputeSharedMemorySize",
    "limits/maxPushConstantsSize",
    "limits/maxBoundDescriptorSets",
    "limits/maxPerStageDescriptorStorageBuffers",
    "limits/maxStorageBufferRange",
    "limits/maxUniformBufferRange",
    "limits/maxImageDimension2D",
    "limits/maxColorAttachments",
    "limits/maxSamplerAnisotropy",
    "limits/timestampPeriod",
    "limits/minStorageBufferOffsetAlignment",
    "limits/minUniformBufferOffsetAlignment",
    "limits/nonCoherentAtomSize",
};

const char *matrix_vendor_name(unsigned vendor_id)
{
    switch (vendor_id) {
    case 0x1002:
        return "AMD";
    case 0x10DE:
        return "NVIDIA";
    case 0x8086:
        return "Intel";
    case 0x13B5:
        return "ARM";
    case 0x5143:
        return "Qualcomm";
    case 0x1010:
        return "Imagination";
    case 0x14E4:
        return "Broadcom";
    case 0x106B:
        return "Apple";
    case 0x10005:
        return "Mesa";
    case 0x1AE0:
        return "Google";
    case 0x144D:
        return "Samsung";
    default:
        return "other";
    }
}

struct row_builder {
    struct matrix *m;
    size_t capacity;
};

static struct matrix_row *row_for(struct row_builder *b, const char *group, const char *id)
{
    for (size_t i = 0; i < b->m->row_count; ++i)
        if (strcmp(b->m->rows[i].id, id) == 0 && strcmp(b->m->rows[i].group, group) == 0)
            return &b->m->rows[i];
    if (b->m->row_count == b->capacity) {
        size_t capacity = b->capacity ? b->capacity * 2 : 64;
        struct matrix_row *rows = realloc(b->m->rows, capacity * sizeof(*rows));
        if (rows == NULL)
            return NULL;
        b->m->rows = rows;
        b->capacity = capacity;
    }
    struct matrix_row *row = &b->m->rows[b->m->row_count];
    memset(row, 0, sizeof(*row));
    row->cells = calloc(b->m->column_count ? b->m->column_count : 1, sizeof(*row->cells));
    if (row->cells == NULL)
        return NULL;
    snprintf(row->group, sizeof(row->group), "%s", group);
    snprintf(row->id, sizeof(row->id), "%s", id);
    b->m->row_count++;
    return row;
}

static void format_number(const cJSON *value, char *out, size_t size)
{
    if (cJSON_IsRaw(value))
        snprintf(out, size, "%s", value->valuestring);
    else if (cJSON_IsNumber(value))
        snprintf(out, size, "%.10g", value->valuedouble);
    else if (cJSON_IsBool(value))
        snprintf(out, size, "%s", cJSON_IsTrue(value) ? "true" : "false");
    else
        out[0] = '\0';
}

/* A feature test's signals in a line (smoke/signals.h): the count, then power's result. */
static void summarise_signals(const cJSON *evidence, char *out, size_t size)
{
    const cJSON *collected = cJSON_GetObjectItemCaseSensitive(evidence, "signals_collected");
    out[0] = '\0';
    if (!cJSON_IsNumber(collected))
        return;
    const cJSON *ratio = json_path_get(evidence, "power/ratio");
    const char *source = cJSON_GetStringValue(json_path_get(evidence, "power/source"));
    if (cJSON_IsTrue(json_path_get(evidence, "signals/power/measured")) && cJSON_IsNumber(ratio) && source != NULL)
        snprintf(out, size, "%d of 6 signals; energy per pass %.3gx the baseline's (%s, %s)", collected->valueint,
                 ratio->valuedouble, source,
                 cJSON_IsTrue(json_path_get(evidence, "power/settled")) ? "settled" : "not settled");
    else
        snprintf(out, size, "%d of 6 signals; power not measured", collected->valueint);
}

static void add_device(struct row_builder *b, const cJSON *device, size_t column)
{
    const cJSON *row_json;
    REPORT_FOR_EACH_CAPABILITY(row_json, device)
    {
        struct report_capability capability = report_capability_of(row_json);
        struct matrix_row *row = row_for(b, capability.group, capability.id);
        if (row == NULL)
            return;
        struct matrix_cell *cell = &row->cells[column];
        cell->kind = MATRIX_CELL_CAPABILITY;
        cell->declared = capability.declared;
        snprintf(cell->verified, sizeof(cell->verified), "%s", capability.verified);
        /* the smoke result behind the verdict: its reason and evidence, for the reader of a cell */
        const char *test = cJSON_GetStringValue(cJSON_GetArrayItem(capability.tests, 0));
        struct report_smoke result;
        if (test != NULL && report_smoke_find(device, test, &result)) {
            snprintf(cell->reason, sizeof(cell->reason), "%s", result.reason);
            const cJSON *evidence = result.evidence;
            summarise_signals(evidence, cell->signals, sizeof(cell->signals));
            char *printed = cJSON_GetArraySize(evidence) > 0 ? cJSON_PrintUnformatted(evidence) : NULL;
            if (printed != NULL) {
                size_t n = strlen(printed);
                if (n >= sizeof(cell->evidence)) { /* cut on a character boundary, marked */
                    n = sizeof(cell->evidence) - 5;
                    while (n > 0 && ((unsigned char)printed[n] & 0xC0) == 0x80)
                        --n;
                    snprintf(cell->evidence, sizeof(cell->evidence), "%.*s \xe2\x80\xa6", (int)n, printed);
                } else {
                    snprintf(cell->evidence, sizeof(cell->evidence), "%s", printed);
                }
            }
            free(printed);
        }
    }
    for (size_t i = 0; i < sizeof(key_extensions) / sizeof(key_extensions[0]); ++i) {
        struct matrix_row *row = row_for(b, "extensions", key_extensions[i]);
        if (row == NULL)
            return;
        row->cells[column].kind = MATRIX_CELL_CAPABILITY;
        row->cells[column].declared = report_declares_extension(device, key_extensions[i]);
    }
    const cJSON *properties =
        cJSON_GetObjectItemCaseSensitive(report_declared_properties(device), "VkPhysicalDeviceProperties");
    for (size_t i = 0; i < sizeof(key_limits) / sizeof(key_limits[0]); ++i) {
        char id[96];
        snprintf(id, sizeof(id), "%s", key_limits[i] + strlen("limits/"));
        for (char *c = id; *c; ++c)
            if (*c == '/')
                *c = '.';
        struct matrix_row *row = row_for(b, "limits", id);
        if (row == NULL)
            return;
        row->cells[column].kind = MATRIX_CELL_VALUE;
        format_number(json_path_get(properties, key_limits[i]), row->cells[column].value,
                      sizeof(row->cells[column].value));
    }
    struct matrix_row *row = row_for(b, "spec_minimums", "violations");
    if (row != NULL) {
        row->cells[column].kind = MATRIX_CELL_VALUE;
        snprintf(row->cells[column].value, sizeof(row->cells[column].value), "%d",
                 (int)report_spec_minimum_count(device));
    }
}

static bool cells_equal(const struct matrix_cell *a, const struct matrix_cell *b)
{
    return a->kind == b->kind && a->declared == b->declared && strcmp(a->verified, b->verified) == 0 &&
           strcmp(a->value, b->value) == 0;
}

struct matrix *matrix_build(cJSON *const *reports, size_t report_count)
{
    struct matrix *m = calloc(1, sizeof(*m));
    if (m == NULL)
        return NULL;
    for (size_t r = 0; r < report_count; ++r)
        m->column_count += report_device_count(reports[r]);
    m->columns = calloc(m->column_count ? m->column_count : 1, sizeof(*m->columns));
    if (m->columns == NULL) {
        free(m);
        return NULL;
    }
    struct row_builder builder = {m, 0};
    size_t column = 0;
    for (size_t r = 0; r < report_count; ++r) {
        const cJSON *device;
        REPORT_FOR_EACH_DEVICE(device, reports[r])
        {
            struct report_identity id = report_identity_of(device);
            struct matrix_column *c = &m->columns[column];
            snprintf(c->device_key, sizeof(c->device_key), "%s", id.device_key);
            snprintf(c->device_name, sizeof(c->device_name), "%s", id.device_name);
            snprintf(c->driver, sizeof(c->driver), "%s %s", id.driver_name, id.driver_version);
            snprintf(c->vendor, sizeof(c->vendor), "%s", matrix_vendor_name(id.has_vendor_id ? id.vendor_id : 0));
            const char *source = report_device_source(device);
            snprintf(c->source, sizeof(c->source), "%s", *source ? source : "probe");
            snprintf(c->created, sizeof(c->created), "%s", report_created(reports[r]));
            /* the machine: the report's "host" (preflight-probe --host-label) */
            const char *host = report_host(reports[r]);
            snprintf(c->host, sizeof(c->host), "%s", *host ? host : id.host);
            snprintf(c->os, sizeof(c->os), "%s", id.os);
            snprintf(c->kernel, sizeof(c->kernel), "%s", id.kernel);
            add_device(&builder, device, column);
            ++column;
        }
    }
    for (size_t i = 0; i < m->row_count; ++i)
        for (size_t c = 1; c < m->column_count; ++c)
            if (!cells_equal(&m->rows[i].cells[0], &m->rows[i].cells[c]))
                m->rows[i].differs = true;
    return m;
}

void matrix_free(struct matrix *m)
{
    if (m == NULL)
        return;
    for (size_t i = 0; i < m->row_count; ++i)
        free(m->rows[i].cells);
    free(m->rows);
    free(m->columns);
    free(m);
}

void matrix_cell_text(const struct matrix_cell *cell, char *out, size_t size)
{
    switch (cell->kind) {
    case MATRIX_CELL_EMPTY:
        snprintf(out, size, "-");
        break;
    case MATRIX_CELL_VALUE:
        snprintf(out, size, "%s", cell->value[0] ? cell->value : "-");
        break;
    case MATRIX_CELL_CAPABILITY:
        snprintf(out, size, "%s%s%s", cell->declared ? "yes" : "no", cell->verified[0] ? " " : "", cell->verified);
        break;
    }
}
