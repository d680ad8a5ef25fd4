#include "access_footprint.h"

#include <stdlib.h>
#include <string.h>

#define PUSH_BYTES 256 /* MAX_PUSH_CONSTANT_BYTES of state_command_buffers.h */
/* Expression nodes evaluated with memos on the stack; larger shaders take the heap. */
#define STACK_NODES 256

/* An unsigned value's bounds over every invocation. */
struct interval {
    uint64_t lo, hi;
};

struct ranges {
    struct interval global[3], local[3], group[3], local_index;
};

struct evaluation {
    const struct reflect_result *shader;
    const struct dispatch_shape *dispatch;
    const struct ranges *ids;
    struct interval *values;
    uint8_t *state; /* per node: 0 not evaluated, 1 known, 2 unknown */
};

static uint64_t width_max(uint8_t width)
{
    return width >= 64 || width == 0 ? UINT64_MAX : (width == 32 ? UINT32_MAX : (1ull << width) - 1);
}

static bool push_value(const struct dispatch_shape *d, uint64_t offset, uint64_t *out)
{
    if (d->push_constants == NULL || offset % 4 != 0 || offset + 4 > PUSH_BYTES || !(d->push_valid >> (offset / 4) & 1))
        return false;
    uint32_t raw;
    memcpy(&raw, d->push_constants + offset, 4);
    *out = raw;
    return true;
}

/* The smallest 2^k - 1 at or above v. */
static uint64_t all_ones_above(uint64_t v)
{
    for (int shift = 1; shift < 64; shift <<= 1)
        v |= v >> shift;
    return v;
}

/* `node`'s bounds; false when they are not known or the arithmetic may wrap (then the exact values
 * would not be bounded by the interval). Operands are earlier nodes: the recursion is bounded. */
static bool bounds_of(struct evaluation *e, uint32_t node, struct interval *out)
{
    if (node >= e->shader->expr_count)
        return false;
    if (e->state[node] != 0) {
        *out = e->values[node];
        return e->state[node] == 1;
    }
    const struct reflect_expr *x = &e->shader->exprs[node];
    struct interval a = {0, 0}, b = {0, 0}, v = {0, 0};
    bool known = true;
    if (x->op >= REFLECT_EXPR_ADD)
        known = x->a < node && x->b < node && bounds_of(e, x->a, &a) && bounds_of(e, x->b, &b);
    uint64_t max = width_max(x->width ? x->width : 32);
    if (known) {
        switch (x->op) {
        case REFLECT_EXPR_CONSTANT:
            v.lo = v.hi = x->value;
            break;
        case REFLECT_EXPR_PUSH:
            known = push_value(e->dispatch, x->value, &v.lo);
            v.hi = v.lo;
            break;
        case REFLECT_EXPR_GLOBAL_ID:
            v = e->ids->global[x->value % 3];
            break;
        case REFLECT_EXPR_LOCAL_ID:
            v = e->ids->local[x->value % 3];
            break;
        case REFLECT_EXPR_WORKGROUP_ID:
            v = e->ids->group[x->value % 3];
            break;
        case REFLECT_EXPR_LOCAL_INDEX:
            v = e->ids->local_index;
            break;
        case REFLECT_EXPR_ADD:
            known = a.hi <= max - b.hi;
            v = (struct interval){a.lo + b.lo, a.hi + b.hi};
            break;
        case REFLECT_EXPR_SUB:
            known = a.lo >= b.hi; /* never below zero: no wrap */
            v = (struct interval){a.lo - b.hi, a.hi - b.lo};
            break;
        case REFLECT_EXPR_MUL:
            known = b.hi == 0 || a.hi <= max / b.hi;
            v = (struct interval){a.lo * b.lo, a.hi * b.hi};
            break;
        case REFLECT_EXPR_UDIV:
            known = b.lo != 0;
            v = known ? (struct interval){a.lo / b.hi, a.hi / b.lo} : v;
            break;
        case REFLECT_EXPR_UMOD:
            known = b.lo != 0;
            v = a.hi < b.lo ? a : (struct interval){0, b.hi - 1};
            break;
        case REFLECT_EXPR_SHL: {
            uint32_t bits = x->width ? x->width : 32;
            known = b.lo == b.hi && b.hi < bits && a.hi <= max >> b.hi;
            v = known ? (struct interval){a.lo << b.hi, a.hi << b.hi} : v;
            break;
        }
        case REFLECT_EXPR_SHR: {
            uint32_t bits = x->width ? x->width : 32;
            known = b.hi < bits;
            v = known ? (struct interval){a.lo >> b.hi, a.hi >> b.lo} : v;
            break;
        }
        case REFLECT_EXPR_AND:
            v = (struct interval){0, a.hi < b.hi ? a.hi : b.hi};
            break;
        case REFLECT_EXPR_OR:
            v = (struct interval){a.lo > b.lo ? a.lo : b.lo, all_ones_above(a.hi | b.hi)};
            break;
        case REFLECT_EXPR_XOR:
            v = (struct interval){0, all_ones_above(a.hi | b.hi)};
            break;
        default:
            known = false;
            break;
        }
    }
    known = known && v.lo <= v.hi && v.hi <= max;
    e->state[node] = known ? 1 : 2;
    e->values[node] = v;
    *out = v;
    return known;
}

/* The ranges of the invocation IDs over the dispatch, the work bound applied; false when no
 * invocation works at all. */
