#include "alias_witness.h"

#include <stdlib.h>
#include <string.h>

#define GRANULE 4u      /* bytes compared as one: every buffer access the sites describe is 4-byte aligned */
#define MAX_GRANULES 8u /* of one access (32 bytes); wider accesses are compared by their first 32 */

struct invocation {
    uint32_t global[3], local[3], group[3], local_index;
    uint32_t linear; /* its place in the walk */
};

struct evaluator {
    const struct reflect_result *shader;
    const struct dispatch_shape *dispatch;
    const struct invocation *inv;
    uint64_t *values;
    uint32_t *stamps; /* a node's value is this invocation's when its stamp is `stamp`; +1: unknown */
    uint32_t stamp;
};

static uint64_t wrap(uint64_t value, uint8_t width)
{
    return width >= 64 ? value : value & 0xFFFFFFFFull;
}

/* The value of expression node `node` in the evaluator's invocation; false when it has none. */
static bool eval(struct evaluator *e, uint32_t node, uint64_t *out)
{
    if (node >= e->shader->expr_count)
        return false;
    if (e->stamps[node] == e->stamp) {
        *out = e->values[node];
        return true;
    }
    if (e->stamps[node] == e->stamp + 1)
        return false;
    const struct reflect_expr *x = &e->shader->exprs[node];
    uint64_t a = 0, b = 0, v = 0;
    bool known = true;
    /* operands are earlier nodes (the reflection writes them first): the recursion is bounded */
    if (x->op >= REFLECT_EXPR_ADD)
        known = x->a < node && x->b < node && eval(e, x->a, &a) && eval(e, x->b, &b);
    if (known) {
        switch (x->op) {
        case REFLECT_EXPR_CONSTANT:
            v = x->value;
            break;
        case REFLECT_EXPR_PUSH:
            known = dispatch_push_value(e->dispatch, x->value, &v);
            break;
        case REFLECT_EXPR_GLOBAL_ID:
            v = e->inv->global[x->value % 3];
            break;
        case REFLECT_EXPR_LOCAL_ID:
            v = e->inv->local[x->value % 3];
            break;
        case REFLECT_EXPR_WORKGROUP_ID:
            v = e->inv->group[x->value % 3];
            break;
        case REFLECT_EXPR_LOCAL_INDEX:
            v = e->inv->local_index;
            break;
        case REFLECT_EXPR_ADD:
            v = a + b;
            break;
        case REFLECT_EXPR_SUB:
            v = a - b;
            break;
        case REFLECT_EXPR_MUL:
            v = a * b;
            break;
        case REFLECT_EXPR_UDIV:
            known = b != 0;
            v = known ? a / b : 0;
            break;
        case REFLECT_EXPR_UMOD:
            known = b != 0;
            v = known ? a % b : 0;
            break;
        case REFLECT_EXPR_SHL:
            v = a << (b & (x->width - 1u));
            break;
        case REFLECT_EXPR_SHR:
            v = a >> (b & (x->width - 1u));
            break;
        case REFLECT_EXPR_AND:
            v = a & b;
            break;
        case REFLECT_EXPR_OR:
            v = a | b;
            break;
        case REFLECT_EXPR_XOR:
            v = a ^ b;
            break;
        default:
            known = false;
            break;
        }
    }
    v = wrap(v, x->width ? x->width : 32);
    e->stamps[node] = known ? e->stamp : e->stamp + 1;
    e->values[node] = v;
    *out = v;
    return known;
}

/* The memory bytes [*start, *start + width) a site touches in this invocation; false when the
 * place cannot be evaluated. An access outside the descriptor's range (*inside false) is none. */
static bool site_bytes(struct evaluator *e, const struct reflect_site *site, const struct alias_side *side,
                       uint64_t *start, bool *inside)
{
    uint64_t index = 0;
    if (site->index != REFLECT_NO_INDEX && !eval(e, site->index, &index))
        return false;
    /* an index past what the range can hold is outside it (and keeps the product from wrapping) */
    uint64_t length = side->end - side->begin;
    if (site->index != REFLECT_NO_INDEX && site->stride != 0 && index > length / site->stride) {
        *inside = false;
        return true;
    }
    uint64_t at = site->offset + index * site->stride;
    *inside = at < length && site->width <= length - at;
    *start = side->begin + at;
    return true;
}

struct granule_entry {
    uint64_t granule;            /* + 1; 0: empty */
    uint32_t write_inv, any_inv; /* + 1: the first invocation of the writer's side to write / touch it */
    bool write_many, any_many;   /* more than one invocation did */
};

struct granule_table {
    struct granule_entry *entries;
    size_t capacity, used;
};

