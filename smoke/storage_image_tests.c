/* compute.storage_image.<format>: imageStore a pattern, a barrier, imageLoad it back into a
 * buffer, and compare on the host. A format that declares STORAGE_IMAGE but returns wrong texels
 * is a `fail`; one that does not declare it is `unsupported`. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compute_tests.h"
#include "declared_query.h"
#include "smoke_spirv.h"

#define SIDE 16u

enum texel_kind { TEXEL_UNORM8, TEXEL_FLOAT16, TEXEL_FLOAT32, TEXEL_UINT32 };

struct storage_format {
    const char *format_name; /* VK_FORMAT_* as in the report */
    VkFormat format;
    uint32_t components;
    enum texel_kind kind;
    const uint32_t *store_code;
    const uint32_t *load_code;
    const size_t *store_size;
    const size_t *load_size;
};

#define FORMAT(suffix, vk, components, kind)                                                                           \
    {                                                                                                                  \
#vk, vk, components, kind, smoke_spirv_storage_image_##suffix##_store,                                         \
            smoke_spirv_storage_image_##suffix##_load, &smoke_spirv_storage_image_##suffix##_store_size,               \
            &smoke_spirv_storage_image_##suffix##_load_size                                                            \
    }

static const struct storage_format formats[] = {
    FORMAT(rgba8, VK_FORMAT_R8G8B8A8_UNORM, 4, TEXEL_UNORM8),
    FORMAT(rgba16f, VK_FORMAT_R16G16B16A16_SFLOAT, 4, TEXEL_FLOAT16),
    FORMAT(r16f, VK_FORMAT_R16_SFLOAT, 1, TEXEL_FLOAT16),
    FORMAT(r32f, VK_FORMAT_R32_SFLOAT, 1, TEXEL_FLOAT32),
    FORMAT(rgba32f, VK_FORMAT_R32G32B32A32_SFLOAT, 4, TEXEL_FLOAT32),
    FORMAT(r32ui, VK_FORMAT_R32_UINT, 1, TEXEL_UINT32),
};

static bool declares_storage_format(const cJSON *declared, const void *param, char *reason, size_t size)
{
    const struct storage_format *f = param;
    if (!compute_declares_queue(declared, param, reason, size))
        return false;
    char path[160];
    snprintf(path, sizeof(path), "formats/%s/VkFormatProperties/optimalTilingFeatures", f->format_name);
    if (!declared_flag(declared, path, "VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT"))
        return smoke_missing(reason, size, "%s does not declare VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT (optimal tiling)",
                             f->format_name);
    return true;
}

/* The pattern of storage_image_pattern.glsl, per component. */
static double expected_component(uint32_t x, uint32_t y, uint32_t c, enum texel_kind kind)
{
    if (kind == TEXEL_UINT32)
        return (double)((x + y * SIDE) * 97u + 5u);
    const double values[4] = {x / 16.0, y / 16.0, (x + y) / 32.0, 1.0};
    return values[c];
}

static double tolerance(enum texel_kind kind)
{
    switch (kind) {
    case TEXEL_UNORM8:
        return 0.5 / 255.0 + 1e-6; /* rounding to the nearest of 256 steps */
    case TEXEL_FLOAT16:
    case TEXEL_FLOAT32:
        return 1e-6; /* sixteenths are exact in both */
    case TEXEL_UINT32:
        break;
    }
    return 0;
}

static void run_storage_image(struct gpu *gpu, const void *param, struct smoke_outcome *out)
{
    const struct storage_format *f = param;
    static const VkDescriptorType store_bindings[] = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE};
    static const VkDescriptorType load_bindings[] = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                                                     VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
    struct gpu_image *image = gpu_image_create(gpu, f->format, SIDE, SIDE, VK_IMAGE_USAGE_STORAGE_BIT);
    struct gpu_buffer *texels = gpu_buffer_create(gpu, SIDE * SIDE * 4 * sizeof(uint32_t), 0xFF);
    struct gpu_pipeline *store =
        gpu_pipeline_create(gpu, f->store_code, *f->store_size, store_bindings, 1, 0, NULL, 0, 0);
    struct gpu_pipeline *load = gpu_pipeline_create(gpu, f->load_code, *f->load_size, load_bindings, 2, 0, NULL, 0, 0);
    gpu_bind_image(gpu, store, 0, image);
    gpu_bind_image(gpu, load, 0, image);
    gpu_bind_buffer(gpu, load, 1, texels);
    gpu_begin(gpu);
    gpu_image_layout(gpu, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                     0, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT);
    gpu_dispatch(gpu, store, SIDE / 8, SIDE / 8, 1, NULL);
    gpu_image_layout(gpu, image, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                     VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
    gpu_dispatch(gpu, load, SIDE / 8, SIDE / 8, 1, NULL);
    gpu_submit_and_wait(gpu);
    if (smoke_gpu_failed(gpu, out))
        return;

    const void *data = gpu_readback(gpu, texels);
    uint32_t mismatches = 0;
    for (uint32_t y = 0; y < SIDE; ++y) {
        for (uint32_t x = 0; x < SIDE; ++x) {
            for (uint32_t c = 0; c < f->components; ++c) {
                size_t at = (size_t)(y * SIDE + x) * 4 + c;
                double observed = f->kind == TEXEL_UINT32 ? ((const uint32_t *)data)[at] : ((const float *)data)[at];
                double expected = expected_component(x, y, c, f->kind);
                if (!(fabs(observed - expected) <= tolerance(f->kind))) {
                    if (mismatches == 0) {
                        cJSON *first = cJSON_AddObjectToObject(out->evidence, "first_mismatch");
                        cJSON_AddNumberToObject(first, "x", x);
                        cJSON_AddNumberToObject(first, "y", y);
                        cJSON_AddNumberToObject(first, "component", c);
                        cJSON_AddNumberToObject(first, "expected", expected);
                        cJSON_AddNumberToObject(first, "observed", observed);
                    }
                    ++mismatches;
                }
            }
        }
    }
    cJSON_AddStringToObject(out->evidence, "format", f->format_name);
    cJSON_AddNumberToObject(out->evidence, "texels", SIDE * SIDE);
    cJSON_AddNumberToObject(out->evidence, "components_checked", SIDE * SIDE * f->components);
    cJSON_AddNumberToObject(out->evidence, "mismatches", mismatches);
    if (mismatches)
        smoke_set(out, VERDICT_FAIL, "%u of %u components came back wrong from imageStore/imageLoad", mismatches,
                  SIDE * SIDE * f->components);
}

#define STORAGE_TEST(suffix, index)                                                                                    \
    {                                                                                                                  \
        "compute.storage_image." suffix, "formats", "imageStore/imageLoad round trip of a 16x16 " suffix " image",     \
            declares_storage_format, NULL, run_storage_image, &formats[index], 0                                       \
    }

const struct smoke_test storage_image_tests[] = {
    STORAGE_TEST("rgba8", 0), STORAGE_TEST("rgba16f", 1), STORAGE_TEST("r16f", 2),
    STORAGE_TEST("r32f", 3),  STORAGE_TEST("rgba32f", 4), STORAGE_TEST("r32ui", 5),
};
const size_t storage_image_test_count = sizeof(storage_image_tests) / sizeof(storage_image_tests[0]);
