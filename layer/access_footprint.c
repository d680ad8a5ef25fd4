#include "access_footprint.h"

#include <stdlib.h>
#include <string.h>

/* Nodes one dispatch's evaluation may visit (over all of a binding's sites): past it, not provable. */
#define EVALUATION_BUDGET 512

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
    uint32_t budget; /* nodes still to visit: an index is a small tree, shared subtrees are visited again */
};

static uint64_t width_max(uint8_t width)
{
    return width >= 64 || width == 0 ? UINT64_MAX : (width == 32 ? UINT32_MAX : (1ull << width) - 1);
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
    if (node >= e->shader->expr_count || e->budget == 0)
        return false;
    e->budget--;
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
            known = dispatch_push_value(e->dispatch, x->value, &v.lo);
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
        case REFLECT_EXPR_SUBGROUP_ID:
            /* full subgroups: as many as the smallest size packs the workgroup into; otherwise a
             * subgroup may hold one active invocation only (the spec fixes no count then) */
            known = !e->shader->full_subgroups || e->shader->subgroup_min != 0;
            v.hi = !e->shader->full_subgroups ? e->ids->local_index.hi
                   : known ? (e->ids->local_index.hi + e->shader->subgroup_min) / e->shader->subgroup_min - 1
                           : 0;
            break;
        case REFLECT_EXPR_SUBGROUP_LOCAL_ID:
            /* below the largest size: a partly filled subgroup's active invocations may be any lane */
            known = e->shader->subgroup_max != 0;
            v.hi = known ? e->shader->subgroup_max - 1 : 0;
            break;
        case REFLECT_EXPR_RANGE:
            v = (struct interval){x->a, x->b};
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
    *out = v;
    return known && v.lo <= v.hi && v.hi <= max;
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
        if (b->present && dispatch_push_value(d, b->offset, &limit)) {
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

/* The bytes the binding's sites reach, offsets from the descriptor's start, with no descriptor to
 * clamp them: [*low, *high), empty when none is reached. */
static bool reached(const struct reflect_result *shader, const struct reflect_binding *binding, uint32_t element,
                    const struct dispatch_shape *dispatch, uint64_t *low, uint64_t *high)
{
    if (dispatch == NULL || dispatch->count == NULL || dispatch->base == NULL || !shader->has_local_size ||
        !binding->sites_complete || binding->site_count == 0 ||
        (uint64_t)binding->sites_at + binding->site_count > shader->site_count)
        return false;
    struct ranges ids;
    *low = *high = 0;
    if (!id_ranges(shader, dispatch, &ids))
        return true; /* no invocation works: nothing reached */
    struct evaluation e = {shader, dispatch, &ids, EVALUATION_BUDGET};
    uint64_t first_byte = UINT64_MAX, end_byte = 0;
    const struct reflect_site *sites = shader->sites + binding->sites_at;
    for (uint32_t k = 0; k < binding->site_count; ++k) {
        const struct reflect_site *site = &sites[k];
        if (!site_reaches(site, element))
            continue;
        struct interval index = {0, 0}, span = {0, 0};
        if (site->index != REFLECT_NO_INDEX && !bounds_of(&e, site->index, &index))
            return false;
        /* a cooperative matrix: its last element is `span` elements past the first */
        if (site->has_span && (!bounds_of(&e, site->span, &span) || index.hi > UINT64_MAX - span.hi))
            return false;
        index.hi += span.hi;
        /* bytes [offset + lo * stride, offset + hi * stride + width), without wrapping */
        uint64_t stride = site->index != REFLECT_NO_INDEX ? site->stride : 0;
        if (site->offset > UINT64_MAX - site->width ||
            (stride != 0 && index.hi > (UINT64_MAX - site->offset - site->width) / stride))
            return false;
        uint64_t first = site->offset + index.lo * stride, last = site->offset + index.hi * stride + site->width;
        first_byte = first < first_byte ? first : first_byte;
        end_byte = last > end_byte ? last : end_byte;
    }
    if (first_byte < end_byte) {
        *low = first_byte;
        *high = end_byte;
    }
    return true;
}

/* [low, high) within a descriptor range `length` bytes long: accesses past its end are none (as
 * alias_witness.h takes them). */
static void clamp_to(uint64_t length, uint64_t low, uint64_t high, uint64_t *begin, uint64_t *end)
{
    if (low >= length || low >= high) {
        *begin = *end = 0;
        return;
    }
    *begin = low;
    *end = high < length ? high : length;
}

bool access_footprint_of(const struct reflect_result *shader, const struct reflect_binding *binding, uint32_t element,
                         uint64_t length, const struct dispatch_shape *dispatch, uint64_t *begin, uint64_t *end)
{
    uint64_t low, high;
    if (!reached(shader, binding, element, dispatch, &low, &high))
        return false;
    clamp_to(length, low, high, begin, end);
    return true;
}

/* What the bindings of one dispatch shape reach, found as needed: rotating descriptor sets change
 * the ranges, not what the shader reaches from their starts. */
#define MEMO_REFS 16
struct reached_ref {
    uint32_t binding_ref;
    bool proven;
    uint64_t low, high;
};

struct footprint_memo {
    /* the dispatch shape: NULL shader when it holds nothing */
    const struct reflect_result *shader;
    uint32_t base[3], count[3];
    uint64_t push_valid;
    uint32_t push_version;
    uint8_t push[DISPATCH_PUSH_BYTES];
    uint32_t ref_count;
    struct reached_ref refs[MEMO_REFS];
    /* the last accesses narrowed with it, and the result */
    bool holds_accesses, narrowed;
    struct hazard_accesses in, out;
};

/* The bytes `binding_ref` reaches, from the memo (NULL: none) or worked out. */
static inline bool reached_by_ref(struct footprint_memo *m, const struct reflect_result *shader,
                                  const struct dispatch_shape *dispatch, uint32_t binding_ref, uint64_t *low,
                                  uint64_t *high)
{
    for (uint32_t k = 0; m != NULL && k < m->ref_count; ++k)
        if (m->refs[k].binding_ref == binding_ref) {
            *low = m->refs[k].low;
            *high = m->refs[k].high;
            return m->refs[k].proven;
        }
    uint32_t index = (binding_ref & 0xFFFF) - 1;
    bool proven = index < shader->binding_count &&
                  reached(shader, &shader->bindings[index], binding_ref >> 16, dispatch, low, high);
    if (m != NULL && m->ref_count < MEMO_REFS)
        m->refs[m->ref_count++] = (struct reached_ref){binding_ref, proven, proven ? *low : 0, proven ? *high : 0};
    return proven;
}

static bool narrow(struct footprint_memo *m, const struct reflect_result *shader, const struct dispatch_shape *dispatch,
                   const struct hazard_accesses *accesses, struct hazard_accesses *out)
{
    bool narrowed = false;
    uint32_t n = 0;
    for (uint32_t i = 0; i < accesses->count; ++i) {
        const struct hazard_access *a = &accesses->a[i];
        struct hazard_access *o = &out->a[n++];
        *o = *a;
        uint64_t low, high;
        if (a->image || a->binding_ref == 0 || !reached_by_ref(m, shader, dispatch, a->binding_ref, &low, &high))
            continue;
        narrowed = true;
        uint64_t length = a->end - a->begin;
        if (low >= length || low >= high) {
            n--; /* this dispatch reaches none of it */
            continue;
        }
        high = high < length ? high : length;
        o->begin = a->begin + low;
        o->end = a->begin + high;
        o->evaluated = low != 0 || high != length;
    }
    out->count = n;
    return narrowed;
}

static bool has_binding_refs(const struct hazard_accesses *accesses)
{
    for (uint32_t i = 0; i < accesses->count; ++i)
        if (!accesses->a[i].image && accesses->a[i].binding_ref != 0)
            return true;
    return false;
}

bool access_footprints_narrow(const struct reflect_result *shader, const struct dispatch_shape *dispatch,
                              const struct hazard_accesses *accesses, struct hazard_accesses *out)
{
    return dispatch != NULL && has_binding_refs(accesses) && narrow(NULL, shader, dispatch, accesses, out);
}

static bool same_shape(const struct footprint_memo *m, const struct reflect_result *shader,
                       const struct dispatch_shape *d)
{
    return m->shader == shader && memcmp(m->base, d->base, sizeof(m->base)) == 0 &&
           memcmp(m->count, d->count, sizeof(m->count)) == 0 && m->push_valid == d->push_valid &&
           m->push_version == d->push_version &&
           (d->push_constants == NULL || d->push_version != 0 || d->push_valid == 0 ||
            memcmp(m->push, d->push_constants, DISPATCH_PUSH_BYTES) == 0);
}

/* `m` holds the dispatch shape of `shader` and `dispatch` from now, no reached range yet. */
static void take_shape(struct footprint_memo *m, const struct reflect_result *shader,
                       const struct dispatch_shape *dispatch)
{
    m->shader = shader;
    memcpy(m->base, dispatch->base, sizeof(m->base));
    memcpy(m->count, dispatch->count, sizeof(m->count));
    m->push_valid = dispatch->push_valid;
    m->push_version = dispatch->push_version;
    if (dispatch->push_constants != NULL && dispatch->push_version == 0 && dispatch->push_valid != 0)
        memcpy(m->push, dispatch->push_constants, DISPATCH_PUSH_BYTES);
    m->ref_count = 0;
}

bool access_footprints_narrow_memo(struct footprint_memo **memo, const struct reflect_result *shader,
                                   const struct dispatch_shape *dispatch, const struct hazard_accesses *accesses,
                                   struct hazard_accesses *out)
{
    if (dispatch == NULL || dispatch->count == NULL || dispatch->base == NULL || !has_binding_refs(accesses))
        return false;
    struct footprint_memo *m = *memo;
    if (m == NULL && (m = *memo = calloc(1, sizeof(*m))) == NULL)
        return narrow(NULL, shader, dispatch, accesses, out);
    if (!same_shape(m, shader, dispatch)) {
        take_shape(m, shader, dispatch);
        m->holds_accesses = false; /* its last accesses were narrowed for another shape */
    }
    return narrow(m, shader, dispatch, accesses, out);
}

const struct hazard_accesses *access_footprints_memoized(struct footprint_memo **memo,
                                                         const struct reflect_result *shader,
                                                         const struct dispatch_shape *dispatch,
                                                         const struct hazard_accesses *accesses)
{
    if (dispatch == NULL || dispatch->count == NULL || dispatch->base == NULL)
        return accesses;
    struct footprint_memo *m = *memo;
    bool shape = m != NULL && same_shape(m, shader, dispatch);
    if (shape && m->holds_accesses && m->in.count == accesses->count &&
        memcmp(m->in.a, accesses->a, accesses->count * sizeof(accesses->a[0])) == 0)
        return m->narrowed ? &m->out : accesses; /* an engine's loop: the same dispatch again */
    if (!has_binding_refs(accesses))
        return accesses;
    if (m == NULL && (m = *memo = calloc(1, sizeof(*m))) == NULL)
        return accesses;
    if (!shape)
        take_shape(m, shader, dispatch);
    m->holds_accesses = true;
    m->in.count = accesses->count;
    memcpy(m->in.a, accesses->a, accesses->count * sizeof(accesses->a[0]));
    m->narrowed = narrow(m, shader, dispatch, accesses, &m->out);
    return m->narrowed ? &m->out : accesses;
}

void access_footprint_memo_reset(struct footprint_memo *memo)
{
    if (memo != NULL) {
        memo->shader = NULL;
        memo->holds_accesses = false;
    }
}

void access_footprint_memo_free(struct footprint_memo **memo)
{
    free(*memo);
    *memo = NULL;
}