static struct granule_entry *granule_slot(struct granule_table *t, uint64_t granule)
{
    size_t mask = t->capacity - 1, i = (size_t)((granule * 0x9E3779B97F4A7C15ull) >> 20) & mask;
    while (t->entries[i].granule != 0 && t->entries[i].granule != granule + 1)
        i = (i + 1) & mask;
    return &t->entries[i];
}

static bool granule_note(struct granule_table *t, uint64_t granule, uint32_t inv, bool write)
{
    struct granule_entry *e = granule_slot(t, granule);
    if (e->granule == 0) {
        if (t->used * 2 >= t->capacity)
            return false; /* full: the walk stops here */
        e->granule = granule + 1;
        t->used++;
    }
    if (write) {
        if (e->write_inv == 0)
            e->write_inv = inv + 1;
        else if (e->write_inv != inv + 1)
            e->write_many = true;
    }
    if (e->any_inv == 0)
        e->any_inv = inv + 1;
    else if (e->any_inv != inv + 1)
        e->any_many = true;
    return true;
}

/* The first invocation other than `inv` on the writer's side that wrote (or, `any`, touched)
 * `granule`; UINT32_MAX when none. */
static uint32_t granule_other(struct granule_table *t, uint64_t granule, uint32_t inv, bool any)
{
    struct granule_entry *e = granule_slot(t, granule);
    if (e->granule == 0)
        return UINT32_MAX;
    uint32_t first = any ? e->any_inv : e->write_inv;
    bool many = any ? e->any_many : e->write_many;
    if (first == 0)
        return UINT32_MAX;
    if (first != inv + 1)
        return first - 1;
    return many ? inv : UINT32_MAX; /* another invocation too: its index is not kept, name this one's */
}

struct walk {
    const struct reflect_result *shader;
    const struct dispatch_shape *dispatch;
    uint32_t local[3];
    uint64_t per_group, total, walked;
    struct evaluator e;
};

static void invocation_at(const struct walk *w, uint64_t t, struct invocation *inv)
{
    uint64_t g = t / w->per_group, l = t % w->per_group;
    uint32_t cx = w->dispatch->count[0] ? w->dispatch->count[0] : 1,
             cy = w->dispatch->count[1] ? w->dispatch->count[1] : 1;
    inv->local[0] = (uint32_t)(l % w->local[0]);
    inv->local[1] = (uint32_t)(l / w->local[0] % w->local[1]);
    inv->local[2] = (uint32_t)(l / ((uint64_t)w->local[0] * w->local[1]));
    inv->group[0] = w->dispatch->base[0] + (uint32_t)(g % cx);
    inv->group[1] = w->dispatch->base[1] + (uint32_t)(g / cx % cy);
    inv->group[2] = w->dispatch->base[2] + (uint32_t)(g / ((uint64_t)cx * cy));
    for (int d = 0; d < 3; ++d)
        inv->global[d] = inv->group[d] * w->local[d] + inv->local[d];
    inv->local_index = (uint32_t)l;
    inv->linear = (uint32_t)t;
}

/* Whether the invocation is inside the shader's work bound (the push-constant comparisons the
 * dispatch-coverage check reads); a bound whose constant was not pushed keeps everyone. */
static bool inside_work_bound(const struct walk *w, const struct invocation *inv)
{
    for (int d = 0; d < 3; ++d) {
        const struct reflect_bound *b = &w->shader->bounds[d];
        uint64_t limit;
        if (!b->present || !dispatch_push_value(w->dispatch, b->offset, &limit))
            continue;
        uint64_t id = b->kind == REFLECT_BOUND_WORKGROUP ? inv->group[d] : inv->global[d];
        if (b->is_signed && (int32_t)limit < 0)
            return false;
        if (b->plus_one ? id > limit : id >= limit)
            return false;
    }
    return true;
}

static bool site_matches(const struct reflect_site *site, const struct alias_side *side)
{
    return site->element == -2 || site->element == (int32_t)side->element;
}

/* One pass over the walked invocations with the sites of both sides (certain ones only, or all).
 * Returns PROVEN with the witness, DISJOINT when nothing met and everything was evaluated, or
 * UNPROVEN. */