static bool id_ranges(const struct reflect_result *shader, const struct dispatch_shape *d, struct ranges *r)
{
    uint64_t per_group = 1;
    for (int k = 0; k < 3; ++k) {
        uint64_t size = shader->local_size[k] ? shader->local_size[k] : 1;
        if (d->count[k] == 0)
            return false;
        r->local[k] = (struct interval){0, size - 1};
        r->group[k] = (struct interval){d->base[k], (uint64_t)d->base[k] + d->count[k] - 1};
        per_group *= size;
        const struct reflect_bound *b = &shader->bounds[k];
        uint64_t limit;
        if (b->present && push_value(d, b->offset, &limit)) {
            if (b->is_signed && (int32_t)limit < 0)
                return false;
            uint64_t last = b->plus_one ? limit : limit - (limit != 0);
            if (!b->plus_one && limit == 0)
                return false;
            if (b->kind == REFLECT_BOUND_WORKGROUP && r->group[k].hi > last)
                r->group[k].hi = last;
            if (r->group[k].lo > r->group[k].hi)
                return false;
            r->global[k] = (struct interval){r->group[k].lo * size, r->group[k].hi * size + size - 1};
            if (b->kind == REFLECT_BOUND_GLOBAL_INVOCATION && r->global[k].hi > last)
                r->global[k].hi = last;
            if (r->global[k].lo > r->global[k].hi)
                return false;
        } else {
            r->global[k] = (struct interval){r->group[k].lo * size, r->group[k].hi * size + size - 1};
        }
    }
    r->local_index = (struct interval){0, per_group - 1};
    return true;
}

static bool site_reaches(const struct reflect_site *site, uint32_t element)
{
    /* -2: not an array; -1: an element chosen at run time, which may be this one */
    return site->element < 0 || site->element == (int32_t)element;
}

bool access_footprint_of(const struct reflect_result *shader, const struct reflect_binding *binding, uint32_t element,
                         uint64_t length, const struct dispatch_shape *dispatch, uint64_t *begin, uint64_t *end)
{
    if (dispatch == NULL || dispatch->count == NULL || dispatch->base == NULL || !shader->has_local_size ||
        !binding->sites_complete || binding->site_count == 0 ||
        (uint64_t)binding->sites_at + binding->site_count > shader->site_count)
        return false;
    struct ranges ids;
    *begin = *end = 0;
    if (!id_ranges(shader, dispatch, &ids))
        return true; /* no invocation works: nothing reached */
    struct interval stack_values[STACK_NODES];
    uint8_t stack_state[STACK_NODES];
    struct evaluation e = {shader, dispatch, &ids, stack_values, stack_state};
    size_t nodes = shader->expr_count;
    if (nodes > STACK_NODES) {
        e.values = malloc(nodes * sizeof(*e.values));
        e.state = malloc(nodes);
        if (e.values == NULL || e.state == NULL) {
            free(e.values);
            free(e.state);
            return false;
        }
    }
    memset(e.state, 0, nodes ? nodes : 1);
    uint64_t low = UINT64_MAX, high = 0;
    bool proven = true;
    const struct reflect_site *sites = shader->sites + binding->sites_at;
    for (uint32_t k = 0; k < binding->site_count && proven; ++k) {
        const struct reflect_site *site = &sites[k];
        if (!site_reaches(site, element))
            continue;
        struct interval index = {0, 0};
        if (site->index != REFLECT_NO_INDEX && !bounds_of(&e, site->index, &index)) {
            proven = false;
            break;
        }
        /* bytes [offset + lo * stride, offset + hi * stride + width), without wrapping */
        uint64_t stride = site->index != REFLECT_NO_INDEX ? site->stride : 0;
        if (stride != 0 && index.hi > (UINT64_MAX - site->offset - site->width) / stride) {
            proven = false;
            break;
        }
        uint64_t first = site->offset + index.lo * stride, last = site->offset + index.hi * stride + site->width;
        if (first >= length)
            continue; /* wholly outside the descriptor's range: no access (as alias_witness.h) */
        if (last > length)
            last = length;
        low = first < low ? first : low;
        high = last > high ? last : high;
    }
    if (nodes > STACK_NODES) {
        free(e.values);
        free(e.state);
    }
    if (proven && low < high) {
        *begin = low;
        *end = high;
    }
    return proven;
}

bool access_footprints_narrow(const struct reflect_result *shader, const struct dispatch_shape *dispatch,
                              const struct hazard_accesses *accesses, struct hazard_accesses *out)
{
    uint32_t first = accesses->count;
    for (uint32_t i = 0; i < accesses->count && first == accesses->count; ++i)
        if (!accesses->a[i].image && accesses->a[i].binding_ref != 0)
            first = i;
    if (first == accesses->count || dispatch == NULL)
        return false;
    bool narrowed = false;
    out->count = 0;
    for (uint32_t i = 0; i < accesses->count; ++i) {
        const struct hazard_access *a = &accesses->a[i];
        out->a[out->count] = *a;
        uint32_t index = (a->binding_ref & 0xFFFF) - 1, element = a->binding_ref >> 16;
        uint64_t begin, end;
        if (a->image || a->binding_ref == 0 || index >= shader->binding_count ||
            !access_footprint_of(shader, &shader->bindings[index], element, a->end - a->begin, dispatch, &begin,
                                 &end)) {
            out->count++;
            continue;
        }
        narrowed = true;
        if (begin == end)
            continue; /* this dispatch reaches none of it */
        struct hazard_access *n = &out->a[out->count++];
        n->end = a->begin + end;
        n->begin = a->begin + begin;
        n->evaluated = begin != 0 || end != a->end - a->begin;
    }
    return narrowed;
}
