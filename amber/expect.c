#include "expect.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Amber's default for an EQ of floating-point values: equal within a relative 1e-6 percent. */
#define FLOAT_EQ_PERCENT 0.000001

/* snprintf for messages, where a cut at the buffer's end is fine */
__attribute__((format(printf, 3, 4))) static int say(char *out, size_t size, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    int n = vsnprintf(out, size, format, args);
    va_end(args);
    return n < 0 ? 0 : n < (int)size ? n : (int)size - 1;
}

const char *amber_comparator_name(enum amber_comparator c)
{
    static const char *const names[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
    return (unsigned)c < sizeof(names) / sizeof(names[0]) ? names[c] : "?";
}

static bool within(double observed, double expected, double tolerance, bool percent)
{
    if (isnan(observed) || isnan(expected))
        return isnan(observed) && isnan(expected);
    double difference = fabs(observed - expected);
    return difference <= (percent ? tolerance / 100.0 * fabs(expected) : tolerance);
}

/* The expected value as the segment's type holds it (a float is rounded to float, an integer
 * wrapped to its width), so 0.1 is compared with 0.1f. */
static double expected_as_stored(const struct amber_segment *s, const struct amber_number *n, bool *fits)
{
    uint8_t bytes[16] = {0};
    struct amber_segment at = *s;
    at.bit_offset = 0;
    char error[128];
    *fits = amber_encode(&at, n, bytes, error, sizeof(error));
    if (!*fits)
        return amber_number_as_double(n);
    return amber_decode(&at, bytes).value;
}

static bool compare(enum amber_comparator c, double observed, double expected)
{
    switch (c) {
    case AMBER_CMP_EQ:
        return observed == expected;
    case AMBER_CMP_NE:
        return observed != expected;
    case AMBER_CMP_LT:
        return observed < expected;
    case AMBER_CMP_LE:
        return observed <= expected;
    case AMBER_CMP_GT:
        return observed > expected;
    case AMBER_CMP_GE:
        return observed >= expected;
    }
    return false;
}

static cJSON *tolerance_json(const struct amber_tolerance *t)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "value", t->value);
    cJSON_AddBoolToObject(o, "percent", t->percent);
    return o;
}

static void describe_tolerance(char *out, size_t size, const struct amber_tolerance *t)
{
    say(out, size, " (tolerance %g%s)", t->value, t->percent ? "%" : "");
}