static enum alias_proof pass(struct walk *w, const struct alias_side *writer, const struct alias_side *other,
                             bool certain_only, struct granule_table *table, struct alias_witness *out)
{
    memset(table->entries, 0, table->capacity * sizeof(*table->entries));
    table->used = 0;
    bool complete = !certain_only && writer->binding->sites_complete && other->binding->sites_complete;
    const struct reflect_site *ws = w->shader->sites + writer->binding->sites_at;
    const struct reflect_site *os = w->shader->sites + other->binding->sites_at;
    struct invocation inv;
    w->e.inv = &inv;
    /* the writer's side first, every invocation; then the other side against it */
    for (int side = 0; side < 2; ++side) {
        for (uint64_t t = 0; t < w->walked; ++t) {
            invocation_at(w, t, &inv);
            if (!inside_work_bound(w, &inv))
                continue;
            w->e.stamp += 2;
            const struct reflect_site *sites = side == 0 ? ws : os;
            uint32_t count = side == 0 ? writer->binding->site_count : other->binding->site_count;
            const struct alias_side *s = side == 0 ? writer : other;
            for (uint32_t k = 0; k < count; ++k) {
                const struct reflect_site *site = &sites[k];
                if ((certain_only && !site->certain) || !site_matches(site, s))
                    continue;
                if (site->has_span) { /* a subgroup's matrix: no one invocation's bytes */
                    complete = false;
                    continue;
                }
                uint64_t start;
                bool inside;
                if (!site_bytes(&w->e, site, s, &start, &inside)) {
                    complete = false;
                    continue;
                }
                if (!inside)
                    continue;
                uint32_t granules = (site->width + GRANULE - 1) / GRANULE;
                if (granules > MAX_GRANULES) {
                    granules = MAX_GRANULES;
                    complete = false;
                }
                for (uint32_t g = 0; g < granules; ++g) {
                    uint64_t granule = start / GRANULE + g;
                    if (side == 0) {
                        if (!granule_note(table, granule, inv.linear, site->write))
                            return ALIAS_UNPROVEN;
                        continue;
                    }
                    /* the other side meets a write of the writer's, or writes what the writer touched */
                    uint32_t met = granule_other(table, granule, inv.linear, false);
                    if (met == UINT32_MAX && site->write)
                        met = granule_other(table, granule, inv.linear, true);
                    if (met == UINT32_MAX)
                        continue;
                    struct invocation first;
                    invocation_at(w, met, &first);
                    memcpy(out->writer, first.global, sizeof(out->writer));
                    memcpy(out->other, inv.global, sizeof(out->other));
                    out->byte = granule * GRANULE;
                    out->other_writes = site->write;
                    return certain_only ? ALIAS_PROVEN : ALIAS_UNPROVEN;
                }
            }
        }
    }
    return complete && w->walked == w->total ? ALIAS_DISJOINT : ALIAS_UNPROVEN;
}

enum alias_proof alias_witness_find(const struct reflect_result *shader, const struct alias_side *writer,
                                    const struct alias_side *other, const struct dispatch_shape *dispatch,
                                    struct alias_witness *out)
{
    memset(out, 0, sizeof(*out));
    if (dispatch == NULL || dispatch->count == NULL || dispatch->base == NULL || !shader->has_local_size ||
        shader->expr_count > UINT32_MAX / 2)
        return ALIAS_UNPROVEN;
    struct walk w = {.shader = shader, .dispatch = dispatch};
    w.per_group = 1;
    w.total = 1;
    for (int d = 0; d < 3; ++d) {
        w.local[d] = shader->local_size[d] ? shader->local_size[d] : 1;
        w.per_group *= w.local[d];
        w.total *= dispatch->count[d];
    }
    w.total *= w.per_group;
    if (w.total == 0)
        return ALIAS_DISJOINT; /* no invocation at all */
    w.walked = w.total < ALIAS_WITNESS_MAX_INVOCATIONS ? w.total : ALIAS_WITNESS_MAX_INVOCATIONS;
    uint64_t sites = (uint64_t)writer->binding->site_count + other->binding->site_count;
    struct granule_table table = {.capacity = 1};
    while (table.capacity < 2 * w.walked * (sites ? sites : 1) * 2 && table.capacity < (1u << 20))
        table.capacity <<= 1;
    table.entries = malloc(table.capacity * sizeof(*table.entries));
    w.e.shader = shader;
    w.e.dispatch = dispatch;
    w.e.values = malloc((shader->expr_count ? shader->expr_count : 1) * sizeof(uint64_t));
    w.e.stamps = calloc(shader->expr_count ? shader->expr_count : 1, sizeof(uint32_t));
    enum alias_proof proof = ALIAS_UNPROVEN;
    if (table.entries != NULL && w.e.values != NULL && w.e.stamps != NULL) {
        w.e.stamp = 1;
        proof = pass(&w, writer, other, true, &table, out);
        if (proof != ALIAS_PROVEN)
            proof = pass(&w, writer, other, false, &table, out);
    }
    free(table.entries);
    free(w.e.values);
    free(w.e.stamps);
    return proof;
}
