/* SPIR-V reflection on modules compiled from GLSL at build time (tests/layer/shaders). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "layer_test_spirv.h"
#include "spirv_reflect.h"

static const struct reflect_binding *binding(const struct reflect_result *r, uint32_t set, uint32_t b)
{
    for (size_t i = 0; i < r->binding_count; ++i)
        if (r->bindings[i].set == set && r->bindings[i].binding == b)
            return &r->bindings[i];
    fail_msg("binding %u.%u missing", set, b);
    return NULL;
}

static void accesses_per_binding(void **state)
{
    (void)state;
    struct reflect_result r;
    reflect_module(layer_test_spirv_reflect_bindings, layer_test_spirv_reflect_bindings_size, "main", NULL, 0, &r);
    assert_true(r.ok);
    assert_int_equal(r.local_size[0], 8);
    assert_int_equal(r.local_size[1], 4);
    assert_int_equal(r.local_size[2], 2);
    assert_int_equal(r.workgroup_memory, 256 * 4);
    const struct reflect_binding *b = binding(&r, 0, 0); /* readonly buffer, read in a helper */
    assert_true(b->read);
    assert_false(b->written);
    assert_true(b->non_writable);
    assert_true(b->storage);
    b = binding(&r, 0, 1); /* writeonly buffer */
    assert_false(b->read);
    assert_true(b->written);
    b = binding(&r, 0, 2); /* declared, never touched: no access at all */
    assert_false(b->read);
    assert_false(b->written);
    b = binding(&r, 0, 3); /* imageStore */
    assert_int_equal(b->kind, REFLECT_IMAGE);
    assert_true(b->storage);
    assert_true(b->written);
    assert_false(b->read);
    b = binding(&r, 1, 0); /* atomicAdd: read and write */
    assert_true(b->read);
    assert_true(b->written);
    b = binding(&r, 0, 4); /* texture() */
    assert_int_equal(b->kind, REFLECT_SAMPLED_IMAGE);
    assert_true(b->read);
    assert_false(b->written);
    b = binding(&r, 0, 5); /* imageLoad */
    assert_true(b->read);
    assert_false(b->written);
    b = binding(&r, 0, 6); /* uniform block */
    assert_false(b->storage);
    assert_true(b->read);
    reflect_free(&r);
}

/* Texel buffers are images of Dim Buffer: imageStore and image atomics write their binding,
 * texelFetch and imageLoad read it; no site gives their bytes (the footprint never narrows them). */
static void texel_buffer_accesses(void **state)
{
    (void)state;
    struct reflect_result r;
    reflect_module(layer_test_spirv_texel_buffers, layer_test_spirv_texel_buffers_size, "main", NULL, 0, &r);
    assert_true(r.ok);
    const struct reflect_binding *b = binding(&r, 0, 0); /* imageStore */
    assert_int_equal(b->kind, REFLECT_IMAGE);
    assert_int_equal(b->image_dim, 5 /* SpvDimBuffer */);
    assert_true(b->storage);
    assert_true(b->written);
    assert_false(b->read);
    assert_false(b->sites_complete && b->site_count > 0);
    b = binding(&r, 0, 1); /* imageAtomicAdd */
    assert_int_equal(b->image_dim, 5);
    assert_true(b->read);
    assert_true(b->written);
    assert_false(b->sites_complete && b->site_count > 0);
    b = binding(&r, 0, 2); /* texelFetch of a utextureBuffer: a uniform texel buffer */
    assert_int_equal(b->image_dim, 5);
    assert_false(b->storage);
    assert_true(b->read);
    assert_false(b->written);
    b = binding(&r, 0, 3); /* imageLoad of a readonly imageBuffer */
    assert_true(b->storage);
    assert_true(b->read);
    assert_false(b->written);
    b = binding(&r, 0, 4); /* declared only */
    assert_false(b->read);
    assert_false(b->written);
    reflect_free(&r);
}