void amber_expect_values(const struct amber_command *c, const struct amber_buffer *b, const uint8_t *data,
                         uint64_t size, struct amber_expect_result *r)
{
    const struct amber_layout *layout = &b->layout;
    const uint64_t offset = c->values.offset;
    const uint32_t count = c->values.value_count;
    const bool tolerant = c->values.tolerance_count > 0;
    r->passed = false;
    r->evidence = cJSON_CreateObject();
    cJSON_AddStringToObject(r->evidence, "buffer", b->name);
    cJSON_AddNumberToObject(r->evidence, "byte_offset", (double)offset);
    cJSON_AddStringToObject(r->evidence, "comparison", amber_comparator_name(c->values.comparator));
    cJSON_AddNumberToObject(r->evidence, "values", count);
    if (tolerant) {
        cJSON *list = cJSON_AddArrayToObject(r->evidence, "tolerances");
        for (uint32_t i = 0; i < c->values.tolerance_count; ++i)
            cJSON_AddItemToArray(list, tolerance_json(&c->values.tolerances[i]));
    }
    const char *cmp = tolerant ? "EQ (TOLERANCE)" : amber_comparator_name(c->values.comparator);
    if (offset % layout->stride != 0) {
        say(r->summary, sizeof(r->summary),
            "EXPECT %s IDX %llu: the offset is not a multiple of the element size (%u bytes)", b->name,
            (unsigned long long)offset, layout->stride);
        return;
    }
    /* the values of an element as DATA gives them (a packed format's: the word), as Amber compares */
    struct amber_segment word;
    const struct amber_segment *inputs;
    uint32_t input_count = amber_layout_inputs(layout, &word, &inputs);
    uint64_t elements = (count + input_count - 1) / input_count;
    if (offset > size || elements > (size - offset) / layout->stride) {
        say(r->summary, sizeof(r->summary),
            "EXPECT %s IDX %llu: %u values need %llu bytes from the offset; the buffer holds %llu bytes", b->name,
            (unsigned long long)offset, count, (unsigned long long)(elements * layout->stride),
            (unsigned long long)size);
        return;
    }
    cJSON *first = cJSON_AddArrayToObject(r->evidence, "first_mismatches");
    uint32_t mismatches = 0;
    char first_text[240] = "";
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t component = i % input_count;
        uint64_t element = i / input_count;
        const struct amber_segment *s = &inputs[component];
        const uint8_t *at = data + offset + element * layout->stride;
        struct amber_value observed = amber_decode(s, at);
        bool fits;
        double expected = expected_as_stored(s, &c->values.values[i], &fits);
        bool ok;
        const struct amber_tolerance *tolerance = NULL;
        struct amber_tolerance exact = {FLOAT_EQ_PERCENT, true};
        if (tolerant) {
            uint32_t n = c->values.tolerance_count;
            tolerance = n == 1              ? &c->values.tolerances[0]
                        : component % 4 < n ? &c->values.tolerances[component % 4]
                                            : &exact;
            /* as Amber compares: a 32-bit float's expected value is first made a float (the written
             * -0.459459484 is -0.45945948362..., which the tolerance is measured from) */
            double target = amber_mode_is_float(s->mode) && s->bits == 32 && fits
                                ? expected
                                : amber_number_as_double(&c->values.values[i]);
            ok = within(observed.value, target, tolerance->value, tolerance->percent);
        } else if (observed.is_float &&
                   (c->values.comparator == AMBER_CMP_EQ || c->values.comparator == AMBER_CMP_NE)) {
            bool equal = within(observed.value, expected, FLOAT_EQ_PERCENT, true);
            ok = c->values.comparator == AMBER_CMP_EQ ? equal : !equal;
        } else if (!observed.is_float && !fits) {
            /* an expected integer the type cannot hold: never equal, ordered by its value */
            ok = compare(c->values.comparator, observed.value, amber_number_as_double(&c->values.values[i]));
        } else if (!observed.is_float &&
                   (c->values.comparator == AMBER_CMP_EQ || c->values.comparator == AMBER_CMP_NE)) {
            /* integers compare exactly, past 2^53 too */
            uint8_t bytes[16] = {0};
            struct amber_segment plain = *s;
            plain.bit_offset = 0;
            char error[64];
            amber_encode(&plain, &c->values.values[i], bytes, error, sizeof(error));
            bool equal = amber_decode(&plain, bytes).bits == observed.bits;
            ok = c->values.comparator == AMBER_CMP_EQ ? equal : !equal;
        } else {
            ok = compare(c->values.comparator, observed.value, expected);
        }
        if (ok)
            continue;
        if (mismatches++ < AMBER_EXPECT_FIRST) {
            cJSON *m = cJSON_CreateObject();
            cJSON_AddNumberToObject(m, "value_index", i);
            cJSON_AddNumberToObject(m, "element", (double)(offset / layout->stride + element));
            cJSON_AddNumberToObject(m, "component", component);
            cJSON_AddNumberToObject(m, "byte_offset", (double)(offset + element * layout->stride + s->bit_offset / 8));
            cJSON_AddNumberToObject(m, "expected", amber_number_as_double(&c->values.values[i]));
            cJSON_AddNumberToObject(m, "observed", observed.value);
            if (tolerance != NULL)
                cJSON_AddItemToObject(m, "tolerance", tolerance_json(tolerance));
            cJSON_AddItemToArray(first, m);
        }
        if (mismatches == 1) {
            char tolerance_text[64] = "";
            if (tolerance != NULL)
                describe_tolerance(tolerance_text, sizeof(tolerance_text), tolerance);
            say(first_text, sizeof(first_text),
                "first at element %llu component %u (byte %llu): expected %s %.9g, observed %.9g%s",
                (unsigned long long)(offset / layout->stride + element), component,
                (unsigned long long)(offset + element * layout->stride + s->bit_offset / 8), cmp,
                amber_number_as_double(&c->values.values[i]), observed.value, tolerance_text);
        }
    }
    cJSON_AddNumberToObject(r->evidence, "mismatches", mismatches);
    r->passed = mismatches == 0;
    if (!r->passed)
        say(r->summary, sizeof(r->summary), "EXPECT %s IDX %llu %s: %u of %u values differ; %s", b->name,
            (unsigned long long)offset, cmp, mismatches, count, first_text);
}

static bool channel_index(uint8_t channel, int *index)
{
    switch (channel) {
    case AMBER_CHANNEL_R:
        *index = 0;
        return true;
    case AMBER_CHANNEL_G:
        *index = 1;
        return true;
    case AMBER_CHANNEL_B:
        *index = 2;
        return true;
    case AMBER_CHANNEL_A:
        *index = 3;
        return true;
    default:
        return false;
    }
}

