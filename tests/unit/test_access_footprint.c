/* The bytes a dispatch's shader reaches through a buffer binding (layer/access_footprint.c), from
 * the reflection of tensor_op.comp (ggml's element-wise op in small: `dst[dst_first + x] =
 * src[x] * 2` for x below the pushed `count`) and of shaders whose places it cannot prove. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "access_footprint.h"
#include "layer_test_spirv.h"

static const struct reflect_binding *binding_of(const struct reflect_result *r, uint32_t binding)
{
    for (size_t i = 0; i < r->binding_count; ++i)
        if (r->bindings[i].binding == binding)
            return &r->bindings[i];
    fail_msg("no binding %u", binding);
    return NULL;
}

struct dispatch {
    uint32_t base[3], count[3];
    uint8_t push[256];
    struct dispatch_shape shape;
};

static void dispatch_of(struct dispatch *d, uint32_t groups, uint32_t count, uint32_t dst_first)
{
    memset(d, 0, sizeof(*d));
    d->count[0] = groups;
    d->count[1] = d->count[2] = 1;
    memcpy(d->push, &count, 4);
    memcpy(d->push + 4, &dst_first, 4);
    d->shape =
        (struct dispatch_shape){.base = d->base, .count = d->count, .push_constants = d->push, .push_valid = 0x3};
}

static void the_bytes_of_each_tensor(void **state)
{
    (void)state;
    struct reflect_result r;
    reflect_module(layer_test_spirv_tensor_op, layer_test_spirv_tensor_op_size, "main", NULL, 0, &r);
    assert_true(r.ok);
    struct dispatch d;
    uint64_t begin, end;
    /* 256 floats in 4 groups of 64: src [0, 1024), dst [0, 1024) of ranges 8192 bytes long */
    dispatch_of(&d, 4, 256, 0);
    assert_true(access_footprint_of(&r, binding_of(&r, 0), 0, 8192, &d.shape, &begin, &end));
    assert_int_equal(begin, 0);
    assert_int_equal(end, 1024);
    /* the work bound, not the dispatch's size, ends it: 5 groups for 200 elements */
    dispatch_of(&d, 5, 200, 256);
    assert_true(access_footprint_of(&r, binding_of(&r, 1), 0, 8192, &d.shape, &begin, &end));
    assert_int_equal(begin, 1024); /* from element 256 */
    assert_int_equal(end, 1024 + 800);
    /* a range shorter than what the shader would reach: clamped to it */
    assert_true(access_footprint_of(&r, binding_of(&r, 1), 0, 1500, &d.shape, &begin, &end));
    assert_int_equal(begin, 1024);
    assert_int_equal(end, 1500);
    /* nothing to do (count 0): no bytes at all */
    dispatch_of(&d, 4, 0, 0);
    assert_true(access_footprint_of(&r, binding_of(&r, 1), 0, 8192, &d.shape, &begin, &end));
    assert_int_equal(begin, end);
    /* a base group: invocations from 64 * 2 on */
    dispatch_of(&d, 2, 256, 0);
    d.base[0] = 2;
    assert_true(access_footprint_of(&r, binding_of(&r, 0), 0, 8192, &d.shape, &begin, &end));
    assert_int_equal(begin, 512);
    assert_int_equal(end, 1024);
    reflect_free(&r);
}

static void unknown_values_prove_nothing(void **state)
{
    (void)state;
    struct reflect_result r;
    reflect_module(layer_test_spirv_tensor_op, layer_test_spirv_tensor_op_size, "main", NULL, 0, &r);
    assert_true(r.ok);
    struct dispatch d;
    uint64_t begin, end;
    dispatch_of(&d, 4, 256, 0);
    d.shape.push_valid = 0x1; /* dst_first never pushed */
    assert_false(access_footprint_of(&r, binding_of(&r, 1), 0, 8192, &d.shape, &begin, &end));
    /* an indirect dispatch: no counts */
    assert_false(access_footprint_of(&r, binding_of(&r, 0), 0, 8192, NULL, &begin, &end));
    /* an offset so large the index would wrap in 32 bits */
    dispatch_of(&d, 4, 256, 0xFFFFFFF0u);
    assert_false(access_footprint_of(&r, binding_of(&r, 1), 0, 8192, &d.shape, &begin, &end));
    reflect_free(&r);
    /* an index read from memory (indexed_by_data.comp): not provable */
    reflect_module(layer_test_spirv_indexed_by_data, layer_test_spirv_indexed_by_data_size, "main", NULL, 0, &r);
    assert_true(r.ok);
    bool any_unprovable = false;
    for (size_t i = 0; i < r.binding_count; ++i)
        any_unprovable = any_unprovable || !access_footprint_of(&r, &r.bindings[i], 0, 4096, &d.shape, &begin, &end);
    assert_true(any_unprovable);
    reflect_free(&r);
}