static void specialization_decides_sizes(void **state)
{
    (void)state;
    struct reflect_result r;
    reflect_module(layer_test_spirv_spec_sizes, layer_test_spirv_spec_sizes_size, "main", NULL, 0, &r);
    assert_true(r.ok);
    assert_int_equal(r.local_size[0], 1); /* the default of a local_size_x_id without a value */
    assert_int_equal(r.local_size[1], 2);
    assert_int_equal(r.workgroup_memory, 16 * 4 * 8 + 16 * 4); /* uvec2[N*M] + float[N], defaults */
    reflect_free(&r);

    struct reflect_specialization spec[] = {{7, 64, 4}, {8, 100, 4}, {9, 3, 4}};
    reflect_module(layer_test_spirv_spec_sizes, layer_test_spirv_spec_sizes_size, "main", spec, 3, &r);
    assert_true(r.ok);
    assert_int_equal(r.local_size[0], 64);
    assert_int_equal(r.workgroup_memory, 100 * 3 * 8 + 100 * 4); /* N*M through OpSpecConstantOp */
    reflect_free(&r);
}

static void limits_shader_with_local_size_ids(void **state)
{
    (void)state;
    struct reflect_specialization spec[] = {{0, 32, 4}, {1, 4, 4}, {2, 2, 4}, {3, 4096, 4}};
    struct reflect_result r;
    reflect_module(layer_test_spirv_limits, layer_test_spirv_limits_size, "main", spec, 4, &r);
    assert_true(r.ok);
    assert_int_equal(r.local_size[0], 32);
    assert_int_equal(r.local_size[1], 4);
    assert_int_equal(r.local_size[2], 2);
    assert_int_equal(r.workgroup_memory, 4096 * 4);
    reflect_free(&r);
}

/* Descriptor arrays: which elements constant indices reach; merging stages adds accesses. */
static void array_elements_and_merge(void **state)
{
    (void)state;
    struct reflect_result r;
    reflect_module(layer_test_spirv_alias_array, layer_test_spirv_alias_array_size, "main", NULL, 0, &r);
    assert_true(r.ok);
    const struct reflect_binding *b = binding(&r, 0, 0); /* arr[0] written, arr[1] read, arr[2] never */
    assert_int_equal(b->constant_elements, 0x3);
    assert_false(b->dynamic_index);
    assert_true(b->read);
    assert_true(b->written);
    b = binding(&r, 0, 1); /* declared, unused */
    assert_false(b->read || b->written);
    assert_int_equal(b->constant_elements, 0);

    struct reflect_result merged = {.ok = true};
    assert_true(reflect_merge(&merged, &r));
    struct reflect_result frag;
    reflect_module(layer_test_spirv_sample, layer_test_spirv_sample_size, "main", NULL, 0, &frag);
    assert_true(frag.ok);
    assert_int_equal(binding(&frag, 0, 0)->kind, REFLECT_SAMPLED_IMAGE);
    assert_true(binding(&frag, 0, 0)->read);
    assert_true(reflect_merge(&merged, &frag));
    /* set 0 binding 0 is in both: its accesses are the union */
    b = binding(&merged, 0, 0);
    assert_true(b->read);
    assert_true(b->written);
    reflect_free(&frag);
    reflect_free(&merged);
    reflect_free(&r);
}

static void bad_input_is_refused(void **state)
{
    (void)state;
    struct reflect_result r;
    reflect_module(layer_test_spirv_noop, layer_test_spirv_noop_size, "not_main", NULL, 0, &r);
    assert_false(r.ok);
    assert_non_null(strstr(r.error, "no entry point named 'not_main'"));
    reflect_free(&r);
    uint32_t garbage[64];
    for (int i = 0; i < 64; ++i)
        garbage[i] = 0x07230203u * (uint32_t)(i + 1);
    reflect_module(garbage, sizeof(garbage), "main", NULL, 0, &r);
    assert_false(r.ok);
    reflect_free(&r);
    uint32_t truncated[3] = {0x07230203u, 0x00010000u, 0};
    reflect_module(truncated, sizeof(truncated), "main", NULL, 0, &r);
    assert_false(r.ok);
    reflect_free(&r);
    /* every prefix of a real module: refused or reflected, never a crash */
    for (size_t words = 5; words < layer_test_spirv_limits_size / 4; words += 3) {
        reflect_module(layer_test_spirv_limits, words * 4, "main", NULL, 0, &r);
        reflect_free(&r);
    }
}