static bool normalized(const struct amber_layout *layout)
{
    for (uint32_t i = 0; i < layout->count; ++i) {
        uint8_t m = layout->segments[i].mode;
        if (m != AMBER_MODE_UNORM && m != AMBER_MODE_SNORM && m != AMBER_MODE_SRGB)
            return false;
    }
    return true;
}

void amber_expect_pixels(const struct amber_command *c, const struct amber_buffer *b, uint32_t width, uint32_t height,
                         const uint8_t *data, struct amber_expect_result *r)
{
    const struct amber_layout *layout = &b->layout;
    const int channels = c->pixels.rgba ? 4 : 3;
    const double scale = normalized(layout) ? 255.0 : 1.0;
    r->passed = false;
    r->evidence = cJSON_CreateObject();
    cJSON_AddStringToObject(r->evidence, "image", b->name);
    cJSON_AddStringToObject(r->evidence, "format", amber_format_name(layout->format));
    cJSON *rect = cJSON_AddObjectToObject(r->evidence, "rectangle");
    cJSON_AddNumberToObject(rect, "x", c->pixels.x);
    cJSON_AddNumberToObject(rect, "y", c->pixels.y);
    cJSON_AddNumberToObject(rect, "width", c->pixels.width);
    cJSON_AddNumberToObject(rect, "height", c->pixels.height);
    cJSON *expected_json = cJSON_AddArrayToObject(r->evidence, "expected");
    for (int i = 0; i < channels; ++i)
        cJSON_AddItemToArray(expected_json, cJSON_CreateNumber(c->pixels.expected[i]));
    struct amber_tolerance tolerances[4];
    for (int i = 0; i < 4; ++i) {
        uint32_t n = c->pixels.tolerance_count;
        tolerances[i] = n == 0 ? (struct amber_tolerance){AMBER_DEFAULT_PIXEL_TOLERANCE, false}
                               : c->pixels.tolerances[(uint32_t)i < n ? (uint32_t)i : 0];
    }
    cJSON *tolerance_list = cJSON_AddArrayToObject(r->evidence, "tolerance");
    for (int i = 0; i < channels; ++i)
        cJSON_AddItemToArray(tolerance_list, tolerance_json(&tolerances[i]));
    cJSON_AddStringToObject(r->evidence, "tolerance_unit",
                            "of the [0,1] range of a normalized channel, else of the value");
    if ((uint64_t)c->pixels.x + c->pixels.width > width || (uint64_t)c->pixels.y + c->pixels.height > height) {
        say(r->summary, sizeof(r->summary),
            "EXPECT %s IDX %u %u SIZE %u %u: the rectangle reaches outside the %ux%u image", b->name, c->pixels.x,
            c->pixels.y, c->pixels.width, c->pixels.height, width, height);
        return;
    }
    cJSON *first = cJSON_AddArrayToObject(r->evidence, "first_mismatches");
    uint64_t mismatches = 0;
    char first_text[240] = "";
    for (uint32_t y = c->pixels.y; y < c->pixels.y + c->pixels.height; ++y) {
        for (uint32_t x = c->pixels.x; x < c->pixels.x + c->pixels.width; ++x) {
            const uint8_t *texel = data + ((uint64_t)y * width + x) * layout->stride;
            double observed[4] = {0, 0, 0, 0};
            bool present[4] = {false}, ok = true;
            for (uint32_t k = 0; k < layout->count; ++k) {
                int ch;
                if (!channel_index(layout->segments[k].channel, &ch) || ch >= channels)
                    continue;
                observed[ch] = amber_decode_normalized(&layout->segments[k], texel);
                present[ch] = true;
                ok = ok &&
                     within(observed[ch], c->pixels.expected[ch] / 255.0, tolerances[ch].value, tolerances[ch].percent);
            }
            if (ok)
                continue;
            if (mismatches++ < AMBER_EXPECT_FIRST) {
                cJSON *m = cJSON_CreateObject();
                cJSON_AddNumberToObject(m, "x", x);
                cJSON_AddNumberToObject(m, "y", y);
                cJSON *o = cJSON_AddArrayToObject(m, "observed");
                for (int i = 0; i < channels; ++i)
                    cJSON_AddItemToArray(o, present[i] ? cJSON_CreateNumber(observed[i] * scale) : cJSON_CreateNull());
                cJSON_AddItemToArray(first, m);
            }
            if (mismatches == 1) {
                char values[96] = "";
                for (int i = 0, at = 0; i < channels; ++i)
                    at += say(values + at, sizeof(values) - (size_t)at, "%s%.6g", i ? " " : "", observed[i] * scale);
                char expected[64];
                if (c->pixels.rgba)
                    say(expected, sizeof(expected), "%g %g %g %g", c->pixels.expected[0], c->pixels.expected[1],
                        c->pixels.expected[2], c->pixels.expected[3]);
                else
                    say(expected, sizeof(expected), "%g %g %g", c->pixels.expected[0], c->pixels.expected[1],
                        c->pixels.expected[2]);
                say(first_text, sizeof(first_text),
                    "first at pixel (%u, %u): expected %s, observed %s (tolerance %g%s)", x, y, expected, values,
                    tolerances[0].value, tolerances[0].percent ? "%" : "");
            }
        }
    }
    cJSON_AddNumberToObject(r->evidence, "pixels", (double)c->pixels.width * c->pixels.height);
    cJSON_AddNumberToObject(r->evidence, "mismatches", (double)mismatches);
    cJSON_AddNumberToObject(r->evidence, "scale", scale);
    r->passed = mismatches == 0;
    if (!r->passed)
        say(r->summary, sizeof(r->summary), "EXPECT %s IDX %u %u SIZE %u %u %s: %llu of %llu pixels differ; %s",
            b->name, c->pixels.x, c->pixels.y, c->pixels.width, c->pixels.height, c->pixels.rgba ? "EQ_RGBA" : "EQ_RGB",
            (unsigned long long)mismatches, (unsigned long long)c->pixels.width * c->pixels.height, first_text);
}