static void accesses_narrowed_and_marked(void **state)
{
    (void)state;
    struct reflect_result r;
    reflect_module(layer_test_spirv_tensor_op, layer_test_spirv_tensor_op_size, "main", NULL, 0, &r);
    assert_true(r.ok);
    uint32_t src_index = (uint32_t)(binding_of(&r, 0) - r.bindings),
             dst_index = (uint32_t)(binding_of(&r, 1) - r.bindings);
    struct hazard_accesses in = {.count = 3};
    in.a[0] =
        (struct hazard_access){.key = 0x100, .begin = 4096, .end = 12288, .read = true, .binding_ref = src_index + 1};
    in.a[1] =
        (struct hazard_access){.key = 0x100, .begin = 0, .end = 8192, .write = true, .binding_ref = dst_index + 1};
    in.a[2] = (struct hazard_access){.key = 0x200, .begin = 0, .end = 64, .read = true}; /* no binding: kept */
    struct dispatch d;
    dispatch_of(&d, 4, 256, 16);
    struct hazard_accesses out;
    assert_true(access_footprints_narrow(&r, &d.shape, &in, &out));
    assert_int_equal(out.count, 3);
    assert_int_equal(out.a[0].begin, 4096);
    assert_int_equal(out.a[0].end, 4096 + 1024);
    assert_true(out.a[0].evaluated);
    assert_int_equal(out.a[1].begin, 64);
    assert_int_equal(out.a[1].end, 64 + 1024);
    assert_true(out.a[2].begin == 0 && out.a[2].end == 64 && !out.a[2].evaluated);
    /* a dispatch that works on nothing: its bindings are no accesses */
    dispatch_of(&d, 4, 0, 0);
    assert_true(access_footprints_narrow(&r, &d.shape, &in, &out));
    assert_int_equal(out.count, 1);
    /* no binding references at all: nothing to narrow */
    in.count = 1;
    in.a[0] = in.a[2];
    assert_false(access_footprints_narrow(&r, &d.shape, &in, &out));
    reflect_free(&r);
}

/* tile_op.comp: each workgroup's 4x4 tile through loops over rows (uint, step 1) and columns
 * (int, step 2, the element and the next written): the counters bound the tile exactly. */
static void loop_counters_bound_the_tiles(void **state)
{
    (void)state;
    struct reflect_result r;
    reflect_module(layer_test_spirv_tile_op, layer_test_spirv_tile_op_size, "main", NULL, 0, &r);
    assert_true(r.ok);
    struct dispatch d;
    uint64_t begin, end;
    dispatch_of(&d, 16, 256, 256); /* 16 tiles from element 256 */
    assert_true(binding_of(&r, 1)->sites_complete);
    assert_true(access_footprint_of(&r, binding_of(&r, 1), 0, 8192, &d.shape, &begin, &end));
    assert_int_equal(begin, 1024);
    assert_int_equal(end, 2048);
    /* the source is read at the even columns only: its last element read is 15 * 16 + 12 + 2 */
    assert_true(access_footprint_of(&r, binding_of(&r, 0), 0, 8192, &d.shape, &begin, &end));
    assert_int_equal(begin, 0);
    assert_int_equal(end, 255 * 4);
    reflect_free(&r);
    /* a counter the body moves too: its values are not bounded by the loop's condition */
    reflect_module(layer_test_spirv_loop_modified, layer_test_spirv_loop_modified_size, "main", NULL, 0, &r);
    assert_true(r.ok);
    dispatch_of(&d, 1, 4, 0);
    assert_true(binding_of(&r, 1)->written);
    assert_false(access_footprint_of(&r, binding_of(&r, 1), 0, 8192, &d.shape, &begin, &end));
    reflect_free(&r);
}

/* coop_store.spvasm: an 8x8 column-major cooperative matrix stored four times per subgroup at
 * first + group * 32 + gl_SubgroupID * 8 + t * 8 * stride: the first element of the first store
 * to the last of the last, gl_SubgroupID bounded by the pipeline's subgroup sizes where its
 * subgroups are full, by the workgroup's invocations where they may not be. */
static void cooperative_matrix_stores(void **state)
{
    (void)state;
    struct reflect_result r;
    reflect_module(layer_test_spirv_coop_store, layer_test_spirv_coop_store_size, "main", NULL, 0, &r);
    assert_true(r.ok);
    const struct reflect_binding *out = binding_of(&r, 0);
    assert_true(out->written);
    assert_false(out->read); /* a store only, though SPIRV-Tools of Debian 12 does not know it */
    assert_true(out->sites_complete);
    assert_int_equal(out->site_count, 1);
    assert_true(r.sites[out->sites_at].has_span);
    assert_false(r.sites[out->sites_at].certain); /* the subgroup's store, no one invocation's */
    struct dispatch d;
    uint64_t begin, end;
    dispatch_of(&d, 1, 32, 64); /* stride 32, first 64 */
    /* subgroups not known to be full: any of them may hold a single active invocation, so
     * gl_SubgroupID may reach 31 of the 32 invocations (the spec fixes no count then) */
    assert_true(access_footprint_of(&r, out, 0, 1 << 20, &d.shape, &begin, &end));
    assert_int_equal(begin, 64 * 4);
    assert_int_equal(end, (64 + 31 * 8 + 3 * 8 * 32 + 7 * 32 + 7 + 1) * 4);
    /* full subgroups of sizes not known: nothing proven */
    r.full_subgroups = true;
    assert_false(access_footprint_of(&r, out, 0, 1 << 20, &d.shape, &begin, &end));
    r.subgroup_min = r.subgroup_max = 8; /* 4 full subgroups of 32 invocations */
    assert_true(access_footprint_of(&r, out, 0, 1 << 20, &d.shape, &begin, &end));
    /* elements 64 .. 64 + 3 * 8 + 3 * 8 * 32 + 7 * 32 + 7 = 1087 */
    assert_int_equal(begin, 64 * 4);
    assert_int_equal(end, 1088 * 4);
    /* subgroups as small as 4: up to 8 of them, gl_SubgroupID up to 7 */
    r.subgroup_min = 4;
    assert_true(access_footprint_of(&r, out, 0, 1 << 20, &d.shape, &begin, &end));
    assert_int_equal(end, (1088 + 4 * 8) * 4);
    reflect_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_bytes_of_each_tensor),     cmocka_unit_test(unknown_values_prove_nothing),
        cmocka_unit_test(accesses_narrowed_and_marked), cmocka_unit_test(loop_counters_bound_the_tiles),
        cmocka_unit_test(cooperative_matrix_stores),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