/* Indices followed through calls: a constant every call passes picks one element; a pushed value
 * is a run-time index. */
static void indices_through_calls(void **state)
{
    (void)state;
    struct reflect_result r;
    reflect_module(layer_test_spirv_index_through_call, layer_test_spirv_index_through_call_size, "main", NULL, 0, &r);
    assert_true(r.ok);
    const struct reflect_binding *b = binding(&r, 0, 0);
    assert_true(b->read);
    assert_int_equal(b->constant_elements, (1u << 1) | (1u << 2));
    assert_false(b->dynamic_index);
    reflect_free(&r);
    reflect_module(layer_test_spirv_runtime_index, layer_test_spirv_runtime_index_size, "main", NULL, 0, &r);
    assert_true(r.ok);
    b = binding(&r, 0, 0);
    assert_true(b->read);
    assert_true(b->dynamic_index);
    assert_int_equal(b->used_stages, 0x800); /* COMPUTE_SHADER */
    reflect_free(&r);
}

/* The work bound of a compute shader: a comparison of an invocation ID component with a push
 * constant, directly or through a local variable; none for a grid-stride loop (the index is
 * stored twice) or for shaders without such a comparison. */
static void invocation_bounds(void **state)
{
    (void)state;
    struct reflect_result r;
    reflect_module(layer_test_spirv_bounded, layer_test_spirv_bounded_size, "main", NULL, 0, &r);
    assert_true(r.ok);
    assert_true(r.bounds[0].present);
    assert_int_equal(r.bounds[0].kind, REFLECT_BOUND_GLOBAL_INVOCATION);
    assert_int_equal(r.bounds[0].offset, 4); /* `count` follows the float `scale` */
    assert_false(r.bounds[0].plus_one);
    assert_false(r.bounds[0].is_signed);
    assert_false(r.bounds[1].present);
    assert_false(r.bounds[2].present);
    reflect_free(&r);
    reflect_module(layer_test_spirv_bounded_2d, layer_test_spirv_bounded_2d_size, "main", NULL, 0, &r);
    assert_true(r.ok);
    assert_true(r.bounds[0].present);
    assert_int_equal(r.bounds[0].offset, 0);
    assert_true(r.bounds[1].present);
    assert_int_equal(r.bounds[1].offset, 4);
    assert_false(r.bounds[2].present);
    reflect_free(&r);
    reflect_module(layer_test_spirv_grid_stride, layer_test_spirv_grid_stride_size, "main", NULL, 0, &r);
    assert_true(r.ok);
    assert_false(r.bounds[0].present);
    reflect_free(&r);
    reflect_module(layer_test_spirv_alias_copy, layer_test_spirv_alias_copy_size, "main", NULL, 0, &r);
    assert_true(r.ok);
    assert_false(r.bounds[0].present || r.bounds[1].present || r.bounds[2].present);
    assert_false(r.has_bounds);
    reflect_free(&r);
    /* the same comparison with a uniform-buffer value: not traced (no guessing) */
    reflect_module(layer_test_spirv_bounded_ubo, layer_test_spirv_bounded_ubo_size, "main", NULL, 0, &r);
    assert_true(r.ok);
    assert_false(r.has_bounds);
    reflect_free(&r);
}

/* Where accesses land: alias_copy.comp's store is at dst.v[gl_GlobalInvocationID.x], in every
 * invocation. */
static void sites_of_an_elementwise_shader(void **state)
{
    (void)state;
    struct reflect_result r;
    reflect_module(layer_test_spirv_alias_copy, layer_test_spirv_alias_copy_size, "main", NULL, 0, &r);
    assert_true(r.ok);
    const struct reflect_binding *dst = binding(&r, 0, 1);
    assert_true(dst->sites_complete);
    assert_int_equal(dst->site_count, 1);
    const struct reflect_site *site = &r.sites[dst->sites_at];
    assert_true(site->write);
    assert_true(site->certain);
    assert_int_equal(site->stride, 4);
    assert_int_equal(site->width, 4);
    assert_int_equal(site->offset, 0);
    assert_true(site->index < r.expr_count);
    assert_int_equal(r.exprs[site->index].op, REFLECT_EXPR_GLOBAL_ID);
    assert_int_equal(r.exprs[site->index].value, 0);
    const struct reflect_binding *src = binding(&r, 0, 0);
    assert_int_equal(src->site_count, 1);
    assert_false(r.sites[src->sites_at].write);
    reflect_free(&r);
}