static const char *buffer_comparison_name(enum amber_command_kind kind)
{
    return kind == AMBER_CMD_EXPECT_BUFFER ? "EQ_BUFFER"
           : kind == AMBER_CMD_EXPECT_RMSE ? "RMSE_BUFFER"
                                           : "EQ_HISTOGRAM_EMD_BUFFER";
}

static void compare_equal(const struct amber_command *c, const struct amber_buffer *a, const uint8_t *actual,
                          const struct amber_buffer *b, const uint8_t *reference, uint64_t elements,
                          struct amber_expect_result *r)
{
    const struct amber_layout *layout = &a->layout;
    cJSON *first = cJSON_AddArrayToObject(r->evidence, "first_mismatches");
    uint64_t mismatches = 0;
    char first_text[200] = "";
    for (uint64_t e = 0; e < elements; ++e) {
        for (uint32_t k = 0; k < layout->count; ++k) {
            const struct amber_segment *s = &layout->segments[k];
            struct amber_value x = amber_decode(s, actual + e * layout->stride);
            struct amber_value y = amber_decode(s, reference + e * layout->stride);
            if (x.bits == y.bits)
                continue;
            if (mismatches++ < AMBER_EXPECT_FIRST) {
                cJSON *m = cJSON_CreateObject();
                cJSON_AddNumberToObject(m, "element", (double)e);
                cJSON_AddNumberToObject(m, "component", k);
                cJSON_AddNumberToObject(m, "expected", y.value);
                cJSON_AddNumberToObject(m, "observed", x.value);
                cJSON_AddItemToArray(first, m);
            }
            if (mismatches == 1)
                say(first_text, sizeof(first_text), "first at element %llu component %u: %s has %.9g, %s has %.9g",
                    (unsigned long long)e, k, b->name, y.value, a->name, x.value);
        }
    }
    cJSON_AddNumberToObject(r->evidence, "mismatches", (double)mismatches);
    r->passed = mismatches == 0;
    if (!r->passed)
        say(r->summary, sizeof(r->summary), "EXPECT %s %s %s: %llu of %llu values differ; %s", a->name,
            buffer_comparison_name(c->kind), b->name, (unsigned long long)mismatches,
            (unsigned long long)elements * layout->count, first_text);
}