/* selected_binding.comp: the specialization constant decides which binding is written and which
 * are touched at all; the work bound's early return leaves the rest certain. */
static void specialization_decides_branches(void **state)
{
    (void)state;
    struct reflect_specialization written_3 = {0, 3, 4}, written_1 = {0, 1, 4};
    struct reflect_result r;
    reflect_module(layer_test_spirv_selected_binding, layer_test_spirv_selected_binding_size, "main", &written_3, 1,
                   &r);
    assert_true(r.ok);
    for (uint32_t b = 0; b < 3; ++b) {
        assert_true(binding(&r, 0, b)->read);
        assert_false(binding(&r, 0, b)->written);
    }
    assert_true(binding(&r, 0, 3)->written);
    assert_false(binding(&r, 0, 3)->read);
    const struct reflect_binding *out = binding(&r, 0, 3);
    assert_int_equal(out->site_count, 1);
    assert_true(r.sites[out->sites_at].certain);
    assert_true(r.bounds[0].present);
    reflect_free(&r);

    reflect_module(layer_test_spirv_selected_binding, layer_test_spirv_selected_binding_size, "main", &written_1, 1,
                   &r);
    assert_true(r.ok);
    assert_true(binding(&r, 0, 0)->read);
    assert_true(binding(&r, 0, 1)->written);
    assert_false(binding(&r, 0, 2)->read || binding(&r, 0, 2)->written);
    assert_false(binding(&r, 0, 3)->read || binding(&r, 0, 3)->written);
    reflect_free(&r);
}

/* indexed_by_data.comp: an index loaded from memory has no expression to evaluate. */
static void an_index_from_memory_is_unknown(void **state)
{
    (void)state;
    struct reflect_result r;
    reflect_module(layer_test_spirv_indexed_by_data, layer_test_spirv_indexed_by_data_size, "main", NULL, 0, &r);
    assert_true(r.ok);
    const struct reflect_binding *dst = binding(&r, 0, 1);
    assert_int_equal(dst->site_count, 1);
    const struct reflect_site *site = &r.sites[dst->sites_at];
    assert_true(site->index < r.expr_count);
    assert_int_equal(r.exprs[site->index].op, REFLECT_EXPR_AND);
    assert_int_equal(r.exprs[r.exprs[site->index].a].op, REFLECT_EXPR_UNKNOWN);
    reflect_free(&r);
}

/* A module newer than the SPIRV-Tools the layer is built with (a capability it does not know):
 * reflected all the same, the unknown instruction read as no-ops. */
static void newer_spirv_is_reflected(void **state)
{
    (void)state;
    size_t words = layer_test_spirv_noop_size / 4;
    uint32_t *code = malloc((words + 2) * 4);
    assert_non_null(code);
    memcpy(code, layer_test_spirv_noop, 5 * 4);
    code[5] = 2u << 16 | 17; /* OpCapability CooperativeMatrixKHR (6022) */
    code[6] = 6022;
    memcpy(code + 7, layer_test_spirv_noop + 5, (words - 5) * 4);
    struct reflect_result r;
    reflect_module(code, (words + 2) * 4, "main", NULL, 0, &r);
    assert_true(r.ok);
    assert_false(r.invalid);
    reflect_free(&r);
    free(code);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(accesses_per_binding),
        cmocka_unit_test(texel_buffer_accesses),
        cmocka_unit_test(indices_through_calls),
        cmocka_unit_test(invocation_bounds),
        cmocka_unit_test(specialization_decides_sizes),
        cmocka_unit_test(limits_shader_with_local_size_ids),
        cmocka_unit_test(array_elements_and_merge),
        cmocka_unit_test(bad_input_is_refused),
        cmocka_unit_test(sites_of_an_elementwise_shader),
        cmocka_unit_test(specialization_decides_branches),
        cmocka_unit_test(an_index_from_memory_is_unknown),
        cmocka_unit_test(newer_spirv_is_reflected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