static void compare_rmse(const struct amber_command *c, const struct amber_buffer *a, const uint8_t *actual,
                         const struct amber_buffer *b, const uint8_t *reference, uint64_t elements,
                         struct amber_expect_result *r)
{
    const struct amber_layout *layout = &a->layout;
    double sum = 0, largest = -1;
    uint64_t values = 0, largest_element = 0;
    uint32_t largest_component = 0;
    double largest_expected = 0, largest_observed = 0;
    for (uint64_t e = 0; e < elements; ++e) {
        for (uint32_t k = 0; k < layout->count; ++k) {
            double x = amber_decode(&layout->segments[k], actual + e * layout->stride).value;
            double y = amber_decode(&layout->segments[k], reference + e * layout->stride).value;
            double d = x - y;
            sum += d * d;
            ++values;
            if (fabs(d) > largest) {
                largest = fabs(d);
                largest_element = e;
                largest_component = k;
                largest_expected = y;
                largest_observed = x;
            }
        }
    }
    double rmse = values ? sqrt(sum / (double)values) : 0.0;
    cJSON_AddNumberToObject(r->evidence, "rmse", rmse);
    cJSON_AddNumberToObject(r->evidence, "tolerance", c->compare.tolerance);
    cJSON *worst = cJSON_AddObjectToObject(r->evidence, "largest_difference");
    cJSON_AddNumberToObject(worst, "element", (double)largest_element);
    cJSON_AddNumberToObject(worst, "component", largest_component);
    cJSON_AddNumberToObject(worst, "expected", largest_expected);
    cJSON_AddNumberToObject(worst, "observed", largest_observed);
    r->passed = rmse <= c->compare.tolerance;
    if (!r->passed)
        say(r->summary, sizeof(r->summary),
            "EXPECT %s RMSE_BUFFER %s: root mean square error %.6g over %llu values is above the tolerance %g; "
            "largest difference at element %llu component %u: %s has %.9g, %s has %.9g",
            a->name, b->name, rmse, (unsigned long long)values, c->compare.tolerance,
            (unsigned long long)largest_element, largest_component, b->name, largest_expected, a->name,
            largest_observed);
}

static void compare_emd(const struct amber_command *c, const struct amber_buffer *a, const uint8_t *actual,
                        const struct amber_buffer *b, const uint8_t *reference, uint64_t elements,
                        struct amber_expect_result *r)
{
    const struct amber_layout *layout = &a->layout;
    cJSON *per_channel = cJSON_AddArrayToObject(r->evidence, "emd_per_channel");
    double worst = 0;
    uint32_t worst_channel = 0;
    for (uint32_t k = 0; k < layout->count; ++k) {
        uint64_t first[256] = {0}, second[256] = {0};
        for (uint64_t e = 0; e < elements; ++e) {
            ++first[(uint8_t)amber_decode(&layout->segments[k], actual + e * layout->stride).bits];
            ++second[(uint8_t)amber_decode(&layout->segments[k], reference + e * layout->stride).bits];
        }
        /* the earth mover's distance of two histograms of equal mass: the summed absolute running
         * difference, over the bins, normalized to [0,1] */
        double running = 0, total = 0;
        for (int bin = 0; bin < 256; ++bin) {
            running += elements ? ((double)first[bin] - (double)second[bin]) / (double)elements : 0.0;
            total += fabs(running);
        }
        double emd = total / 256.0;
        cJSON_AddItemToArray(per_channel, cJSON_CreateNumber(emd));
        if (emd > worst) {
            worst = emd;
            worst_channel = k;
        }
    }
    cJSON_AddNumberToObject(r->evidence, "emd", worst);
    cJSON_AddNumberToObject(r->evidence, "tolerance", c->compare.tolerance);
    r->passed = worst <= c->compare.tolerance;
    if (!r->passed)
        say(r->summary, sizeof(r->summary),
            "EXPECT %s EQ_HISTOGRAM_EMD_BUFFER %s: the histograms' earth mover's distance %.6g (channel %u) is "
            "above the tolerance %g",
            a->name, b->name, worst, worst_channel, c->compare.tolerance);
}

void amber_expect_buffers(const struct amber_command *c, const struct amber_buffer *actual, const uint8_t *actual_data,
                          uint64_t actual_elements, const struct amber_buffer *reference, const uint8_t *reference_data,
                          uint64_t reference_elements, struct amber_expect_result *r)
{
    r->passed = false;
    r->evidence = cJSON_CreateObject();
    cJSON_AddStringToObject(r->evidence, "buffer", actual->name);
    cJSON_AddStringToObject(r->evidence, "reference", reference->name);
    cJSON_AddStringToObject(r->evidence, "comparison", buffer_comparison_name(c->kind));
    cJSON_AddNumberToObject(r->evidence, "elements", (double)actual_elements);
    if (actual_elements != reference_elements) {
        say(r->summary, sizeof(r->summary), "EXPECT %s %s %s: %s holds %llu elements, %s holds %llu", actual->name,
            buffer_comparison_name(c->kind), reference->name, actual->name, (unsigned long long)actual_elements,
            reference->name, (unsigned long long)reference_elements);
        return;
    }
    if (c->kind == AMBER_CMD_EXPECT_BUFFER)
        compare_equal(c, actual, actual_data, reference, reference_data, actual_elements, r);
    else if (c->kind == AMBER_CMD_EXPECT_RMSE)
        compare_rmse(c, actual, actual_data, reference, reference_data, actual_elements, r);
    else
        compare_emd(c, actual, actual_data, reference, reference_data, actual_elements, r);
}
